"""A label that shows a short confirmation ("Marked read") and clears itself a moment later.

While it shows, the text sits on a pill in the palette's highlight colour (so it follows the
light and dark schemes and catches the eye beside the plain progress line), and assistive tools
are told (an accessibility Alert): the decision was taken, whatever paper is on screen next.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAccessible, QAccessibleEvent
from PySide6.QtWidgets import QLabel, QWidget

FLASH_MS = 1500  # long enough to be read at a glance, short enough to be gone by the next paper
PILL = (
    'QLabel#flashLabel[showing="true"] { background: palette(highlight); color: palette(highlighted-text);'
    " border-radius: 8px; padding: 1px 8px; font-weight: 600; }"
)


class FlashLabel(QLabel):
    """Empty until :meth:`flash`; then the text for ``FLASH_MS``, and empty again."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("flashLabel")
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setAccessibleName(self.tr("Last decision"))
        self.setProperty("showing", False)
        self.setStyleSheet(PILL)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._end)

    def flash(self, text: str, ms: int = FLASH_MS) -> None:
        """Show ``text`` now (replacing any earlier one) for ``ms`` milliseconds."""
        self.setText(text)
        self._set_showing(True)
        self._timer.start(ms)
        if QAccessible.isActive():
            QAccessible.updateAccessibility(QAccessibleEvent(self, QAccessible.Event.Alert))

    def showing(self) -> bool:
        return bool(self.text()) and self._timer.isActive()

    def _end(self) -> None:
        self.clear()
        self._set_showing(False)

    def _set_showing(self, on: bool) -> None:
        if self.property("showing") != on:
            self.setProperty("showing", on)
            self.style().unpolish(self)  # a dynamic property's rule applies on the next polish
            self.style().polish(self)
