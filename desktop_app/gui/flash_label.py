"""A label that shows a short confirmation ("Marked read") and clears itself a moment later."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QWidget

FLASH_MS = 1500  # long enough to be read at a glance, short enough to be gone by the next paper


class FlashLabel(QLabel):
    """Empty until :meth:`flash`; then the text for ``FLASH_MS``, and empty again."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("flashLabel")
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setAccessibleName(self.tr("Last decision"))
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.clear)

    def flash(self, text: str, ms: int = FLASH_MS) -> None:
        """Show ``text`` now (replacing any earlier one) for ``ms`` milliseconds."""
        self.setText(text)
        self._timer.start(ms)

    def showing(self) -> bool:
        return bool(self.text()) and self._timer.isActive()
