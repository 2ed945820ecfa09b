"""Audit page filters (a GET form: no CSRF token, nothing changes)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import DateField, SelectField
from wtforms.validators import Optional


def _optional_int(value) -> int:
    """'' (no choice) is 0; anything else must be a whole number (WTForms reports the ValueError)."""
    if value in (None, "", 0):
        return 0
    return int(value)


class AuditFilterForm(FlaskForm):
    class Meta:
        csrf = False

    loop = SelectField("Loop", coerce=_optional_int, default=0)
    person = SelectField("Interviewer", coerce=_optional_int, default=0)
    kind = SelectField("Kind of change", default="")
    start = DateField("From", validators=[Optional()])
    end = DateField("To", validators=[Optional()])
