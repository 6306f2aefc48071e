"""The papers' context menu and Copy citation, driven on a real window (gui/paper_menu.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QInputDialog, QMenu, QMessageBox

from desktop_app.core.citations import cite_papers
from desktop_app.gui import preferences
from desktop_app.gui.paper_menu import build_paper_menu, screenshot_view
from desktop_app.gui.paper_model import COL_TITLE
from tests.helpers.library import find_paper


def _row_point(win, row: int) -> QPoint:
    return win.table.visualRect(win.model.index(row, COL_TITLE)).center()


def _select_rows(win, rows: list[int]) -> list[int]:
    from PySide6.QtCore import QItemSelectionModel

    win.table.select_row(rows[0])
    sel = win.table.selectionModel()
    for r in rows[1:]:
        sel.select(
            win.model.index(r, 0), QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
        )
    return win.table.selected_ids()


def _actions(menu: QMenu) -> dict[str, QAction]:
    """Every entry of the menu and its submenus by text (the shortcut hint cut off)."""
    out = {}
    for act in menu.actions():
        if act.menu() is not None:
            out[act.text()] = act
            out.update({f"{act.text()} ▸ {k}": v for k, v in _actions(act.menu()).items()})
        elif act.text():
            out[act.text().split("\t")[0]] = act
    return out


_BUILT: list[QMenu] = []  # the menus a test built, kept while their actions are used


def _menu(win, row: int) -> dict[str, QAction]:
    menu = build_paper_menu(win, _row_point(win, row))
    assert menu is not None
    _BUILT.append(menu)
    return _actions(menu)


@pytest.fixture(autouse=True)
def _forget_menus():
    yield
    _BUILT.clear()


def test_copy_citation_key_puts_the_reference_on_the_clipboard(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    QApplication.clipboard().clear()
    win.select_row(3)
    pid = win.current_id()
    win.table.setFocus()
    qtbot.keyClick(win.table, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    plain, html = cite_papers(win.library, [pid], "apa")
    title = win.library.papers.get(pid).title
    assert QApplication.clipboard().text() == plain[0]
    assert plain[0].startswith(title) and "(2026)" in plain[0]
    mime = QApplication.clipboard().mimeData()
    assert mime.hasHtml() and html[0] in mime.html()
    # the style is the user's preference
    preferences.put(win.settings, preferences.CITATION_STYLE, "ieee")
    qtbot.keyClick(win.table, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    # (the seed titles are derived from the abstracts: a citation says so)
    assert QApplication.clipboard().text().startswith(f"[1] “{title} [title derived from the abstract]”")


def test_many_papers_are_formatted_in_a_worker(make_window, seeded_dir: Path, qtbot) -> None:
    from desktop_app.gui.paper_menu import CITE_IN_PLACE

    win = make_window(seeded_dir)
    QApplication.clipboard().setText("before")
    win.table.selectAll()
    assert len(win.table.selected_ids()) == 76 > CITE_IN_PLACE
    _menu(win, 0)["Copy 76 citations"].trigger()
    assert QApplication.clipboard().text() == "before"  # not yet: a worker formats them
    qtbot.waitUntil(lambda: QApplication.clipboard().text() != "before", timeout=30000)
    assert len(QApplication.clipboard().text().split("\n\n")) == 76


def test_an_unknown_style_warns_instead_of_copying(make_window, seeded_dir: Path, monkeypatch) -> None:
    win = make_window(seeded_dir)
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text: warned.append(text))
    preferences.put(win.settings, preferences.CITATION_STYLE, "no-such-style")
    QApplication.clipboard().setText("before")
    win.select_row(0)
    _menu(win, 0)["Copy citation"].trigger()
    assert QApplication.clipboard().text() == "before"
    assert warned and warned[0].startswith("no citation style 'no-such-style'")


def test_menu_entries_act_on_every_selected_paper_and_undo(make_window, seeded_dir: Path, monkeypatch) -> None:
    win = make_window(seeded_dir)
    lib = win.library
    lib.lists.create("To read")
    lib.tags.add([win.model.paper_id(10)], ["agents"])
    ids = _select_rows(win, [0, 1, 2])
    acts = _menu(win, 1)  # a row inside the selection keeps the selection
    assert win.table.selected_ids() == ids
    assert {
        "Copy 3 citations",
        "Copy BibTeX of 3 papers",
        "Move 3 papers to the trash",
        "Tags (3 papers)",
        "Status (3 papers)",
        "Rating (3 papers)",
        "Add 3 papers to reading list",
    } <= set(acts)
    # Open acts on the current paper only (one viewer or browser tab, not three)
    assert "Open the current paper" in acts and "Open 3 papers" not in acts

    acts["Tags (3 papers) ▸ agents"].trigger()  # checkable: toggles the tag on all three
    assert all("agents" in lib.papers.get(pid).tags for pid in ids)
    acts = _menu(win, 1)
    assert acts["Tags (3 papers) ▸ agents"].isChecked()
    acts = _menu(win, 1)
    acts["Tags (3 papers) ▸ agents"].trigger()
    assert not any("agents" in lib.papers.get(pid).tags for pid in ids)
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("fresh", True))
    acts = _menu(win, 1)
    acts["Tags (3 papers) ▸ Add tag…"].trigger()
    assert all("fresh" in lib.papers.get(pid).tags for pid in ids)
    win.undo_stack.undo()
    assert not any("fresh" in lib.papers.get(pid).tags for pid in ids)

    acts = _menu(win, 1)
    acts["Status (3 papers) ▸ Mark read"].trigger()
    assert {lib.papers.get(pid).status for pid in ids} == {"read"}
    acts = _menu(win, 1)
    assert acts["Status (3 papers) ▸ Mark read"].isChecked()
    win.undo_stack.undo()
    assert {lib.papers.get(pid).status for pid in ids} == {"unread"}

    acts = _menu(win, 1)
    acts["Rating (3 papers) ▸ ★★★"].trigger()
    assert {lib.papers.get(pid).rating for pid in ids} == {3}

    acts = _menu(win, 1)
    acts["Add 3 papers to reading list ▸ To read"].trigger()
    assert [pid for pid, _, _ in lib.lists.items("To read")] == ids
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Later", True))
    acts = _menu(win, 1)
    acts["Add 3 papers to reading list ▸ New list…"].trigger()
    assert [pid for pid, _, _ in lib.lists.items("Later")] == ids

    acts = _menu(win, 1)
    acts["Copy BibTeX of 3 papers"].trigger()
    assert QApplication.clipboard().text().count("@") == 3
    acts = _menu(win, 1)
    acts["Copy 3 citations"].trigger()
    assert len(QApplication.clipboard().text().split("\n\n")) == 3

    acts = _menu(win, 1)
    acts["Move 3 papers to the trash"].trigger()
    assert len(lib.query("").ids) == 73 and not set(ids) & set(lib.query("").ids)
    win.undo_stack.undo()
    assert set(ids) <= set(lib.query("").ids)

    # in the Trash view the menu is the trash's own: restore (one undo step), delete for good
    lib.papers.delete(ids)
    win.on_sidebar_filter("trash", "")
    assert sorted(win.model.ids) == sorted(ids)
    _select_rows(win, [0, 1, 2])
    acts = _menu(win, 0)
    assert list(acts) == ["Restore 3 papers", "Delete 3 papers for good…", "Empty trash…"]
    acts["Restore 3 papers"].trigger()
    assert lib.trash.count() == 0 and win.model.ids == []
    win.undo_stack.undo()
    assert sorted(lib.trash.ids()) == sorted(ids) and sorted(win.model.ids) == sorted(ids)


def test_right_click_outside_the_selection_selects_that_row(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.show()
    qtbot.waitExposed(win)
    _select_rows(win, [0, 1])
    win.table.customContextMenuRequested.emit(_row_point(win, 5))  # what a right-click sends
    menu = win.findChild(QMenu, "paperMenu")
    assert menu is not None
    qtbot.waitUntil(menu.isVisible, timeout=3000)
    assert win.table.selected_ids() == [win.model.paper_id(5)]
    assert "Move to the trash" in _actions(menu)
    menu.close()


def test_open_and_edit_metadata_appear_when_the_window_has_them(make_window, seeded_dir: Path) -> None:
    win = make_window(seeded_dir)
    called: list[str] = []
    win.open_paper = lambda: called.append("open")
    win.edit_metadata = lambda: called.append("edit")
    acts = _menu(win, 0)
    acts["Open paper"].trigger()
    acts["Edit metadata…"].trigger()
    assert called == ["open", "edit"]


def test_related_papers_shows_them_in_the_table(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    lib = win.library
    a = find_paper(lib, "Reinforcement Learning with Verifiable Rewards (RLVR) has emerged")
    b = find_paper(lib, "RLVR reliably improves reasoning")
    win.on_sidebar_filter("status", "unread")
    assert win.select_paper(a)
    _menu(win, win.model.row_of(a))["Related papers"].trigger()
    assert win.search.box.text() == f"related:{a}"
    assert win.state.status is None  # over all papers
    shown = [win.model.paper_id(r) for r in range(win.model.rowCount())]
    assert shown == [pid for pid, _ in lib.insights.related(a, 20)]
    assert b in shown[:3] and a not in shown


def test_screenshot_view_shows_the_menu_over_the_table(make_window, seeded_dir: Path, tmp_path: Path) -> None:
    win = make_window(seeded_dir)
    win.resize(1100, 700)
    shot = screenshot_view(win)
    assert shot.size() == win.size()
    plain = win.grab().toImage()
    image = shot.grab().toImage()
    assert image.size() == plain.size()
    # the menu's entries are painted over the table, right of the third row's title (the window
    # alone, grabbed after the same selection, differs from the picture only there)
    start = win.table.viewport().mapTo(win, _row_point(win, 2))
    changed = [
        (x, y)
        for x in range(0, image.width(), 4)
        for y in range(0, image.height(), 4)
        if image.pixel(x, y) != plain.pixel(x, y)
    ]
    assert len(changed) > 300
    assert min(x for x, _ in changed) >= start.x() - 4 and min(y for _, y in changed) >= start.y() - 4
    assert not win.findChild(QMenu, "paperMenu").isVisible()  # popped down again


@pytest.mark.parametrize("style", ["nature"])
def test_export_dialog_offers_the_bibliography(
    make_window, seeded_dir: Path, tmp_path: Path, qtbot, style: str
) -> None:
    win = make_window(seeded_dir)
    preferences.put(win.settings, preferences.CITATION_STYLE, style)
    _select_rows(win, [0, 1])
    out = tmp_path / "refs.txt"
    win.files.export_to("bibliography-txt", out, "selection")
    qtbot.waitUntil(out.exists, timeout=10000)
    text = out.read_text(encoding="utf-8")
    assert text.startswith("1. ") and "\n\n2. " in text
