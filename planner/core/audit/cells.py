"""Spreadsheet-safe CSV cells: text a spreadsheet would run as a formula is shown as text instead.

Excel, LibreOffice and Google Sheets treat a cell starting with ``=``, ``+``, ``-`` or ``@`` (and, in
some versions, a tab or carriage return before one) as a formula, so an exported reason such as
``=HYPERLINK("http://evil.example", "click")`` would run when the file is opened. The OWASP advice is
to prefix such a cell with a single quote, which spreadsheets show as text and hide.
"""

from __future__ import annotations

from collections.abc import Iterable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> str:
    """The value as CSV cell text, with a leading ``'`` when it would start a formula."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def safe_row(values: Iterable[object]) -> list[str]:
    """Every cell of a row made safe."""
    return [safe_cell(value) for value in values]
