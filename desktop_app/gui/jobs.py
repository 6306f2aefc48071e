"""Long work off the GUI thread: a QThread runs a function with progress and cancel, results
come back by signal, and a progress dialog with Cancel shows while it runs. Workers never touch
widgets."""

from __future__ import annotations

import logging
import threading
import traceback
import weakref
from collections.abc import Callable
from typing import TypeVar, cast

from PySide6.QtCore import QCoreApplication, QObject, QThread, QTimer, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget

Work = Callable[[Callable[[int, int], None], Callable[[], bool]], object]
T = TypeVar("T")  # what a job's work returns, handed to its on_done
log = logging.getLogger(__name__)


class Job(QThread):
    progressed = Signal(int, int)
    succeeded = Signal(object)
    failed = Signal(str)

    def __init__(self, work: Work, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._work: Work | None = work
        self._cancel = threading.Event()
        self.damaged_found = False  # the work failed on a damaged database

    def cancel(self) -> None:
        self._cancel.set()

    def start(self, priority: QThread.Priority = QThread.Priority.InheritPriority) -> None:
        """Start the work, unless it was cancelled or its window has closed
        (:func:`close_jobs_of`): a timer of a closed window that starts a job would leave it
        running when the window is deleted, and Qt ends the process for that."""
        if self._cancel.is_set() or _within_closed(self):
            self._cancel.set()
            return
        super().start(priority)

    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def run(self) -> None:
        # The job object stays (a child of its owner, for its listeners' queued slots), but what
        # its work holds goes with the run: a closure over the shown list's 100,000 ids, kept by
        # every finished job of a triage session, grew the window by megabytes a decision.
        work, self._work = self._work, None
        if work is None:
            return
        try:
            result = work(lambda n, t: self.progressed.emit(int(n), int(t)), self._cancel.is_set)
        except Exception as exc:  # reported to the user in one place (logged when cancelled)
            if self._cancel.is_set():
                # asked to stop (its window closing, the user): what the work raised then is the
                # stop's doing, told to no one (a warning parented to a closed window aborted Qt)
                log.debug("a cancelled job ended with %s", type(exc).__name__, exc_info=True)
                return
            from desktop_app.core.errors import LibraryError
            from desktop_app.core.search.errors import QuerySyntaxError
            from desktop_app.core.store.backups import is_damage

            if is_damage(exc):  # bad pages: one line; the window offers the backup (``damaged``)
                self.damaged_found = True
                self.failed.emit(self.tr("The library database is damaged ({0}).").format(getattr(exc, "orig", exc)))
            elif isinstance(exc, LibraryError | QuerySyntaxError | OSError):
                self.failed.emit(str(exc))
            else:
                self.failed.emit(f"{type(exc).__name__}: {exc}\n\n{traceback.format_exc(limit=6)}")
            return
        self.succeeded.emit(result)


def start_job(
    parent: QWidget,
    label: str,
    work: Callable[[Callable[[int, int], None], Callable[[], bool]], T],
    on_done: Callable[[T], object],
    on_error: Callable[[str], object],
    *,
    modal: bool = True,
) -> Job:
    """Run ``work(progress, cancelled)`` in a thread with a progress dialog shown after 300 ms."""
    job = Job(work, parent)
    dialog = QProgressDialog(label, QCoreApplication.translate("Jobs", "Cancel"), 0, 0, parent)
    dialog.setObjectName("jobProgress")
    dialog.setWindowTitle(QCoreApplication.translate("Jobs", "Marginalia"))
    dialog.setMinimumDuration(300)
    dialog.setAutoClose(False)
    dialog.setAutoReset(False)
    if modal:
        from PySide6.QtCore import Qt

        dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.canceled.connect(job.cancel)

    def progress(n: int, total: int) -> None:
        dialog.setMaximum(max(total, 1))
        dialog.setValue(min(n, max(total, 1)))

    def finish() -> None:
        dialog.reset()
        dialog.close()
        dialog.deleteLater()

    job.progressed.connect(progress)

    def done(result: object) -> None:
        finish()
        on_done(cast(T, result))  # what ``work`` returned

    def error(message: str) -> None:
        finish()
        on_error(message)

    job.succeeded.connect(done)
    job.failed.connect(error)
    # No deleteLater on finished: it would drop queued slots of other listeners. The job is a
    # child of ``parent`` and goes with it (a window waits for running jobs when it closes).
    keep_while_running(parent, job)
    QTimer.singleShot(0, job.start)
    return job


# The running jobs of each owner, kept here rather than written onto the owner; an owner that goes
# takes its entry with it.
_RUNNING: weakref.WeakKeyDictionary[QObject, set[Job]] = weakref.WeakKeyDictionary()


def keep_while_running(owner: QObject, job: Job) -> None:
    """Hold a reference to ``job`` on ``owner`` until it finishes; :func:`running_jobs` lists them."""
    jobs = _RUNNING.setdefault(owner, set())
    jobs.add(job)
    job.finished.connect(lambda: jobs.discard(job))


def running_jobs(owner: QObject) -> list[Job]:
    """The jobs started for ``owner`` that have not finished."""
    return list(_RUNNING.get(owner, set()))


def running_jobs_within(window: QObject) -> list[Job]:
    """The unfinished jobs of ``window`` and of everything inside it (its dialogs, views and
    panels own theirs): a window waits for them all on close, since a QThread destroyed while
    it runs ends the process (Qt's "QThread: Destroyed while thread is still running")."""
    found: list[Job] = []
    for owner, jobs in list(_RUNNING.items()):
        obj: QObject | None = owner
        try:
            while obj is not None and obj is not window:
                obj = obj.parent()
        except RuntimeError:  # an owner (or one above it) already deleted on Qt's side
            continue
        if obj is window:
            found.extend(jobs)
    return found


# Windows that have closed: no job of theirs (or of anything inside them) starts any more.
_CLOSED: weakref.WeakSet[QObject] = weakref.WeakSet()


def close_jobs_of(window: QObject, wait_ms: int = 30000) -> None:
    """``window`` is closing: every job within it is cancelled and waited for (each at most
    ``wait_ms``), and none starts after (a timer still running in the closed window)."""
    _CLOSED.add(window)
    for job in running_jobs_within(window):
        job.cancel()
        job.wait(wait_ms)


def _within_closed(job: Job) -> bool:
    obj: QObject | None = job.parent()
    try:
        while obj is not None:
            if obj in _CLOSED:
                return True
            obj = obj.parent()
    except RuntimeError:  # deleted on Qt's side: nothing to run for
        return True
    return False


class SerialJob:
    """One worker at a time for one kind of request (the topics of the shown list, its map, its
    filled columns): :meth:`start` runs ``work`` now, or, while an earlier run is still going,
    remembers ``again`` (the latest request wins) and calls it when that run ends, instead of
    handing over the answer that is out of date by then."""

    def __init__(self, owner: QObject) -> None:
        self.owner = owner
        self.job: Job | None = None
        self._again: Callable[[], None] | None = None

    def busy(self) -> bool:
        return self.job is not None

    def start(
        self, work: Work, done: Callable[[object], None], failed: Callable[[str], None], again: Callable[[], None]
    ) -> bool:
        """Start ``work``; False (and ``again`` kept for later) when a run is going."""
        if self.job is not None:
            self._again = again
            return False
        job = Job(work, self.owner)
        job.succeeded.connect(lambda result: self._end(done, result))
        job.failed.connect(lambda message: self._end(failed, message))
        keep_while_running(self.owner, job)
        self.job = job
        job.start()
        return True

    def _end(self, handler: Callable[[object], None] | Callable[[str], None], value: object) -> None:
        self.job = None
        again, self._again = self._again, None
        if again is not None:
            again()
        else:
            handler(value)  # type: ignore[arg-type]
