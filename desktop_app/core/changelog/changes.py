"""The change log: every write through the Library facade leaves rows in ``change_log``.

Each :meth:`Store.write <desktop_app.core.store.Store.write>` transaction that touched papers
(``Tx.require_papers`` / ``Tx.queue_index``) writes one row per paper, in the same transaction,
just before its commit: ``kind`` is the facade operation ("tags.add", "notes.set", ...; the
Library wraps its managers' mutating methods with :func:`logged`), ``actor`` who made it. An
operation that touched no paper (renaming a tag, a reading list, a saved search) writes one row
with ``paper_id`` NULL: "something library-wide changed". A write touching more than
:data:`MANY` papers writes one NULL row with the count (an import of 100,000 papers).

On PostgreSQL the writer takes a transaction-level advisory lock before inserting its rows (seq
order = commit order, see ``PostgresDialect.order_change_log``) and issues NOTIFY
``marginalia_changes``, delivered at the commit. :class:`ChangeFeed` pulls the rows after the
last seq a desk has seen; :class:`Listener` (PostgreSQL, a thread with its own connection, no Qt)
wakes on the NOTIFY and calls back.
"""

from __future__ import annotations

import functools
import getpass
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import func, select

from desktop_app.core.conninfo import is_server_url
from desktop_app.core.errors import LibraryError
from desktop_app.core.store import tables as t
from desktop_app.core.store.change_log import MANY, OPERATION, log_write

if TYPE_CHECKING:
    from desktop_app.core.store import Store

__all__ = [
    "MANY",
    "ChangeFeed",
    "ChangeRow",
    "Listener",
    "is_server_url",
    "log_mutations",
    "log_write",
    "logged",
    "writes",
]

log = logging.getLogger(__name__)
M = TypeVar("M")
F = TypeVar("F", bound=Callable[..., Any])

ACTOR_ENV = "MARGINALIA_ACTOR"  # a display name for change_log.actor (else the role / the user)
POLL_SECONDS = 5.0  # the listener also pulls this often: a NOTIFY lost with a broken connection

_operation = OPERATION


def default_actor(configured: str = "") -> str:
    """The name recorded as who made a change: ``configured`` (a display name), else
    ``$MARGINALIA_ACTOR``, else the login name. On PostgreSQL the caller passes the role."""
    name = (configured or os.environ.get(ACTOR_ENV, "")).strip()
    if name:
        return name
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name (a container without a passwd entry)
        return ""


def logged(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """``method`` run as the facade operation ``name``: its writes are logged under that kind."""

    @functools.wraps(method)
    def run(*args: Any, **kwargs: Any) -> Any:  # noqa: ANN401 - any method's arguments and result
        if _operation.get() is not None:  # a facade call inside another: the outer one names it
            return method(*args, **kwargs)
        token = _operation.set((name, [False]))
        try:
            return method(*args, **kwargs)
        finally:
            _operation.reset(token)

    run.__marginalia_logged__ = True  # type: ignore[attr-defined]
    return run


WRITE_MARK = "__marginalia_write__"


def writes(method: F) -> F:
    """Mark a manager's method as one of the facade's writes: :func:`log_mutations` logs each
    call under ``manager.method``. Explicit, so that what is logged never depends on how a
    method's return type happens to be spelt."""
    setattr(method, WRITE_MARK, True)
    return method


def log_mutations(manager: M, prefix: str) -> M:
    """Wrap each public method of ``manager`` marked with :func:`writes` with :func:`logged`."""
    for attr in dir(type(manager)):
        if attr.startswith("_"):
            continue
        fn = getattr(type(manager), attr, None)
        if not callable(fn) or not getattr(fn, WRITE_MARK, False):
            continue
        bound = getattr(manager, attr)
        if getattr(bound, "__marginalia_logged__", False):
            continue
        setattr(manager, attr, logged(f"{prefix}.{attr}", bound))
    return manager


@dataclass(frozen=True)
class ChangeRow:
    seq: int
    at: datetime
    actor: str
    kind: str
    paper_id: int | None


def _row(r: Any) -> ChangeRow:  # noqa: ANN401 - a SQLAlchemy row
    at = r[1]
    if isinstance(at, str):
        at = datetime.fromisoformat(at)
    if at is not None and at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return ChangeRow(int(r[0]), at, r[2] or "", r[3], r[4])


# the statistics' own rows (core/changelog/rows.py: "status", "rating", "tag") repeat a facade row
_FACADE_ROWS = t.change_log.c.kind.not_in(("status", "rating", "tag"))
_COLUMNS = (t.change_log.c.seq, t.change_log.c.at, t.change_log.c.actor, t.change_log.c.kind, t.change_log.c.paper_id)


class ChangeFeed:
    """The changes after the last seq this desk has seen."""

    def __init__(self, store: Store, last_seq: int = 0) -> None:
        self.store = store
        self.last_seq = last_seq
        self._lock = threading.Lock()

    def head(self) -> int:
        """The newest seq (0 when the log is empty)."""
        with self.store.read() as conn:
            return int(conn.execute(select(func.max(t.change_log.c.seq))).scalar() or 0)

    def pull(self, limit: int = 100_000) -> list[ChangeRow]:
        """The committed changes after ``last_seq``, oldest first; advances ``last_seq``."""
        with self._lock:
            stmt = (
                select(*_COLUMNS)
                .where(t.change_log.c.seq > self.last_seq, _FACADE_ROWS)
                .order_by(t.change_log.c.seq)
                .limit(limit)
            )
            with self.store.read() as conn:
                rows = [_row(r) for r in conn.execute(stmt)]
            if rows:
                self.last_seq = rows[-1].seq
            return rows

    def last_change(self, paper_id: int) -> ChangeRow | None:
        """The newest change of one paper (the reader's "tagged by lin, 5 min ago")."""
        stmt = (
            select(*_COLUMNS)
            .where(t.change_log.c.paper_id == paper_id, _FACADE_ROWS)
            .order_by(t.change_log.c.seq.desc())
            .limit(1)
        )
        with self.store.read() as conn:
            row = conn.execute(stmt).first()
        return None if row is None else _row(row)


VERBS = {  # the operation's verb for "tagged by lin" (English: the CLI; the GUI translates its own)
    "tags": "tagged",
    "notes": "note edited",
    "highlights": "highlighted",
    "lists": "listed",
    "attachments": "attachment changed",
    "imports": "imported",
    "duplicates": "merged",
}
TRASH_VERBS = {"restore": "restored", "purge": "deleted for good", "empty": "deleted for good"}
PAPER_VERBS = {
    "set_status": "status set",
    "set_rating": "rated",
    "set_decision": "decided",
    "delete": "deleted",
    "restore": "restored",
}


def verb(kind: str) -> str:
    """A short past participle for a change kind: "tags.add" -> "tagged"."""
    area, _, op = kind.partition(".")
    if area == "papers":
        return PAPER_VERBS.get(op, "edited")
    if area == "trash":
        return TRASH_VERBS.get(op, "changed")
    return VERBS.get(area, "changed")


def ago(at: datetime, now: datetime | None = None) -> str:
    """ "just now", "5 min ago", "3 h ago", "2 days ago" (English, the CLI's form)."""
    now = now or datetime.now(UTC)
    seconds = max(0, int((now - at).total_seconds()))
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{seconds // 60} min ago"
    if seconds < 86400:
        return f"{seconds // 3600} h ago"
    return f"{seconds // 86400} days ago"


def describe(row: ChangeRow, now: datetime | None = None) -> str:
    """ "tagged by lin, 5 min ago" """
    who = f" by {row.actor}" if row.actor else ""
    return f"{verb(row.kind)}{who}, {ago(row.at, now)}"


class Listener:
    """A thread that LISTENs on ``marginalia_changes`` with its own psycopg connection and calls
    ``wake()`` after each notification (several arriving together: once) and every
    :data:`POLL_SECONDS` anyway. ``wake`` runs in this thread: it must not touch Qt widgets (the
    GUI posts to its own thread). Reconnects after a lost connection."""

    def __init__(self, conninfo: str, wake: Callable[[], object]) -> None:  # its result unused
        self.conninfo = conninfo
        self.wake = wake
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="change-listener", daemon=True)
        self._conn: Any = None

    def start(self, timeout: float = 10.0) -> Listener:
        self._thread.start()
        self._ready.wait(timeout)  # LISTEN is in place: a write after start() is seen
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=POLL_SECONDS + 2)

    def _run(self) -> None:
        import psycopg

        from desktop_app.core.store.dialect import CHANGES_CHANNEL

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {CHANGES_CHANNEL}")
                    self._ready.set()
                    self._call()  # whatever committed before LISTEN
                    while not self._stop.is_set():
                        got = False
                        for _ in conn.notifies(timeout=0.2, stop_after=1):
                            got = True
                        if got:
                            for _ in conn.notifies(timeout=0.05):  # a burst: one wake
                                pass
                            self._call()
                        elif self._poll_due():
                            self._call()
            except Exception as exc:  # noqa: BLE001 - a lost server: retry, never kill the desk
                log.warning("change listener: %s; reconnecting", exc)
                self._ready.set()
                self._stop.wait(2.0)

    _last_call = 0.0

    def _poll_due(self) -> bool:
        import time

        return time.monotonic() - self._last_call > POLL_SECONDS

    def _call(self) -> None:
        import time

        self._last_call = time.monotonic()
        try:
            self.wake()
        except LibraryError as exc:  # the server went away between LISTEN and the pull: said once
            log.warning("change listener: %s", exc)
        except Exception:
            log.exception("change listener callback failed")
