"""The window's Tab order: sidebar → search → table → title → links → status → rating → tags →
tag suggestions → abstract → highlights → related papers → note, then the sidebar again
(Shift+Tab backwards). The links, the suggestions and the related papers are rows of buttons:
one stop each, the arrows move within it and Enter presses (``arrow_keys``), so every part is reachable without the mouse.

Qt's own focus chain follows the order widgets were made in and passes through every button
(the Save search button, each filter chip and tag chip, the highlight colours), so Tab "jumped".
Each stop here is a part of the window (its container) and the widget that takes the focus in
it; Tab from anywhere inside a part goes to the next part's widget. A part hidden or disabled
(no highlights; a read-only library) is passed over. Every control left out has its key
(Help → Keyboard shortcuts). Qt's own chain is set to the same order (``setTabOrder``) for the
tools that read it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

if TYPE_CHECKING:
    from desktop_app.gui.related_panel import SimilarWork
    from desktop_app.gui.window_protocol import WindowLike

    class FocusWindow(WindowLike, Protocol):
        """The window whose parts Tab goes through (``MainWindow`` is one): the related papers'
        and tag suggestions' rows are stops."""

        @property
        def similar(self) -> SimilarWork: ...


@dataclass(frozen=True)
class Stop:
    name: str
    part: Callable[[], QWidget]  # the focus anywhere in it counts as being at this stop
    target: Callable[[], QWidget]  # the widget that takes the focus


def _status_target(win: WindowLike) -> QWidget:
    control = win.reader.status
    return next((b for b in control.buttons.values() if b.isChecked()), control.buttons["unread"])


def _first(buttons: Sequence[QWidget], row: QWidget) -> QWidget:
    """A row of buttons takes the focus on its first (the arrows move on: arrow_keys.py)."""
    return buttons[0] if buttons else row


def stops(win: FocusWindow) -> list[Stop]:
    r = win.reader
    similar = win.similar  # related papers and tag suggestions (related_panel.py)
    return [
        Stop("sidebar", lambda: win.sidebar_pane, lambda: win.sidebar),
        Stop("search", lambda: win.search, lambda: win.search.box),
        Stop("table", lambda: win.table, lambda: win.table),
        Stop("title", lambda: r.title_edit, lambda: r.title_edit),
        Stop("links", lambda: r.links, lambda: _first(r.links.buttons, r.links)),
        Stop("status", lambda: r.status, lambda: _status_target(win)),
        Stop("rating", lambda: r.rating, lambda: r.rating),
        Stop("tags", lambda: r.tags, lambda: r.tags.line),
        Stop("suggestions", lambda: similar.chips, lambda: _first(similar.chips.chips, similar.chips)),
        Stop("abstract", lambda: r.abstract, lambda: r.abstract),
        Stop("highlights", lambda: r.hl_list, lambda: r.hl_list),
        Stop("related", lambda: similar.panel, lambda: similar.panel.focus_target()),
        Stop("note", lambda: r.notes, lambda: r.notes.stack.currentWidget()),
    ]


def _reachable(w: QWidget) -> bool:
    return w.isVisible() and w.isEnabled() and bool(w.focusPolicy() & Qt.FocusPolicy.TabFocus)


class TabChain:
    """Moves the focus along :func:`stops`; the window calls :meth:`move` from its
    ``focusNextPrevChild``."""

    def __init__(self, win: FocusWindow) -> None:
        self.win = win
        self.stops = stops(win)
        win.reader.notes.edit.setTabChangesFocus(True)  # Tab leaves the note (as the title's)
        # a plain QWidget draws a style sheet's border (the focus one) only with this
        win.reader.rating.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        chain = [s.target() for s in self.stops]
        for a, b in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(a, b)

    def at(self, widget: QWidget | None) -> int | None:
        """The stop the focus ``widget`` is in, or None outside them."""
        if widget is None:
            return None
        for n, stop in enumerate(self.stops):
            part = stop.part()
            if widget is part or part.isAncestorOf(widget):
                return n
        return None

    def move(self, forward: bool) -> bool:
        """Focus the next (previous) reachable stop; False when the focus is outside them."""
        here = self.at(QApplication.focusWidget())
        if here is None:
            return False
        count = len(self.stops)
        for step in range(1, count + 1):
            stop = self.stops[(here + (step if forward else -step)) % count]
            target = stop.target()
            if _reachable(target):
                reason = Qt.FocusReason.TabFocusReason if forward else Qt.FocusReason.BacktabFocusReason
                target.setFocus(reason)
                return True
        return False


def screenshot_focus(window: WindowLike) -> QWidget:
    """The window with the paper table focused (its focus border), for the docs."""
    window.table.setFocus(Qt.FocusReason.TabFocusReason)
    return window.window()
