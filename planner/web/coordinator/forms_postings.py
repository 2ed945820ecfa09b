"""Posting forms: they check shape only; rules that span entities live in planner.services.postings."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import HiddenField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Optional

from planner.web.validators import MaxLength

STATUS_CHOICES = [
    SelectChoice("draft", "Draft"),
    SelectChoice("open", "Open"),
    SelectChoice("closed", "Closed"),
]
PRIORITY_CHOICES = [SelectChoice("must-have", "Must-have"), SelectChoice("nice-to-have", "Nice-to-have")]


class PostingForm(FlaskForm):
    title = StringField(
        "Title", validators=[DataRequired(message="Give the posting a title."), MaxLength(200)]
    )
    team = StringField("Team", validators=[MaxLength(120)])
    location = StringField("Location", validators=[MaxLength(200)])
    level = StringField("Level", validators=[MaxLength(60)])
    hiring_manager = StringField("Hiring manager", validators=[MaxLength(120)])
    status = SelectField("Status", choices=STATUS_CHOICES, default="draft")
    # No length validator here: the service checks one limit for pasted and uploaded text alike.
    text = TextAreaField(
        "Posting text",
        description="Paste the full job description. Competencies are suggested from it when you save.",
    )
    upload = FileField(
        "…or upload a file", description="A .txt or .md file in UTF-8; it replaces the text above."
    )


class SelectionForm(FlaskForm):
    """One competency card: a decision plus its priority and required coverage."""

    decision = HiddenField(validators=[InputRequired()])
    priority = SelectField("Priority", choices=PRIORITY_CHOICES)
    required_coverage = IntegerField(
        "Rounds", validators=[InputRequired(message="Enter a number of rounds.")]
    )


class AddCompetencyForm(FlaskForm):
    competency_id = SelectField(
        "Competency",
        coerce=int,
        validate_choice=False,
        validators=[InputRequired(message="Choose a competency from the library.")],
    )
    priority = SelectField("Priority", choices=PRIORITY_CHOICES, default="must-have")
    required_coverage = IntegerField("Rounds", validators=[Optional()])


class EmptyForm(FlaskForm):
    """A POST with nothing but the CSRF token (bulk actions, re-run extraction)."""
