"""Outbox forms: the filter by loop (a GET form: no CSRF token, nothing changes)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import SelectField


class OutboxFilterForm(FlaskForm):
    class Meta:
        csrf = False

    loop = SelectField("Loop", coerce=int, default=0)
