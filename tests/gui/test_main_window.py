"""The main window driven as a user would: real widgets, qtbot keys and clicks."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from desktop_app.core.library import Library
from desktop_app.gui.paper_model import COL_TITLE
from tests.helpers.library import find_paper


def _titles(win) -> list[str]:
    return [win.model.data(win.model.index(r, COL_TITLE)) for r in range(win.model.rowCount())]


def test_window_shows_library_and_objectnames(make_window, seeded_dir: Path) -> None:
    win = make_window(seeded_dir)
    assert win.model.rowCount() == 76
    for name in (
        "searchBox",
        "paperTable",
        "sidebar",
        "readerView",
        "titleEdit",
        "tagEditor",
        "statusControl",
        "ratingControl",
        "noteEditor",
    ):
        w = win.findChild(object, name)
        assert w is not None, name
        assert w.accessibleName(), name
    assert win.stack.currentWidget() is win.splitter


def test_typing_a_query_filters_the_table(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.search.box.setFocus()
    qtbot.keyClicks(win.search.box, '"Recursive Automated Composition"')
    qtbot.waitUntil(lambda: win.model.rowCount() == 1, timeout=3000)
    assert _titles(win)[0].startswith("RACES")
    qtbot.waitUntil(lambda: not win.follow_pending(), timeout=3000)  # count, chips and reader follow
    assert "1 of 76" in win.search.count.text()
    # the search hits are underlined in the reader (tests/gui/test_search_hits.py: exactly which)
    assert "text-decoration: underline" in win.reader.abstract.toHtml()
    qtbot.keyClick(win.search.box, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: win.model.rowCount() == 76, timeout=3000)


def test_a_bad_query_shows_an_inline_error(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    qtbot.keyClicks(win.search.box, "bogus:field")
    qtbot.waitUntil(lambda: win.search.error.isVisible(), timeout=3000)
    assert "no field “bogus:”" in win.search.error.text()
    assert win.model.rowCount() == 76  # the table keeps the last good result


def test_selecting_shows_the_abstract(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    row = 5
    rect = win.table.visualRect(win.model.index(row, COL_TITLE))
    qtbot.mouseClick(win.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    pid = win.model.paper_id(row)
    paper = win.library.papers.get(pid)
    assert win.current_id() == pid
    # the table's selection is at once; the reader follows one event-loop turn later
    qtbot.waitUntil(lambda: win.reader.abstract.toPlainText() == paper.abstract_text, timeout=3000)
    assert win.reader.title_edit.text() == paper.title


def test_tag_added_with_the_editor_persists(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    pid = win.current_id()
    win.table.setFocus()
    qtbot.keyClick(win.table, Qt.Key.Key_T)
    assert win.reader.tags.line.hasFocus()
    qtbot.keyClicks(win.reader.tags.line, "rl/rlvr")
    qtbot.keyClick(win.reader.tags.line, Qt.Key.Key_Return)
    assert "rl/rlvr" in win.library.papers.get(pid).tags
    assert win.reader.tags.tags() == ["rl/rlvr"]
    make_window.close(win)
    with Library.open(seeded_dir) as lib:
        assert lib.papers.get(pid).tags == ["rl/rlvr"]
        assert pid in lib.query("tag:rl").ids


def test_undo_and_redo_of_a_tag(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    pid = win.current_id()
    win.edits.add_tags([pid], ["to-cite"])
    assert win.library.papers.get(pid).tags == ["to-cite"]
    win.table.setFocus()
    qtbot.keyClick(win.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert win.library.papers.get(pid).tags == []
    assert win.reader.tags.tags() == []
    qtbot.keyClick(win.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert win.library.papers.get(pid).tags == ["to-cite"]


def test_bulk_status_is_one_undo_step(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.table.selectAll()
    win.table.setFocus()
    qtbot.keyClick(win.table, Qt.Key.Key_R)
    assert win.library.papers.status_counts()["read"] == 76
    win.undo_stack.undo()
    assert win.library.papers.status_counts()["unread"] == 76


def test_keyboard_navigation_and_rating_keys(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.select_row(0)
    win.table.setFocus()
    qtbot.keyClick(win.table, Qt.Key.Key_J)
    qtbot.keyClick(win.table, Qt.Key.Key_J)
    assert win.table.currentIndex().row() == 2
    qtbot.keyClick(win.table, Qt.Key.Key_K)
    assert win.table.currentIndex().row() == 1
    qtbot.keyClick(win.table, Qt.Key.Key_Down)
    assert win.table.currentIndex().row() == 2
    pid = win.current_id()
    qtbot.keyClick(win.table, Qt.Key.Key_4)
    assert win.library.papers.get(pid).rating == 4
    assert win.reader.rating.rating() == 4
    qtbot.keyClick(win.table, Qt.Key.Key_S)
    assert win.library.papers.get(pid).status == "skimmed"
    assert win.reader.status.status() == "skimmed"
    qtbot.keyClick(win.table, Qt.Key.Key_0)
    assert win.library.papers.get(pid).rating == 0
    qtbot.keyClick(win.table, Qt.Key.Key_N)
    assert win.reader.notes.edit.hasFocus()


def test_note_typed_without_saving_is_there_after_reopening(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    pid = win.current_id()
    win.focus_note()
    qtbot.keyClicks(win.reader.notes.edit, "Compare with **DPO**.")
    # autosave within a second of the last keystroke, no explicit save
    qtbot.waitUntil(lambda: win.library.papers.get(pid).note == "Compare with **DPO**.", timeout=3000)
    qtbot.keyClicks(win.reader.notes.edit, " And PPO")
    make_window.close(win)  # closing saves at once
    with Library.open(seeded_dir) as lib:
        assert lib.papers.get(pid).note == "Compare with **DPO**. And PPO"
        assert pid in lib.query("note:PPO").ids


def test_note_saved_when_switching_paper(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    pid = win.current_id()
    win.focus_note()
    qtbot.keyClicks(win.reader.notes.edit, "quick thought")
    win.select_row(3)
    assert win.library.papers.get(pid).note == "quick thought"


def test_abstract_with_html_shows_as_text(make_window, library_dir: Path, qtbot) -> None:
    from desktop_app.core.records import ParseResult, Record

    evil = "We study <img src=x onerror=alert(1)> and <script>alert(2)</script> in \\emph{depth} " * 3
    with Library.open(library_dir) as lib:
        lib.imports.from_records([("t", ParseResult("csv", [Record(abstract=evil, title="<b>Bold</b> title")]))])
    win = make_window(library_dir)
    shown = win.reader.abstract.toPlainText()
    assert "<img src=x onerror=alert(1)>" in shown
    assert "<script>alert(2)</script>" in shown
    assert win.reader.title_edit.text() == "<b>Bold</b> title"
    assert win.model.data(win.model.index(0, COL_TITLE)) == "<b>Bold</b> title"


def test_model_passes_qtmodeltester(make_window, seeded_dir: Path, qtmodeltester) -> None:
    win = make_window(seeded_dir)
    qtmodeltester.check(win.model, force_py=True)


def test_settings_remember_filter_and_selection(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.search.set_text("reinforcement")
    win.search.apply_now()
    win.select_row(2)
    pid = win.current_id()
    win.on_sort_changed(2, Qt.SortOrder.DescendingOrder)  # year
    make_window.close(win)
    again = make_window(seeded_dir)
    assert again.search.box.text() == "reinforcement"
    assert again.current_id() == pid
    assert again.sort_key == "year" and again.sort_desc


def test_highlight_selected_text_with_the_mouse(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    pid = find_paper(win.library, "composable building blocks")
    win.select_paper(pid)
    view = win.reader.abstract
    plain = win.library.papers.get(pid).abstract_text
    start = plain.index("composable building blocks")
    end = start + len("composable building blocks")
    # drag from the first to the last character of the phrase
    from PySide6.QtGui import QTextCursor

    def point(pos: int):
        cur = QTextCursor(view.document())
        cur.setPosition(pos)
        return view.cursorRect(cur).center()

    view.verticalScrollBar().setValue(0)
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=point(start))
    qtbot.mouseMove(view.viewport(), pos=point(end))
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=point(end))
    assert win.reader.selection_span() == (start, end)
    qtbot.mouseClick(win.reader.hl_bar.findChild(object, "highlight_green"), Qt.MouseButton.LeftButton)
    hl = win.library.papers.get(pid).highlights
    assert [(h.quote, h.color) for h in hl] == [("composable building blocks", "green")]
    assert win.reader.hl_list.count() == 1
    win.undo_stack.undo()
    assert win.library.papers.get(pid).highlights == []
    win.undo_stack.redo()
    assert len(win.library.papers.get(pid).highlights) == 1


def test_note_preview_renders_markdown_and_escapes_html(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.focus_note()
    qtbot.keyClicks(win.reader.notes.edit, "**Key** idea <img src=x onerror=alert(1)>")
    qtbot.keyClick(
        win.reader.notes.edit, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    preview = win.reader.notes.preview
    assert win.reader.notes.stack.currentWidget() is preview
    assert preview.toPlainText().strip() == "Key idea <img src=x onerror=alert(1)>"
    assert "font-weight" in preview.toHtml() or "<b>" in preview.toHtml()  # the bold survived
    assert win.library.papers.get(win.current_id()).note.startswith("**Key**")  # toggling saved it


def test_note_edits_undo_as_one_step_per_paper(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.select_row(0)
    first = win.current_id()
    win.focus_note()
    qtbot.keyClicks(win.reader.notes.edit, "draft one")
    win.reader.notes.flush()
    qtbot.keyClicks(win.reader.notes.edit, ", more")
    win.reader.notes.flush()  # two saves of the same paper: one undo step
    win.select_row(1)
    second = win.current_id()
    win.focus_note()
    qtbot.keyClicks(win.reader.notes.edit, "other paper")
    win.table.setFocus()  # leaving the editor saves
    assert win.library.papers.get(second).note == "other paper"
    qtbot.keyClick(win.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert win.library.papers.get(second).note == ""
    assert win.reader.notes.edit.toPlainText() == ""
    qtbot.keyClick(win.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert win.library.papers.get(first).note == ""
    win.undo_stack.redo()
    assert win.library.papers.get(first).note == "draft one, more"
    # nothing was lost on the way: every text is a revision
    assert "other paper" in [t for _, t in win.library.notes.revisions(second)]


def test_filter_is_remembered_per_library(make_window, seeded_dir: Path, tmp_path: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.library.lists.create("Only here")
    win.on_sidebar_filter("list", "Only here")
    make_window.close(win)
    other = make_window(tmp_path / "other-library")
    assert other.state.list_name is None  # another library does not inherit the filter
    make_window.close(other)
    again = make_window(seeded_dir)
    assert again.state.list_name == "Only here"


def test_tag_chips_of_the_previous_paper_do_not_linger(make_window, seeded_dir: Path, qtbot) -> None:
    from PySide6.QtWidgets import QApplication, QToolButton

    win = make_window(seeded_dir)
    first, second = win.model.ids[:2]
    win.library.tags.add([first], ["rl/rlvr", "to-cite", "survey"])
    win.select_paper(first)
    win.select_paper(second)  # no event loop turn in between, as when keys repeat fast

    def visible_chips() -> list[str]:
        return [c.text() for c in win.reader.tags.findChildren(QToolButton, "tagChip") if c.isVisible()]

    qtbot.waitUntil(lambda: not win.follow_pending() and win.reader.paper.id == second, timeout=3000)
    QApplication.processEvents()  # Qt shows widgets added to a visible layout on the next turn
    assert visible_chips() == []
    win.select_paper(first)
    qtbot.waitUntil(lambda: len(visible_chips()) == 3, timeout=3000)
