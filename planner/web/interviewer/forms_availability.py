"""The interviewer's own availability form: shape only; the rules are the pool service's."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import DataRequired

from planner.core.pool import WEEKDAY_NAMES
from planner.core.timezones import canonical_timezone
from planner.web.coordinator.forms_pool import DAY_LABELS, MultiCheckboxField, choices
from planner.web.validators import MaxLength


class HoursForm(FlaskForm):
    """The part of the profile an interviewer sets themselves."""

    timezone = StringField("Time zone", validators=[DataRequired(message="A time zone is required."), MaxLength(64)],
                           filters=[canonical_timezone], description="IANA name, for example Europe/Berlin.")
    work_start = StringField("Working hours start", validators=[DataRequired(message="A start time is required."),
                                                                MaxLength(5)], description="HH:MM, local time.")
    work_end = StringField("Working hours end", validators=[DataRequired(message="An end time is required."),
                                                            MaxLength(5)], description="HH:MM; 24:00 for end of day.")
    work_days = MultiCheckboxField("Working days", choices=choices((d, DAY_LABELS[d]) for d in WEEKDAY_NAMES))
