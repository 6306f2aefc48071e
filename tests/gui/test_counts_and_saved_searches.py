"""The sidebar's counts follow every edit, undo and redo; a saved search keeps and brings back
the whole filter (query, sidebar status, tag and list, sort)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QInputDialog

from desktop_app.core.library import Library
from desktop_app.core.saved_filter import SavedFilter
from tests.helpers.keyboard import press, type_keys


def _shown(make_window, folder: Path, qtbot):
    win = make_window(folder)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=3000)
    qtbot.waitUntil(lambda: win.start_stage.done and not win.model.partial, timeout=5000)
    win.table.setFocus()
    return win


def _counts(win) -> dict[str, str]:
    lib = win.sidebar.topLevelItem(0)
    return {
        lib.child(i).text(0).split("  (")[0]: lib.child(i).text(0).split("  (")[1].rstrip(")")
        for i in range(lib.childCount())
    }


def _settled(win, qtbot, **want: str) -> None:
    qtbot.waitUntil(lambda: all(_counts(win)[k.capitalize()] == v for k, v in want.items()), timeout=3000)
    assert not win.follow_pending()


def test_status_counts_follow_edits_undo_and_redo(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    _settled(win, qtbot, unread="76", skimmed="0", read="0")
    type_keys(win, "r")
    _settled(win, qtbot, unread="75", read="1")
    undo, redo = (
        Qt.KeyboardModifier.ControlModifier,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    press(win, Qt.Key.Key_Z, undo)
    _settled(win, qtbot, unread="76", read="0")
    press(win, Qt.Key.Key_Z, redo)
    _settled(win, qtbot, unread="75", read="1")

    press(win, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)  # every paper, then skimmed
    type_keys(win, "s")
    _settled(win, qtbot, unread="0", skimmed="76", read="0")
    press(win, Qt.Key.Key_Z, undo)
    _settled(win, qtbot, unread="75", skimmed="0", read="1")
    assert win.library.papers.status_counts() == {"unread": 75, "skimmed": 0, "read": 1}


def test_counts_are_one_deferred_query_per_turn(make_window, seeded_dir: Path, qtbot, monkeypatch) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    qtbot.waitUntil(lambda: not win.follow_pending(), timeout=3000)
    calls: list[int] = []
    real = win.library.papers.status_counts
    monkeypatch.setattr(win.library.papers, "status_counts", lambda: calls.append(1) or real())
    for row in range(3):
        win.select_row(row)
        win.edits.set_status("read")
    assert calls == []  # not while the edits run
    qtbot.waitUntil(lambda: _counts(win)["Read"] == "3", timeout=3000)
    assert calls == [1]


def _save(win, qtbot, monkeypatch, name: str) -> None:
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: (name, True))
    press(win, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)


def test_a_saved_search_brings_back_the_whole_filter(make_window, seeded_dir: Path, qtbot, monkeypatch) -> None:
    with Library.open(seeded_dir) as lib:
        ids = lib.query("").ids
        lib.tags.add(ids[:20], ["rl"])
        lib.papers.set_status(ids[:3], "read")
        lib.lists.create("Group meeting", "")
        lib.lists.add("Group meeting", ids[:10])
    win = _shown(make_window, seeded_dir, qtbot)
    lib = win.library

    # a query, a sidebar tag and a status, sorted by title descending
    win.search.set_text("learning")
    win.on_query_typed("learning")
    win.on_sidebar_filter("tag", "rl")
    win.state.status = "unread"
    win.refresh_query()
    win.table.horizontalHeader().setSortIndicator(
        win.table.horizontalHeader().sortIndicatorSection(), Qt.SortOrder.AscendingOrder
    )
    win.on_sort_changed(0, Qt.SortOrder.DescendingOrder)  # the Title column
    shown = list(win.model.ids)
    expected = lib.query("learning", tags=["rl"], status="unread", sort="title", descending=True).ids
    assert shown == expected and 0 < len(shown) < 17
    _save(win, qtbot, monkeypatch, "RL to read")
    saved = SavedFilter.from_text(dict(lib.searches.all())["RL to read"])
    assert (saved.query, saved.tags, saved.status, saved.sort, saved.descending) == (
        "learning",
        ("rl",),
        "unread",
        "title",
        True,
    )
    assert win.sidebar.current_filter() == ("search", "RL to read")

    win.on_sidebar_filter("all", "")  # elsewhere, then back through the sidebar
    win.search.set_text("")
    win.on_query_typed("")
    assert win.model.rowCount() == 76
    win.on_sidebar_filter("search", "RL to read")
    assert list(win.model.ids) == shown
    assert (win.state.query, win.state.tags, win.state.status) == ("learning", ["rl"], "unread")
    assert (win.sort_key, win.sort_desc) == ("title", True)
    assert win.search.box.text() == "learning"
    assert win.sidebar.current_filter() == ("search", "RL to read")
    assert {label for _k, label in win.state.chips()} == {"tag: rl", "status: unread"}

    # a reading list alone, in its own order
    win.search.set_text("")
    win.on_query_typed("")
    win.on_sidebar_filter("list", "Group meeting")
    in_list = list(win.model.ids)
    assert len(in_list) == 10
    _save(win, qtbot, monkeypatch, "Meeting")
    win.on_sidebar_filter("status", "read")
    assert win.model.rowCount() == 3
    win.on_sidebar_filter("search", "Meeting")
    assert list(win.model.ids) == in_list and win.state.list_name == "Group meeting"
    assert win.sort_key == "position"

    # a query alone is stored as before: the plain query text
    win.on_sidebar_filter("all", "")
    win.search.set_text("reward")
    win.on_query_typed("reward")
    win.on_sort_changed(0, Qt.SortOrder.DescendingOrder)
    _save(win, qtbot, monkeypatch, "Reward")
    assert SavedFilter.from_text(dict(lib.searches.all())["Reward"]).sort == "title"


def test_an_old_saved_search_is_its_query(make_window, seeded_dir: Path, qtbot) -> None:
    with Library.open(seeded_dir) as lib:
        lib.searches.save("Transformers", "transformer")
        want = lib.query("transformer", sort="relevance", descending=True).ids
    win = _shown(make_window, seeded_dir, qtbot)
    win.on_sidebar_filter("search", "Transformers")
    assert (win.state.query, win.state.tags, win.state.status) == ("transformer", [], None)
    assert sorted(win.model.ids) == sorted(want) and win.model.ids
    assert win.sidebar.current_filter() == ("search", "Transformers")


def _entry(win, kind: str, value: str):
    from desktop_app.gui.sidebar import KIND, VALUE

    return next(it for it in win.sidebar._iter() if it.data(0, KIND) == kind and it.data(0, VALUE) == value)


def _click(win, qtbot, kind: str, value: str, ctrl: bool = False) -> None:
    item = _entry(win, kind, value)
    win.sidebar.scrollToItem(item)
    mods = Qt.KeyboardModifier.ControlModifier if ctrl else Qt.KeyboardModifier.NoModifier
    qtbot.mouseClick(win.sidebar.viewport(), Qt.MouseButton.LeftButton, mods, win.sidebar.visualItemRect(item).center())


def test_ctrl_click_combines_sidebar_filters(make_window, seeded_dir: Path, qtbot) -> None:
    with Library.open(seeded_dir) as lib:
        ids = lib.query("").ids
        lib.tags.add(ids[:30], ["rl"])
        lib.tags.add(ids[20:40], ["vision"])
        lib.papers.set_status(ids[25:35], "read")
    win = _shown(make_window, seeded_dir, qtbot)
    lib = win.library
    _click(win, qtbot, "tag", "rl")
    assert win.model.rowCount() == 30 and win.state.tags == ["rl"]
    _click(win, qtbot, "tag", "vision", ctrl=True)  # and vision: papers 20-29
    assert win.state.tags == ["rl", "vision"]
    assert sorted(win.model.ids) == sorted(ids[20:30])
    _click(win, qtbot, "status", "read", ctrl=True)  # and read: 25-29
    assert sorted(win.model.ids) == sorted(ids[25:30])
    assert {label for _k, label in win.state.chips()} == {"tag: rl", "tag: vision", "status: read"}
    assert win.sidebar.current_filter() is None  # no one entry stands for all three
    win.on_chip_removed("tag:rl")  # a chip taken away leaves the others
    assert sorted(win.model.ids) == sorted(ids[25:35])
    _click(win, qtbot, "tag", "rl")  # a plain click starts again from that entry alone
    assert win.state.tags == ["rl"] and win.state.status is None and win.model.rowCount() == 30
    assert lib.query("", tags=["rl", "vision"], status="read").total == 5


def test_tag_counts_follow_undo_and_redo(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    press(win, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    win.edits.add_tags(win.table.selected_ids()[:5], ["probe"])

    def label() -> str | None:
        from desktop_app.gui.sidebar import KIND, VALUE

        return next(
            (it.text(0) for it in win.sidebar._iter() if it.data(0, KIND) == "tag" and it.data(0, VALUE) == "probe"),
            None,
        )

    qtbot.waitUntil(lambda: label() == "probe  (5)", timeout=3000)
    press(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: label() in (None, "probe  (0)"), timeout=3000)
    press(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: label() == "probe  (5)", timeout=3000)


def test_alt_click_on_a_tag_chip_negates_it(make_window, seeded_dir: Path, qtbot) -> None:
    from PySide6.QtWidgets import QToolButton

    with Library.open(seeded_dir) as lib:
        ids = lib.query("").ids
        lib.tags.add(ids[:30], ["rl"])
        lib.tags.add(ids[20:40], ["vision"])
    win = _shown(make_window, seeded_dir, qtbot)

    def chip(label: str) -> QToolButton:
        def shown() -> list[QToolButton]:
            return [
                b
                for b in win.search.chip_box.findChildren(QToolButton, "filterChip")
                if b.isVisible() and b.text().startswith(label + "  ")
            ]

        qtbot.waitUntil(lambda: bool(shown()), timeout=3000)  # new chips show one turn after
        return shown()[0]

    _click(win, qtbot, "tag", "rl")
    _click(win, qtbot, "tag", "vision", ctrl=True)
    assert sorted(win.model.ids) == sorted(ids[20:30])
    qtbot.mouseClick(chip("tag: vision"), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.AltModifier)
    assert (win.state.tags, win.state.not_tags) == (["rl"], ["vision"])
    assert sorted(win.model.ids) == sorted(ids[:20])  # rl and not vision
    qtbot.mouseClick(chip("not tag: vision"), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.AltModifier)
    assert sorted(win.model.ids) == sorted(ids[20:30])
    qtbot.mouseClick(chip("tag: vision"), Qt.MouseButton.LeftButton)  # a plain click removes it
    assert win.state.tags == ["rl"] and win.model.rowCount() == 30
