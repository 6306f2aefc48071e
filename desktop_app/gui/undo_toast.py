"""A status-bar message with an Undo button after a bulk edit: "Tagged 12 papers “to-cite” — Undo".

The button undoes that edit while it is the last one on the undo stack; once another edit, an
undo or a redo moves the stack, the message goes (Edit → Undo is there for the rest)."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QStatusBar, QWidget

TOAST_MS = 12000


class UndoToast(QWidget):
    def __init__(self, stack: QUndoStack, bar: QStatusBar) -> None:
        super().__init__(bar)
        self.setObjectName("undoToast")
        self._stack = stack
        self._bar = bar
        self._index = -1  # the stack index right after the edit this message is about
        self.label = QLabel(self)
        self.label.setObjectName("undoToastText")
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # tag and list names are the user's text
        self.button = QPushButton(self.tr("Undo"), self)
        self.button.setObjectName("undoToastButton")
        self.button.setAccessibleName(self.tr("Undo the last bulk edit"))
        self.button.clicked.connect(self.undo)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.button)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.dismiss)
        stack.indexChanged.connect(self._stack_moved)
        bar.addWidget(self)
        self.hide()

    def show_for_last(self, text: str) -> None:
        """Say ``text`` about the command just pushed, with its Undo button."""
        self._index = self._stack.index()
        self.label.setText(text)
        self._bar.clearMessage()  # a plain message would hide this one
        self.show()
        self._timer.start(TOAST_MS)

    def undo(self) -> None:
        if self.isVisible() and self._stack.index() == self._index and self._stack.canUndo():
            self._stack.undo()
        self.dismiss()

    def dismiss(self) -> None:
        self._timer.stop()
        self._index = -1
        self.hide()

    def _stack_moved(self, index: int) -> None:
        if index != self._index:
            self.dismiss()
