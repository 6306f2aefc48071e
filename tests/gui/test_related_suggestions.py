"""The reader's Related papers section and tag suggestion chips, on the seeds, with real clicks."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from desktop_app.gui import preferences
from desktop_app.gui.related_panel import screenshot_view


def _window(make_window, folder: Path, qtbot):
    win = make_window(folder)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=3000)
    return win


def _filled(win, qtbot) -> None:
    pid = win.current_id()
    qtbot.waitUntil(lambda: pid in win.similar._cache and bool(win.similar.panel.buttons), timeout=20000)


def test_related_list_click_selects_even_outside_the_filter(make_window, seeded_dir: Path, qtbot) -> None:
    win = _window(make_window, seeded_dir, qtbot)
    qtbot.waitUntil(lambda: win.current_id() is not None, timeout=5000)
    pid = win.current_id()
    _filled(win, qtbot)
    panel = win.similar.panel
    expected = [p for p, _ in win.library.insights.related(pid, 10)]
    assert len(panel.buttons) == len(expected) == 10
    assert [b.title for b in panel.buttons] == [win.library.papers.get(p).title for p in expected]

    qtbot.mouseClick(panel.buttons[2], Qt.MouseButton.LeftButton)
    assert win.current_id() == expected[2]

    # a filter that holds only the paper: its related papers are shown anyway, in All papers
    win.edits.add_tags([pid], ["solo"])
    win.on_sidebar_filter("tag", "solo")
    assert list(win.model.ids) == [pid]
    win.follow.flush()
    _filled(win, qtbot)
    qtbot.mouseClick(panel.buttons[0], Qt.MouseButton.LeftButton)
    assert win.state.tags == [] and win.current_id() == expected[0]


def test_collapsed_state_is_kept(make_window, seeded_dir: Path, qtbot, settings) -> None:
    win = _window(make_window, seeded_dir, qtbot)
    panel = win.similar.panel
    assert not panel.collapsed and panel.body.isVisible()
    qtbot.mouseClick(panel.header, Qt.MouseButton.LeftButton)
    assert panel.collapsed and not panel.body.isVisible()
    assert preferences.get_bool(settings, preferences.RELATED_COLLAPSED)
    make_window.close(win)
    again = _window(make_window, seeded_dir, qtbot)
    assert again.similar.panel.collapsed and not again.similar.panel.body.isVisible()


def test_a_suggestion_is_added_by_click_and_by_key_undoably(make_window, seeded_dir: Path, qtbot) -> None:
    win = _window(make_window, seeded_dir, qtbot)
    qtbot.waitUntil(lambda: win.current_id() is not None, timeout=5000)
    pid = win.current_id()
    neighbours = [p for p, _ in win.library.insights.related(pid, 3)]
    win.edits.add_tags(neighbours, ["topic-x"])  # its three nearest neighbours share a tag
    chips = win.similar.chips
    qtbot.waitUntil(lambda: chips.isVisible() and bool(chips.chips), timeout=20000)
    assert chips.chips[0].text().startswith("+ topic-x")
    assert "Shift" in chips.chips[0].text() and chips.chips[0].text().endswith("1")
    assert "topic-x" not in win.library.papers.get(pid).tags

    qtbot.mouseClick(chips.chips[0], Qt.MouseButton.LeftButton)
    assert "topic-x" in win.library.papers.get(pid).tags
    qtbot.waitUntil(lambda: pid in win.similar._cache, timeout=20000)
    assert not any(c.text().startswith("+ topic-x") for c in chips.chips)  # never a tag it has

    win.undo_action.trigger()
    assert "topic-x" not in win.library.papers.get(pid).tags
    qtbot.waitUntil(lambda: bool(chips.chips) and chips.chips[0].text().startswith("+ topic-x"), timeout=20000)
    win.table.setFocus()
    qtbot.keyClick(win.table, Qt.Key.Key_1, Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ShiftModifier)
    assert "topic-x" in win.library.papers.get(pid).tags


def test_screenshot_reader_with_related(make_window, seeded_dir: Path, qtbot) -> None:
    win = _window(make_window, seeded_dir, qtbot)
    shot = screenshot_view(win)
    assert shot is win.reader and win.similar.panel.buttons


def test_a_stale_result_is_not_shown(make_window, seeded_dir: Path, qtbot) -> None:
    """Move on while the worker for the previous paper runs: the panel shows the new paper's."""
    win = _window(make_window, seeded_dir, qtbot)
    qtbot.waitUntil(lambda: win.current_id() is not None, timeout=5000)
    win.select_row(3)
    win.follow.flush()
    first = win.current_id()
    qtbot.waitUntil(lambda: win.similar._job is not None, timeout=5000)  # its worker started
    win.select_row(7)
    win.follow.flush()
    second = win.current_id()
    assert second != first
    qtbot.waitUntil(lambda: second in win.similar._cache and bool(win.similar.panel.buttons), timeout=20000)
    qtbot.wait(300)  # the first worker's answer, if any, has arrived by now
    expected = [win.library.papers.get(p).title for p, _ in win.library.insights.related(second, 10)]
    assert [b.title for b in win.similar.panel.buttons] == expected
    # an answer for the first paper arriving now (a slow worker) is kept for later, not shown
    win.similar._done({"pid": first, "related": [(first, "late answer")], "suggestions": []})
    assert [b.title for b in win.similar.panel.buttons] == expected
    assert win.similar._cache[first]["related"] == [(first, "late answer")]
