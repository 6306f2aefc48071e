"""A five-star rating control: click a star, or press 0-5 while it has focus."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QToolButton, QWidget


class RatingControl(QWidget):
    ratingChosen = Signal(int)  # noqa: N815

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ratingControl")
        self.setAccessibleName(self.tr("Rating"))
        self._rating = 0
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        self.buttons: list[QToolButton] = []
        # the stars' colours are rules of the application's style sheet (desktop_app.gui.theme),
        # parsed once; a star's colour follows its "filled" property (a style sheet per star and
        # per paper shown cost ~1 ms a star)
        for n in range(1, 6):
            b = QToolButton(self)
            b.setAutoRaise(True)
            b.setObjectName(f"star{n}")
            b.setAccessibleName(self.tr("%n star(s)", "", n))
            b.setToolTip(self.tr("Rate {0} (key {1}); click again to clear").format(n, n))
            b.clicked.connect(lambda _=False, n=n: self._clicked(n))
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            lay.addWidget(b)
            self.buttons.append(b)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._paint()

    def rating(self) -> int:
        return self._rating

    def set_rating(self, rating: int) -> None:
        """Show a rating without emitting ``ratingChosen``."""
        self._rating = max(0, min(5, rating))
        self._paint()

    def _clicked(self, n: int) -> None:
        self.ratingChosen.emit(0 if n == self._rating else n)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        text = event.text()
        if text in "012345" and text:
            self.ratingChosen.emit(int(text))
            return
        super().keyPressEvent(event)

    def _paint(self) -> None:
        for n, b in enumerate(self.buttons, 1):
            filled = n <= self._rating
            b.setText("★" if filled else "☆")
            if b.property("filled") != filled:
                b.setProperty("filled", filled)
                b.style().unpolish(b)  # the style sheet's [filled="true"] rule applies again
                b.style().polish(b)
        self.setAccessibleDescription(f"{self._rating} of 5")
