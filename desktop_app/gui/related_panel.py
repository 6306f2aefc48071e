"""Related papers and tag suggestions in the reader, computed off the selection's hot path.

:class:`RelatedPanel`: a collapsible section under the abstract and its highlights listing the
ten papers most similar to the shown one (``Library.related``); a click selects that paper in the
table. A paper outside the current filter is shown anyway: the window switches to All papers
(the search text cleared) and says so in the status bar.

:class:`SimilarWork` does the work for both the panel and the tag suggestion chips
(``tag_suggestions.py``): :data:`DELAY_MS` after a paper is shown (so that j/k through the table
starts nothing), one worker computes the related papers, their titles and the tag suggestions;
a result for a paper no longer shown is dropped (the stale worker is also told to stop). Results
are cached per paper until the library changes (any change the window sees, after which the
search index moves to a new generation).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.gui import preferences, theme
from desktop_app.gui.jobs import Job, keep_while_running

if TYPE_CHECKING:
    from desktop_app.core.library import Library

SHOWN = 10
DELAY_MS = 150  # after the paper is shown: moving through the table starts no work
RELATED_COLLAPSED = preferences.RELATED_COLLAPSED


class RelatedPanel(QWidget):
    """A header button (collapses the list; the state is a preference) and up to ten titles."""

    paperChosen = Signal(int)  # noqa: N815

    def __init__(self, settings, parent: QWidget | None = None) -> None:  # noqa: ANN001 - QSettings
        super().__init__(parent)
        self.setObjectName("relatedPanel")
        self._settings = settings
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 4, 0, 0)
        lay.setSpacing(0)
        self.header = QToolButton(self)
        self.header.setObjectName("relatedHeader")
        self.header.setText(self.tr("Related papers"))
        self.header.setAutoRaise(True)
        self.header.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.header.clicked.connect(lambda: self.set_collapsed(not self.collapsed))
        lay.addWidget(self.header)
        self.body = QWidget(self)
        self.rows = QVBoxLayout(self.body)
        self.rows.setContentsMargins(14, 0, 0, 0)
        self.rows.setSpacing(0)
        lay.addWidget(self.body)
        self.state = QLabel(self.body)
        self.state.setObjectName("hintText")
        self.rows.addWidget(self.state)
        self.buttons: list[TitleLink] = []
        self.collapsed = False
        theme.follow(self, lambda: [b.restyle() for b in self.buttons])
        self.set_collapsed(preferences.get_bool(settings, RELATED_COLLAPSED), save=False)

    def set_collapsed(self, on: bool, save: bool = True) -> None:
        self.collapsed = on
        self.body.setVisible(not on)
        self.header.setArrowType(Qt.ArrowType.RightArrow if on else Qt.ArrowType.DownArrow)
        self.header.setToolTip(self.tr("Show the related papers") if on else self.tr("Hide the related papers"))
        if save:
            preferences.put(self._settings, RELATED_COLLAPSED, on)

    def show_waiting(self) -> None:
        self._clear()
        self.state.setText(self.tr("Looking for related papers…"))
        self.state.show()

    def show_message(self, text: str) -> None:
        self._clear()
        self.state.setText(text)
        self.state.show()

    def show_related(self, items: list[tuple[int, str]]) -> None:
        """(paper id, title) pairs, most similar first."""
        self._clear()
        if not items:
            self.show_message(self.tr("No related papers in this library"))
            return
        self.state.hide()
        for pid, title in items:
            b = TitleLink(title, self.body)
            b.clicked.connect(lambda _=False, p=pid: self.paperChosen.emit(p))
            self.rows.addWidget(b)
            self.buttons.append(b)

    def _clear(self) -> None:
        for b in self.buttons:
            self.rows.removeWidget(b)
            b.hide()
            b.deleteLater()
        self.buttons = []


class TitleLink(QPushButton):
    """A paper's title as a flat, left-aligned button, elided at the right to its width."""

    def __init__(self, title: str, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("relatedPaper")
        self.title = title
        self.setFlat(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip(html.escape(title))  # a tooltip turns rich text if it looks like it: escaped
        self.setAccessibleName(title)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.restyle()
        self._elide()

    def restyle(self) -> None:
        k = theme.colors()
        self.setStyleSheet(f"QPushButton#relatedPaper {{ text-align: left; border: none; padding: 2px 0;"
                           f" color: {k.text}; }} QPushButton#relatedPaper:hover {{ text-decoration: underline; }}")

    def resizeEvent(self, event) -> None:  # noqa: ANN001, N802
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        text = self.fontMetrics().elidedText(self.title, Qt.TextElideMode.ElideRight, max(40, self.width() - 4))
        super().setText(text.replace("&", "&&"))  # no mnemonic from a title's "&"


def _work(library: Library, pid: int, cancelled) -> dict:  # noqa: ANN001
    from desktop_app.core.tag_suggest import NEIGHBOURS, suggest_tags

    related = library.related(pid, max(SHOWN, NEIGHBOURS))
    if cancelled():
        return {"pid": pid, "cancelled": True}
    top = related[:SHOWN]
    rows = library.papers.rows([p for p, _ in top])
    titles = [(p, rows[p].title) for p, _ in top if p in rows]
    suggestions = [] if library.read_only else suggest_tags(library, pid, related=related)
    return {"pid": pid, "related": titles, "suggestions": suggestions}


class SimilarWork(QObject):
    """Runs the worker for the shown paper and fills the panel and the chips."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        from desktop_app.gui.tag_suggestions import SuggestionChips

        self.window_ = window
        reader = window.reader
        self.panel = RelatedPanel(window.settings, reader)
        self.panel.paperChosen.connect(self.choose)
        reader.hl_list.parentWidget().layout().addWidget(self.panel)  # under the abstract and highlights
        self.chips = SuggestionChips(reader)
        self.chips.accepted.connect(lambda pid, name: reader.tagsAdded.emit(pid, [name]))
        outer = reader.layout()
        outer.insertWidget(outer.indexOf(reader.tags) + 1, self.chips)  # next to (under) the tag editor
        self._pid: int | None = None
        self._cache: dict[int, dict] = {}
        self._job: Job | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DELAY_MS)
        self._timer.timeout.connect(self._start)
        window.edits.changed.connect(self._library_changed)
        window.files.changed.connect(self._library_changed)
        from desktop_app.gui.back_history import BackHistory

        self.history = BackHistory(window)

    def shown(self, pid: int | None) -> None:
        """The reader shows ``pid`` (None: nothing); called after it is painted-ready."""
        if pid == self._pid and pid is not None and (pid in self._cache or self._timer.isActive() or self._job):
            return
        self._pid = pid
        if self._job is not None:
            self._job.cancel()
            self._job = None
        if pid is None:
            self._timer.stop()
            self.panel.show_message("")
            self.chips.show_suggestions(None, [])
            return
        hit = self._cache.get(pid)
        if hit is not None:
            self._fill(hit)
            return
        self.panel.show_waiting()
        self.chips.show_suggestions(None, [])
        self._timer.start()

    def _start(self) -> None:
        pid, library = self._pid, self.window_.library
        if pid is None:
            return
        if not self.window_.files.index_ready:
            self._timer.start(500)  # the index is being checked or rebuilt: a little later
            return
        job = Job(lambda _progress, cancelled: _work(library, pid, cancelled), self.window_)
        job.succeeded.connect(self._done)
        job.failed.connect(lambda message, p=pid: self._failed(p, message))
        keep_while_running(self.window_, job)
        self._job = job
        job.start()

    def _done(self, result: object) -> None:
        if not isinstance(result, dict) or result.get("cancelled"):
            return
        pid = result["pid"]
        if self._job is not None and pid == self._pid:
            self._job = None
        self._cache[pid] = result
        if pid == self._pid:  # else: stale, kept in the cache only
            self._fill(result)

    def _failed(self, pid: int, message: str) -> None:
        if pid == self._pid:
            self._job = None
            self.panel.show_message(self.tr("Related papers are not available: {0}").format(message.splitlines()[0]))

    def _fill(self, result: dict) -> None:
        self.panel.show_related(result["related"])
        self.chips.show_suggestions(result["pid"], result["suggestions"])

    def _library_changed(self, _change: object) -> None:
        self._cache.clear()
        pid, self._pid = self._pid, None
        if pid is not None and self.window_.stack.currentWidget() is self.window_.splitter:
            self.shown(pid)

    def choose(self, pid: int) -> None:
        """Select ``pid`` in the table; outside the current filter: All papers first."""
        w = self.window_
        if pid != w.current_id():
            self.history.left(w.current_id())  # Alt+← comes back here
        if w.select_paper(pid):
            return
        w.state.query = ""
        w.search.set_text("")
        w.on_sidebar_filter("all", "")
        if w.select_paper(pid):
            w.status_message(self.tr("Showing all papers: the related paper was not in the view you had"))


def install(window: QMainWindow) -> SimilarWork:
    return SimilarWork(window)


def screenshot_view(window: QMainWindow) -> QWidget:
    """The reader of the first paper with its related papers and tag suggestions filled in."""
    from PySide6.QtCore import QCoreApplication, QElapsedTimer

    if window.current_id() is None:
        window.select_row(0)
    window.follow.flush()
    work: SimilarWork = window.similar
    timer = QElapsedTimer()
    timer.start()
    while window.current_id() not in work._cache and timer.elapsed() < 10000:
        QCoreApplication.processEvents()
    return window.reader
