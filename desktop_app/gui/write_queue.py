"""Library writes in a worker, one at a time and in order: a bulk edit on many papers, its undo
and its redo (written on the GUI thread, 10,000 papers froze the window for seconds).

:class:`WriteQueue` runs each submitted write in a :class:`~desktop_app.gui.jobs.Job` (the
Library opens its own connection there; one transaction, as every write) and hands the result
back on the GUI thread. While it works, the status bar shows :class:`WriteProgress`, a line
saying what is being applied with a busy bar; other edits wait their turn in the queue or are
refused (``EditController``). Workers never touch widgets: ``work`` calls Library methods only.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TypeVar

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QWidget

from desktop_app.core.errors import LibraryError
from desktop_app.core.values import Change
from desktop_app.gui.jobs import Job, keep_while_running

T = TypeVar("T")  # what a write hands to its done or failed (a Change, a message)

LARGE = 300  # papers: an edit of more runs in the worker (10,000 took 3.6 s on the GUI thread)


@dataclass
class _Write:
    text: str
    work: Callable[[], Change]
    done: Callable[[Change], None]
    failed: Callable[[str], None]


class WriteQueue(QObject):
    """One write at a time in a worker; ``busyChanged`` while any is queued or running.

    ``gui_wait()`` bounds how long a write tried on the GUI thread first (an undo, a redo) waits
    for the write lock (``Store.waiting_at_most``); one that would wait longer is ``deferred``
    here instead, which says so (``deferredWrite``)."""

    busyChanged = Signal(bool)  # noqa: N815
    started = Signal(str)  # the text of the write now running
    deferredWrite = Signal(str)  # noqa: N815  a write that found the lock held elsewhere waits here

    def __init__(self, owner: QObject, gui_wait: Callable[[], AbstractContextManager[None]] | None = None) -> None:
        super().__init__(owner)
        self._owner = owner
        self.gui_wait = gui_wait or contextlib.nullcontext
        self._pending: deque[_Write] = deque()
        self._job: Job | None = None
        self.runs = 0  # writes finished in the worker (the tests count them)

    def busy(self) -> bool:
        return self._job is not None or bool(self._pending)

    def submit(
        self, text: str, work: Callable[[], Change], done: Callable[[Change], None], failed: Callable[[str], None]
    ) -> None:
        """Run ``work`` after the writes before it; ``done`` or ``failed`` on the GUI thread."""
        was = self.busy()
        self._pending.append(_Write(text, work, done, failed))
        if self._job is None:
            self._next()
        if not was:
            self.busyChanged.emit(True)

    def defer(
        self, text: str, work: Callable[[], Change], done: Callable[[Change], None], failed: Callable[[str], None]
    ) -> None:
        """A write the GUI thread tried and found the lock held by another program: said, then
        run here after the writes before it."""
        self.deferredWrite.emit(text)
        self.submit(text, work, done, failed)

    def drain(self, msecs: int = 60000) -> None:
        """The window is closing: let the running write finish, then do the queued ones here
        (an undo asked for just before closing is not lost); their errors are dropped."""
        pending, self._pending = list(self._pending), deque()
        if self._job is not None:
            self._job.wait(msecs)
        for write in pending:
            try:
                write.work()
            except LibraryError:
                continue

    def _next(self) -> None:
        if not self._pending:
            self._job = None
            self.busyChanged.emit(False)
            return
        write = self._pending.popleft()
        job = Job(lambda _progress, _cancelled: write.work(), self._owner)
        job.succeeded.connect(lambda change: self._finished(write.done, change))
        job.failed.connect(lambda message: self._finished(write.failed, message))
        keep_while_running(self._owner, job)
        self._job = job
        self.started.emit(write.text)
        job.start()

    def _finished(self, then: Callable[[T], None], value: T) -> None:
        self.runs += 1
        try:
            then(value)
        finally:
            self._next()


class WriteProgress(QWidget):
    """The status bar's line while the queue works: what is applied, and a busy bar."""

    def __init__(self, queue: WriteQueue, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("writeProgress")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel(self)
        self.label.setObjectName("writeProgressText")
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 0)  # one transaction: no steps to count, only that it is running
        self.bar.setMaximumWidth(120)
        self.bar.setMaximumHeight(14)
        self.bar.setTextVisible(False)
        lay.addWidget(self.label)
        lay.addWidget(self.bar)
        self.hide()
        queue.started.connect(lambda text: self.label.setText(self.tr("Applying “{0}”…").format(text)))
        queue.busyChanged.connect(self.setVisible)
