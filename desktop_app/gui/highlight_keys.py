"""Highlighting without the mouse: select in the abstract with Shift+arrows (the abstract takes a
keyboard caret when it has the focus), press h, then a colour digit.

``h`` arms the choice for :data:`CHOICE_MS` and the highlight bar names the colours; then 1…5
highlights the selection in that colour (the order of ``core.highlights.COLORS``, the bar's
order), a second h or Enter in the first colour (yellow), Esc cancels, and any other key cancels
and does what it always does. While the choice is armed the digits are the highlight's: the
abstract's rating keys (0–5) do not fire (the key's ``ShortcutOverride`` is accepted here).
The highlight goes through the reader's ``highlight_selection``, the mouse path: one undoable
edit. Shift+1…5 still highlight at once.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent

from desktop_app.core.highlights import COLORS
from desktop_app.gui import i18n

ReaderPane = Any  # the reader (reader.py builds this: no import back)

CHOICE_MS = 4000  # how long h waits for its colour digit
HINT_MS = 4000  # how long "select words first" stays
CANCEL = "cancel"


class HighlightKeys(QObject):
    """An event filter on the reader's abstract: the colour key after ``h``."""

    def __init__(self, reader: ReaderPane) -> None:
        super().__init__(reader)
        self.reader = reader
        self.pending = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.disarm)
        reader.abstract.installEventFilter(self)

    def arm(self) -> None:
        """``h`` was pressed in the abstract: wait for the colour (or say what is missing)."""
        r = self.reader
        if r.paper is None or r.read_only:
            return
        if r.selection_span() is None:
            r.show_highlight_prompt(
                QCoreApplication.translate(
                    "HighlightKeys", "Select words first: Shift+arrows in the abstract, then h and 1–5"
                )
            )
            self.pending = False
            self._timer.start(HINT_MS)
            return
        self.pending = True
        colours = " · ".join(f"{n} {i18n.color_label(c)}" for n, c in enumerate(COLORS, 1))
        r.show_highlight_prompt(
            QCoreApplication.translate("HighlightKeys", "Highlight color: {0} (Esc cancels)").format(colours)
        )
        self._timer.start(CHOICE_MS)

    def disarm(self) -> None:
        self.pending = False
        self._timer.stop()
        self.reader.show_highlight_prompt(None)

    @staticmethod
    def choice(event: QKeyEvent) -> str | None:
        """The colour (or :data:`CANCEL`) a key picks while armed; None for any other key."""
        if event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return None
        key = event.key()
        if Qt.Key.Key_1 <= key < Qt.Key.Key_1 + len(COLORS):
            return COLORS[key - Qt.Key.Key_1]
        if key in (Qt.Key.Key_H, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            return COLORS[0]
        if key == Qt.Key.Key_Escape:
            return CANCEL
        return None

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        kind = event.type()
        if kind == QEvent.Type.FocusOut and self.pending:
            self.disarm()
            return False
        if (
            not self.pending
            or kind not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride)
            or not isinstance(event, QKeyEvent)
        ):
            return False
        if event.key() in (Qt.Key.Key_Shift, Qt.Key.Key_Control, Qt.Key.Key_Alt, Qt.Key.Key_Meta):
            return False  # a modifier alone decides nothing yet
        picked = self.choice(event)
        if picked is None:
            self.disarm()  # and the key does what it always does
            return False
        if kind == QEvent.Type.ShortcutOverride:
            event.accept()  # the digit is the highlight's, not the rating's
            return True
        self.disarm()
        if picked != CANCEL:
            self.reader.highlight_selection(picked)
        return True
