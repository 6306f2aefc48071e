"""Keeps the derived Whoosh index in step with the database.

Writers queue paper ids in ``index_queue`` inside their own transaction. ``drain`` turns the
queue into index documents in one index commit and then deletes exactly the queue rows it
handled; anything queued meanwhile stays for the next drain. A crash between the database commit
and the index commit leaves the queue full, and the next open drains it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from sqlalchemy import Select, String, delete, func, literal, select, type_coerce

from desktop_app.core.search.index import IndexDoc, SearchIndex
from desktop_app.core.store import Store
from desktop_app.core.store import tables as t

log = logging.getLogger(__name__)
# Whoosh's segment flush sorts in Python holding the GIL; 2,000-paper batches froze the GUI
# thread for up to 1.3 s after an import, 250 for under 0.2 s (benchmarks/bench_gui.py)
DRAIN_BATCH = 250



def _doc_select(store: Store) -> Select:
    """What an index document is made of: the paper's text, its note and its highlights."""
    p, n, h = t.paper.c, t.note.c, t.highlight.c
    note = select(n.text).where(n.paper_id == p.id).scalar_subquery()
    marks = (
        select(store.dialect.string_agg(h.comment + literal(" ") + h.quote, " "))
        .where(h.paper_id == p.id).scalar_subquery()
    )
    return select(
        p.id, p.uid, p.title, p.abstract_text, p.authors_json, p.keywords_json, p.venue, p.year,
        func.coalesce(note, "").label("note"), func.coalesce(marks, "").label("hl"),
    ).where(p.deleted_at.is_(None))


def _doc(r) -> IndexDoc:  # noqa: ANN001
    import json

    authors = " ".join(json.loads(r.authors_json or "[]"))
    return IndexDoc(
        pid=r.id, title=r.title or "", abstract=r.abstract_text or "", authors=authors,
        note=r.note, highlight=r.hl, venue=r.venue or "", year=r.year, uid=r.uid,
        keywords=" ; ".join(json.loads(r.keywords_json or "[]")),
    )


class IndexSync:
    def __init__(self, folder: Path, store: Store, *, background: bool = False, read_only: bool = False) -> None:
        self.index = SearchIndex(folder, read_only=read_only)
        self.read_only = read_only
        # why text search cannot work (read-only library without a usable index), else None
        self.unavailable: str | None = None
        self.store = store
        self.is_open = False
        self._drain_lock = threading.Lock()
        self._background = background
        self._wake = threading.Event()
        self._stop = False
        self._thread: threading.Thread | None = None
        self.last_error: str | None = None

    # ---- lifecycle -------------------------------------------------------------------------
    def ensure(
        self,
        live_count: int,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> str:
        """Open the index, rebuilding it when it is missing, unreadable, outdated or
        inconsistent with the database. Returns why it was rebuilt, or "ok"."""
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

    def _ensure_read_only(self, usable: bool, why: str) -> str:
        """A read-only library's index is used as it is (papers still queued are not in it)."""
        if usable:
            self.index.open()
            self.is_open = True
            self.unavailable = None
            return "ok"
        self.unavailable = (f"the search index is {why} and the library is read-only, so it cannot be "
                            "rebuilt: text search is unavailable (listing by tag, status or list works)")
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
            result = conn.execution_options(stream_results=True).execute(
                _doc_select(self.store).order_by(t.paper.c.id)
            )
            for r in result:
                yield _doc(r)

    def mark_damaged(self) -> None:
        """Close the index and spoil its stamp, so that the next ``ensure`` rebuilds it."""
        from desktop_app.core.search.index import STAMP

        with self._drain_lock:
            self.index.close()
            self.is_open = False
            if self.read_only:
                self.unavailable = ("the search index is damaged and the library is read-only, so it "
                                    "cannot be rebuilt: text search is unavailable")
                return
            (self.index.folder / STAMP).unlink(missing_ok=True)

    def close(self) -> None:
        self._stop = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
        if self.is_open:
            self._drain_logged()  # what fails stays queued for the next open
        self.index.close()
        self.is_open = False

    # ---- updates ---------------------------------------------------------------------------
    def changed(self) -> None:
        """Called after a commit that queued papers."""
        if self._background and self._thread is not None:
            self._wake.set()
        elif self.is_open:
            # The database write is committed and its papers stay queued: a failed index
            # update must not report the write as failed. The next drain (or open) redoes it.
            self._drain_logged()

    def _drain_logged(self) -> None:
        try:
            self.drain()
            self.last_error = None
        except Exception as exc:  # noqa: BLE001 - kept for the GUI; queue is retried
            log.exception("index update failed")
            self.last_error = str(exc)

    def drain(self) -> int:
        """Write every queued paper to the index. Returns how many were handled."""
        if not self.is_open or self.read_only:
            return 0
        handled = 0
        with self._drain_lock:
            while True:
                q = t.index_queue.c
                # the time as stored, compared as stored: a row written by another program
                # ("2026-01-01 00:00:00") would not equal its own value re-formatted
                stamp = type_coerce(q.queued_at, String)
                with self.store.read() as conn:
                    queued = conn.execute(
                        select(q.paper_id, stamp).order_by(q.paper_id).limit(DRAIN_BATCH)
                    ).all()
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

    def pending(self) -> int:
        """Papers queued for the index and not yet written to it."""
        with self.store.read() as conn:
            return conn.execute(select(func.count()).select_from(t.index_queue)).scalar_one()

    def _start_thread(self) -> None:
        if not self._background or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="index-sync", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop:
            self._wake.wait()
            self._wake.clear()
            if self._stop:
                break
            self._drain_logged()
