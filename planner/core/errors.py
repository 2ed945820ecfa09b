"""Domain exceptions: each carries one sentence a user can act on."""


class PlannerError(Exception):
    """Base of every error the domain reports to a user."""


class NotFound(PlannerError):
    """Something asked for by id does not exist."""


class ValidationFailed(PlannerError):
    """Input broke a rule; the message says which and how to fix it."""


class FieldError(ValidationFailed):
    """A rule broken by one input field; ``field`` names it so a form can show the message under it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class Conflict(PlannerError):
    """The change collides with something that happened meanwhile."""


class FieldErrors(FieldError):
    """Several fields broke their rules at once; ``errors`` holds each, so a form shows all of them together.

    Reads as the first error for code that shows only one.
    """

    def __init__(self, errors: list[FieldError]) -> None:
        super().__init__(errors[0].field, str(errors[0]))
        self.errors = list(errors)
