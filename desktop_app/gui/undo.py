"""Undo commands. Each calls Library methods only (no SQL here); the first execution happens
before the command is pushed, so a refused edit never lands on the stack."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Protocol

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QUndoCommand, QUndoStack

from desktop_app.core.errors import LibraryBusy, LibraryError
from desktop_app.core.values import Change, ChangeKind

Do = Callable[[], Change]
Undo = Callable[[Change], Change]
Notify = Callable[[Change], None]
Failed = Callable[[str], None]  # told why an undo or redo could not be done


class Runner(Protocol):
    """Runs library writes in a worker, in order (gui/write_queue.py's WriteQueue)."""

    def busy(self) -> bool: ...

    def submit(
        self, text: str, work: Callable[[], Change], done: Callable[[Change], None], failed: Callable[[str], None]
    ) -> None: ...

    def gui_wait(self) -> AbstractContextManager[None]: ...

    def defer(
        self, text: str, work: Callable[[], Change], done: Callable[[Change], None], failed: Callable[[str], None]
    ) -> None: ...


class LibraryCommand(QUndoCommand):
    """An edit as one undo step. With a ``runner``, its undo and redo run there (in a worker)
    when the edit is ``large`` or the runner is still busy with writes before them, else here,
    waiting for the write lock no longer than the runner's ``gui_wait`` allows: held longer by
    another program, they are deferred to the runner too."""

    def __init__(
        self,
        text: str,
        do: Do,
        undo: Undo,
        notify: Notify,
        first: Change | None,
        failed: Failed | None = None,
        runner: Runner | None = None,
        *,
        large: bool = False,
    ) -> None:
        super().__init__(text)
        self._do = do
        self._undo = undo
        self._notify = notify
        self._change = first  # None while the first run is still in the runner
        self._skip_first_redo = True
        self._failed = failed
        self._runner = runner
        self._large = large
        self._dead = False  # its first run failed in the runner: undo and redo do nothing

    def _queued(self) -> Runner | None:
        """The runner, when this undo or redo is to run there."""
        runner = self._runner
        return runner if runner is not None and (self._large or runner.busy()) else None

    def redo(self) -> None:
        if self._skip_first_redo:
            self._skip_first_redo = False
            return
        if self._dead:
            return
        runner = self._queued()
        if runner is not None:
            runner.submit(self.text(), self._do, self.applied, lambda why: self._report("Redo", why))
            return
        try:
            with self._gui_wait():
                self._change = self._do()
        except LibraryBusy:  # another program holds the write lock: the worker waits for it
            self._defer(self._do, self.applied, "Redo")
            return
        except LibraryError as exc:
            self._give_up("Redo", exc)
            return
        self._notify(self._change)

    def undo(self) -> None:
        if self._dead:
            return
        runner = self._queued()
        if runner is not None:
            runner.submit(self.text(), self._undo_now, self._notify, lambda why: self._report("Undo", why))
            return
        try:
            with self._gui_wait():
                change = self._undo_now()
        except LibraryBusy:
            self._defer(self._undo_now, self._notify, "Undo")
            return
        except LibraryError as exc:
            self._give_up("Undo", exc)
            return
        self._notify(change)

    def _gui_wait(self) -> AbstractContextManager[None]:
        """How long a run here may wait for the write lock (without a runner: as long as it takes)."""
        return self._runner.gui_wait() if self._runner is not None else contextlib.nullcontext()

    def _defer(self, work: Callable[[], Change], done: Callable[[Change], None], what: str) -> None:
        if self._runner is None:  # (no runner: nothing bounds the wait, so nothing is busy)
            return
        self._runner.defer(self.text(), work, done, lambda why: self._report(what, why))

    def _undo_now(self) -> Change:
        """The undo of the last run (read when it runs: after that run, in the runner's order)."""
        if self._change is None:
            return Change(ChangeKind.PAPERS, ())
        return self._undo(self._change)

    def applied(self, change: Change) -> None:
        """A run in the runner is done: keep its change for the undo, and tell the window."""
        self._change = change
        self._notify(change)

    def first_run_failed(self, why: str) -> None:
        """The first run, in the runner, was refused: this step does nothing any more (the
        stack drops it at its next undo) and the user is told."""
        self._dead = True
        self.setObsolete(True)
        self._report("Edit", why)

    def _report(self, what: str, why: str) -> None:
        if self._failed is not None:
            self._failed(f"{what} “{self.text()}” is not possible: {why}")

    def _give_up(self, what: str, exc: LibraryError) -> None:
        """The library refused: say so, and take this step off the stack (Qt drops an obsolete
        command after its undo or redo), so that no "Redo …" is offered that did not happen."""
        self.setObsolete(True)
        self._report(what, str(exc))


def perform(
    stack: QUndoStack,
    text: str,
    do: Do,
    undo: Undo,
    notify: Notify,
    failed: Failed | None = None,
    runner: Runner | None = None,
) -> Change:
    """Run ``do`` now; when it succeeds, push it so that Ctrl+Z runs ``undo``.
    Errors from ``do`` propagate and nothing is pushed. A later undo or redo that the library
    refuses is reported to ``failed`` and the step leaves the stack. With a ``runner`` (busy
    with other writes by then), that undo or redo waits its turn there."""
    change = do()
    notify(change)
    stack.push(LibraryCommand(text, do, undo, notify, change, failed, runner))
    return change


def perform_in(
    runner: Runner,
    stack: QUndoStack,
    text: str,
    do: Do,
    undo: Undo,
    notify: Notify,
    failed: Failed,
    *,
    first_run: Do | None = None,
    after: Callable[[bool], None] | None = None,
) -> LibraryCommand:
    """Push the step at once and run ``do`` in ``runner`` (a large edit): its undo or redo,
    asked for meanwhile, runs after it there. A refused ``do`` is reported to ``failed`` and the
    step then does nothing (the stack drops it at its next undo). ``first_run``: what the runner
    runs the first time instead of ``do`` (the same edit, watched); ``after(saved)``: called on
    the GUI thread once that first run has ended."""
    cmd = LibraryCommand(text, do, undo, notify, None, failed, runner, large=True)
    stack.push(cmd)  # its first redo() is skipped: the runner does the first run

    def done(change: Change) -> None:
        cmd.applied(change)
        if after is not None:
            after(True)

    def refused(why: str) -> None:
        cmd.first_run_failed(why)
        if after is not None:
            after(False)

    runner.submit(text, first_run or do, done, refused)
    return cmd


class NoteCommand(QUndoCommand):
    """A note's autosaves while one paper is being written about, as one undo step.

    The first save has already happened when the command is pushed. Consecutive saves of the
    same paper merge, so Ctrl+Z (outside the note editor, which keeps its own typing undo)
    brings back the note as it was before this bout of writing. Nothing is lost either way:
    every text the library held stays as a revision.
    """

    ID = 1001

    def __init__(self, paper_id: int, old: str, new: str, apply: Callable[[int, str], Change], notify: Notify) -> None:
        super().__init__(QCoreApplication.translate("EditController", "Edit note"))
        self.paper_id, self.old, self.new = paper_id, old, new
        self._apply = apply  # (paper_id, text) -> Change
        self._notify = notify
        self._skip_first_redo = True
        self.closed = False  # set when the user moves on, so later saves start a new step

    def id(self) -> int:
        return self.ID

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802
        if not isinstance(other, NoteCommand) or other.paper_id != self.paper_id or self.closed:
            return False
        self.new = other.new
        return True

    def redo(self) -> None:
        if self._skip_first_redo:
            self._skip_first_redo = False
            return
        self._notify(self._apply(self.paper_id, self.new))

    def undo(self) -> None:
        self._notify(self._apply(self.paper_id, self.old))
