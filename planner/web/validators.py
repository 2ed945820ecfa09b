"""Form validators whose messages name the field in plain words.

WTForms' ``Length`` says "Field cannot be longer than 120 characters", which does not say which field
when a form has several; ``MaxLength`` says "The team can be at most 120 characters long; this one has
131." and is used instead everywhere.
"""

from __future__ import annotations

from wtforms.validators import Length, ValidationError


def field_words(field) -> str:
    """The field's label as it reads mid-sentence: "the hiring team", "the video link" (acronyms kept)."""
    text = str(getattr(field.label, "text", "") or field.name).strip().rstrip(":").strip()
    text = text.lstrip("…. ").strip() or field.name
    if len(text) > 1 and not text[1].isupper():
        text = text[:1].lower() + text[1:]
    return f"the {text}"


class MaxLength(Length):
    """At most ``max`` characters (and at least ``min`` when given), said with the field's name."""

    def __init__(self, max: int, min: int = -1, what: str | None = None) -> None:  # noqa: A002 - WTForms' names
        super().__init__(min=min, max=max)
        #: How to name the field when its label does not read well mid-sentence ("the strong-evidence rubric").
        self.what = what

    def __call__(self, form, field) -> None:
        length = len(field.data or "")
        name = self.what or field_words(field)
        if self.min > 0 and length < self.min:
            raise ValidationError(f"{name[:1].upper()}{name[1:]} needs at least {self.min:,} characters.")
        if length > self.max:
            raise ValidationError(f"{name[:1].upper()}{name[1:]} can be at most {self.max:,} characters long; "
                                  f"this one has {length:,}.")
