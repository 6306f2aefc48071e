"""Engines: the library's SQLite file with its pragmas, and the migration engine.

Paths never go through a SQLAlchemy URL: ``sqlite:///{path}`` reads ``?`` as the start of the
query string and ``#`` as a fragment, so ``/home/me/lib ?1/library.sqlite`` became
``/home/me/lib `` (outside the folder, and the same file for every such library). Connections
are made by :func:`connect` with the plain file name, or with a percent-encoded ``file:`` URI
when SQLite must be told ``mode=ro``.

Two traps of this stack are handled here and in ``migrations/env.py``:

* a batch migration (table copy and rename) on SQLite with ``foreign_keys=ON`` silently
  cascade-deletes child rows, so migrations run with foreign keys OFF and
  ``PRAGMA foreign_key_check`` runs before the commit;
* pysqlite runs DDL outside the transaction by default, so a failed migration would leave a
  half-changed schema: the migration connection takes over transaction control and issues one
  real ``BEGIN`` around all of it.

A read-only library (a folder or a file the user may not write, or ``--read-only``) is opened
with ``mode=ro``. SQLite reads a WAL database read-only only when its ``-shm`` file exists or
can be created; a library closed cleanly has neither ``-wal`` nor ``-shm``, and then nothing
can change under the reader that a WAL file would hold, so it is opened ``immutable=1``
(no locks, no ``-shm``). A ``-wal`` with content but no ``-shm`` in a folder nobody may write
(a library copied while open) cannot be read correctly without writing: it is refused with a
message, untouched.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.pool import ConnectionPoolEntry, NullPool, QueuePool

BUSY_TIMEOUT_MS = (
    30000  # how long a write waits for another process's write lock (the window: core/store/store.py waiting_at_most)
)


def sqlite_uri(db_path: Path, **params: str) -> str:
    """A ``file:`` URI for ``db_path`` whose every odd character is percent-encoded."""
    posix = Path(db_path).absolute().as_posix()
    if not posix.startswith("/"):  # C:/Users/... on Windows
        posix = "/" + posix
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"file://{quote(posix, safe='/:')}" + (f"?{query}" if query else "")


def connect(
    db_path: Path,
    *,
    read_only: bool = False,
    immutable: bool = False,
    check_same_thread: bool = True,
    timeout: float = 5.0,
) -> sqlite3.Connection:
    """A DB-API connection to exactly ``db_path`` (never parsed as a URL); ``check_same_thread``
    and ``timeout`` are sqlite3.connect's, with its defaults."""
    if read_only or immutable:
        params = {"mode": "ro"} | ({"immutable": "1"} if immutable else {})
        return sqlite3.connect(
            sqlite_uri(db_path, **params), uri=True, check_same_thread=check_same_thread, timeout=timeout
        )
    # an absolute path never starts with "file:", so SQLite cannot take it for a URI
    return sqlite3.connect(str(Path(db_path).absolute()), check_same_thread=check_same_thread, timeout=timeout)


def read_only_mode(db_path: Path) -> bool:
    """How a read-only library must be opened: False for ``mode=ro``, True for ``immutable=1``.

    Raises sqlite3.OperationalError when neither can read it correctly (see the module doc)."""
    try:
        con = connect(db_path, read_only=True)
        try:
            con.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return False
        finally:
            con.close()
    except sqlite3.OperationalError:
        wal = db_path.with_name(db_path.name + "-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise
        return True


def make_engine(db_path: Path, *, read_only: bool = False, immutable: bool = False) -> Engine:
    """The library's engine: WAL, synchronous=FULL, foreign keys on (or read-only)."""
    ro = read_only or immutable
    engine = create_engine(
        "sqlite://",
        creator=lambda: connect(db_path, read_only=ro, immutable=immutable, check_same_thread=False, timeout=30),
        poolclass=QueuePool,  # "sqlite://" alone would mean :memory: and a per-thread pool
    )

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: sqlite3.Connection, _record: ConnectionPoolEntry) -> None:
        cur = dbapi_conn.cursor()
        if ro:
            cur.execute("PRAGMA query_only=ON")
        else:
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.close()

    return engine


def make_migration_engine(db_path: Path) -> Engine:
    """An engine whose connections run DDL inside one real transaction, foreign keys off."""
    engine = create_engine("sqlite://", creator=lambda: connect(db_path), poolclass=NullPool)

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: sqlite3.Connection, _record: ConnectionPoolEntry) -> None:
        dbapi_conn.isolation_level = None  # pysqlite must not manage transactions itself
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=OFF")  # must be set outside a transaction
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=FULL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine
