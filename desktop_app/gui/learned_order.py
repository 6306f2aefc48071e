"""The learned triage order, computed off the GUI thread.

``rank(ids, learned)`` asks for the order of the window's list (``lib.triage.order``) in a worker;
``ranked`` brings back ``{"queue": Queue, "near": (ids, decision) | None}``. One worker at a time:
a request while one runs is remembered (only the newest) and started when it ends, so a burst
of decisions costs one extra ranking, not one each. The triage view keeps showing the best of
the last ranking meanwhile: a key never waits for the model. A large library's first ranking
builds its tf-idf features in a child process (``text_features.build_in_child``), so the
tokenising does not hold this process's interpreter lock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from desktop_app.gui.jobs import Job, keep_while_running

if TYPE_CHECKING:
    from desktop_app.core.library import Library

CHILD_BUILD_PAPERS = 5_000  # from this size the tf-idf features are built in a child process


def _work(
    library: Library, ids: list[int], learned: bool, decided: tuple[int, str | None] | None, cancelled: object
) -> dict[str, object]:
    if learned and library.server is None and len(ids) >= CHILD_BUILD_PAPERS:
        if not library.triage.features_cached():
            library.triage.build_features_in_child()  # else: built in this thread below
    queue = library.triage.order(ids, learned=learned, limit=None, why=5)
    near = None
    if decided is not None and decided[1] is not None:
        pid, decision = decided
        dups = [p for p, _ in library.triage.near_duplicates(pid)]
        near = (dups, decision) if dups else None
    return {"queue": queue, "near": near}


class LearnedOrder(QObject):
    ranked = Signal(object)
    failed = Signal(str)

    def __init__(self, library: Library, parent: QObject, owner: QObject | None = None) -> None:
        super().__init__(parent)
        self.library = library
        self._owner = owner or parent  # holds the running job (the window waits for it on close)
        self._job: Job | None = None
        self._pending: tuple[list[int], bool, tuple[int, str | None] | None] | None = None
        self.runs = 0  # rankings finished (tests wait on it)

    def busy(self) -> bool:
        return self._job is not None

    def rank(self, ids: list[int], learned: bool, decided: tuple[int, str | None] | None = None) -> None:
        request = (list(ids), learned, decided)
        if self._job is not None:
            if self._pending is not None and decided is None:
                request = (request[0], learned, self._pending[2])  # keep the offer of the last decision
            self._pending = request
            return
        self._start(request)

    def _start(self, request: tuple[list[int], bool, tuple[int, str | None] | None]) -> None:
        ids, learned, decided = request
        library = self.library
        job = Job(lambda _progress, cancelled: _work(library, ids, learned, decided, cancelled), self._owner)
        job.succeeded.connect(self._done)
        job.failed.connect(self._failed)
        keep_while_running(self._owner, job)
        self._job = job
        job.start()

    def _next(self) -> None:
        self._job = None
        self.runs += 1
        if self._pending is not None:
            request, self._pending = self._pending, None
            self._start(request)

    def _done(self, result: object) -> None:
        pending = self._pending is not None
        self._next()
        if not pending:  # a newer request is running: this result is already stale
            self.ranked.emit(result)

    def _failed(self, message: str) -> None:
        self._next()
        self.failed.emit(message)
