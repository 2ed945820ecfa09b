"""One row whose token changes with every committed write: the page cache asks it whether anything changed."""

from __future__ import annotations

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from planner.db import Base


class DataVersion(Base):
    """Written only by planner/data_version.py, as the last statement of a transaction that wrote."""

    __tablename__ = "data_version"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    #: Random, never a counter: a table emptied and filled again must not bring back a token seen before.
    token: Mapped[str] = mapped_column(String(32))
