"""Alt+← goes back to the paper you came from after following a related paper (a short
history, newest last; a paper deleted since is passed over)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence

from desktop_app.core.errors import LibraryError

if TYPE_CHECKING:
    from desktop_app.gui.window_protocol import WindowLike

BACK_KEY = "Alt+Left"
DEPTH = 20  # papers remembered


class BackHistory(QObject):
    """The papers left by following a related paper; :meth:`back` returns to the newest."""

    def __init__(self, window: WindowLike) -> None:
        super().__init__(window.window())
        self.window_ = window
        self.trail: list[int] = []
        action = QAction(QCoreApplication.translate("MainWindow", "Back to the previous paper"), window.window())
        action.setObjectName("backAction")
        action.setShortcut(QKeySequence(BACK_KEY))
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(lambda _=False: self.back())
        window.window().addAction(action)
        self.action = action

    def left(self, pid: int | None) -> None:
        """``pid`` is being left for a related paper."""
        if pid is None or (self.trail and self.trail[-1] == pid):
            return
        self.trail.append(pid)
        del self.trail[:-DEPTH]

    def back(self) -> bool:
        """Select the paper left last (all papers shown if the filter hides it)."""
        w = self.window_
        if w.stack.currentWidget() is not w.splitter:
            return False  # triage, the welcome panel: no table to go back in
        while self.trail:
            pid = self.trail.pop()
            if pid == w.current_id():
                continue
            if w.select_paper(pid):
                return True
            if self._exists(pid):
                w.state.query = ""
                w.search.set_text("")
                w.on_sidebar_filter("all", "")
                if w.select_paper(pid):
                    return True
        w.status_message(QCoreApplication.translate("MainWindow", "No paper to go back to"), 3000)
        return False

    def _exists(self, pid: int) -> bool:
        try:
            self.window_.library.papers.get(pid)
        except LibraryError:
            return False
        return True
