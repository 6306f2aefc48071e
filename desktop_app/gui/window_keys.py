"""Where the keys go: Esc out of the reader's text fields back to the table.

Esc in the title first puts back the title the paper has (what was typed goes); Esc again, or
Esc with nothing typed, gives the keys back to the table, so that j/k, u/s/r and the digits act
on papers again. The tag field does the same (``TagEditor.leaveRequested``). Esc in the note
saves it and goes back to the table. Enter in the title saves it and goes back to the table.
(The search box's Esc, which also empties it, is the window's own shortcut.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent

if TYPE_CHECKING:
    from desktop_app.gui.window_protocol import WindowLike


class FieldKeys(QObject):
    """An event filter on the reader's title and note editors."""

    def __init__(self, win: WindowLike) -> None:
        super().__init__(win.window())
        self.win = win
        reader = win.reader
        reader.title_edit.installEventFilter(self)
        reader.notes.edit.installEventFilter(self)
        reader.tags.leaveRequested.connect(self.back_to_table)

    def back_to_table(self) -> None:
        self.win.table.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() != QEvent.Type.KeyPress or not isinstance(event, QKeyEvent):
            return False
        if event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        key = event.key()
        reader = self.win.reader
        if obj is reader.title_edit:
            if key == Qt.Key.Key_Escape:
                self._escape_title()
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.back_to_table()  # leaving the title saves it (TitleEdit.focusOutEvent)
                return True
        elif obj is reader.notes.edit and key == Qt.Key.Key_Escape:
            reader.notes.flush()
            self.back_to_table()
            return True
        return False

    def _escape_title(self) -> None:
        edit, paper = self.win.reader.title_edit, self.win.reader.paper
        if paper is not None and " ".join(edit.text().split()) != paper.title:
            edit.setText(paper.title)  # the first Esc takes back what was typed
            edit.setCursorPosition(len(paper.title))
            return
        self.back_to_table()
