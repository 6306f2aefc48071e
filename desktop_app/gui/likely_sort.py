"""The table's "Likely keep" sort: the learned triage order (``lib.triage.order``) applied to the
shown list, computed in a worker.

The window asks :meth:`LikelySort.order` for the ids of each query while this sort is chosen: the
undecided papers by the last ranking's score (most likely keep first; reversed for a descending
sort), then the decided ones in the query's order. :meth:`refresh` starts a worker when the list
or the library changed since the last ranking; its result is kept and the window runs its query
again, which then finds the ranking current and starts nothing. Before the first ranking (or
before one keep and one skip exist) the list keeps the query's order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QObject, Signal

from desktop_app.gui.jobs import Job, keep_while_running

if TYPE_CHECKING:
    from desktop_app.core.insights.triage_queue import Queue
    from desktop_app.core.library import Library

SORT_KEY = "likely"


class LikelySort(QObject):
    ranked = Signal()  # a new ranking is kept: the window re-runs its query

    def __init__(self, library: Library, owner: QObject) -> None:
        super().__init__(owner)
        self.library = library
        self._owner = owner
        self.scores: dict[int, float] = {}  # undecided paper -> share of the library it outranks
        self.learned = False
        self._for: tuple[int, ...] | None = None  # the ids the kept ranking was made for
        self._dirty = True
        self._job: Job | None = None

    def changed(self, *_args: object) -> None:
        """The library changed (an edit, its undo, another process): rank again when asked."""
        self._dirty = True

    def order(self, ids: list[int], descending: bool) -> list[int]:
        if not self.learned:
            return ids
        scored = [pid for pid in ids if pid in self.scores]
        scored.sort(key=self.scores.__getitem__, reverse=not descending)
        chosen = set(scored)
        return scored + [pid for pid in ids if pid not in chosen]

    def refresh(self, ids: list[int]) -> None:
        key = tuple(ids)
        if self._job is not None or (key == self._for and not self._dirty):
            return
        library = self.library
        job = Job(lambda _progress, _cancelled: (key, library.triage.order(list(key), why=0)), self._owner)
        job.succeeded.connect(self._done)
        job.failed.connect(lambda _message: self._finished())
        keep_while_running(self._owner, job)
        self._job = job
        self._dirty = False
        job.start()

    def _finished(self) -> None:
        self._job = None

    def _done(self, result: object) -> None:
        self._finished()
        key, queue = cast("tuple[tuple[int, ...], Queue]", result)  # as refresh hands it over
        self._for = key
        self.learned = queue.summary.learned
        self.scores = queue.entries.scores()
        self.ranked.emit()
