"""Undo commands. Each calls Library methods only (no SQL here); the first execution happens
before the command is pushed, so a refused edit never lands on the stack."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QUndoCommand, QUndoStack

from desktop_app.core.errors import LibraryError
from desktop_app.core.values import Change

Do = Callable[[], Change]
Undo = Callable[[Change], Change]
Notify = Callable[[Change], None]
Failed = Callable[[str], None]  # told why an undo or redo could not be done


class LibraryCommand(QUndoCommand):
    def __init__(self, text: str, do: Do, undo: Undo, notify: Notify, first: Change,
                 failed: Failed | None = None) -> None:
        super().__init__(text)
        self._do = do
        self._undo = undo
        self._notify = notify
        self._change = first
        self._skip_first_redo = True
        self._failed = failed

    def redo(self) -> None:
        if self._skip_first_redo:
            self._skip_first_redo = False
            return
        try:
            self._change = self._do()
        except LibraryError as exc:
            self._give_up("Redo", exc)
            return
        self._notify(self._change)

    def undo(self) -> None:
        try:
            change = self._undo(self._change)
        except LibraryError as exc:
            self._give_up("Undo", exc)
            return
        self._notify(change)

    def _give_up(self, what: str, exc: LibraryError) -> None:
        """The library refused: say so, and take this step off the stack (Qt drops an obsolete
        command after its undo or redo), so that no "Redo …" is offered that did not happen."""
        self.setObsolete(True)
        if self._failed is not None:
            self._failed(f"{what} “{self.text()}” is not possible: {exc}")


def perform(stack: QUndoStack, text: str, do: Do, undo: Undo, notify: Notify,
            failed: Failed | None = None) -> Change:
    """Run ``do`` now; when it succeeds, push it so that Ctrl+Z runs ``undo``.
    Errors from ``do`` propagate and nothing is pushed. A later undo or redo that the library
    refuses is reported to ``failed`` and the step leaves the stack."""
    change = do()
    notify(change)
    stack.push(LibraryCommand(text, do, undo, notify, change, failed))
    return change


class NoteCommand(QUndoCommand):
    """A note's autosaves while one paper is being written about, as one undo step.

    The first save has already happened when the command is pushed. Consecutive saves of the
    same paper merge, so Ctrl+Z (outside the note editor, which keeps its own typing undo)
    brings back the note as it was before this bout of writing. Nothing is lost either way:
    every text the library held stays as a revision.
    """

    ID = 1001

    def __init__(self, paper_id: int, old: str, new: str, apply, notify: Notify) -> None:  # noqa: ANN001
        super().__init__(QCoreApplication.translate("EditController", "Edit note"))
        self.paper_id, self.old, self.new = paper_id, old, new
        self._apply = apply  # (paper_id, text) -> Change
        self._notify = notify
        self._skip_first_redo = True
        self.closed = False  # set when the user moves on, so later saves start a new step

    def id(self) -> int:  # noqa: A003
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
