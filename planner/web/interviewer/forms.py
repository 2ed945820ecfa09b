"""Interviewer forms: shape and parsing only; the scorecard rules live in planner.services.scorecards."""

from __future__ import annotations

from collections.abc import Mapping

from flask_wtf import FlaskForm
from wtforms import StringField, SubmitField, TextAreaField
from wtforms.validators import InputRequired, Length, Optional

RATING_PREFIX = "rating-"


class ScorecardForm(FlaskForm):
    """Notes and the two buttons; ratings arrive as radio groups named ``rating-<competency slug>``."""

    notes = TextAreaField("Notes")
    save = SubmitField("Save draft")
    submit_card = SubmitField("Submit scorecard")

    def ratings(self, formdata: Mapping[str, str]) -> dict[str, str]:
        """Every ``rating-<slug>`` field posted, slug -> raw value (the service refuses unknown slugs)."""
        return {key[len(RATING_PREFIX):]: value for key, value in formdata.items() if key.startswith(RATING_PREFIX)}


class AnswerForm(FlaskForm):
    """Accept or decline (the value of the pressed button); the service checks both and wants a decline's reason."""

    answer = StringField("Answer", validators=[InputRequired(message="Choose accept or decline."), Length(max=16)])
    reason = TextAreaField("Why you decline", validators=[Optional(), Length(max=2000)])
