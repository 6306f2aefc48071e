"""Related papers and tag suggestions in the reader, computed off the selection's hot path.

:class:`RelatedPanel`: a collapsible section under the abstract and its highlights listing the
papers most similar to the shown one, up to ten and only those strong enough
(``lib.insights.related_shown``, the rule in ``core/insights/related.py``), each with a word for its strength
("strong", "related", "weak"); a click or Enter selects that paper in the table. A paper outside
the current filter is shown anyway: the window switches to All papers (the search text cleared)
and says so in the status bar.

:class:`SimilarWork` does the work for both the panel and the tag suggestion chips
(``tag_suggestions.py``): :data:`DELAY_MS` after a paper is shown (so that j/k through the table
starts nothing), one worker computes the related papers, their titles and the tag suggestions;
a result for a paper no longer shown is dropped (the stale worker is also told to stop). Results
are cached per paper until the library changes (any change the window sees, after which the
search index moves to a new generation).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QObject, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.gui import preferences, theme
from desktop_app.gui.arrow_keys import ArrowGroup
from desktop_app.gui.jobs import Job, keep_while_running

if TYPE_CHECKING:
    from desktop_app.core.library import Library
    from desktop_app.gui.window_protocol import WindowLike

SHOWN = 10
DELAY_MS = 150  # after the paper is shown: moving through the table starts no work
RELATED_COLLAPSED = preferences.RELATED_COLLAPSED


class RelatedPanel(QWidget):
    """A header button (collapses the list; the state is a preference) and up to ten titles,
    each with the word for how related it is.

    By keyboard (all of it reachable without the mouse): the header and the rows take Tab (one stop of ``focus_order``), ↑/↓
    move between them, Enter (or Space) opens a row. A row opened so keeps the keys here: the
    next paper's rows take the focus when they arrive (the header holds it meanwhile)."""

    paperChosen = Signal(int)  # noqa: N815
    collapsed: bool  # the list folded away (a preference); set in __init__, read by its lambdas

    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
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
        self.keys = ArrowGroup(self, lambda: [self.header, *([] if self.collapsed else self.buttons)])
        self.keys.watch(self.header)
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
        self._lines: list[QWidget] = []
        self._refocus = False  # a row had the focus when the rows were replaced
        self.collapsed = False

        def restyle() -> None:
            for b in self.buttons:
                b.restyle()

        theme.follow(self, restyle)
        self.set_collapsed(preferences.get_bool(settings, RELATED_COLLAPSED), save=False)

    def set_collapsed(self, on: bool, save: bool = True) -> None:
        self.collapsed = on
        if on and any(b.hasFocus() for b in self.buttons):
            self.header.setFocus(Qt.FocusReason.OtherFocusReason)
        self.body.setVisible(not on)
        self.header.setArrowType(Qt.ArrowType.RightArrow if on else Qt.ArrowType.DownArrow)
        self.header.setToolTip(self.tr("Show the related papers") if on else self.tr("Hide the related papers"))
        if save:
            preferences.put(self._settings, RELATED_COLLAPSED, on)

    def focus_target(self) -> QWidget:
        """Where Tab puts the focus: the first row when the list shows rows, else the header."""
        return self.buttons[0] if self.buttons and not self.collapsed else self.header

    def show_waiting(self) -> None:
        self._clear()
        self.state.setText(self.tr("Looking for related papers…"))
        self.state.show()

    def show_message(self, text: str) -> None:
        self._clear()
        self.state.setText(text)
        self.state.show()

    def show_related(self, items: list[tuple[int, str, str, float]]) -> None:
        """(paper id, title, strength word, score) for each, most related first."""
        self._clear()
        if not items:
            self.show_message(self.tr("No related papers in this library"))
            return
        self.state.hide()
        for pid, title, strength, score in items:
            line = QWidget(self.body)
            row = QHBoxLayout(line)
            row.setContentsMargins(0, 0, 0, 0)
            row.setSpacing(8)
            word = self.strength_word(strength)
            tip = self.tr("{0} — {1} (similarity {2})").format(title, word, f"{score:.2f}")
            b = TitleLink(title, line, tip, self.tr("{0}, {1}").format(title, word))
            b.clicked.connect(lambda _=False, p=pid: self.paperChosen.emit(p))
            self.keys.watch(b)
            label = QLabel(word, line)
            label.setObjectName(f"relatedStrength_{strength}")
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setToolTip(html.escape(tip))
            row.addWidget(b, 1)
            row.addWidget(label)
            self.rows.addWidget(line)
            self.buttons.append(b)
            self._lines.append(line)
        if self._refocus and self.header.hasFocus():
            self.buttons[0].setFocus(Qt.FocusReason.OtherFocusReason)
        self._refocus = False

    def strength_word(self, strength: str) -> str:
        return {"strong": self.tr("strong"), "related": self.tr("related"), "weak": self.tr("weak")}.get(
            strength, strength
        )

    def _clear(self) -> None:
        if any(b.hasFocus() for b in self.buttons):
            self._refocus = True  # the keys stay in the panel (a focused row hidden would pass them on)
            self.header.setFocus(Qt.FocusReason.OtherFocusReason)
        for line in self._lines:
            self.rows.removeWidget(line)
            line.hide()
            line.deleteLater()
        self.buttons = []
        self._lines = []


class TitleLink(QPushButton):
    """A paper's title as a flat, left-aligned button, elided at the right to its width."""

    def __init__(self, title: str, parent: QWidget, tip: str = "", accessible: str = "") -> None:
        super().__init__(parent)
        self.setObjectName("relatedPaper")
        self.title = title
        self.setFlat(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip(html.escape(tip or title))  # a tooltip turns rich text if it looks like it: escaped
        self.setAccessibleName(accessible or title)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.restyle()
        self._elide()

    def restyle(self) -> None:
        k = theme.colors()
        self.setStyleSheet(
            f"QPushButton#relatedPaper {{ text-align: left; border: 2px solid transparent; padding: 0;"
            f" color: {k.text}; }} QPushButton#relatedPaper:hover {{ text-decoration: underline; }}"
            " QPushButton#relatedPaper:focus { border: 2px solid palette(highlight); }"
        )

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        text = self.fontMetrics().elidedText(self.title, Qt.TextElideMode.ElideRight, max(40, self.width() - 8))
        super().setText(text.replace("&", "&&"))  # no mnemonic from a title's "&"


def _work(library: Library, pid: int, cancelled: Callable[[], bool]) -> dict[str, Any]:
    from desktop_app.core.insights.tag_suggest import NEIGHBOURS, suggest_tags

    related, shown = library.insights.related_shown(pid, SHOWN, pool=max(SHOWN, NEIGHBOURS))
    if cancelled():
        return {"pid": pid, "cancelled": True}
    rows = library.papers.rows([r.paper_id for r in shown])
    titles = [(r.paper_id, rows[r.paper_id].title, r.strength, r.score) for r in shown if r.paper_id in rows]
    suggestions = [] if library.read_only else suggest_tags(library, pid, related=related)
    return {"pid": pid, "related": titles, "suggestions": suggestions}


class SimilarWork(QObject):
    """Runs the worker for the shown paper and fills the panel and the chips."""

    def __init__(self, window: WindowLike) -> None:
        super().__init__(window.window())
        from desktop_app.gui.tag_suggestions import SuggestionChips

        self.window_ = window
        reader = window.reader
        self.panel = RelatedPanel(window.settings, reader)
        self.panel.paperChosen.connect(self.choose)
        # under the abstract and highlights (the part they sit in, laid out: reader.py)
        highlights_part = cast(QWidget, reader.hl_list.parentWidget())
        cast(QVBoxLayout, highlights_part.layout()).addWidget(self.panel)
        self.chips = SuggestionChips(reader)
        self.chips.accepted.connect(lambda pid, name: reader.tagsAdded.emit(pid, [name]))
        self.chips.focusLost.connect(lambda: reader.tags.line.setFocus(Qt.FocusReason.OtherFocusReason))
        outer = cast(QVBoxLayout, reader.layout())  # the reader's column (reader.py)
        outer.insertWidget(outer.indexOf(reader.tags) + 1, self.chips)  # next to (under) the tag editor
        self._pid: int | None = None
        self._cache: dict[int, dict[str, Any]] = {}
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
        job = Job(lambda _progress, cancelled: _work(library, pid, cancelled), self.window_.window())
        job.succeeded.connect(self._done)
        job.failed.connect(lambda message, p=pid: self._failed(p, message))
        keep_while_running(self.window_.window(), job)
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

    def answered(self, pid: int | None) -> bool:
        """Whether the related papers of ``pid`` have been found (and are kept)."""
        return pid in self._cache

    def _fill(self, result: dict[str, Any]) -> None:
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


def install(window: WindowLike) -> SimilarWork:
    return SimilarWork(window)


def screenshot_view(window: WindowLike) -> QWidget:
    """The reader of the first paper with its related papers and tag suggestions filled in."""
    from PySide6.QtCore import QCoreApplication, QElapsedTimer

    if window.current_id() is None:
        window.select_row(0)
    window.follow.flush()
    work = window.similar
    timer = QElapsedTimer()
    timer.start()
    while not work.answered(window.current_id()) and timer.elapsed() < 10000:
        QCoreApplication.processEvents()
    return window.reader
