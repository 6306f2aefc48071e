"""Tab visits the window's parts in one order and leaves the table; the focus is visible."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QWidget

from desktop_app.core.library import Library
from desktop_app.gui.focus_style import FOCUS

# the links and the tag suggestions are passed over here: the seed papers have no DOI, arXiv id or
# URL, and a library without tags suggests none (tests/gui/test_reader_keyboard.py has both)
ORDER = ["sidebar", "search", "table", "title", "status", "rating", "tags", "abstract", "highlights", "related", "note"]


def _where(win, w: QWidget | None) -> str:
    r = win.reader
    exact = {
        win.sidebar: "sidebar",
        win.search.box: "search",
        win.table: "table",
        r.title_edit: "title",
        r.rating: "rating",
        r.tags.line: "tags",
        r.abstract: "abstract",
        r.hl_list: "highlights",
        r.notes.edit: "note",
    }
    if w in exact:
        return exact[w]
    if w is not None and w.parent() is r.status:
        return "status"
    if w is not None and win.similar.panel.isAncestorOf(w):
        return "related"
    return f"elsewhere: {type(w).__name__} {w.objectName() if w else ''}"


def _window_with_highlight(make_window, folder: Path, qtbot):
    with Library.open(folder) as lib:
        lib.highlights.add(lib.query("").ids[0], 0, 8, "yellow", "")
    win = make_window(folder)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=3000)
    win.select_row(0)
    qtbot.waitUntil(lambda: not win.follow_pending() and win.reader.hl_list.isVisible(), timeout=3000)
    qtbot.waitUntil(lambda: win.current_id() in win.similar._cache, timeout=30000)  # the related papers
    return win


def test_tab_from_the_sidebar_visits_each_part_once_and_comes_back(make_window, seeded_dir: Path, qtbot) -> None:
    win = _window_with_highlight(make_window, seeded_dir, qtbot)
    win.sidebar.setFocus(Qt.FocusReason.OtherFocusReason)
    seen = [_where(win, QApplication.focusWidget())]
    for _ in range(len(ORDER)):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        seen.append(_where(win, QApplication.focusWidget()))
    assert seen == ORDER + ["sidebar"]
    # and backwards
    back = []
    for _ in range(len(ORDER)):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
        back.append(_where(win, QApplication.focusWidget()))
    assert back == list(reversed(ORDER))


def test_tab_leaves_the_table_from_any_cell(make_window, seeded_dir: Path, qtbot) -> None:
    win = _window_with_highlight(make_window, seeded_dir, qtbot)
    win.table.setFocus()
    win.table.setCurrentIndex(win.model.index(3, 1))
    qtbot.keyClick(win.table, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is win.reader.title_edit
    assert win.table.currentIndex().row() == 3  # the selection stayed


def test_tab_from_a_chip_or_a_hidden_part_goes_on(make_window, seeded_dir: Path, qtbot) -> None:
    win = _window_with_highlight(make_window, seeded_dir, qtbot)
    # a paper without highlights: the highlight list is hidden and passed over
    win.select_row(5)
    qtbot.waitUntil(lambda: not win.follow_pending(), timeout=3000)
    assert not win.reader.hl_list.isVisible()
    win.reader.abstract.setFocus()
    qtbot.keyClick(win.reader.abstract, Qt.Key.Key_Tab)
    assert win.similar.panel.isAncestorOf(QApplication.focusWidget())  # the related papers
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is win.reader.notes.edit
    # Tab from the search bar's Save button goes on to the table
    win.search.save.setFocus()
    qtbot.keyClick(win.search.save, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is win.table


def test_focus_is_drawn(make_window, seeded_dir: Path, qtbot) -> None:
    """The focus rule is in the style sheet and the focused table looks different."""
    from desktop_app.gui.app import application

    app = application()
    assert FOCUS.strip() in app.styleSheet()
    win = _window_with_highlight(make_window, seeded_dir, qtbot)
    win.search.box.setFocus()
    qtbot.wait(20)
    unfocused = win.table.grab().toImage()
    win.table.setFocus()
    qtbot.wait(20)
    focused = win.table.grab().toImage()
    assert focused != unfocused
    highlight = QApplication.palette().color(QPalette.ColorRole.Highlight)  # palette(highlight)
    for x in (0, 1):
        assert focused.pixelColor(x, focused.height() // 2) == highlight
        assert unfocused.pixelColor(x, unfocused.height() // 2) != highlight
