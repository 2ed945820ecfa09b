"""Competency library forms: shape only; slug and phrase rules live in planner.services.competencies."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired

from planner.web.validators import MaxLength

CATEGORY_CHOICES = [
    SelectChoice("technical", "Technical"),
    SelectChoice("behavioural", "Behavioural"),
    SelectChoice("leadership", "Leadership"),
]


class CompetencyForm(FlaskForm):
    name = StringField(
        "Name", validators=[DataRequired(message="Give the competency a name."), MaxLength(120)]
    )
    slug = StringField(
        "Slug",
        validators=[MaxLength(80)],
        description="Lowercase words joined by hyphens, e.g. system-design. It cannot change later: "
        "plans and calendar exports refer to it.",
    )
    category = SelectField("Category", choices=CATEGORY_CHOICES)
    description = TextAreaField(
        "Description",
        validators=[MaxLength(2000)],
        description="One or two sentences: what the competency is.",
    )
    rubric_strong = TextAreaField("Strong evidence looks like",
                                  validators=[MaxLength(2000, what="the strong-evidence rubric")])
    rubric_weak = TextAreaField("Weak evidence looks like",
                                validators=[MaxLength(2000, what="the weak-evidence rubric")])
    phrases = TextAreaField("Phrases the extractor looks for",
                            validators=[MaxLength(10_000, what="the list of phrases")])
