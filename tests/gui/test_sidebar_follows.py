"""The sidebar highlights the entry that stands for the active filter, whatever set it; its tag
filter box narrows the tag tree."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication

from desktop_app.core.library import Library
from desktop_app.gui.search_bar import FilterState
from desktop_app.gui.window_settings import WindowSettings
from tests.helpers.keyboard import press_sequence


def _tag(folder: Path) -> None:
    with Library.open(folder) as lib:
        ids = lib.query("").ids
        lib.tags.add(ids[:4], ["rl/rlvr", "ml"])
        lib.tags.add(ids[4:6], ["rl/ppo", "Vision/Detection"])
        lib.tags.add(ids[6:7], ["nlp"])
        lib.searches.save("Transformers", "transformer")


def _current(win):
    return win.sidebar.current_filter(), [i.data(0, Qt.ItemDataRole.UserRole + 11) for i in win.sidebar.selectedItems()]


def test_the_sidebar_follows_keys_chips_and_excludes(make_window, seeded_dir: Path, qtbot) -> None:
    _tag(seeded_dir)
    win = make_window(seeded_dir)
    qtbot.waitUntil(lambda: win.sidebar.current_filter() == ("all", ""), timeout=3000)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=3000)
    win.table.setFocus()
    press_sequence(qtbot, win.table, "Ctrl+2")
    assert _current(win) == (("status", "unread"), ["unread"])
    press_sequence(qtbot, win.table, "Ctrl+1")
    assert _current(win) == (("all", ""), [""])

    # a tag, then a status on top of it: no single entry stands for both, so none is shown
    win.on_sidebar_filter("tag", "ml")
    assert _current(win) == (("tag", "ml"), ["ml"])
    win.state.status = "unread"
    win.refresh_query()
    assert _current(win) == (None, [])
    # removing the tag chip leaves the status: the sidebar shows Unread
    win.on_chip_removed("tag:ml")
    assert _current(win) == (("status", "unread"), ["unread"])
    win.on_chip_removed("status")
    assert _current(win) == (("all", ""), [""])
    # hiding a tag (the sidebar's "Hide papers with this tag") is no sidebar entry
    win.exclude_tag("nlp")
    assert _current(win) == (None, [])
    win.on_chip_removed("not:nlp")
    assert _current(win) == (("all", ""), [""])
    # a saved search stays highlighted when chosen
    win.on_sidebar_filter("search", "Transformers")
    assert _current(win) == (("search", "Transformers"), ["Transformers"])


def test_a_restored_filter_is_highlighted_at_start_up(
    make_window, seeded_dir: Path, settings: QSettings, qtbot
) -> None:
    _tag(seeded_dir)
    ws = WindowSettings(settings, seeded_dir.expanduser().absolute())  # the folder as Library.open names it
    settings.setValue(ws.key("filter"), '{"status": "read"}')
    win = make_window(seeded_dir)
    assert win.state == FilterState(status="read")
    qtbot.waitUntil(lambda: win.sidebar.current_filter() == ("status", "read"), timeout=5000)
    assert [i.text(0) for i in win.sidebar.selectedItems()] == ["Read  (0)"]


def test_the_tag_filter_narrows_the_tree_and_keeps_parents(make_window, seeded_dir: Path, qtbot) -> None:
    _tag(seeded_dir)
    win = make_window(seeded_dir)
    sb = win.sidebar
    qtbot.waitUntil(lambda: len(sb.visible_tags()) == 7, timeout=5000)
    assert sb.visible_tags() == ["ml", "nlp", "rl", "rl/ppo", "rl/rlvr", "Vision", "Vision/Detection"]
    box = win.sidebar_pane.filter_box
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=3000)
    box.setFocus(Qt.FocusReason.MouseFocusReason)  # clicked: the keys are the box's, not the table's
    qtbot.keyClicks(box, "DETECT")  # any case; the parent stays
    assert sb.visible_tags() == ["Vision", "Vision/Detection"]
    box.clear()
    qtbot.keyClicks(box, "ppo")
    assert sb.visible_tags() == ["rl", "rl/ppo"]
    # a refresh of the sidebar (a new tag) keeps the filter
    win.library.tags.add(win.library.query("").ids[:1], ["ppo-variants"])
    win.refresh_sidebar()
    assert sb.visible_tags() == ["ppo-variants", "rl", "rl/ppo"]
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    assert box.text() == "" and len(sb.visible_tags()) == 8
    assert QApplication.focusWidget() is sb
    # typing in the tree goes to the filter
    win.activateWindow()
    sb.setFocus()
    qtbot.keyClicks(sb, "nl")
    assert box.text() == "nl" and sb.visible_tags() == ["nlp"]
