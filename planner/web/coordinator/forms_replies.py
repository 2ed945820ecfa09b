"""Forms for calendar answers: uploading one on a loop's page (shape only; planner.services.replies decides)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired


class ReplyUploadForm(FlaskForm):
    reply = FileField("Calendar answer (.eml or .ics)",
                      validators=[FileRequired(message="Choose the .eml or .ics file of the answer.")],
                      description="The email an interviewer's calendar sent back (Accepted, Declined, New time "
                                  "proposed), saved as .eml, or its .ics attachment.")
