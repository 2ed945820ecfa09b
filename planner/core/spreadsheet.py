"""CSV text that a spreadsheet opens as data, never as a formula.

A cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return, which some
spreadsheets skip before reading one of those) is run as a formula by Excel, LibreOffice and Google
Sheets: a competency or round named ``=HYPERLINK(...)`` would become a link in the manager's export.
Such cells get a leading apostrophe, the spreadsheets' own "this is text" mark (OWASP's advice).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise_cell(value: object) -> str:
    """The cell as text, with an apostrophe before a leading formula character."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """Rows as CSV text (RFC 4180 line endings), every cell neutralised."""
    buffer = io.StringIO()
    csv.writer(buffer).writerows([neutralise_cell(cell) for cell in row] for row in rows)
    return buffer.getvalue()
