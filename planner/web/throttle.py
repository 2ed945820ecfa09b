"""Sign-in attempts that fail are counted per account and per address; past the limit, a 429 page.

Only failed attempts count (a wrong password, 401), so people who sign in normally never meet the
limit. Once an account or an address is over its limit, every attempt is refused until the window
passes, the right password included: otherwise guessing would simply go on.
"""

from __future__ import annotations

from flask import current_app, request
from flask_limiter.util import get_remote_address

from planner.web.extensions import limiter

ACCOUNT_MESSAGE = "Too many failed sign-in attempts for this account. Wait a few minutes, then try again."
ADDRESS_MESSAGE = "Too many failed sign-in attempts from your network. Wait a few minutes, then try again."


def _account_key() -> str:
    # The typed email, normalised as login does; a blank one still gets its own bucket.
    email = (request.form.get("email") or "").strip().lower()[:254]
    return f"account:{email}"


def _address_key() -> str:
    return f"address:{get_remote_address()}"


def _failed(response) -> bool:
    return response.status_code == 401


def login_limits(view):
    """Decorate the sign-in view with the per-account and the per-address limits (POST only)."""
    view = limiter.limit(lambda: current_app.config["LOGIN_LIMIT_PER_ACCOUNT"], key_func=_account_key,
                         methods=["POST"], deduct_when=_failed, error_message=ACCOUNT_MESSAGE,
                         scope="login-account")(view)
    return limiter.limit(lambda: current_app.config["LOGIN_LIMIT_PER_ADDRESS"], key_func=_address_key,
                         methods=["POST"], deduct_when=_failed, error_message=ADDRESS_MESSAGE,
                         scope="login-address")(view)
