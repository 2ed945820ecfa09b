"""The data version the page cache keys on: it moves with every committed change, and only then."""

from __future__ import annotations

from sqlalchemy import text

from planner.data_version import DataVersion, local_writes
from planner.services.library import seed_library


def _database_part(version: DataVersion) -> str:
    return version.current().split("/")[0]


def test_a_committed_change_moves_the_token_and_a_read_or_empty_update_does_not(committed_db):
    version = DataVersion(committed_db)
    with committed_db.begin() as connection:
        connection.execute(text("SELECT count(*) FROM competencies"))
    before, writes = _database_part(version), local_writes()
    with committed_db.begin() as connection:
        connection.execute(text("SELECT count(*) FROM competencies"))
        connection.execute(text("UPDATE competencies SET name = 'x' WHERE id = -1"))
    assert _database_part(version) == before and local_writes() == writes
    from planner.db import make_session_factory

    with make_session_factory(committed_db)() as session:
        seed_library(session)
        session.commit()
    after = _database_part(version)
    assert after != before and local_writes() > writes
    with committed_db.connect() as connection:
        connection.execute(text("UPDATE competencies SET name = 'Renamed' WHERE slug = 'compiler-design'"))
        connection.rollback()
    assert _database_part(version) == after  # rolled back: nothing changed for anybody else


def test_the_token_never_comes_back_after_the_table_is_emptied(committed_db):
    """Emptying the table (as the tests' clean-up does) and writing again gives a token never seen before."""
    from planner.db import make_session_factory

    with make_session_factory(committed_db)() as session:
        seed_library(session)
        session.commit()
    version = DataVersion(committed_db)
    seen = [_database_part(version)]
    for name in ("First", "Second"):
        with committed_db.begin() as connection:
            connection.execute(text("DELETE FROM data_version"))
            connection.execute(text(f"UPDATE competencies SET name = '{name}' WHERE slug = 'compiler-design'"))
        seen.append(_database_part(version))
    assert len(set(seen)) == 3 and "-" not in seen
