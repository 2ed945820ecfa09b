"""Service errors shown where the user will look: under the form field they name."""

from __future__ import annotations

from flask import flash

from planner.core.errors import PlannerError


def field_named_by(form, exc: PlannerError):
    """The form field a service error names (``exc.field``), or None."""
    name = getattr(exc, "field", None)
    return getattr(form, name, None) if name else None


def show_error(form, exc: PlannerError) -> None:
    """Put a service error under its field when the form has it, else flash it at the top of the page;
    an error naming several fields (``exc.errors``) puts each under its own field."""
    for error in getattr(exc, "errors", None) or [exc]:
        field = field_named_by(form, error)
        if field is not None:
            field.errors = [*field.errors, str(error)]
        else:
            flash(str(error), "error")
