"""The Library facade: open and close a library folder; its parts are managers.

``lib.papers``, ``lib.tags``, ``lib.notes``, ``lib.highlights``, ``lib.lists``, ``lib.searches``,
``lib.imports``, ``lib.exports``, ``lib.duplicates`` and ``lib.trash`` are objects of their own modules; each receives the
:class:`~desktop_app.core.store.Store` (and the managers it reads through) and never imports this
module. Every write is one store transaction returning a :class:`~desktop_app.core.values.Change`;
papers whose text changed are queued for the index in that transaction and drained into Whoosh
after the commit (at once, or by a background thread) and again at open.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
from collections.abc import Callable, Mapping
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_app.core.changelog.changes import default_actor, is_server_url, log_mutations
from desktop_app.core.conninfo import is_keyword_string, keyword_url
from desktop_app.core.errors import AlreadyApplied, LibraryDamaged, LibraryError, LibraryReadOnly
from desktop_app.core.finder import Finder
from desktop_app.core.integrity import integrity_problems
from desktop_app.core.notes import Notes
from desktop_app.core.papers import Papers
from desktop_app.core.reading_lists import ReadingLists
from desktop_app.core.saved_searches import SavedSearches
from desktop_app.core.search.sync import IndexSync
from desktop_app.core.store import Store, backups, library_marker
from desktop_app.core.store.engine import make_engine, read_only_mode
from desktop_app.core.store.failures import storage_errors
from desktop_app.core.store.migrate import migrate
from desktop_app.core.store.store import COMMITS_FILE
from desktop_app.core.tags import Tags

if TYPE_CHECKING:
    from desktop_app.core.attachments import Attachments
    from desktop_app.core.changelog.changes import ChangeRow
    from desktop_app.core.duplicates import Duplicates
    from desktop_app.core.exports import Exports
    from desktop_app.core.highlights import Highlights
    from desktop_app.core.importing.imports import Imports
    from desktop_app.core.insights.library_insights import Insights
    from desktop_app.core.insights.topics import Topics
    from desktop_app.core.insights.triage_progress import TriageProgress
    from desktop_app.core.insights.triage_queue import TriageQueue
    from desktop_app.core.leftovers import Leftover
    from desktop_app.core.library_backups import Backups
    from desktop_app.core.search.query import CompiledQuery
    from desktop_app.core.shared_library import Server
    from desktop_app.core.trash import Trash
    from desktop_app.core.values import Change, QueryResult

Progress = Callable[[int, int], None]
Cancelled = Callable[[], bool]
# "did you mean" with SQL fields: at most this many papers picked by them are skipped through one
# by one in the index (more: the corrected query is counted)
FEW_PICKED = 2000


class Library:
    """A library folder: ``library.sqlite`` (WAL), ``index/`` (Whoosh), ``backups/``."""

    def __init__(self, folder: Path, store: Store, index: IndexSync) -> None:
        self.folder = folder
        self.store = store
        self.index = index
        store.on_text_changed = index.changed
        self.migration_backup: str | None = None
        self.removed_leftovers: list[Leftover] = []  # files a killed command left, removed by clean_leftovers()
        self.server: Server | None = None  # a shared library's server part (core/shared_library.py)
        self.read_only = store.read_only
        self.papers = Papers(store)
        self.tags = Tags(store)
        self.notes = Notes(store)
        self.lists = ReadingLists(store)
        self.searches = SavedSearches(store)
        self.finder = Finder(store, index)
        for name in ("papers", "tags", "notes", "lists", "searches"):  # change_log kinds (core/changelog/changes.py)
            log_mutations(getattr(self, name), name)

    # Managers whose modules load the file formats, the anchoring's diff-match-patch or the
    # identity rules: built at first use, so `marginalia search/list/show` does not import them.
    @cached_property
    def highlights(self) -> Highlights:
        from desktop_app.core.highlights import Highlights

        return log_mutations(Highlights(self.store, self.papers), "highlights")

    @cached_property
    def imports(self) -> Imports:
        from desktop_app.core.importing.imports import Imports

        return log_mutations(Imports(self.store, self.folder), "imports")

    @cached_property
    def exports(self) -> Exports:
        from desktop_app.core.exports import Exports

        return log_mutations(Exports(self.store, self.papers, self.lists), "exports")

    @cached_property
    def duplicates(self) -> Duplicates:
        from desktop_app.core.duplicates import Duplicates

        return log_mutations(Duplicates(self.store, self.papers), "duplicates")

    @cached_property
    def progress(self) -> TriageProgress:
        """Triage progress: which papers are decided, and since when (core/insights/triage_progress.py)."""
        from desktop_app.core.insights.triage_progress import TriageProgress

        return TriageProgress(self.store)

    @cached_property
    def triage(self) -> TriageQueue:
        """Decisions and the learned queue (core/insights/triage_queue.py); writes go through
        ``lib.papers.set_decision``, so they are logged as that."""
        from desktop_app.core.insights.triage_queue import TriageQueue

        return TriageQueue(self.store, self.folder, self.finder, self.papers)

    @cached_property
    def attachments(self) -> Attachments:
        from desktop_app.core.attachments import Attachments

        return log_mutations(Attachments(self.store, self.folder), "attachments")

    @cached_property
    def trash(self) -> Trash:
        """The papers deleted (in the trash): list, restore, delete for good (core/trash.py)."""
        from desktop_app.core.trash import Trash

        return log_mutations(Trash(self.store, self.folder), "trash")

    @cached_property
    def insights(self) -> Insights:
        """Related papers, statistics, the paper map: read-only analyses (core/insights/library_insights.py)."""
        from desktop_app.core.insights.library_insights import Insights

        return Insights(self.store, self.index)

    @cached_property
    def topics(self) -> Topics:
        """Topics of a list; saved as tags or decided through the tags and papers managers."""
        from desktop_app.core.insights.topics import Topics

        return Topics(self.store, self.tags, self.papers)

    # ---- open / close ----------------------------------------------------------------------
    @cached_property
    def backups(self) -> Backups:
        """Verified copies of the database in ``backups/``: make one, one when due, the check
        then backup the window runs after its first paint, the newest one's age
        (core/library_backups.py)."""
        from desktop_app.core.library_backups import Backups

        return Backups(self.folder, self.store, self.server, read_only=self.read_only)

    @classmethod
    def open(
        cls,
        folder: str | Path,
        *,
        background_index: bool = False,
        ensure_index: bool = True,
        read_only: bool | None = None,
    ) -> Library:
        """Open (creating if needed) the library in ``folder``; migrate it when behind.

        With ``ensure_index`` a missing, stale or corrupt index is rebuilt now; otherwise the
        caller runs :meth:`ensure_index` (the GUI does, in a worker, with progress).

        ``read_only`` None: read-only when the folder or its database may not be written (then
        ``lib.read_only`` is True, reads work, every write raises LibraryReadOnly, the index is
        used as it is and never rebuilt). True opens read-only on purpose (``--read-only``).
        """
        if is_keyword_string(folder):  # "host=db dbname=papers": a server, never a folder's name
            folder = keyword_url(str(folder))
        if is_server_url(folder):  # postgresql://…: a shared library (core/shared_library.py)
            from desktop_app.core.shared_library import open_server

            desk, store, index, server = open_server(
                str(folder), background_index=background_index, read_only=read_only
            )
            lib = cls(desk, store, index)
            lib.server = server
            if ensure_index:
                lib.ensure_index()
            return lib
        folder = Path(folder).expanduser().absolute()
        db_path = folder / "library.sqlite"
        if read_only is None:
            read_only = _not_writable(folder, db_path)
        if not read_only:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise LibraryError(f"cannot create the library folder {folder}: {exc.strerror}") from exc
        immutable = None
        if read_only and db_path.exists():
            try:
                immutable = read_only_mode(db_path)
            except sqlite3.OperationalError as exc:
                raise LibraryReadOnly(
                    f"the library is read-only and was not closed cleanly (its -wal file holds "
                    f"changes SQLite cannot read without writing); make {folder} writable and open "
                    f"it once ({exc})"
                ) from exc
        if not read_only:  # a library that vanished is not made anew (core/store/library_marker.py)
            library_marker.check(folder, db_path)
        backup = migrate(db_path, folder / "backups", immutable=False if read_only and immutable is None else immutable)
        if not read_only:
            with contextlib.suppress(OSError, sqlite3.Error):  # (a marker not written: the next open writes it)
                library_marker.ensure(folder, db_path)
        engine = make_engine(db_path, read_only=read_only, immutable=bool(immutable))
        store = Store(engine, location=str(folder), read_only=read_only, commits_file=folder / COMMITS_FILE)
        store.actor = default_actor()  # change_log's "who" (core/changelog/changes.py)
        if not read_only:
            store.watch_wal(db_path)  # a -wal deleted under this process is written back (wal_witness.py)
        folder_index = IndexSync(folder / "index", store, background=background_index, read_only=read_only)
        lib = cls(folder, store, folder_index)
        lib.migration_backup = backup
        if ensure_index:
            lib.ensure_index()
        return lib

    def waiting_at_most(self, seconds: float) -> contextlib.AbstractContextManager[None]:
        """Writes made inside wait at most ``seconds`` for another process's write lock, then
        raise LibraryBusy (the window then hands the edit to its worker): Store.waiting_at_most."""
        return self.store.waiting_at_most(seconds)

    @property
    def reachable(self) -> bool:
        """False while a shared library's server cannot be reached (always True for a folder)."""
        return bool(self.store.reachable)

    def on_reachability(self, call: Callable[[bool], None]) -> Callable[[], None]:
        """Call ``call(reachable)`` from any thread when the server is lost or back; returns
        the function that stops it."""
        listeners = self.store.reachability_listeners
        listeners.append(call)

        def stop() -> None:
            if call in listeners:
                listeners.remove(call)

        return stop

    def answer_within(self, seconds: float) -> None:
        """A shared library: the calling thread (the window's) never waits longer than
        ``seconds`` for a server that stopped answering; its statement fails as
        ServerUnreachable and, until another thread reaches the server again, so does every
        later one at once (core/store/server_watchdog.py). A folder library: nothing."""
        self.store.guard_this_thread(seconds)

    def ensure_index(self, progress: Progress | None = None, cancelled: Cancelled | None = None) -> str:
        """Check the index; rebuild it when missing, unreadable, outdated or inconsistent.

        Read-only: a usable index is used as it is; otherwise searching by text says why not."""
        with storage_errors(self.folder):
            return self.index.ensure(self.papers.count(), progress, cancelled)

    def reindex(self, progress: Progress | None = None, cancelled: Cancelled | None = None) -> bool:
        """Rebuild the index from the database into a new folder and swap it in."""
        with storage_errors(self.folder):
            return self.index.rebuild(progress, cancelled)

    def flush_index(self) -> None:
        """Wait until every queued index update is written."""
        self.index.drain()

    def follow(self, on_changes: Callable[[list[ChangeRow]], None] | None = None) -> object:
        """A shared library: follow the other desks' changes (core/shared_library.py)."""
        if self.server is None:
            raise LibraryError("only a shared library has other desks to follow")
        return self.server.follow(on_changes)

    def close(self) -> None:
        if self.server is not None:
            self.server.stop()
        self.index.close()
        semantic = sys.modules.get("desktop_app.core.insights.semantic")  # loaded: it may keep a space
        if semantic is not None:
            semantic.forget(self.store)
        if self.store.watchdog is not None:
            self.store.watchdog.stop()
        self.store.engine.dispose()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def db_path(self) -> Path:
        return self.folder / "library.sqlite"

    # ---- searching (SQL and the index together) -------------------------------------------
    def compile(self, query_text: str) -> CompiledQuery:
        """Parse a query; raises QuerySyntaxError with a one-line message."""
        return self.finder.compile(query_text)

    def query(self, query_text: str = "", **filters: object) -> QueryResult:
        """Ids of the papers matching a query and filters, sorted: see :meth:`Finder.query`."""
        return self.finder.query(query_text, **filters)

    def did_you_mean(self, query_text: str, hits: int | None = None) -> str | None:
        """A spelling correction for a query with fewer than 3 hits, or None (search/suggest.py)."""
        from desktop_app.core.search.suggest import did_you_mean

        return did_you_mean(
            self.index, self.store, lambda q: self.query(q, limit=0).total, query_text, hits, self._finds_more_than
        )

    def _finds_more_than(self, query_text: str, n: int) -> bool:
        """Whether ``query_text`` finds more than ``n`` papers. The index is asked to stop at the
        ``n + 1``-th match of the query's text: among the papers its SQL fields (tag:, year:)
        pick, when they pick few; a query that is not text ANDed with SQL fields is counted."""
        from sqlalchemy import select

        from desktop_app.core.store import tables as t

        compiled = self.finder.compile(query_text, defer_index=True)
        if compiled.index_query is None or not self.index.is_open:
            return self.query(query_text, limit=0).total > n
        if not compiled.sql_key:
            return self.index.index.matches_more_than(compiled.index_query, n)
        p = t.paper.c
        stmt = select(p.id).where(compiled.where, p.deleted_at.is_(None)).limit(FEW_PICKED + 1)
        with self.store.read() as conn:
            picked = self.store.fetch_ids(conn, stmt)
        if len(picked) > FEW_PICKED:  # many: skipping from one to the next costs more than counting
            return self.query(query_text, limit=0).total > n
        return len(picked) > n and self.index.index.matches_more_than(compiled.index_query, n, picked)

    def rederive_titles(
        self, dry_run: bool = True, progress: Progress | None = None, cancelled: Cancelled | None = None
    ) -> list[tuple[int, str, str]]:
        """(id, old, new) for each derived title the current algorithm would write differently;
        with ``dry_run=False`` they are written, in one transaction (core/retitle.py)."""
        from desktop_app.core.retitle import rederive_titles

        return rederive_titles(self.store, dry_run=dry_run, progress=progress, cancelled=cancelled)

    def set_derived_titles(self, titles: Mapping[int, str]) -> Change:
        """Write these titles to the papers whose title is still derived, in one transaction;
        the Change's ``detail.old`` passed back undoes it (core/retitle.py)."""
        return self.papers.set_derived_titles(titles)

    def apply_once(self, edit_id: str, edit: Callable[[], Change]) -> Change:
        """``edit()`` (facade writes: one manager call) in one transaction that also records
        ``edit_id``, an id the caller made for this edit, with the Change it returns
        (``Store.once``). Sent again with the same id after its answer was lost (the connection
        dropped after the COMMIT), nothing is written again and the Change recorded the first
        time is returned, so its undo undoes what was applied. AlreadyApplied when that Change
        could not be written down; whatever ``edit`` raises is raised, nothing recorded."""
        from desktop_app.core import change_json

        try:
            with self.store.once(edit_id) as once:
                change = edit()
                once.result = change_json.dumps(change)
        except AlreadyApplied as exc:
            if exc.change is None:
                raise
            try:
                return change_json.loads(exc.change)
            except ValueError:
                raise AlreadyApplied(str(exc)) from exc
        return change

    def undo(self, change: Change) -> Change:
        """Undo the edit that returned ``change``: the manager method that reverses it, chosen by
        the type of its undo data (core/undoing.py), one logged write in one transaction.
        LibraryError when the change cannot be undone."""
        from desktop_app.core.undoing import undo

        return undo(self, change)

    def warm_search(self, **filters: object) -> None:
        """Load what the first text search needs ahead of it: the query parser, the executor and
        numpy, the index's arrays and the ordered id list of these ``filters`` (the window's
        sort and filter; see :meth:`Finder.query`): ~200 ms at 100,000 papers. The
        window calls this at the first keystroke in its search box; it changes nothing."""
        if self.index.is_open:
            self.finder.query("paper", **filters)

    def damaged(self, detail: str) -> LibraryDamaged:
        """The one-line error for this library's damaged database, naming the backup to restore."""
        return backups.damaged_error(self.folder, detail)

    def clean_leftovers(self) -> list[Leftover]:
        """Remove what killed commands left in the library folder (core/leftovers.py); the items
        removed. The window does it after its first paint, ``check`` before it looks: not every
        open (it lists the attachment folders, 56 ms at 5,000 of them)."""
        from desktop_app.core import leftovers

        if self.read_only:
            return []
        self.removed_leftovers = leftovers.clean(self.folder)
        return self.removed_leftovers

    def write_back_lost_wal(self) -> int | None:
        """Whether a -wal file deleted or replaced while this library was open was written back
        into the database from the copy this process still holds (core/store/wal_witness.py):
        the pages this process wrote (0: another program holding it did), None when nothing was
        found. The window calls it on its poll; every write does it first."""
        return self.store.write_back_lost_wal()

    def integrity_check(self) -> list[str]:
        """Problems found in the database and the index; empty when all is well. Files a killed
        command left that could not be removed are listed too (core/leftovers.py)."""
        from desktop_app.core import leftovers

        left = leftovers.find(self.folder)
        return (
            integrity_problems(self.store, self.index)
            + self.attachments.problems()
            + [f"left behind: {item}" for item in left]
        )


def _not_writable(folder: Path, db_path: Path) -> bool:
    """Whether this user may not write the library: the folder (SQLite makes -wal and -shm
    files there) or its database file. A folder not made yet is writable if its parent is."""
    if not folder.exists():
        return False
    return not os.access(folder, os.W_OK) or (db_path.exists() and not os.access(db_path, os.W_OK))
