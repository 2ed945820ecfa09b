"""A token that changes whenever the data in the database may have changed: the page cache's key.

Every transaction that wrote ends by writing a fresh random token to the one-row ``data_version``
table, as its last statement before COMMIT (a listener on every engine in the process: web requests,
the worker, the command line). Readers see the new token exactly when they can see the data, on SQLite
and PostgreSQL alike, and the row is locked only for the moment of the commit. Writes made outside
this code (psql by hand) do not change it; pages then catch up within the cache's time limit.

The database's token misses writes this process has made where other connections cannot see them yet
(the tests run each request inside one transaction and "commit" to savepoints), so the token also
carries a count of the statements this process has run that may write.
"""

from __future__ import annotations

import weakref
from uuid import uuid4

from sqlalchemy import Connection, Engine, event, inspect, text

TABLE = "data_version"
_BUMP = text(f"INSERT INTO {TABLE} (id, token) VALUES (1, :token) "
             "ON CONFLICT (id) DO UPDATE SET token = excluded.token")
_READ = f"SELECT token FROM {TABLE} WHERE id = 1"
# Statements that cannot change data. Anything else (INSERT, UPDATE, DELETE, DDL, a WITH that might hold
# an UPDATE) counts as a write: a needless miss is cheap, a stale page is a bug.
_READS = ("SELECT", "PRAGMA", "SAVEPOINT", "RELEASE", "ROLLBACK", "BEGIN", "SHOW", "EXPLAIN", "SET ")
_WROTE, _DDL = "planner_wrote", "planner_ddl"
_local_writes = [0]
_has_table: weakref.WeakKeyDictionary[Engine, bool] = weakref.WeakKeyDictionary()


def local_writes() -> int:
    """How many statements that changed rows (or may have: DDL, unknown counts) this process has run so far."""
    return _local_writes[0]


@event.listens_for(Engine, "after_cursor_execute")
def _note_write(conn: Connection, cursor, statement: str, _parameters, _context, _executemany):
    # Listening on the class covers every engine, including the ones tests bind sessions to.
    head = statement.lstrip()[:40].upper()
    if head.startswith(_READS):
        return
    if head.startswith(("CREATE", "DROP", "ALTER")):
        conn.info[_DDL] = True  # a migration may create or drop the table itself
    elif TABLE.upper() in head or cursor.rowcount == 0:
        # An UPDATE or DELETE that matched nothing changed nothing (the worker's idle polls, say).
        return
    _local_writes[0] += 1
    conn.info[_WROTE] = True


@event.listens_for(Engine, "commit")
def _bump_before_commit(conn: Connection):
    # Fired before the driver's COMMIT, inside the transaction: the new token commits with the data.
    if _end_transaction(conn) and _table_exists(conn):
        conn.execute(_BUMP, {"token": uuid4().hex})


@event.listens_for(Engine, "rollback")
def _forget_write(conn: Connection):
    _end_transaction(conn)


def _end_transaction(conn: Connection) -> bool:
    """Forget what the ending transaction did on ``conn``; whether it wrote."""
    if conn.info.pop(_DDL, False):
        _has_table.pop(conn.engine, None)
    return conn.info.pop(_WROTE, False)


def _table_exists(conn: Connection) -> bool:
    # Only a yes is remembered: migrations commit before the table exists, and may create it later.
    if _has_table.get(conn.engine):
        return True
    found = inspect(conn).has_table(TABLE)
    if found:
        _has_table[conn.engine] = True
    return found


class DataVersion:
    """``current()`` returns a token equal to an earlier one only if no data changed in between."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._postgresql = engine.dialect.name == "postgresql"

    def current(self) -> str | None:
        """The token, or None when it cannot be read (then nothing may be served from a cache)."""
        try:
            connection = self._engine.raw_connection()
        except Exception:  # noqa: BLE001 - an unreadable version only means "do not cache"
            return None
        try:
            row = self._read(connection)
        except Exception:  # noqa: BLE001
            return None
        finally:
            connection.close()
        return f"{row[0] if row else '-'}/{_local_writes[0]}"

    def _read(self, connection):
        if not self._postgresql:
            cursor = connection.cursor()
            try:
                cursor.execute(_READ)  # pysqlite begins no transaction for a SELECT
                return cursor.fetchone()
            finally:
                cursor.close()
        driver = connection.driver_connection
        # One round trip: no BEGIN before the query, nothing to roll back after it.
        driver.autocommit = True
        try:
            return driver.execute(_READ).fetchone()
        finally:
            driver.autocommit = False
