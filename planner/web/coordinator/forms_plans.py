"""Forms of the round editor: shape checks only; the plans service checks the rules."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, RadioField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import AnyOf, DataRequired, InputRequired, NumberRange, Optional

from planner.models import RoundKind
from planner.web.validators import MaxLength

KIND_LABELS = {
    "screen": "Screen", "technical": "Technical", "design": "Design", "behavioural": "Behavioural",
    "bar-raiser": "Bar raiser", "hiring-manager": "Hiring manager",
}
FOCUS_CHOICES = [SelectChoice("", "Not assessed"), SelectChoice("primary", "Primary"),
                 SelectChoice("secondary", "Secondary")]


class RoundFormBase(FlaskForm):
    name = StringField("Round name", validators=[DataRequired("Give the round a name."), MaxLength(120)],
                       render_kw={"placeholder": "e.g. Compiler design deep-dive"})
    kind = SelectField("Kind", choices=[SelectChoice(k.value, KIND_LABELS[k.value]) for k in RoundKind],
                       default="technical")
    minutes = IntegerField("Duration (minutes)", default=45,
                           validators=[InputRequired("Enter the duration in minutes."),
                                       NumberRange(10, 480, "A round lasts between 10 and 480 minutes.")])
    interviewers = IntegerField("Interviewers", default=1,
                                validators=[InputRequired("Enter how many interviewers sit in the round."),
                                            NumberRange(1, 6, "A round has between 1 and 6 interviewers.")])
    min_outside_team = IntegerField(
        "At least N from outside the hiring team", default=0,
        validators=[InputRequired("Enter 0 or more."), NumberRange(0, 6, "Enter a number from 0 to 6.")])
    max_trainees = SelectField(
        "Trainee seat", choices=[SelectChoice("1", "Allow one trainee"), SelectChoice("0", "No trainee")],
        default="1")
    focus_questions = TextAreaField(
        "Focus questions (the interview kit)", validators=[Optional(), MaxLength(10000, what="the interview kit")],
        description="One question per line.", render_kw={"rows": 4})

    def competency_fields(self):
        """The per-competency focus fields, in the order they were declared."""
        return [field for field in self if field.name.startswith("focus_c")]

    def chosen_competencies(self) -> dict[int, str]:
        return {int(field.name.removeprefix("focus_c")): field.data
                for field in self.competency_fields() if field.data}

    def questions(self) -> list[str]:
        return [line.strip() for line in (self.focus_questions.data or "").splitlines() if line.strip()]


def round_form_class(competencies):
    """A round form with one focus choice per accepted competency of the posting."""

    class RoundForm(RoundFormBase):
        pass

    for item in competencies:
        field = RadioField(item.name, choices=FOCUS_CHOICES, default="",
                           validators=[Optional(), AnyOf(["", "primary", "secondary"])],
                           description=item.priority)
        setattr(RoundForm, f"focus_c{item.id}", field)
    return RoundForm


class SuggestForm(FlaskForm):
    budget = IntegerField("Time budget (minutes)", default=300,
                          validators=[InputRequired("Enter a budget in minutes."),
                                      NumberRange(30, 1440, "Enter a budget between 30 and 1440 minutes.")])


class ApplySuggestionForm(SuggestForm):
    replace = HiddenField(default="")


class PublishForm(FlaskForm):
    note = StringField("Version note", validators=[Optional(), MaxLength(500)],
                       render_kw={"placeholder": "What changed, and why (optional)"})


class MoveForm(FlaskForm):
    direction = HiddenField(validators=[AnyOf(["up", "down"], "A round moves up or down.")])
