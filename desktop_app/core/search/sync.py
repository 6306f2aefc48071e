"""Keeps the derived Whoosh index in step with the database.

Writers queue paper ids in ``index_queue`` inside their own transaction. ``drain`` turns the
queue into index documents in one index commit and then deletes exactly the queue rows it
handled; anything queued meanwhile stays for the next drain. A crash between the database commit
and the index commit leaves the queue full, and the next open drains it.

Who writes: the caller (``background=False``: the CLI, tests), a thread of this process
(``"thread"``), or a child process (``"process"``, the window's default: ``index_worker``), which
keeps Whoosh's segment building off this process's GIL. With a child, this process only reads
the index; it falls back to the thread when the child cannot start or dies.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import Row, Select, String, delete, func, literal, select, type_coerce

from desktop_app.core.errors import ServerUnreachable
from desktop_app.core.search.index import IndexDoc, SearchIndex
from desktop_app.core.search.worker import Event, WorkerClient, WorkerFailed
from desktop_app.core.store import Store
from desktop_app.core.store import tables as t

log = logging.getLogger(__name__)
# Whoosh's segment flush sorts in Python holding the GIL; 2,000-paper batches froze the GUI
# thread for up to 1.3 s after an import, 250 for under 0.2 s (benchmarks/bench_gui.py)
DRAIN_BATCH = 250
# the child process holds no GUI's GIL: bigger commits, fewer segment merges (10,000 queued
# papers drained in 87 s at 250 a commit, 50 s at 1,000, 23 s at 2,500, measured)
CHILD_DRAIN_BATCH = 2000
BATCH_ENV = "MARGINALIA_INDEX_BATCH"  # overrides both (tests)


def _doc_select(store: Store) -> Select[*tuple[Any, ...]]:
    """What an index document is made of: the paper's text, its note and its highlights."""
    p, n, h = t.paper.c, t.note.c, t.highlight.c
    note = select(n.text).where(n.paper_id == p.id).scalar_subquery()
    marks = (
        select(store.dialect.string_agg(h.comment + literal(" ") + h.quote, " "))
        .where(h.paper_id == p.id)
        .scalar_subquery()
    )
    return select(
        p.id,
        p.uid,
        p.title,
        p.abstract_text,
        p.authors_json,
        p.keywords_json,
        p.venue,
        p.year,
        func.coalesce(note, "").label("note"),
        func.coalesce(marks, "").label("hl"),
    ).where(p.deleted_at.is_(None))


def _doc(r: Row[*tuple[Any, ...]]) -> IndexDoc:
    import json

    authors = " ".join(json.loads(r.authors_json or "[]"))
    return IndexDoc(
        pid=r.id,
        title=r.title or "",
        abstract=r.abstract_text or "",
        authors=authors,
        note=r.note,
        highlight=r.hl,
        venue=r.venue or "",
        year=r.year,
        uid=r.uid,
        keywords=" ; ".join(json.loads(r.keywords_json or "[]")),
    )


def _writer_mode(background: bool | str, read_only: bool) -> str:
    """ "inline", "thread" or "process" (see the module's docstring)."""
    if read_only or not background:
        return "inline"
    from desktop_app.core.search.worker import ENV_MODE

    wanted = os.environ.get(ENV_MODE, "").strip().lower()
    if background == "thread" or wanted in ("thread", "0", "off", "no"):
        return "thread"
    if sys.platform == "win32":
        # not tried there yet: the child swaps index folders the window may hold open
        return "thread"
    return "process"


class IndexSync:
    def __init__(self, folder: Path, store: Store, *, background: bool | str = False, read_only: bool = False) -> None:
        self.index = SearchIndex(folder, read_only=read_only)
        self.read_only = read_only
        # why text search cannot work (read-only library without a usable index), else None
        self.unavailable: str | None = None
        self.store = store
        self.is_open = False
        self._drain_lock = threading.Lock()
        self.mode = _writer_mode(background, read_only)
        self._background = self.mode != "inline"
        self._wake = threading.Event()
        self._stop = False
        self._thread: threading.Thread | None = None
        self._worker: WorkerClient | None = None
        self._draining = False  # the thread is between queue and index
        # called with each progress event ({"event": "progress", "phase", "done", "total"}, "done",
        # "error", "exit"), from the writer's thread or the child's reader thread
        self.listeners: list[Callable[[Event], None]] = []
        self.last_error: str | None = None
        self.batch = int(os.environ.get(BATCH_ENV, "") or DRAIN_BATCH)  # papers per index commit

    # ---- lifecycle -------------------------------------------------------------------------
    def ensure(
        self,
        live_count: int,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> str:
        """Open the index, rebuilding it when it is missing, unreadable, outdated or
        inconsistent with the database. Returns why it was rebuilt, or "ok"."""
        if self.mode == "process" and self._start_worker():
            try:
                return self._ensure_in_worker(progress, cancelled)
            except WorkerFailed as exc:
                if exc.damaged:
                    raise
                self._fall_back(f"{exc}")
        usable, why = self.index.is_usable()
        if self.read_only:
            return self._ensure_read_only(usable, why)
        if usable:
            self.index.open()
            self.is_open = True
            self.drain()
            if self.index.doc_count() == live_count:
                self._start_thread()
                return "ok"
            why = "inconsistent"
            self.index.close()
            self.is_open = False
        log.info("rebuilding the search index (%s)", why)
        if not self.rebuild(progress, cancelled):
            return "cancelled"
        self._start_thread()
        return why

    def catch_up(self, live_count: int) -> str:
        """A library kept open (``marginalia serve``) before it answers: the check a new process
        makes on opening, without reopening what is warm. Queued papers are written, other
        processes' index commits picked up; a count that disagrees with the database's then
        goes through :meth:`ensure` (a rebuild). Returns what :meth:`ensure` would."""
        if not self.is_open:
            return self.ensure(live_count)
        self.drain()
        if self.index.doc_count() == live_count:  # doc_count follows the newest generation
            return "ok"
        self.index.close()
        self.is_open = False
        return self.ensure(live_count)

    # ---- the child process -----------------------------------------------------------------
    def _start_worker(self) -> bool:
        """Start the child (once); False, logged, when it cannot start: the thread writes."""
        if self._worker is not None and self._worker.alive:
            return True
        worker = WorkerClient(self.index.folder, on_event=self._worker_event)
        try:
            worker.start()
        except OSError as exc:
            self._fall_back(f"cannot start it: {exc}")
            return False
        self._worker = worker
        return True

    def _fall_back(self, why: str) -> None:
        worker, self._worker = self._worker, None
        if self.mode == "process":
            log.warning("index writer process: %s; writing the index in a thread instead", why)
        self.mode = "thread"
        if worker is not None:
            worker.kill()

    def _live_worker(self) -> WorkerClient | None:
        worker = self._worker  # read once: the reader thread may drop it (the child died)
        return worker if worker is not None and worker.alive else None

    def _ensure_in_worker(
        self, progress: Callable[[int, int], None] | None, cancelled: Callable[[], bool] | None
    ) -> str:
        worker = self._worker
        if worker is None:
            raise WorkerFailed("the index writer stopped")
        with self.index._lock:  # the child may swap the folder: hold nothing open in it
            self.index.close()
            self.is_open = False
        answer = worker.wait(worker.send("ensure"), None, progress, cancelled)
        why = str(answer.get("result"))
        self._open_reader()
        return why

    def _open_reader(self) -> None:
        with self.index._lock:
            self.index.close()
            try:
                self.index.open()
                self.is_open = True
            except Exception as exc:  # noqa: BLE001 - no index (a cancelled first build)
                log.info("search index not opened: %s", exc)
                self.is_open = False

    def _worker_event(self, event: Event) -> None:
        kind = event.get("event")
        if kind == "done" and event.get("cmd") in ("drain", "quit", "ensure"):
            self.last_error = None
            with self.index._lock:
                if self.is_open and self.index._searcher is not None:
                    self.index._current()  # the reader follows the new generation
        elif kind == "error":
            self.last_error = event.get("message")
        elif kind == "exit" and not self._stop:
            worker = self._worker
            if worker is not None and worker.exited:
                self._fall_back(f"it stopped (exit status {event.get('code')})")
                if self.is_open:
                    self._start_thread()
                    self._wake.set()
        self._notify(event)

    def _notify(self, event: Event) -> None:
        for listener in list(self.listeners):
            try:
                listener(event)
            except Exception:
                log.exception("index progress listener failed")

    def caught_up(self) -> bool:
        """Nothing queued and no writer busy (the status bar's "Indexing…" is over)."""
        worker = self._live_worker()
        if worker is not None and worker.busy:
            return False
        if self._draining or self._drain_lock.locked():
            return False
        return self.pending() == 0

    def _ensure_read_only(self, usable: bool, why: str) -> str:
        """A read-only library's index is used as it is (papers still queued are not in it)."""
        if usable:
            self.index.open()
            self.is_open = True
            self.unavailable = None
            return "ok"
        self.unavailable = (
            f"the search index is {why} and the library is read-only, so it cannot be "
            "rebuilt: text search is unavailable (listing by tag, status or list works)"
        )
        return why

    def rebuild(
        self,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> bool:
        if self.read_only:
            from desktop_app.core.errors import LibraryReadOnly
            from desktop_app.core.store.failures import READ_ONLY

            raise LibraryReadOnly(f"{READ_ONLY}, so its search index cannot be rebuilt ({self.store.location})")
        worker = self._live_worker()
        if worker is not None:
            with self.index._lock:  # the child swaps the folder: hold nothing open in it
                self.index.close()
                self.is_open = False
            try:
                return bool(worker.wait(worker.send("rebuild"), None, progress, cancelled)["result"])
            except WorkerFailed as exc:
                if exc.damaged:
                    raise
                self._fall_back(str(exc))  # and rebuild here
            finally:
                self._open_reader()
        with self._drain_lock:
            with self.store.write() as tx:
                total = tx.conn.execute(
                    select(func.count()).select_from(t.paper).where(t.paper.c.deleted_at.is_(None))
                ).scalar_one()
                tx.conn.execute(delete(t.index_queue))
            ok = self.index.rebuild(self._all_docs(), total, progress, cancelled)
            self.is_open = ok or self.is_open
            return ok

    def _all_docs(self) -> Iterator[IndexDoc]:
        with self.store.read() as conn:
            result = conn.execution_options(stream_results=True).execute(_doc_select(self.store).order_by(t.paper.c.id))
            for r in result:
                yield _doc(r)

    def mark_damaged(self) -> None:
        """Close the index and spoil its stamp, so that the next ``ensure`` rebuilds it."""
        from desktop_app.core.search.index import STAMP

        with self._drain_lock:
            self.index.close()
            self.is_open = False
            if self.read_only:
                self.unavailable = (
                    "the search index is damaged and the library is read-only, so it "
                    "cannot be rebuilt: text search is unavailable"
                )
                return
            (self.index.folder / STAMP).unlink(missing_ok=True)

    def close(self, drain: bool = True) -> None:
        """Stop the writer; with ``drain`` write what is queued first (else it waits for the next
        open)."""
        self._stop = True
        self._wake.set()
        if self._worker is not None:
            self._worker.close(timeout=30)  # the child drains, then exits
            self._worker = None
        if self._thread is not None:
            self._thread.join(timeout=30)
        if drain and self.is_open and self.mode != "process":
            self._drain_logged()  # what fails stays queued for the next open
        self.index.close()
        self.is_open = False

    # ---- updates ---------------------------------------------------------------------------
    def changed(self) -> None:
        """Called after a commit that queued papers."""
        worker = self._live_worker()
        if worker is not None:
            try:
                worker.send("drain")
                return
            except WorkerFailed as exc:
                self._fall_back(str(exc))
                self._start_thread()
        if self._background and self._thread is not None:
            self._wake.set()
        elif self.is_open:
            # The database write is committed and its papers stay queued: a failed index
            # update must not report the write as failed. The next drain (or open) redoes it.
            self._drain_logged()

    def _drain_logged(
        self, progress: Callable[[int, int], None] | None = None, stop: Callable[[], bool] | None = None
    ) -> None:
        try:
            self.drain(progress, stop) if progress is not None or stop is not None else self.drain()
            self.last_error = None
        except ServerUnreachable as exc:  # a shared library's server is gone: the index is fine,
            log.warning("index update waits for the server: %s", exc)  # and catches up on return
        except Exception as exc:
            log.exception("index update failed")
            self.last_error = str(exc)

    def drain(self, progress: Callable[[int, int], None] | None = None, stop: Callable[[], bool] | None = None) -> int:
        """Write every queued paper to the index. Returns how many were handled.

        ``progress(done, total)`` after each index commit (total: done + still queued); ``stop()``
        checked between commits ends early (the rest stays queued). With the child writing, this
        asks it to drain and waits for it."""
        worker = self._live_worker()
        if worker is not None:
            try:
                answer = worker.wait(worker.send("drain"), None)
                with self.index._lock:
                    if self.is_open and self.index._searcher is not None:
                        self.index._current()
                return int(answer.get("result") or 0)
            except WorkerFailed as exc:
                self._fall_back(str(exc))  # and drain here
        if not self.is_open or self.read_only:
            return 0
        handled = 0
        with self._drain_lock:
            while True:
                if stop is not None and stop():
                    return handled
                q = t.index_queue.c
                # the time as stored, compared as stored: a row written by another program
                # ("2026-01-01 00:00:00") would not equal its own value re-formatted
                stamp = type_coerce(q.queued_at, String)
                with self.store.read() as conn:
                    queued = conn.execute(select(q.paper_id, stamp).order_by(q.paper_id).limit(self.batch)).all()
                    if not queued:
                        return handled
                    ids = [row[0] for row in queued]
                    rows = conn.execute(
                        _doc_select(self.store).where(self.store.dialect.in_ids(t.paper.c.id, ids))
                    ).all()
                docs = [_doc(r) for r in rows]
                live = {d.pid for d in docs}
                self.index.update(docs, [i for i in ids if i not in live])
                # only rows not queued again meanwhile (same time): those stay for the next drain
                with self.store.write() as tx:
                    for pid, at in queued:
                        tx.conn.execute(delete(t.index_queue).where(q.paper_id == pid, stamp == at))
                handled += len(queued)
                if progress is not None:
                    with self.store.read() as conn:
                        left = conn.execute(select(func.count()).select_from(t.index_queue)).scalar_one()
                    progress(handled, handled + left)

    def pending(self) -> int:
        """Papers queued for the index and not yet written to it."""
        with self.store.read() as conn:
            return conn.execute(select(func.count()).select_from(t.index_queue)).scalar_one()

    def _start_thread(self) -> None:
        if not self._background or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="index-sync", daemon=True)
        self._thread.start()

    def _stopping(self) -> bool:
        """Whether close() has asked the drain thread to stop (read anew at each call)."""
        return self._stop

    def _run(self) -> None:
        def progress(done: int, total: int) -> None:
            self._notify({"event": "progress", "phase": "drain", "done": done, "total": total})

        while not self._stopping():
            self._wake.wait()
            self._wake.clear()
            if self._stopping():  # close() set it while this thread waited
                break
            self._draining = True
            try:
                # stopped between index commits by close(): what is left stays queued (drained
                # by close itself, or at the next open), not written for up to 30 s meanwhile
                self._drain_logged(progress if self.listeners else None, lambda: self._stop)
            finally:
                self._draining = False
            self._notify({"event": "done", "cmd": "drain"})
