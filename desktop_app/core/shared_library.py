"""A library shared on a PostgreSQL server: ``marginalia --library postgresql://user@host/db``.

The URL goes to libpq as it is: passwords come from libpq's own places (``~/.pgpass``,
``PGPASSFILE``, a service file: ``postgresql:///?service=lab``; TLS from ``sslmode``), never from
Marginalia's settings. A URL that carries a password is used but never remembered: see
:func:`redact`.

What lives where (one desk = one user on one machine):

* the papers, tags, notes, lists, the change log: the server (the same Alembic migrations as a
  folder's SQLite file, run by the first desk that opens the database with a newer Marginalia,
  under an advisory lock);
* the desk's Whoosh index: the user's cache folder, ``shared/<key>/index``, where ``<key>`` is
  a hash of the server (host, port) and the database as libpq resolved them; it is derived
  data, rebuilt when missing and fed from the change log (:class:`SharedIndexSync`), and
  ``shared/<key>/change_seq`` holds the last change it has seen;
* the library's "folder" (``lib.folder``): ``shared/<key>`` in the user's data folder: files
  attached by copy (``files/``: this desk only) and JSON backups (``backups/``). A server's
  own backups are the server's business (pg_dump); ``marginalia backup`` writes a JSON export.

psycopg (libpq) is an optional dependency, ``pip install marginalia[postgresql]``: the bundle
stays without it (~14 MB) and opening a server library without it says so.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, func, select, text

from desktop_app.core.changelog.changes import ChangeFeed, ChangeRow, Listener, default_actor
from desktop_app.core.conninfo import has_password, is_server_url, redact
from desktop_app.core.errors import DatabaseTooNew, LibraryError, LibraryReadOnly
from desktop_app.core.search.sync import IndexSync, _doc, _doc_select
from desktop_app.core.store import Store
from desktop_app.core.store import tables as t
from desktop_app.core.store.failures import storage_errors

log = logging.getLogger(__name__)
__all__ = ["Server", "has_password", "is_server_url", "open_server", "redact"]

INSTALL_HINT = "opening a library on a PostgreSQL server needs psycopg: pip install 'marginalia[postgresql]'"
MIGRATION_LOCK = 0x6D696772  # "migr": one desk migrates a server at a time
SEQ_FILE = "change_seq"
# operations that change nothing the index holds (its documents: title, abstract, authors,
# keywords, venue, year, note, highlights): their rows need no re-indexing (a bulk tag of 1,000
# papers would re-index 1,000 documents at every other desk)
NO_TEXT = (
    "tags.",
    "lists.",
    "searches.",
    "attachments.",
    "papers.set_status",
    "papers.set_rating",
    "papers.set_decision",
    "duplicates.dismiss",
    "duplicates.undismiss",
    "duplicates.refresh_keys",
)


def require_psycopg() -> Any:  # noqa: ANN401 - the module
    try:
        import psycopg
    except ImportError as exc:
        raise LibraryError(INSTALL_HINT) from exc
    return psycopg


def connect(url: str) -> Any:  # noqa: ANN401 - a psycopg connection
    """A psycopg connection; libpq's errors (no server, bad password) as one-line LibraryErrors."""
    psycopg = require_psycopg()
    try:
        return psycopg.connect(url, connect_timeout=10)
    except psycopg.Error as exc:
        raise LibraryError(f"cannot connect to {redact(url)}: {str(exc).strip().splitlines()[0]}") from exc


def check_connection(url: str) -> str:
    """Connect once and say to what (File → Connect to a shared library…'s "Test")."""
    with connect(url) as conn:
        role = conn.execute("SELECT current_user").fetchone()[0]
        info = conn.info
        return f"connected as {role} to {info.dbname} on {info.host or 'localhost'}:{info.port}"


def desk_key(host: str, port: int | str, dbname: str) -> str:
    """The desk folders' name for one database on one server."""
    return hashlib.sha256(f"{host}\0{port}\0{dbname}".encode()).hexdigest()[:16]


def desk_dirs(key: str) -> tuple[Path, Path]:
    """(the library's "folder" in the user data folder, the index folder in the user cache)."""
    from platformdirs import user_cache_dir, user_data_dir

    data = Path(user_data_dir("Marginalia", appauthor=False)) / "shared" / key
    cache = Path(user_cache_dir("Marginalia", appauthor=False)) / "shared" / key
    return data, cache / "index"


CONNECT_TIMEOUT = 5  # seconds libpq waits for a server (a hung or unreachable one)
STATEMENT_TIMEOUT_ENV = "MARGINALIA_STATEMENT_TIMEOUT_MS"
STATEMENT_TIMEOUT_MS = 10_000  # the server cancels a statement that runs (or waits on a lock) longer
# a network that drops without a word: the kernel gives up on the connection after ~11 s (TCP only)
KEEPALIVES = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2, "keepalives_count": 3}


def connection_options(url: str) -> dict[str, Any]:
    """libpq options for every connection of a desk (the URL's own ``options`` win)."""
    import os

    extra: dict[str, Any] = {"connect_timeout": CONNECT_TIMEOUT, **KEEPALIVES}
    if "options=" not in url:
        ms = int(os.environ.get(STATEMENT_TIMEOUT_ENV, "") or STATEMENT_TIMEOUT_MS)
        extra["options"] = f"-c statement_timeout={ms}"
    return extra


def make_engine(url: str) -> Engine:
    """An engine whose connections libpq makes from the URL as given (never re-parsed), each
    with a connect and a statement timeout: a hung server costs seconds, never the window."""
    psycopg = require_psycopg()
    extra = connection_options(url)
    from desktop_app.core.store.server_watchdog import check_connect

    def connect() -> Any:  # noqa: ANN401 - a psycopg connection
        check_connect()  # the window's thread, its statement just cut: no wait on a hung server
        return psycopg.connect(url, **extra)

    return create_engine("postgresql+psycopg://", creator=connect, pool_pre_ping=True)


def migrate_server(engine: Engine, *, read_only: bool) -> None:
    """Bring the server's schema to the head revision (the same Alembic revisions as SQLite),
    one desk at a time. A schema written by a newer Marginalia is refused untouched."""
    from desktop_app.core.store.migrate import SCHEMA_HEAD, alembic_config

    with engine.connect() as conn:
        current = None
        if conn.execute(select(func.to_regclass("alembic_version"))).scalar() is not None:
            current = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        conn.rollback()
        if current == SCHEMA_HEAD:
            return
        from alembic import command
        from alembic.script import ScriptDirectory

        script = ScriptDirectory.from_config(alembic_config())
        if current is not None and current not in {r.revision for r in script.walk_revisions()}:
            raise DatabaseTooNew(
                f"the shared library was written by a newer version of Marginalia "
                f"(schema {current}); install the newer version to open it"
            )
        if read_only:
            raise LibraryReadOnly(
                "the shared library's schema is older than this Marginalia and your "
                "role may not change it: ask its owner to open it once"
            )
        with conn.begin():
            conn.execute(select(func.pg_advisory_xact_lock(MIGRATION_LOCK)))
            cfg = alembic_config()
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")


def may_write(engine: Engine) -> bool:
    """Whether the role may write the library (INSERT and UPDATE on its tables)."""
    with engine.connect() as conn:
        if conn.execute(select(func.to_regclass("paper"))).scalar() is None:
            return bool(conn.execute(text("SELECT has_database_privilege(current_database(), 'CREATE')")).scalar())
        return bool(
            conn.execute(
                text(
                    "SELECT has_table_privilege('paper', 'INSERT,UPDATE') AND has_table_privilege('note', 'INSERT,UPDATE')"
                    " AND has_table_privilege('change_log', 'INSERT')"
                )
            ).scalar()
        )


class SharedIndexSync(IndexSync):
    """This desk's index of a shared library, fed from the change log instead of the shared
    ``index_queue`` (which any desk could drain for all). Each drain pulls the changes after the
    last seq the index has seen (``self.feed``, kept in ``change_seq``), re-indexes the papers
    they name, then pulls ``news`` (the changes since the library was opened, or since the last
    call) and tells ``change_listeners`` (the window). Two cursors: changes that arrive while
    the index is closed (being built) still reach the window, and stay due for the index."""

    def __init__(self, folder: Path, store: Store, feed: ChangeFeed, *, background: bool) -> None:
        folder.parent.mkdir(parents=True, exist_ok=True)
        super().__init__(folder, store, background="thread" if background else False)
        self.feed = feed
        self.news = ChangeFeed(store, feed.head())
        self.seq_file = folder.parent / SEQ_FILE
        try:
            feed.last_seq = int(self.seq_file.read_text(encoding="ascii").strip() or 0)
        except (OSError, ValueError):
            feed.last_seq = 0
        self.change_listeners: list[Callable[[list[ChangeRow]], None]] = []

    def _save_seq(self) -> None:
        tmp = self.seq_file.with_name(SEQ_FILE + ".tmp")
        try:
            tmp.write_text(str(self.feed.last_seq), encoding="ascii")
            tmp.replace(self.seq_file)
        except OSError:
            pass  # derived: the next open pulls a little more

    def drain(self, progress: Callable[[int, int], None] | None = None, stop: Callable[[], bool] | None = None) -> int:
        handled = 0
        with self._drain_lock:
            while self.is_open:
                rows = self.feed.pull()
                if not rows:
                    break
                text = [r for r in rows if not r.kind.startswith(NO_TEXT)]
                everything = any(r.paper_id is None for r in text)
                ids = sorted({r.paper_id for r in text if r.paper_id is not None})
                if everything or ids:
                    self._reindex(None if everything else ids)
                self._save_seq()
                handled += len(rows)
            while self.change_listeners:
                rows = self.news.pull()
                if not rows:
                    break
                for call in list(self.change_listeners):
                    try:
                        call(rows)
                    except Exception:
                        log.exception("change listener failed")
        return handled

    def _reindex(self, ids: list[int] | None) -> None:
        """Re-read these papers (None: all) into the index; those gone are removed."""
        if ids is None:
            with self.store.read() as conn:
                ids = list(conn.execute(select(t.paper.c.id)).scalars())
        for start in range(0, len(ids), 2000):
            chunk = ids[start : start + 2000]
            with self.store.read() as conn:
                rows = conn.execute(_doc_select(self.store).where(self.store.dialect.in_ids(t.paper.c.id, chunk))).all()
            docs = [_doc(r) for r in rows]
            live = {d.pid for d in docs}
            self.index.update(docs, [i for i in chunk if i not in live])

    def adopt(self) -> None:
        """An index put in place whole, holding the papers as they are now (share's copy of the
        folder's): the changes after the log's present end are the ones due."""
        self.feed.last_seq = self.feed.head()
        self._save_seq()

    def pending(self) -> int:
        with self.store.read() as conn:
            return int(
                conn.execute(
                    select(func.count()).select_from(t.change_log).where(t.change_log.c.seq > self.feed.last_seq)
                ).scalar_one()
            )

    def rebuild(
        self, progress: Callable[[int, int], None] | None = None, cancelled: Callable[[], bool] | None = None
    ) -> bool:
        with self._drain_lock:
            head = self.feed.head()  # changes after this are pulled again: re-indexing is idempotent
            with self.store.read() as conn:
                total = conn.execute(
                    select(func.count()).select_from(t.paper).where(t.paper.c.deleted_at.is_(None))
                ).scalar_one()
            ok = self.index.rebuild(self._all_docs(), total, progress, cancelled)
            self.is_open = ok or self.is_open
            if ok:
                self.feed.last_seq = head
                self._save_seq()
            return ok


class Server:
    """What a :class:`~desktop_app.core.library.Library` on a server has beyond a folder's:
    ``lib.server`` (None for a folder). Its URL (never shown: it may hold a password), the URL
    without the password (``location``), the change feed, and the listener of other desks."""

    def __init__(self, url: str, feed: ChangeFeed, index: SharedIndexSync) -> None:
        self.url = url
        self.location = redact(url)
        self.feed = feed
        self.index = index
        self._listener: Listener | None = None
        self._lock = threading.Lock()

    def follow(self, on_changes: Callable[[list[ChangeRow]], None] | None = None) -> Listener:
        """Start listening for other desks' changes: each wake-up pulls the change log into the
        index and then calls ``on_changes(rows)`` (from the listener's thread)."""
        if on_changes is not None:
            self.index.change_listeners.append(on_changes)
        with self._lock:
            if self._listener is None:
                self._listener = Listener(self.url, self.index.drain).start()
            return self._listener

    def stop(self) -> None:
        with self._lock:
            if self._listener is not None:
                self._listener.stop()
                self._listener = None

    def backup_refused(self) -> LibraryError:
        return LibraryError(
            f"a shared library is backed up on its server (pg_dump); `marginalia export "
            f"--format json` writes a copy of everything ({self.location})"
        )


def open_server(
    url: str, *, background_index: bool = False, read_only: bool | None = None, actor: str = ""
) -> tuple[Path, Store, SharedIndexSync, Server]:
    """Connect, migrate, and make the desk's parts: (the desk folder, the store, the index, the
    server's own part). ``Library.open`` builds the Library from them."""
    with connect(url) as probe:
        info = probe.info
        role, schema = probe.execute("SELECT current_user, current_schema()").fetchone()
        key = desk_key(info.host or "", info.port, info.dbname)
    folder, index_dir = desk_dirs(key)
    engine = make_engine(url)
    try:
        with storage_errors(redact(url), role=role, schema=schema or "public", writing=False):
            if read_only is None:
                read_only = not may_write(engine)
            migrate_server(engine, read_only=read_only)
        store = Store(engine, location=redact(url), read_only=read_only)
        store.role, store.schema = role, schema or "public"
        store.index_queue = False  # each desk's index follows change_log instead
        store.actor = default_actor(actor) if (actor or _configured_actor()) else role
        feed = ChangeFeed(store)  # the index's cursor: SharedIndexSync reads it from change_seq
        if not read_only:
            folder.mkdir(parents=True, exist_ok=True)
        index = SharedIndexSync(index_dir, store, feed, background=background_index)
    except BaseException:
        engine.dispose()
        raise
    return folder, store, index, Server(url, index.news, index)


def _configured_actor() -> str:
    import os

    from desktop_app.core.changelog.changes import ACTOR_ENV

    return os.environ.get(ACTOR_ENV, "").strip()
