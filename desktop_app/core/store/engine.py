"""Engines: the library's SQLite file with its pragmas, and the migration engine.

Two traps of this stack are handled here and in ``migrations/env.py``:

* a batch migration (table copy and rename) on SQLite with ``foreign_keys=ON`` silently
  cascade-deletes child rows, so migrations run with foreign keys OFF and
  ``PRAGMA foreign_key_check`` runs before the commit;
* pysqlite runs DDL outside the transaction by default, so a failed migration would leave a
  half-changed schema: the migration connection takes over transaction control and issues one
  real ``BEGIN`` around all of it.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.pool import NullPool


def make_engine(db_path: Path) -> Engine:
    """The library's engine: WAL, synchronous=FULL, foreign keys on."""
    engine = create_engine(
        f"sqlite:///{db_path}",
        connect_args={"check_same_thread": False, "timeout": 30},
    )

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn, _record) -> None:  # noqa: ANN001
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=FULL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.close()

    return engine


def make_migration_engine(db_path: Path) -> Engine:
    """An engine whose connections run DDL inside one real transaction, foreign keys off."""
    engine = create_engine(f"sqlite:///{db_path}", poolclass=NullPool)

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record) -> None:  # noqa: ANN001
        dbapi_conn.isolation_level = None  # pysqlite must not manage transactions itself
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=OFF")  # must be set outside a transaction
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=FULL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn) -> None:  # noqa: ANN001
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine
