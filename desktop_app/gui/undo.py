"""Undo commands. Each calls Library methods only (no SQL here); the first execution happens
before the command is pushed, so a refused edit never lands on the stack."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand, QUndoStack

from desktop_app.core.values import Change

Do = Callable[[], Change]
Undo = Callable[[Change], Change]
Notify = Callable[[Change], None]


class LibraryCommand(QUndoCommand):
    def __init__(self, text: str, do: Do, undo: Undo, notify: Notify, first: Change) -> None:
        super().__init__(text)
        self._do = do
        self._undo = undo
        self._notify = notify
        self._change = first
        self._skip_first_redo = True

    def redo(self) -> None:
        if self._skip_first_redo:
            self._skip_first_redo = False
            return
        self._change = self._do()
        self._notify(self._change)

    def undo(self) -> None:
        self._notify(self._undo(self._change))


def perform(stack: QUndoStack, text: str, do: Do, undo: Undo, notify: Notify) -> Change:
    """Run ``do`` now; when it succeeds, push it so that Ctrl+Z runs ``undo``.
    Errors from ``do`` propagate and nothing is pushed."""
    change = do()
    notify(change)
    stack.push(LibraryCommand(text, do, undo, notify, change))
    return change
