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

from sqlalchemy import Engine, text

from desktop_app.core.search.index import IndexDoc, SearchIndex

log = logging.getLogger(__name__)
# Whoosh's segment flush sorts in Python holding the GIL; 2,000-paper batches froze the GUI
# thread for up to 1.3 s after an import, 250 for under 0.2 s (benchmarks/bench_gui.py)
DRAIN_BATCH = 250

_DOC_SQL = (
    "SELECT p.id, p.uid, p.title, p.abstract_text, p.authors_json, p.venue, p.year, "
    "coalesce((SELECT n.text FROM note n WHERE n.paper_id=p.id), '') AS note, "
    "coalesce((SELECT group_concat(h.comment || ' ' || h.quote, ' ') FROM highlight h "
    "WHERE h.paper_id=p.id), '') AS hl FROM paper p "
)


def _doc(r) -> IndexDoc:  # noqa: ANN001
    import json

    authors = " ".join(json.loads(r.authors_json or "[]"))
    return IndexDoc(
        pid=r.id, title=r.title or "", abstract=r.abstract_text or "", authors=authors,
        note=r.note, highlight=r.hl, venue=r.venue or "", year=r.year, uid=r.uid,
    )


class IndexSync:
    def __init__(self, folder: Path, engine: Engine, *, background: bool = False) -> None:
        self.index = SearchIndex(folder)
        self.engine = engine
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

    def rebuild(
        self,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> bool:
        with self._drain_lock:
            with self.engine.connect() as conn:
                total = conn.execute(text("SELECT count(*) FROM paper WHERE deleted_at IS NULL")).scalar_one()
                conn.execute(text("DELETE FROM index_queue"))
                conn.commit()
            ok = self.index.rebuild(self._all_docs(), total, progress, cancelled)
            self.is_open = ok or self.is_open
            return ok

    def _all_docs(self) -> Iterator[IndexDoc]:
        with self.engine.connect() as conn:
            result = conn.execution_options(stream_results=True).execute(
                text(_DOC_SQL + "WHERE p.deleted_at IS NULL ORDER BY p.id")
            )
            for r in result:
                yield _doc(r)

    def mark_damaged(self) -> None:
        """Close the index and spoil its stamp, so that the next ``ensure`` rebuilds it."""
        from desktop_app.core.search.index import STAMP

        with self._drain_lock:
            self.index.close()
            self.is_open = False
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
        if not self.is_open:
            return 0
        handled = 0
        with self._drain_lock:
            while True:
                with self.engine.connect() as conn:
                    queued = conn.execute(
                        text("SELECT paper_id, queued_at FROM index_queue ORDER BY paper_id LIMIT :n"),
                        {"n": DRAIN_BATCH},
                    ).all()
                    if not queued:
                        return handled
                    ids = [q[0] for q in queued]
                    rows = conn.execute(
                        text(_DOC_SQL + "WHERE p.deleted_at IS NULL AND p.id IN "
                             "(SELECT value FROM json_each(:ids))"),
                        {"ids": str(ids)},
                    ).all()
                docs = [_doc(r) for r in rows]
                live = {d.pid for d in docs}
                self.index.update(docs, [i for i in ids if i not in live])
                with self.engine.begin() as conn:
                    for pid, at in queued:
                        conn.execute(
                            text("DELETE FROM index_queue WHERE paper_id=:p AND queued_at=:a"),
                            {"p": pid, "a": at},
                        )
                handled += len(queued)

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
