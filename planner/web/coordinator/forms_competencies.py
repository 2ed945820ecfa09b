"""Competency library forms: shape only; slug uniqueness and phrase rules live in planner.services.competencies."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length

CATEGORY_CHOICES = [("technical", "Technical"), ("behavioural", "Behavioural"), ("leadership", "Leadership")]

PHRASES_HINT = ("One phrase per line; matching ignores case, plurals and verb endings. "
                "\"code generation\" is strong: enough on its own. Start a line with ~ for a supporting "
                "word that only adds weight (\"~design\"). Use ... between words that must appear in that "
                "order a few words apart (\"feedback ... hardware\").")


class CompetencyForm(FlaskForm):
    name = StringField("Name", validators=[DataRequired(message="Give the competency a name."), Length(max=120)])
    slug = StringField("Slug", validators=[Length(max=80)],
                       description="Lowercase words joined by hyphens, e.g. system-design. It cannot change later: "
                                   "plans and calendar exports refer to it.")
    category = SelectField("Category", choices=CATEGORY_CHOICES)
    description = TextAreaField("Description", validators=[Length(max=2000)],
                                description="One or two sentences: what the competency is.")
    rubric_strong = TextAreaField("Strong evidence looks like", validators=[Length(max=2000)])
    rubric_weak = TextAreaField("Weak evidence looks like", validators=[Length(max=2000)])
    phrases = TextAreaField("Phrases the extractor looks for", validators=[Length(max=10_000)],
                            description=PHRASES_HINT)
