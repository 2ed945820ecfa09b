"""Forms for changing a scheduled loop's interviews: they check shape only; planner.services decides."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Optional

from planner.web.validators import MaxLength

REASON_HINT = "Kept in the audit trail."


class ReplaceForm(FlaskForm):
    """The reason; which substitute (or the new plan, or dropping a trainee) comes from the pressed button."""

    reason = StringField("Reason", default="declined", description=REASON_HINT,
                         validators=[DataRequired(message="Say why the interviewer is replaced."), MaxLength(2000)])
    plan = HiddenField()


class RescheduleForm(FlaskForm):
    start = SelectField("New start", validators=[DataRequired(message="Pick a new start from the list.")])
    reason = StringField("Reason", default="candidate moved", description=REASON_HINT,
                         validators=[DataRequired(message="Say why the interview moves."), MaxLength(2000)])


class CancelInterviewForm(FlaskForm):
    reason = TextAreaField("Reason", validators=[DataRequired(message="Say why the interview is cancelled."),
                                                 MaxLength(2000)])


class PlaceForm(FlaskForm):
    location = StringField("Location", validators=[Optional(), MaxLength(200)])
    video_url = StringField("Video link", validators=[Optional(), MaxLength(500)],
                            description="https://… ; leave empty for an in-person interview.")
    scope = RadioField("Apply to", default="one", choices=[
        SelectChoice("one", "This interview"), SelectChoice("loop", "Every upcoming interview of the loop")])
    reason = StringField("Reason", validators=[Optional(), MaxLength(2000)], description="Optional.")


class RebookForm(FlaskForm):
    """The reason; the chosen time and panel come from the radio buttons (re-checked by the service)."""

    reason = StringField("Reason", default="competency short after a cancellation",
                         description="Kept in the audit trail.",
                         validators=[DataRequired(message="Say why the round is booked again."), MaxLength(2000)])
