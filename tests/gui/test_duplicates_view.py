"""The "Possible duplicates" dialog driven as a user would, on a real library: opened from the
Edit menu, pairs found in a worker, a field chosen by its radio button, merged with Return,
undone with Ctrl+Z in the main window; Not duplicates; plain text only."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel

from desktop_app.core.library import Library
from desktop_app.gui.duplicates_view import DuplicatesDialog
from tests.helpers.duplicates import CHAPTERS, FIRST, SECOND, import_kept_apart, write_file

HOSTILE_TITLE = "<b>Bold</b> <img src='http://example.org/x.png'> &amp; <a href='x'>link</a>"


@pytest.fixture
def dups_dir(library_dir: Path, tmp_path: Path) -> Path:
    """A library holding three possible-duplicate pairs (see tests/core/test_duplicates.py)."""
    with Library.open(library_dir) as lib:
        lib.imports.from_files([write_file(tmp_path, "first.bib", FIRST)])
        import_kept_apart(lib, write_file(tmp_path, "second.bib", SECOND))
        lib.imports.from_files([write_file(tmp_path, "chapters.ris", CHAPTERS)])
        assert len(lib.duplicates.find()) == 3
    return library_dir


def _open(win, qtbot) -> DuplicatesDialog:
    action = win.findChild(QAction, "findDuplicatesAction")
    assert action is not None and action.text() == "Find possible duplicates…"
    action.trigger()
    dlg = win.findChild(DuplicatesDialog)
    assert dlg is not None and dlg.isVisible() and not dlg.isModal()
    assert dlg.windowTitle() == "Possible duplicates"
    qtbot.waitUntil(lambda: not dlg.is_searching() and dlg.pair_list.topLevelItemCount() > 0, timeout=10000)
    return dlg


def _rows(dlg: DuplicatesDialog) -> list[tuple[str, str, str]]:
    items = (dlg.pair_list.topLevelItem(i) for i in range(dlg.pair_list.topLevelItemCount()))
    return [(it.text(0), it.text(1), it.text(2)) for it in items]


def test_merge_choosing_the_other_title_then_undo_in_the_main_window(make_window, dups_dir: Path, qtbot) -> None:
    win = make_window(dups_dir)
    assert win.model.rowCount() == 6
    dlg = _open(win, qtbot)
    assert _rows(dlg) == [
        ("same DOI", "Deep Learning for Cats", "Deep Lerning for Cats"),
        ("same abstract", "Potential outcomes", "Structural causal models"),
        ("same citation key", "Scripts, Plans and Goals", "Conceptual Dependency"),
    ]
    keep, other = dlg.current_sides()
    lib = win.library
    assert lib.papers.get(keep).title == "Deep Learning for Cats"
    lib.tags.add([other], ["from-the-copy"])
    before = (lib.papers.get(keep), lib.papers.get(other))

    # the equal authors have no choice; the title does, and the other's is picked by a click
    assert dlg.choice("authors") is None
    keep_title, other_title = dlg.choice("title")
    assert keep_title.isChecked() and not other_title.isChecked()
    qtbot.mouseClick(other_title, Qt.MouseButton.LeftButton)
    assert other_title.isChecked() and dlg.choices()["title"] == "other"
    url_keep, url_other = dlg.choice("url")
    assert url_other.isChecked()  # the kept paper has no URL: taken by default

    dlg.pair_list.setFocus()
    qtbot.keyClick(dlg.pair_list, Qt.Key.Key_Return)
    merged = lib.papers.get(keep)
    assert merged.title == "Deep Lerning for Cats"
    assert merged.url == "https://example.org/cats" and merged.venue == "Journal of Cats"
    assert merged.tags == ["from-the-copy"]
    assert lib.papers.count() == 5 and win.model.rowCount() == 5
    assert [r[0] for r in _rows(dlg)] == ["same abstract", "same citation key"]
    assert dlg.current_sides()[0] == dlg.pairs[0].a  # the next pair is shown

    win.activateWindow()
    win.table.setFocus()
    qtbot.keyClick(win.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert (lib.papers.get(keep), lib.papers.get(other)) == before
    assert win.model.rowCount() == 6
    qtbot.waitUntil(lambda: len(_rows(dlg)) == 3 and not dlg.is_searching(), timeout=10000)  # offered again
    # redo merges again, with the same choices
    qtbot.keyClick(win.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert lib.papers.get(keep).title == "Deep Lerning for Cats" and lib.papers.count() == 5


def test_keys_walk_swap_and_dismiss(make_window, dups_dir: Path, qtbot) -> None:
    win = make_window(dups_dir)
    dlg = _open(win, qtbot)
    dlg.pair_list.setFocus()
    qtbot.keyClick(dlg.pair_list, Qt.Key.Key_Down)
    qtbot.keyClick(dlg.pair_list, Qt.Key.Key_Down)
    pair = dlg.pairs[2]
    assert dlg.current_sides() == (pair.a, pair.b)
    qtbot.keyClick(dlg.pair_list, Qt.Key.Key_Up)
    assert dlg.current_sides() == (dlg.pairs[1].a, dlg.pairs[1].b)
    qtbot.keyClick(dlg.pair_list, Qt.Key.Key_Down)
    qtbot.mouseClick(dlg.swap_button, Qt.MouseButton.LeftButton)
    assert dlg.current_sides() == (pair.b, pair.a)
    head = [w.text() for w in dlg.scroll.widget().findChildren(QLabel) if w.text().startswith("Keep:")]
    assert head == [f"Keep: paper {pair.b}"]

    qtbot.keyClick(dlg.pair_list, Qt.Key.Key_N)  # not duplicates
    assert [r[0] for r in _rows(dlg)] == ["same DOI", "same abstract"]
    assert win.library.duplicates.dismissed() == [(pair.a, pair.b)]
    assert [p.reason for p in win.library.duplicates.find()] == ["doi", "same abstract"]
    dlg.dismiss_button.setFocus()
    qtbot.keyClick(dlg.dismiss_button, Qt.Key.Key_Return)  # Return presses a focused button
    assert len(win.library.duplicates.dismissed()) == 2 and win.library.papers.count() == 6
    dlg.pair_list.setFocus()
    qtbot.keyClick(dlg.pair_list, Qt.Key.Key_Delete)
    assert len(win.library.duplicates.dismissed()) == 3 and _rows(dlg) == []
    for _ in range(3):
        win.undo_stack.undo()
    assert win.library.duplicates.dismissed() == []
    qtbot.waitUntil(lambda: len(_rows(dlg)) == 3 and not dlg.is_searching(), timeout=10000)
    qtbot.keyClick(dlg.pair_list, Qt.Key.Key_Escape)
    assert not dlg.isVisible()
    assert win.library.papers.count() == 6  # nothing merged along the way


def test_imported_text_is_shown_as_plain_text(make_window, library_dir: Path, tmp_path: Path, qtbot) -> None:
    bib = "".join(
        f"@misc{{k{i},\n  title = {{{HOSTILE_TITLE}}},\n  author = {{Mallory, M{i}.}},\n  year = {{{2000 + i}}},\n}}\n"
        for i in range(2)
    )
    with Library.open(library_dir) as lib:
        lib.imports.from_files([write_file(tmp_path, "hostile.bib", bib)])
        shown_title = lib.papers.get(lib.query("").ids[0]).title
    assert "<b>" in shown_title  # the title really is markup-like text
    win = make_window(library_dir)
    dlg = _open(win, qtbot)
    assert _rows(dlg)[0][1] == shown_title  # item text is plain
    labels = [w for w in dlg.scroll.widget().findChildren(QLabel) if "Bold" in w.text()]
    assert labels and all(w.textFormat() == Qt.TextFormat.PlainText for w in labels)
    assert all(w.text() == shown_title for w in labels)
    dlg.grab().save(str(tmp_path / "hostile.png"))
