"""Candidate forms: they check shape only; the rules live in planner.services.candidate_booking."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length

from planner.core.timezones import known_timezones
from planner.web.coordinator.forms_loops import WindowsForm


class PickForm(FlaskForm):
    """One of the offered start times (UTC, ISO 8601)."""

    start = StringField("Start", validators=[DataRequired(message="Choose one of the times offered."),
                                             Length(max=40)])


class TimezoneForm(FlaskForm):
    timezone = SelectField("Your time zone", validators=[DataRequired()], validate_choice=False)
    detected = HiddenField(default="")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.timezone.choices = [(name, name.replace("_", " ")) for name in known_timezones()]


class AvailabilityForm(WindowsForm):
    """Windows when the candidate is free, in their zone (the coordinator schedules from them)."""


class CancelForm(FlaskForm):
    reason = TextAreaField("Anything we should know? (optional)", validators=[Length(max=2000)])
