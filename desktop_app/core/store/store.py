"""The store: one engine, one dialect, and the only way to write (:meth:`Store.write`).

A write is one transaction. It takes the database's write lock at BEGIN (SQLite: ``BEGIN
IMMEDIATE``), so what it reads inside cannot be changed under it by another process. Papers
whose text changed are queued for the full-text index inside the same transaction
(:meth:`Tx.queue_index`); after the commit the store tells its listener, which drains the queue.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import Connection, CursorResult, Engine, Select, literal, select, true
from sqlalchemy.exc import OperationalError

from desktop_app.core.errors import (
    AlreadyApplied,
    LibraryBusy,
    LibraryError,
    LibraryReadOnly,
    PaperGone,
    ServerUnreachable,
)
from desktop_app.core.store import tables as t
from desktop_app.core.store import wal_witness
from desktop_app.core.store.applied_edits import Once
from desktop_app.core.store.change_log import OPERATION, log_write
from desktop_app.core.store.column_types import utcnow
from desktop_app.core.store.dialect import Dialect, dialect_for
from desktop_app.core.store.engine import BUSY_TIMEOUT_MS
from desktop_app.core.store.failures import READ_ONLY, storage_errors

if TYPE_CHECKING:
    from desktop_app.core.store.server_watchdog import Watchdog

COMMITS_FILE = wal_witness.WITNESS_FILE  # the count of acknowledged writes, kept beside the database


def live_ids_statement(d: Dialect) -> Select[int]:
    """Which of the ids bound to "ids" are live papers (built once per store: a hot path)."""
    return select(t.paper.c.id).where(t.paper.c.deleted_at.is_(None), d.in_ids_named(t.paper.c.id, "ids"))


def inserted_id(result: CursorResult[Any]) -> int:
    """The primary key of the row a one-row INSERT made (SQLAlchemy types it optional: an
    executemany has none)."""
    key = result.inserted_primary_key
    if key is None:
        raise ValueError("not the result of a one-row INSERT")
    new_id: int = key[0]
    return new_id


class Tx:
    """One write transaction: its connection, its dialect, and the index queue."""

    def __init__(
        self, conn: Connection, dialect: Dialect, live_ids: Select[int] | None = None, index_queue: bool = True
    ) -> None:
        self.conn = conn
        self.index_queue = index_queue  # False: a shared library's desks index from change_log
        self.d = dialect
        self._live_ids = live_ids if live_ids is not None else live_ids_statement(dialect)
        self.now: datetime = utcnow()
        self.text_changed = False
        self.actor = ""  # the store's actor (who writes), for change_log rows written in this transaction
        # file work that must follow the transaction's outcome (attachments: a copy's file is
        # deleted only once its row's removal is committed; a file written for a row that is
        # rolled back is deleted); each runs once, its OSErrors ignored
        self.after_commit: list[Callable[[], None]] = []
        self.after_rollback: list[Callable[[], None]] = []
        # the papers this write touched, written to change_log before the commit (core/changelog/changes.py)
        self.touched: set[int] = set()

    def queue_index(self, ids: Iterable[int]) -> None:
        """Queue papers for the index in this transaction (re-queued ones get a new time)."""
        ids = [int(i) for i in ids]
        if not ids:
            return
        self.touched.update(ids)
        self.text_changed = True
        if not self.index_queue:
            return
        rows = self.d.id_values(ids).add_columns(literal(self.now, t.index_queue.c.queued_at.type)).where(true())
        # "WHERE true": SQLite cannot tell an upsert's ON from a join's after a bare SELECT
        ins = self.d.insert(t.index_queue).from_select(["paper_id", "queued_at"], rows)
        self.conn.execute(
            ins.on_conflict_do_update(index_elements=["paper_id"], set_={"queued_at": ins.excluded.queued_at})
        )

    def require_papers(self, ids: Sequence[int]) -> list[int]:
        """The ids, deduplicated in order; LibraryError when one is not a live paper."""
        ids = list(dict.fromkeys(int(i) for i in ids))
        found: set[int] = set(self.conn.execute(self._live_ids, {"ids": self.d.ids_value(ids)}).scalars())
        missing = [i for i in ids if i not in found]
        if missing:
            raise PaperGone(f"no paper with id {', '.join(map(str, missing[:5]))}", tuple(missing))
        self.touched.update(ids)
        return ids


# the transaction of the edit being applied once in this context (Store.once): its writes join it
_ONCE: contextvars.ContextVar[tuple[Store, Tx, Once] | None] = contextvars.ContextVar("marginalia_once", default=None)

FAIL_FAST_SECONDS = 3.0  # a server found unreachable: the main thread fails at once this long
FAIL_FAST_MAX = 60.0  # (longer after a slow failure: a hung server), unless a read elsewhere succeeds


def _run_all(calls: list[Callable[[], None]]) -> None:
    for call in calls:
        with contextlib.suppress(OSError):
            call()


class Store:
    """Engine + dialect + the write lock that serializes this process's writers.

    ``location`` names the library in messages (its folder); a ``read_only`` store refuses
    every write at once with :class:`LibraryReadOnly`."""

    def __init__(
        self,
        engine: Engine,
        on_text_changed: Callable[[], None] | None = None,
        *,
        location: str = "",
        read_only: bool = False,
        commits_file: Path | None = None,
    ) -> None:
        self.engine = engine
        self.dialect = dialect_for(engine.dialect.name)
        self._live_ids = live_ids_statement(self.dialect)
        self.write_lock = threading.RLock()
        self.on_text_changed = on_text_changed
        self.location = location or str(engine.url)
        self.read_only = read_only
        self.commits_file = commits_file
        self._database: str | None = None  # the SQLite file's path, for data_stamp
        # the -wal file this process's connections hold open (device, inode), once watched:
        # another at its path means it was deleted under us (wal_witness.py)
        self._wal_held: tuple[int, int] | None = None
        self._wal_db: Path | None = None
        self.wal_written_back: int | None = None  # pages a write found held and wrote back, unreported
        self._wait = threading.local()  # .seconds: how long this thread's writes wait for the lock
        self.actor = ""  # who writes, recorded in change_log (core/changelog/changes.py sets it at open)
        self.index_queue = True  # False: no index_queue rows (a shared library, core/shared_library.py)
        self.role = ""  # a server library's database role and schema: a "permission denied" names
        self.schema = "public"  # the GRANT it needs (store/failures.py)
        # a server library: whether the server answered the last statement; the listeners hear
        # each change of it (from any thread). While unreachable the main thread fails at once
        # (no connect that waits for a hung server); other threads (the listener) keep trying.
        self.reachable = True
        self.unreachable_why = ""
        self.reachability_listeners: list[Callable[[bool], None]] = []
        self._fail_fast_until = 0.0
        self.watchdog: Watchdog | None = None  # the window's thread: a hung server's statement is cut

    def guard_this_thread(self, deadline: float) -> None:
        """A server library: this thread's statements are cut after ``deadline`` seconds without
        an answer (a hung server), failing as ServerUnreachable (core/store/server_watchdog.py);
        while the server is unreachable the thread fails at once. A folder library: nothing."""
        if self.dialect.name == "sqlite" or self.watchdog is not None:
            return
        from desktop_app.core.store.server_watchdog import Watchdog

        self.watchdog = Watchdog(self.engine, deadline)
        self.engine.dispose()  # the connections made before it are made again, where it sees them

    @contextmanager
    def _reaching(self) -> Iterator[None]:
        """Track whether the server answers (a server library only; a folder has none)."""
        if self.dialect.name == "sqlite":
            yield
            return
        guarded = self.watchdog is not None and threading.current_thread() is self.watchdog.thread
        if not self.reachable and (
            guarded
            or (time.monotonic() < self._fail_fast_until and threading.current_thread() is threading.main_thread())
        ):
            # the guarded thread (the window's) never waits on a server found gone: another
            # thread's statement (the change listener's) says when it is back
            raise ServerUnreachable(self.unreachable_why)
        started = time.monotonic()
        try:
            with self.watchdog.guarding() if self.watchdog is not None else contextlib.nullcontext():
                yield
        except ServerUnreachable as exc:
            took = time.monotonic() - started
            self._fail_fast_until = time.monotonic() + min(FAIL_FAST_MAX, FAIL_FAST_SECONDS + 10 * took)
            self._set_reachable(False, str(exc))
            raise
        self._set_reachable(True, "")

    def _set_reachable(self, on: bool, why: str) -> None:
        if why:
            self.unreachable_why = why
        if on == self.reachable:
            return
        self.reachable = on
        for call in list(self.reachability_listeners):
            with contextlib.suppress(Exception):
                call(on)

    @contextmanager
    def waiting_at_most(self, seconds: float) -> Iterator[None]:
        """Writes of this thread in the block wait at most ``seconds`` for the write lock (this
        process's writers, and on SQLite another process's), then raise LibraryBusy: the window's
        thread hands the edit to a worker instead of freezing while another program holds the lock."""
        before = getattr(self._wait, "seconds", None)
        self._wait.seconds = seconds
        try:
            yield
        finally:
            self._wait.seconds = before

    @contextmanager
    def _locked(self) -> Iterator[None]:
        wait = getattr(self._wait, "seconds", None)
        if wait is None:
            with self.write_lock:
                yield
            return
        if not self.write_lock.acquire(timeout=wait):
            raise LibraryBusy("the library is busy with another write")
        try:
            yield
        finally:
            self.write_lock.release()

    def _begin(self, conn: Connection) -> None:
        wait = getattr(self._wait, "seconds", None)
        if wait is None or self.dialect.name != "sqlite":
            self.dialect.begin_write(conn)
            return
        conn.exec_driver_sql(f"PRAGMA busy_timeout={max(1, int(wait * 1000))}")
        try:
            self.dialect.begin_write(conn)
        except OperationalError as exc:
            if "locked" in str(exc).lower() or "busy" in str(exc).lower():
                raise LibraryBusy("another program is writing to the library") from exc
            raise
        finally:
            conn.exec_driver_sql(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")

    @contextmanager
    def write(self) -> Iterator[Tx]:
        """One write transaction; committed when the block ends, rolled back on an error.

        A full disk, a read-only database and a missing privilege become one-line LibraryErrors
        (DiskFull, LibraryReadOnly, PermissionDenied) after the rollback: nothing of the
        transaction is kept."""
        joined = _ONCE.get()
        if joined is not None and joined[0] is self:  # inside Store.once: part of its transaction
            _store, outer, once = joined
            once.check()  # the edit was sent before, and applied: nothing is written again
            yield outer
            log_write(outer.conn, self.dialect, outer.touched, outer.now, self.actor)
            outer.touched.clear()  # logged under this write's operation, not again at the commit
            return
        if self.read_only:
            raise LibraryReadOnly(f"{READ_ONLY} ({self.location})")
        with self._locked(), self._reaching(), storage_errors(self.location, role=self.role, schema=self.schema):
            if self._wal_held is not None and self._wal_replaced():
                self._write_back()
            kind = (OPERATION.get() or ("write",))[0]
            with self.engine.connect() as conn:
                self._begin(conn)
                tx = Tx(conn, self.dialect, self._live_ids, self.index_queue)
                tx.actor = self.actor
                committing = False
                try:
                    yield tx
                    log_write(conn, self.dialect, tx.touched, tx.now, self.actor)
                    count = self.dialect.bump_commit_count(conn)
                    committing = True
                    conn.commit()
                except BaseException:
                    conn.rollback()
                    if not committing:  # a COMMIT whose answer was lost may have been committed:
                        _run_all(tx.after_rollback)  # its files stay (an edit sent again finds them)
                    raise
        self._note_commit(count, tx, kind)
        _run_all(tx.after_commit)
        if tx.text_changed and self.on_text_changed is not None:
            self.on_text_changed()

    @contextmanager
    def once(self, edit_id: str) -> Iterator[Once]:
        """The writes this thread makes in the block are one transaction, which also records
        ``edit_id`` (an id the caller made for one edit) and ``Once.result`` as set by the
        block (core/store/applied_edits.py). When a committed transaction recorded ``edit_id``
        already (the edit was sent before and its answer lost), the block's first write raises
        :class:`~desktop_app.core.errors.AlreadyApplied` and nothing is written; so does the
        end of a block that wrote nothing.

        Each write inside logs its change_log rows under its own operation, as it would alone;
        the commit, the after-commit work and the index follow the one transaction."""
        with self.write() as tx:
            once = Once(tx.conn, edit_id)
            token = _ONCE.set((self, tx, once))
            try:
                yield once
            except LibraryError as exc:
                if not isinstance(exc, ServerUnreachable | AlreadyApplied):
                    once.check_after(exc)  # refused by a check before any write: applied before?
                raise
            finally:
                _ONCE.reset(token)
            once.check()
            once.record(tx.now)

    def after_commit(self, call: Callable[[], None]) -> None:
        """Run ``call`` once the writes this thread is making are committed: after the commit
        of the :meth:`once` transaction they are part of, else at once (each write here
        commits before it returns). Its OSErrors are ignored."""
        joined = _ONCE.get()
        if joined is not None and joined[0] is self:
            joined[1].after_commit.append(call)
            return
        _run_all([call])

    def _note_commit(self, count: int | None, tx: Tx, kind: str) -> None:
        """Record the write in the witness beside the database (wal_witness.py)."""
        if count is None or self.commits_file is None:
            return
        ids = tuple(sorted(tx.touched)[:10])
        with contextlib.suppress(OSError):  # never fail a committed write over its witness
            wal_witness.note_commit(
                self.commits_file, wal_witness.Witnessed(count, tx.now.strftime("%Y-%m-%dT%H:%M:%S"), kind, ids)
            )

    def missing_commits(self) -> int:
        """How many acknowledged writes the database lacks (0 when none or unknown): the count
        written beside it after each commit against the count inside it."""
        return self.lost_writes()[0]

    def lost_writes(self) -> tuple[int, list[wal_witness.Witnessed]]:
        """(how many acknowledged writes the database lacks, those of them the witness names)."""
        if self.commits_file is None:
            return 0, []
        with self.read() as conn:
            stored = self.dialect.commit_count(conn)
        if stored is None:
            return 0, []
        return wal_witness.lost_writes(self.commits_file, stored)

    # ---- a -wal file deleted under this process (wal_witness.py) --------------------------
    def watch_wal(self, db_path: Path) -> None:
        """Remember which -wal file this process's connections hold (a read opens it; the pool
        keeps that connection, so the file cannot be legitimately removed while it is open)."""
        self._wal_db = db_path
        with self.read() as conn:
            conn.exec_driver_sql("PRAGMA user_version").scalar()
            self._wal_held = wal_witness.wal_identity(db_path)

    def _wal_replaced(self) -> bool:
        return self._wal_db is not None and wal_witness.wal_identity(self._wal_db) != self._wal_held

    def _checkpoint_held_wal(self) -> int | None:
        """Copy the -wal this process still holds into the database file through its own
        connection, then close the pool so that new connections open the file at the path.
        The pages written back; None when a reader elsewhere kept the checkpoint from finishing
        (the next call tries again)."""
        with self.engine.connect() as conn:  # PASSIVE says how many pages; TRUNCATE reports 0
            # the three columns are integers (busy, pages in the log, pages written back)
            row = cast("tuple[int, int, int]", tuple(conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()))
            _busy, log, done = map(int, row)
            if log > 0 and done < log:
                return None
            # then empty it: readers elsewhere start from the database file alone (a reader in
            # the way leaves it full, every page already copied, which they skip as well)
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").one()
        self.engine.dispose()  # every pooled connection holds the old file: new ones open the path
        if self._wal_db is not None:
            self.watch_wal(self._wal_db)
        return max(0, log)

    def _write_back(self) -> None:
        pages = self._checkpoint_held_wal()
        if pages is not None:
            self.wal_written_back = (self.wal_written_back or 0) + pages

    def settle_wal(self) -> bool:
        """Write back now a -wal file deleted or replaced under this process, before this process
        opens another connection of its own to the file at the path (a backup, a quick check):
        that connection would read the shared-memory index's promise of frames the file at the
        path lacks and fail with "disk I/O error". The pages written back are reported by the
        next :meth:`write_back_lost_wal`. Whether there was one to write back."""
        if self._wal_held is None or not self._wal_replaced():
            return False
        with self._locked():
            if self._wal_replaced():
                self._write_back()
        return True

    def write_back_lost_wal(self) -> int | None:
        """Whether the -wal file this process held open was deleted or replaced since the last
        call, and then written back into the database: the pages this process wrote back (0 when
        another program holding it had already); None when it was not (or not yet: a reader in
        the way)."""
        if self._wal_db is None:
            return None
        if self._wal_held is None:  # no -wal file when it was watched: watch the one there is now
            self.watch_wal(self._wal_db)
            return None
        # (a stat, then the lock only when the file changed, and never waited for: a write in
        # a worker holding it writes the file back first, and the next call says so)
        if self._wal_replaced() and self.write_lock.acquire(blocking=False):
            try:
                if self._wal_replaced():
                    self._write_back()
            finally:
                self.write_lock.release()
        pages, self.wal_written_back = self.wal_written_back, None
        return pages

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection for reading (WAL: it never blocks a writer)."""
        with (
            self._reaching(),
            storage_errors(self.location, role=self.role, schema=self.schema, writing=False),
            self.engine.connect() as conn,
        ):
            yield conn

    def data_stamp(self) -> tuple[object, ...] | None:
        """Something that changes with every committed write to the database, for caches of
        derived data (the Finder's ordered id lists), or None where there is none (a server).

        SQLite: the commit count in the header (every :meth:`write` bumps it) and the size and
        modification time of the database and its WAL file (writes made outside the store)."""
        if self.engine.dialect.name != "sqlite":
            return None
        with self.read() as conn:
            if self._database is None:  # the engine's URL does not name it (a creator opens it)
                rows = conn.exec_driver_sql("PRAGMA database_list").fetchall()
                self._database = next((r[2] for r in rows if r[1] == "main"), "") or ""
            if not self._database:  # in memory
                return None
            stamp: list[object] = [self.dialect.commit_count(conn)]
        for suffix in ("", "-wal"):
            try:
                st = os.stat(self._database + suffix)
            except OSError:
                stamp.append(None)
                continue
            stamp.append((st.st_ino, st.st_size, st.st_mtime_ns))
        return tuple(stamp)

    def fetch_ids(self, conn: Connection, stmt: Select[int]) -> list[int]:
        """The first column of ``stmt`` as ints, fetched through the driver's own cursor.

        Hot path: building 100,000 SQLAlchemy rows for the listing took 136 ms; the statement is
        still an expression, compiled here for the engine's dialect.
        """
        compiled = stmt.compile(dialect=self.engine.dialect)
        params = compiled.construct_params()
        processors = compiled._bind_processors

        def bound(name: str, value: object) -> object:
            process = processors.get(name)
            if process is None:
                return value
            if not callable(process):  # a tuple_() parameter's per-element processors
                raise TypeError(f"fetch_ids cannot bind the tuple parameter {name!r}")
            return process(value)

        args: tuple[object, ...] | dict[str, object]
        if compiled.positional:
            args = tuple(bound(name, params[name]) for name in compiled.positiontup or ())
        else:
            args = {name: bound(name, value) for name, value in params.items()}
        driver = conn.connection.driver_connection
        if driver is None:  # only a connection already closed has none
            raise RuntimeError("fetch_ids on a closed connection")
        cur = driver.cursor()
        try:
            cur.execute(str(compiled), args)
            return [r[0] for r in cur.fetchall()]
        finally:
            cur.close()
