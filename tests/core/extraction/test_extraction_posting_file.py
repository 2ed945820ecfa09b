"""Reading a posting file: clear errors for files that cannot be a posting."""

import pytest

from planner.core.errors import ValidationFailed
from planner.core.extraction import PostingFileError, read_posting_file


def test_reads_utf8_text_and_drops_a_byte_order_mark(tmp_path):
    """A UTF-8 file (with or without BOM) is returned as text, BOM removed."""
    path = tmp_path / "posting.txt"
    path.write_bytes("\ufeffSenior Engineer – Zürich\nMentor engineers.".encode())
    assert read_posting_file(path) == "Senior Engineer – Zürich\nMentor engineers."


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"", "is empty"),
        (b"  \n\t\n", "is empty"),
        (b"Caf\xe9 manager wanted", "not UTF-8"),
        (b"\x00\x01\x02binary", "binary"),
    ],
)
def test_unusable_content_raises_one_clear_sentence(tmp_path, content, fragment):
    """Empty, non-UTF-8 and binary files raise PostingFileError with a readable sentence."""
    path = tmp_path / "posting.txt"
    path.write_bytes(content)
    with pytest.raises(PostingFileError) as caught:
        read_posting_file(path)
    assert fragment in str(caught.value)
    assert isinstance(caught.value, ValidationFailed)
    assert path.read_bytes() == content


def test_missing_file_and_folder_raise_clear_errors(tmp_path):
    """A missing path and a directory are reported as such."""
    with pytest.raises(PostingFileError, match="There is no file at"):
        read_posting_file(tmp_path / "nope.txt")
    with pytest.raises(PostingFileError, match="is a folder"):
        read_posting_file(tmp_path)
