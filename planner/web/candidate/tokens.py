"""The candidate link's token: the link's id and secret, signed with the app's SECRET_KEY.

The signature makes a token typed by hand or changed by one character fail before the database is
asked; the secret (checked against its stored hash) makes a revoked, replaced or expired link fail
even with a valid signature.
"""

from __future__ import annotations

from flask import current_app, url_for
from itsdangerous import BadSignature, URLSafeSerializer

from planner.services.candidate_links import IssuedLink
from planner.web.mail_settings import mail_settings

SALT = "candidate-link"


def _signer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key, salt=SALT)


def token_of(issued: IssuedLink) -> str:
    """The token that goes into the link's URL."""
    return _signer().dumps([issued.link.id, issued.secret])


def parse_token(token: str) -> tuple[int, str] | None:
    """(link id, secret) from a token signed by this app; None for anything else."""
    if not token or len(token) > 400:
        return None
    try:
        data = _signer().loads(token)
    except BadSignature:
        return None
    if (isinstance(data, list) and len(data) == 2 and isinstance(data[0], int) and not isinstance(data[0], bool)
            and isinstance(data[1], str)):
        return data[0], data[1]
    return None


def link_url(issued: IssuedLink) -> str:
    """The link's full address (PLANNER_BASE_URL, else the address the coordinator is browsing)."""
    return mail_settings().base_url + url_for("candidate.page", token=token_of(issued))
