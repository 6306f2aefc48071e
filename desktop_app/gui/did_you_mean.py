""" "Did you mean …?" under the search box: a query with fewer than three hits is offered a
spelling correction from the index's vocabulary (``Library.did_you_mean``); one click applies it.

Nothing of it runs at start-up or while typing: the correction is computed in a worker after a
result with few hits is shown, and dropped if the query changed meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLayout, QToolButton, QWidget

from desktop_app.core.library import Library
from desktop_app.gui.jobs import Job, keep_while_running

if TYPE_CHECKING:
    from desktop_app.gui.window_protocol import WindowLike

FEW_HITS = 3  # as core/search/suggest.py (not imported at start-up)


class DidYouMeanLine(QWidget):
    """Hidden until a correction is known; ``applied`` carries the corrected query."""

    applied = Signal(str)

    def __init__(self, library: Library, owner: QWidget) -> None:
        super().__init__(owner)
        self.setObjectName("didYouMean")
        self._library = library
        self._owner = owner  # holds the workers (a window waits for them when it closes)
        self._query = ""
        self.suggestion = ""
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 0, 8, 2)
        row.setSpacing(4)
        self.label = QLabel(self.tr("Did you mean:"), self)
        self.button = QToolButton(self)  # plain text: the words come from the user and the library
        self.button.setObjectName("didYouMeanButton")
        self.button.setAutoRaise(True)
        self.button.setStyleSheet(
            "QToolButton#didYouMeanButton { color: palette(link); text-decoration: underline; border: none; }"
        )
        self.button.setToolTip(self.tr("Search for this instead"))
        self.button.clicked.connect(self._apply)
        row.addWidget(self.label)
        row.addWidget(self.button)
        row.addStretch(1)
        self.hide()

    def after_result(self, query: str, hits: int) -> None:
        """Called when a query's result is shown: look for a correction when it found few."""
        self._query = query
        self.hide()
        if hits >= FEW_HITS or not query.strip():
            return
        library = self._library
        job = Job(lambda _progress, _cancelled: library.did_you_mean(query, hits), self._owner)
        job.succeeded.connect(lambda fixed, q=query: self._offer(q, fixed))
        keep_while_running(self._owner, job)
        job.start()

    def _offer(self, query: str, fixed: object) -> None:
        if query != self._query or not isinstance(fixed, str) or not fixed:
            return  # the user has moved on, or nothing to offer
        self.suggestion = fixed
        self.button.setText(fixed.replace("&", "&&") + "?")
        self.button.setAccessibleName(self.tr("Did you mean: {0}? Press to search for it").format(fixed))
        self.show()

    def _apply(self) -> None:
        self.hide()
        self.applied.emit(self.suggestion)


def attach(library: Library, owner: QWidget, layout: QLayout, apply: Callable[[str], None]) -> DidYouMeanLine:
    """Build the line, add it to ``layout`` (below the search bar) and apply a click with ``apply``."""
    line = DidYouMeanLine(library, owner)
    line.applied.connect(apply)
    layout.addWidget(line)
    return line


def screenshot_view(window: WindowLike) -> QWidget:
    """The search area showing a correction: a misspelt query typed, its offer waited for."""
    from PySide6.QtCore import QCoreApplication, QElapsedTimer

    window.search.set_text("reinforcment lerning")
    window.on_query_typed("reinforcment lerning")
    timer = QElapsedTimer()
    timer.start()
    while window.did_you_mean.isHidden() and timer.elapsed() < 5000:
        QCoreApplication.processEvents()
    area = window.search.parentWidget()
    assert area is not None  # the search bar sits in the window's centre
    return area
