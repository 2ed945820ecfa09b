"""Which page of a long list a request asks for, and the pager the list templates show (_macros/pager.html)."""

from __future__ import annotations

from flask import request


def pager(total: int, size: int) -> dict:
    """The requested page of ``total`` items shown ``size`` at a time, as the pager macro reads it.

    A page that is not a number, or lies past the end (the list shrank), shows the nearest real page;
    ``args`` keeps the other query arguments (the filters) so every link stays on the same list.
    """
    size = max(int(size), 1)
    pages = max(-(-total // size), 1)
    number = min(max(request.args.get("page", 1, type=int) or 1, 1), pages)
    args = {key: value for key, value in request.args.items() if key != "page"}
    return {"page": number, "pages": pages, "first": (number - 1) * size + 1, "args": args, "total": total,
            "size": size, "offset": (number - 1) * size}
