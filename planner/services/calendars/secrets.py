"""Calendar passwords at rest: Fernet tokens under keys from the configuration (MultiFernet for rotation).

Without a configured key no secret is saved at all: deriving one from SECRET_KEY would tie the
passwords to the session key (rotating that to log everybody out would lose them, and its
development default would make them readable), so the safer choice is to refuse with a sentence
that says how to set a key.
"""

from __future__ import annotations

from collections.abc import Sequence

from cryptography.fernet import Fernet, InvalidToken, MultiFernet

from planner.core.errors import ValidationFailed

KEY_HELP = (
    "generate one with 'planner calendars keygen' and set it as PLANNER_CALENDAR_SECRET_KEY "
    "(or CALENDAR_SECRET_KEY in the PLANNER_CONFIG file)"
)


class SecretKeyMissing(ValidationFailed):
    """No key is configured, so a calendar secret can be neither stored nor read."""


class SecretUnreadable(ValidationFailed):
    """A stored secret that none of the configured keys decrypts."""


def generate_key() -> str:
    """A new random key (32 bytes, url-safe base64) for CALENDAR_SECRET_KEY."""
    return Fernet.generate_key().decode("ascii")


class SecretBox:
    """Encrypts with the first key and decrypts with any, so keys can be rotated."""

    def __init__(self, keys: Sequence[str]) -> None:
        """:raise SecretKeyMissing: no key, or a key that is not a Fernet key (the message never shows it)."""
        if not keys:
            raise SecretKeyMissing(
                f"Calendar passwords cannot be stored or read: no calendar secret key is configured; {KEY_HELP}."
            )
        fernets = []
        for number, key in enumerate(keys, start=1):
            try:
                fernets.append(Fernet(key.encode("ascii") if isinstance(key, str) else key))
            except (ValueError, TypeError, UnicodeEncodeError):
                raise SecretKeyMissing(
                    f"Calendar secret key number {number} is not a valid key (32 url-safe base64-encoded "
                    f"bytes); {KEY_HELP}."
                ) from None
        self._fernet = MultiFernet(fernets)

    def encrypt(self, plain: str) -> str:
        """The secret as a token (ASCII text) for the database."""
        return self._fernet.encrypt(plain.encode("utf-8")).decode("ascii")

    def decrypt(self, token: str) -> str:
        """The plain secret.

        :raise SecretUnreadable: no configured key opens it (the key was changed without rotation).
        """
        try:
            return self._fernet.decrypt(token.encode("ascii")).decode("utf-8")
        except (InvalidToken, UnicodeError, ValueError):
            raise SecretUnreadable(
                "The saved calendar password cannot be decrypted with the configured calendar secret key "
                "(was the key changed?); enter the password again."
            ) from None

    def rotate(self, token: str) -> str:
        """The token re-encrypted under the first key.

        :raise SecretUnreadable: no configured key opens it.
        """
        try:
            return self._fernet.rotate(token.encode("ascii")).decode("ascii")
        except (InvalidToken, UnicodeError, ValueError):
            raise SecretUnreadable(
                "A saved calendar password cannot be decrypted with any configured key; keep the old key "
                "in the list until every password is rotated."
            ) from None
