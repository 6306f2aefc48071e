"""An editable title that wraps instead of being cut off; Enter or leaving it commits."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtGui import QFocusEvent, QFont, QKeyEvent, QResizeEvent
from PySide6.QtWidgets import QFrame, QPlainTextEdit, QSizePolicy, QWidget


class TitleEdit(QPlainTextEdit):
    editingFinished = Signal()  # noqa: N815

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("titleEdit")
        self.setAccessibleName(self.tr("Title"))
        f = QFont(self.font())
        f.setPointSizeF(f.pointSizeF() * 1.3)
        f.setBold(True)
        self.setFont(f)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setTabChangesFocus(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.document().documentLayout().documentSizeChanged.connect(lambda _s: self._fit())
        self._fit()

    def text(self) -> str:
        return self.toPlainText()

    def setText(self, text: str) -> None:  # noqa: N802
        self.setPlainText(text)
        self._fit()

    def setCursorPosition(self, pos: int) -> None:  # noqa: N802
        cur = self.textCursor()
        cur.setPosition(pos)
        self.setTextCursor(cur)

    def _fit(self) -> None:
        lines = max(1, int(self.document().size().height()))
        h = self.fontMetrics().lineSpacing() * min(lines, 4) + 10
        self.setFixedHeight(h)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.editingFinished.emit()
            parent = self.parentWidget()
            if parent:
                parent.setFocus()
            return
        super().keyPressEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802
        self.editingFinished.emit()
        super().focusOutEvent(event)

    def insertFromMimeData(self, source: QMimeData) -> None:  # noqa: N802
        self.insertPlainText(" ".join(source.text().split()))
