"""Unread / Skimmed / Read as a segmented control."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QToolButton, QWidget

from desktop_app.core.store.column_types import STATUSES
from desktop_app.gui import i18n

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from desktop_app.gui.rating_control import RatingControl

KEYS = {"unread": "U", "skimmed": "S", "read": "R"}


class StatusControl(QWidget):
    statusChosen = Signal(str)  # noqa: N815

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statusControl")
        self.setAccessibleName(self.tr("Reading status"))
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        self.buttons: dict[str, QToolButton] = {}
        for status in STATUSES:
            b = QToolButton(self)
            b.setText(i18n.status_label(status))
            b.setCheckable(True)
            b.setObjectName(f"status_{status}")
            b.setToolTip(self.tr("Mark as {0} (key {1})").format(i18n.status_label(status), KEYS[status].lower()))
            b.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            b.clicked.connect(lambda _=False, s=status: self.statusChosen.emit(s))
            self.group.addButton(b)
            lay.addWidget(b)
            self.buttons[status] = b

    def status(self) -> str:
        for s, b in self.buttons.items():
            if b.isChecked():
                return s
        return "unread"

    def set_status(self, status: str) -> None:
        """Show a status without emitting ``statusChosen``."""
        if status in self.buttons:
            self.buttons[status].setChecked(True)


def decision_row(
    parent: QWidget,
    on_status: Callable[[str], object] | SignalInstance,
    on_rating: Callable[[int], object] | SignalInstance,
) -> tuple[QHBoxLayout, StatusControl, RatingControl]:
    """The status buttons and the stars side by side (the reader and triage): the row, and both.
    ``on_status`` and ``on_rating``: a slot, or a signal the choice is relayed to."""
    from desktop_app.gui.rating_control import RatingControl

    row = QHBoxLayout()
    status = StatusControl(parent)
    status.statusChosen.connect(on_status)
    rating = RatingControl(parent)
    rating.ratingChosen.connect(on_rating)
    row.addWidget(status)
    row.addSpacing(16)
    row.addWidget(rating)
    row.addStretch(1)
    return row, status, rating
