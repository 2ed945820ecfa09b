"""Domain exceptions: each carries one sentence a user can act on."""


class PlannerError(Exception):
    """Base of every error the domain reports to a user."""


class NotFound(PlannerError):
    """Something asked for by id does not exist."""


class ValidationFailed(PlannerError):
    """Input broke a rule; the message says which and how to fix it."""


class Conflict(PlannerError):
    """The change collides with something that happened meanwhile."""
