"""A posting's own fields and text as a coordinator sends them, checked: the title, the status and the
size and encoding of a pasted or uploaded job description."""

from __future__ import annotations

from dataclasses import dataclass

from planner.core.errors import FieldError
from planner.models import PostingStatus

UPLOAD_SUFFIXES = (".txt", ".md")
#: The one limit on a posting's text, pasted or uploaded: postings are a few thousand characters.
MAX_TEXT_CHARS = 200_000
#: An upload is read up to this many bytes: UTF-8 needs at most 4 bytes a character, so a bigger file
#: holds more than MAX_TEXT_CHARS characters whatever its content, and gets the same sentence.
MAX_UPLOAD_BYTES = 4 * MAX_TEXT_CHARS


def too_long_sentence(length: int | None = None) -> str:
    """The one sentence for a posting text over the limit, pasted or uploaded (``length`` when known)."""
    found = f" (this one has {length:,})" if length is not None else ""
    return (f"A posting can be at most {MAX_TEXT_CHARS:,} characters long{found}; keep the job description "
            "itself and leave out anything else.")


@dataclass(frozen=True, slots=True)
class PostingFields:
    """What a coordinator types about a posting (plain values from the form)."""

    title: str
    text: str
    team: str = ""
    location: str = ""
    level: str = ""
    hiring_manager: str = ""
    status: str = PostingStatus.DRAFT.value


def text_from_upload(filename: str, data: bytes) -> str:
    """The text of an uploaded posting file (.txt or .md, UTF-8; a byte-order mark is dropped).

    :raise ValidationFailed: wrong kind of file, too large, not UTF-8, binary, or empty.
    """
    name = (filename or "").strip() or "The file"
    if not name.lower().endswith(UPLOAD_SUFFIXES):
        raise FieldError("upload", f"{name} is not a .txt or .md file; upload the posting as plain text.")
    if len(data) > MAX_UPLOAD_BYTES:
        raise FieldError("upload", too_long_sentence())
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FieldError(
                  "upload",
                  f"{name} is not UTF-8 text (byte {exc.start} cannot be decoded); "
            "save it as UTF-8 and upload it again.",
              ) from None
    if "\x00" in text:
        raise FieldError("upload", f"{name} looks like a binary file, not a posting text file.")
    if not text.strip():
        raise FieldError("upload", f"{name} is empty; it needs the posting text.")
    if len(text) > MAX_TEXT_CHARS:
        raise FieldError("upload", too_long_sentence(len(text)))
    return text


def clean_fields(fields: PostingFields) -> dict:
    """Check the posting's own fields and return them ready for the model."""
    title = " ".join((fields.title or "").split())
    if not title:
        raise FieldError("title", "Give the posting a title.")
    text = (fields.text or "").replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise FieldError("text", "The posting text is empty; paste the job description or upload it as a file.")
    if len(text) > MAX_TEXT_CHARS:
        raise FieldError("text", too_long_sentence(len(text)))
    try:
        status = PostingStatus(fields.status)
    except ValueError:
        raise FieldError("status", f"{fields.status!r} is not a posting status; use draft, open or closed.") from None
    return {
        "title": title,
        "text": text.strip("\n"),
        "status": status,
        "team": fields.team.strip(),
        "location": fields.location.strip(),
        "level": fields.level.strip(),
        "hiring_manager": fields.hiring_manager.strip(),
    }
