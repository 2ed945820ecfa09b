"""Response headers every answer carries: the content policy, no framing, no sniffing, a quiet referrer.

The policy allows scripts from this site only (no inline script, no event-handler attributes, no eval):
page behaviour lives in ``planner/static/*.js``. Styles come from this site too, with one exception:
``style`` *attributes* are allowed, because bars, heat-map cells and the week grid size themselves
from data (a width or a top offset in percent). Those values are numbers written by templates with
autoescaping on; a ``<style>`` element or a stylesheet from elsewhere is still refused.
"""

from __future__ import annotations

from flask import Flask, Response

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    # Browsers that know the attribute/element split apply the last two; older ones fall back to style-src.
    "style-src 'self' 'unsafe-inline'",
    "style-src-elem 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}

#: Sent in production only: it tells browsers to use https for a year, which a development server lacks.
STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains"


def register(app: Flask) -> None:
    """Add the security headers to every response, error pages, static files and feeds included."""
    production = app.config.get("ENV") == "production"

    @app.after_request
    def _security_headers(response: Response) -> Response:
        for name, value in HEADERS.items():
            # A view may be stricter (the calendar feed sends no referrer at all); keep what it set.
            response.headers.setdefault(name, value)
        if production:
            response.headers.setdefault("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY)
        return response
