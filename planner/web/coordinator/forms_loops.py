"""Loop forms: they check shape only; the rules live in planner.services.loops and .scheduling."""

from __future__ import annotations

from datetime import time

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    DateField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    SelectField,
    StringField,
    TextAreaField,
    TimeField,
)
from wtforms.validators import DataRequired, NumberRange, Optional, Regexp, ValidationError
from wtforms.widgets import HiddenInput

from planner.core.errors import ValidationFailed
from planner.core.timezones import canonical_timezone
from planner.services.loops import require_zone
from planner.web.validators import MaxLength

WINDOW_ROWS = 5


def _time_zone(form, field) -> None:
    """An IANA zone name, checked beside the field (with the other fields' errors) rather than one at a time."""
    try:
        require_zone(field.data or "")
    except ValidationFailed as exc:
        raise ValidationError(str(exc)) from None


class WindowForm(Form):
    """One availability window, in the candidate's local time; an empty day means an unused row."""

    day = DateField("Day", validators=[Optional()])
    start = TimeField("From", validators=[Optional()], format="%H:%M")
    end = TimeField("To", validators=[Optional()], format="%H:%M")

    def validate(self, extra_validators=None) -> bool:
        """A used row needs both times, the end after the start (00:00 is midnight at the end of the day);
        said in the row itself, together with every other field's error."""
        ok = super().validate(extra_validators)
        if self.day.data is None:
            return ok
        if self.start.data is None and not self.start.errors:
            self.start.errors.append("Give the time this window starts.")
        if self.end.data is None and not self.end.errors:
            self.end.errors.append("Give the time this window ends.")
        start, end = self.start.data, self.end.data
        if start is not None and end is not None and end <= start and end != time(0):
            self.end.errors.append(f"This window ends before it starts; end it after {start:%H:%M}.")
        return ok and not (self.start.errors or self.end.errors)


class WindowsForm(FlaskForm):
    windows = FieldList(FormField(WindowForm), min_entries=WINDOW_ROWS, max_entries=14)


class LoopWindowsForm(WindowsForm):
    """A draft loop's windows and its longest break: what the scheduler's fixes ask to change."""

    max_gap_minutes = IntegerField("Longest break between rounds (minutes)",
                                   validators=[Optional(), NumberRange(min=0, max=1440)],
                                   description="Leave empty for no limit; rounds may then spread over every "
                                               "window.")
    rounds_any_order = BooleanField("Rounds may take place in any order")


class LoopForm(WindowsForm):
    posting_id = SelectField("Posting", coerce=int, validators=[DataRequired(message="Choose a posting.")])
    candidate_name = StringField(
        "Candidate name", validators=[DataRequired(message="Give the candidate's name."), MaxLength(120)]
    )
    candidate_email = StringField(
        "Candidate email",
        validators=[
            DataRequired(message="Give the candidate's email."),
            MaxLength(254),
            Regexp(r"^\s*[^@\s]+@[^@\s]+\.[^@\s]+\s*$", message="That is not an email address."),
        ],
    )
    candidate_timezone = StringField(
        "Candidate time zone",
        default="UTC",
        validators=[DataRequired(message="Give the candidate's time zone."), MaxLength(64), _time_zone],
        filters=[canonical_timezone],
        description="IANA name, e.g. Europe/Berlin; windows are in this zone.",
    )
    hiring_team = StringField("Hiring team", validators=[MaxLength(120)],
                              description="Team slug for the 'outside the hiring team' seat rule; "
                                          "defaults to the posting's team.")
    max_gap_minutes = IntegerField("Longest break between rounds (minutes)", default=60,
                                   validators=[Optional(), NumberRange(min=0, max=1440)])
    rounds_any_order = BooleanField("Rounds may take place in any order")
    video_url = StringField("Video link", validators=[Optional(), MaxLength(500)])
    location = StringField("Location", validators=[Optional(), MaxLength(200)])


class ConfirmForm(FlaskForm):
    proposal = HiddenField()
    override_reason = TextAreaField("Override reason", validators=[MaxLength(2000)],
                                    description="Required when the plan leaves a must-have uncovered; "
                                                "it is kept in the audit trail.")


class TraineeSeatForm(FlaskForm):
    """Drop a trainee from, or seat one in, a round of the signed proposal (the service checks the rest)."""

    proposal = HiddenField(validators=[DataRequired()])
    round = HiddenField(validators=[DataRequired(), MaxLength(64)])
    trainee = IntegerField(widget=HiddenInput(), validators=[DataRequired(), NumberRange(min=1)])


class CancelForm(FlaskForm):
    reason = TextAreaField("Reason", validators=[DataRequired(message="Say why the loop is cancelled."),
                                                 MaxLength(2000)])
