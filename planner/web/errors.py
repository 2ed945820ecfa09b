"""Error pages: one clear sentence, never a traceback."""

from __future__ import annotations

from flask import Flask, current_app, render_template, request
from flask_limiter.errors import RateLimitExceeded
from flask_wtf.csrf import CSRFError

from planner.web.auth import too_many_attempts

MESSAGES = {
    400: ("Bad request", "The request could not be understood."),
    403: ("Not allowed", "Your role does not give access to this page."),
    404: ("Not found", "There is nothing at this address."),
    405: ("Not allowed", "This address does not accept that kind of request."),
    413: ("Too large", "The upload is larger than this page accepts."),
    429: ("Too many requests", "Too many requests in a short time. Wait a few minutes, then try again."),
    500: ("Something went wrong", "The server could not finish this request; nothing was changed."),
}


def _render(code: int, message: str | None = None):
    title, default = MESSAGES.get(code, ("Error", "The request failed."))
    if request.accept_mimetypes.best == "application/json":
        return {"error": message or default}, code
    return render_template("errors/error.html", code=code, title=title, message=message or default), code


def register(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(exc):
        return _render(400, "The form had expired or was not sent by this site; reload the page and try again.")

    @app.errorhandler(RateLimitExceeded)
    def rate_limited(exc):
        if request.endpoint == "auth.login":
            return too_many_attempts(exc)
        response = current_app.make_response(_render(429, exc.description))
        response.headers["Retry-After"] = str(exc.limit.limit.get_expiry())
        return response

    for code in MESSAGES:
        app.register_error_handler(code, lambda exc, code=code: _render(code))
