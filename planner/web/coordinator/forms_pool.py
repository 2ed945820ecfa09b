"""Forms of the interviewer pool pages: shape and parsing only; the rules live in services/core."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import (
    BooleanField,
    DateTimeLocalField,
    HiddenField,
    IntegerField,
    SearchField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
    widgets,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Optional

from planner.core.pool import WEEKDAY_NAMES
from planner.core.timezones import canonical_timezone
from planner.web.validators import MaxLength


def choices(pairs) -> list[SelectChoice]:
    """(value, label) pairs as WTForms SelectChoice objects."""
    return [SelectChoice(value, label) for value, label in pairs]


LEVEL_PAIRS = [("shadow", "Shadow"), ("reverse-shadow", "Reverse-shadow"), ("qualified", "Qualified")]
DAY_LABELS = {
    "mon": "Mon",
    "tue": "Tue",
    "wed": "Wed",
    "thu": "Thu",
    "fri": "Fri",
    "sat": "Sat",
    "sun": "Sun",
}
HORIZON_CHOICES = [(30, "30 days"), (60, "60 days"), (90, "90 days"), (180, "180 days"), (365, "1 year")]


class MultiCheckboxField(SelectMultipleField):
    """A set of checkboxes (keyboard-friendly: each is a real input with its own label)."""

    widget = widgets.ListWidget(prefix_label=False)
    option_widget = widgets.CheckboxInput()


class InterviewerForm(FlaskForm):
    name = StringField("Name", validators=[DataRequired(message="A name is required."), MaxLength(120)])
    email = StringField("Email", validators=[DataRequired(message="An email is required."), MaxLength(254)])
    team = StringField(
        "Team",
        validators=[Optional(), MaxLength(120)],
        description="Used for the 'interviewer from outside the hiring team' rule.",
    )
    timezone = StringField(
        "Time zone",
        validators=[DataRequired(message="A time zone is required."), MaxLength(64)],
        filters=[canonical_timezone],
        description="IANA name, for example America/Los_Angeles or Europe/Berlin.",
    )
    work_start = StringField(
        "Working hours start",
        default="09:00",
        validators=[DataRequired(message="A start time is required."), MaxLength(5)],
        description="HH:MM, local time.",
    )
    work_end = StringField(
        "Working hours end",
        default="17:00",
        validators=[DataRequired(message="An end time is required."), MaxLength(5)],
        description="HH:MM; 24:00 for end of day.",
    )
    work_days = MultiCheckboxField(
        "Working days",
        choices=choices((d, DAY_LABELS[d]) for d in WEEKDAY_NAMES),
        default=list(WEEKDAY_NAMES[:5]),
    )
    max_per_day = IntegerField(
        "Daily interview cap",
        default=2,
        validators=[InputRequired(message="Enter a whole number (0 or more).")],
        description="Seats per local day, trainee seats included.",
    )
    max_per_week = IntegerField(
        "Weekly interview cap",
        default=5,
        validators=[InputRequired(message="Enter a whole number (0 or more).")],
        description="Seats per ISO week.",
    )
    user_id = SelectField(
        "Linked login",
        coerce=int,
        default=0,
        description="A login with the interviewer role lets them see their own interviews.",
    )


class QualificationAddForm(FlaskForm):
    competency_id = SelectField("Competency", coerce=int, validators=[InputRequired()])
    level = SelectField("Level", choices=choices(LEVEL_PAIRS), default="shadow")


class QualificationLevelForm(FlaskForm):
    level = SelectField("Level", choices=choices(LEVEL_PAIRS))


class PromoteForm(FlaskForm):
    reason = TextAreaField(
        "Reason (only when promoting before the interviews are done)",
        validators=[Optional(), MaxLength(500)],
    )
    back = HiddenField()


class BusyBlockForm(FlaskForm):
    start = DateTimeLocalField(
        "Starts", format="%Y-%m-%dT%H:%M", validators=[InputRequired(message="Enter a start date and time.")]
    )
    end = DateTimeLocalField(
        "Ends", format="%Y-%m-%dT%H:%M", validators=[InputRequired(message="Enter an end date and time.")]
    )
    summary = StringField(
        "Note", validators=[Optional(), MaxLength(200)], description="Optional, e.g. 'Offsite'."
    )


class CalendarImportForm(FlaskForm):
    calendar = FileField(
        "Calendar file (.ics)", validators=[FileRequired(message="Choose an .ics file to import.")]
    )
    source_name = StringField(
        "Calendar name",
        validators=[Optional(), MaxLength(150)],
        description="Importing again under the same name replaces that calendar's blocks.",
    )
    horizon_days = SelectField("Import the next", coerce=int, choices=choices(HORIZON_CHOICES), default=90)


class PoolFilterForm(FlaskForm):
    class Meta:
        csrf = False

    q = SearchField("Search", validators=[Optional(), MaxLength(120)])
    competency = SelectField("Competency", coerce=int, default=0)
    level = SelectField("Level", choices=choices([("", "Any level"), *LEVEL_PAIRS]), default="")
    team = SelectField("Team", default="")
    inactive = BooleanField("Include inactive")
