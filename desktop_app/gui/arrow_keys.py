"""A row of buttons that is one Tab stop (``focus_order``): the arrows move between its buttons,
Enter (or Space, the button's own key) presses the one with the focus. Used by the reader's
links, its tag suggestions and its related papers (all reachable without the mouse).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractButton

NEXT = (Qt.Key.Key_Right, Qt.Key.Key_Down)
PREVIOUS = (Qt.Key.Key_Left, Qt.Key.Key_Up)
PRESS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


class ArrowGroup(QObject):
    """Arrow keys and Enter on the buttons ``members()`` returns (in their visual order)."""

    def __init__(self, parent: QObject, members: Callable[[], list[QAbstractButton]]) -> None:
        super().__init__(parent)
        self.members = members

    def watch(self, button: QAbstractButton) -> None:
        """Take the keys of ``button`` (call once for each button made)."""
        button.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        button.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        # the type test first: while the window closes, PySide6 has handed this filter events
        # whose wrapper was no QEvent (their ``type`` an int), and a key event is all it wants
        if (
            not isinstance(event, QKeyEvent)
            or event.type() != QEvent.Type.KeyPress
            or event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        ):
            return False
        chain = [b for b in self.members() if b.isVisible()]
        if obj not in chain:
            return False
        at = chain.index(obj)
        key = event.key()
        if key in NEXT or key in PREVIOUS:
            to = at + (1 if key in NEXT else -1)
            if 0 <= to < len(chain):
                chain[to].setFocus(Qt.FocusReason.OtherFocusReason)
            return True  # at either end the focus stays (Tab leaves the row)
        if key in PRESS:
            chain[at].click()
            return True
        return False
