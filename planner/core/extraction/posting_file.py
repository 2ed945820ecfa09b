"""Read a posting from a text file, with one clear sentence for each way that can go wrong."""

from __future__ import annotations

import os
from pathlib import Path

from planner.core.errors import ValidationFailed

#: Postings are a few kilobytes; anything past this is not a posting (and would be slow to read).
MAX_POSTING_BYTES = 20 * 1024 * 1024


class PostingFileError(ValidationFailed):
    """A posting file could not be used: missing, unreadable, not UTF-8 text, or empty."""


def read_posting_file(path: str | os.PathLike[str]) -> str:
    """Return the text of a UTF-8 posting file (a leading byte-order mark is dropped).

    :raise PostingFileError: the file is missing, is a directory, cannot be read, is too large,
        is not UTF-8 text, or holds no text.
    """
    file = Path(path)
    if not file.exists():
        raise PostingFileError(f"There is no file at {file}; check the path.")
    if file.is_dir():
        raise PostingFileError(f"{file} is a folder, not a posting text file.")
    try:
        if file.stat().st_size > MAX_POSTING_BYTES:
            raise PostingFileError(f"{file} is larger than 20 MB, which is too large for a job posting.")
        data = file.read_bytes()
    except OSError as exc:
        raise PostingFileError(f"{file} could not be read ({exc.strerror or exc}).") from exc
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PostingFileError(
            f"{file} is not UTF-8 text (byte {exc.start} cannot be decoded); save it as UTF-8 and try again."
        ) from exc
    if "\x00" in text:
        raise PostingFileError(f"{file} looks like a binary file, not a posting text file.")
    if not text.strip():
        raise PostingFileError(f"{file} is empty; put the posting text in it.")
    return text
