"""Keys go where the user is: real key presses sent to the window (Qt routes them to the focus
widget, or to an open completer list) and what was saved in the library afterwards."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QPushButton

from tests.helpers.keyboard import focus_name, press, type_keys


def _shown(make_window, folder: Path, qtbot):
    win = make_window(folder)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=3000)
    qtbot.waitUntil(lambda: win.start_stage.done and not win.model.partial, timeout=5000)
    return win


def _ready(win, qtbot) -> None:
    qtbot.waitUntil(lambda: not win.follow_pending(), timeout=3000)


def test_the_window_opens_with_the_keys_in_the_table(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    assert QApplication.focusWidget() is win.table, focus_name(win)
    first = win.current_id()
    assert first == win.model.paper_id(0)
    type_keys(win, "j")
    assert win.current_id() == win.model.paper_id(1)
    assert win.sidebar_pane.filter_box.text() == ""


def test_after_the_sample_is_opened_the_first_j_moves_in_the_table(make_window, library_dir: Path, qtbot) -> None:
    win = _shown(make_window, library_dir, qtbot)
    assert win.stack.currentWidget() is win.welcome
    win.welcome.sampleRequested.emit()  # the welcome panel's "Open the sample"
    qtbot.waitUntil(lambda: win.model.rowCount() > 0, timeout=30000)
    assert win.stack.currentWidget() is win.splitter
    # the focus moves once the import's result is shown (a deferred refresh): wait for it
    qtbot.waitUntil(lambda: QApplication.focusWidget() is win.table, timeout=5000)
    assert win.current_id() == win.model.paper_id(0)
    type_keys(win, "j")
    assert win.sidebar_pane.filter_box.text() == ""
    assert win.current_id() == win.model.paper_id(1)
    type_keys(win, "s")
    assert win.library.papers.get(win.model.paper_id(1)).status == "skimmed"


def test_after_a_switch_of_library_the_table_has_the_keys(
    make_window, seeded_dir: Path, seed_paths: list[Path], tmp_path: Path, qtbot
) -> None:
    from desktop_app.core.library import Library
    from desktop_app.gui.launch import close_window, switch_library

    other = tmp_path / "other"
    with Library.open(other) as lib:
        lib.imports.from_files(seed_paths[:1])
    win = _shown(make_window, seeded_dir, qtbot)
    win.sidebar.setFocus()  # the keys elsewhere in the old window
    new = switch_library(win, other)
    try:
        new.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is new, timeout=3000)
        qtbot.waitUntil(lambda: new.start_stage.done and not new.model.partial, timeout=5000)
        assert QApplication.focusWidget() is new.table, focus_name(new)
        assert new.current_id() == new.model.paper_id(0)
        type_keys(new, "j")
        assert new.current_id() == new.model.paper_id(1)
    finally:
        close_window(new)


def test_esc_in_the_title_takes_back_the_typing_then_leaves(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    _ready(win, qtbot)
    pid = win.current_id()
    title = win.library.papers.get(pid).title
    edit = win.reader.title_edit
    qtbot.mouseClick(edit.viewport(), Qt.MouseButton.LeftButton)
    assert edit.hasFocus()
    type_keys(win, "j3")  # typed into the title: no shortcut fires
    assert edit.text() != title and win.current_id() == pid
    type_keys(win, "\x1b")
    assert edit.text() == title and edit.hasFocus()  # first Esc: the typing is gone, still here
    type_keys(win, "\x1b")
    assert QApplication.focusWidget() is win.table, focus_name(win)
    paper = win.library.papers.get(pid)
    assert (paper.title, paper.title_source, paper.rating) == (title, "derived", 0)
    assert win.undo_stack.count() == 0  # nothing was saved, so nothing to undo
    type_keys(win, "j")
    assert win.current_id() == win.model.paper_id(win.model.row_of(pid) + 1)


def test_enter_in_the_title_saves_it_and_gives_the_keys_back(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    _ready(win, qtbot)
    pid = win.current_id()
    edit = win.reader.title_edit
    qtbot.mouseClick(edit.viewport(), Qt.MouseButton.LeftButton)
    edit.selectAll()
    type_keys(win, "sparse probes\n")
    assert QApplication.focusWidget() is win.table, focus_name(win)
    assert win.library.papers.get(pid).title == "sparse probes"
    type_keys(win, "r")
    assert win.library.papers.get(pid).status == "read"


def test_esc_in_the_tag_field_takes_back_the_typing_then_leaves(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    _ready(win, qtbot)
    pid = win.current_id()
    type_keys(win, "t")
    assert win.reader.tags.line.hasFocus()
    type_keys(win, "rl")
    type_keys(win, "\x1b")
    assert win.reader.tags.line.text() == "" and win.reader.tags.line.hasFocus()
    type_keys(win, "\x1b")
    assert QApplication.focusWidget() is win.table, focus_name(win)
    type_keys(win, "2")
    paper = win.library.papers.get(pid)
    assert paper.tags == [] and paper.rating == 2


def test_esc_in_the_note_saves_it_and_leaves(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    _ready(win, qtbot)
    pid = win.current_id()
    type_keys(win, "n")
    assert win.reader.notes.edit.hasFocus()
    type_keys(win, "check j and k")
    type_keys(win, "\x1b")
    assert QApplication.focusWidget() is win.table, focus_name(win)
    assert win.library.notes.text(pid) == "check j and k"
    type_keys(win, "3j")
    assert win.library.papers.get(pid).rating == 3
    assert win.current_id() != pid
    assert win.library.notes.text(pid) == "check j and k"


def test_esc_in_the_search_box_gives_the_table_back(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    press(win, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert win.search.box.hasFocus()
    type_keys(win, "rl")
    type_keys(win, "\x1b")
    assert QApplication.focusWidget() is win.table, focus_name(win)
    assert win.search.box.text() == ""
    pid = win.current_id()
    type_keys(win, "u")
    assert win.library.papers.get(pid).status == "unread" and win.undo_stack.count() == 1


def test_home_and_end_go_to_the_first_and_last_paper(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    type_keys(win, "jjj")
    assert win.table.currentIndex().row() == 3
    press(win, Qt.Key.Key_End)
    assert win.table.currentIndex().row() == win.model.rowCount() - 1 == 75
    assert win.table.selected_ids() == [win.model.paper_id(75)]
    press(win, Qt.Key.Key_Home)
    assert win.table.currentIndex().row() == 0
    assert win.table.selected_ids() == [win.model.paper_id(0)]


# ---- triage ------------------------------------------------------------------------------
def _triage(win, qtbot):
    win.findChild(QAction, "triageAction").trigger()
    view = win.triage.view
    qtbot.waitUntil(view.hasFocus, timeout=3000)
    return view


def test_triage_two_tags_in_a_row_keep_every_letter(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    view = _triage(win, qtbot)
    pid = view.current_id()
    type_keys(win, "ticl\nttheory\n")
    assert win.library.papers.get(pid).tags == ["icl", "theory"]
    assert view.hasFocus()


def test_triage_enter_on_a_tag_the_paper_has_gives_the_keys_back(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    view = _triage(win, qtbot)
    pid = view.current_id()
    win.edits.add_tags([pid], ["icl"])  # shown on the view as a chip
    type_keys(win, "ticl\n")  # already there: nothing new, but the field is left all the same
    assert view.hasFocus(), focus_name(win)
    type_keys(win, "ttheory\n")
    assert sorted(win.library.papers.get(pid).tags) == ["icl", "theory"]


def test_triage_tag_chosen_from_the_suggestions_then_the_next_typed(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    view = _triage(win, qtbot)
    pid = view.current_id()
    other = next(p for p in view.ids if p != pid)
    win.library.tags.add([other], ["in-context learning"])
    view._known_tags()
    type_keys(win, "tin-c")
    popup = view.tags.line.completer().popup()
    assert popup.isVisible()
    press(win, Qt.Key.Key_Down)
    type_keys(win, "\nttheory")
    qtbot.wait(20)  # any turn of the event loop between the tags, as with a person typing
    type_keys(win, "\n")
    assert sorted(win.library.papers.get(pid).tags) == ["in-context learning", "theory"]
    assert view.tags.line.text() == ""


def test_triage_esc_in_the_tag_field_takes_back_then_leaves(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    view = _triage(win, qtbot)
    pid = view.current_id()
    type_keys(win, "tabc\x1b")
    assert view.tags.line.hasFocus() and view.tags.line.text() == ""
    type_keys(win, "\x1b")
    assert view.hasFocus()
    type_keys(win, "j")
    assert view.current_id() != pid and win.library.papers.get(pid).tags == []


def test_triage_j_and_k_move_and_a_decision_flashes(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    view = _triage(win, qtbot)
    ids = view.ids
    start = view.pos
    type_keys(win, "jj")
    assert view.pos == start + 2
    type_keys(win, "k")
    assert view.pos == start + 1
    assert view.flash.text() == ""
    decided = view.current_id()
    type_keys(win, "r")
    assert win.library.papers.get(decided).status == "read"
    assert view.flash.isVisible() and view.flash.text() == "Marked read"
    type_keys(win, "4")
    assert view.flash.text() == "Rated 4"
    qtbot.waitUntil(lambda: view.flash.text() == "", timeout=3000)  # gone by itself
    assert view.current_id() == ids[start + 3]


# ---- back from a related paper -------------------------------------------------------------
def test_alt_left_returns_to_the_paper_you_came_from(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    _ready(win, qtbot)
    start = win.current_id()
    qtbot.waitUntil(lambda: len(win.similar.panel.findChildren(QPushButton, "relatedPaper")) > 0, timeout=20000)
    qtbot.mouseClick(win.similar.panel.findChildren(QPushButton, "relatedPaper")[0], Qt.MouseButton.LeftButton)
    second = win.current_id()
    assert second != start
    third = next(p for p in win.model.ids if p not in (start, second))
    win.similar.choose(third)
    assert win.current_id() == third
    win.table.setFocus()
    press(win, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert win.current_id() == second
    # the paper to go back to is outside the filter now: all papers are shown again
    win.edits.add_tags([second], ["only-this"])
    win.on_sidebar_filter("tag", "only-this")
    assert list(win.model.ids) == [second]
    press(win, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert win.current_id() == start and win.model.rowCount() == 76
    press(win, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)  # nothing further back
    assert win.current_id() == start
    assert win.statusBar().currentMessage() == "No paper to go back to"


def test_after_a_click_in_the_sidebar_j_moves_in_the_table(make_window, seeded_dir: Path, qtbot) -> None:
    from desktop_app.gui.sidebar import KIND, VALUE

    win = _shown(make_window, seeded_dir, qtbot)
    item = next(it for it in win.sidebar._iter() if it.data(0, KIND) == "status" and it.data(0, VALUE) == "unread")
    qtbot.mouseClick(win.sidebar.viewport(), Qt.MouseButton.LeftButton, pos=win.sidebar.visualItemRect(item).center())
    assert win.state.status == "unread"
    assert QApplication.focusWidget() is win.table, focus_name(win)
    type_keys(win, "j")
    assert win.sidebar_pane.filter_box.text() == ""
    assert win.table.currentIndex().row() == 1


def test_a_remembered_paper_past_the_first_page_is_current_with_the_keys(
    make_window, library_dir: Path, settings, seed_paths: list[Path], qtbot
) -> None:
    from desktop_app.core.library import Library
    from desktop_app.gui.paper_model import PAGE
    from desktop_app.gui.window_settings import WindowSettings
    from tests.helpers.shared import CORPUS

    bib = [CORPUS / "bibtex" / name for name in ("jabref__jabref-authors.bib", "jabref__testjabref.bib")]
    with Library.open(library_dir) as lib:
        lib.imports.from_files([*seed_paths, *bib])
        ids = lib.query("").ids
    assert len(ids) > PAGE + 21, len(ids)
    far = ids[PAGE + 20]  # not among the rows painted first
    ws = WindowSettings(settings, library_dir.expanduser().absolute())
    settings.setValue(ws.key("selected"), str(far))
    win = _shown(make_window, library_dir, qtbot)
    assert win.current_id() == far  # not row 0, which a focus-in would make current
    assert QApplication.focusWidget() is win.table, focus_name(win)
    type_keys(win, "k")
    assert win.current_id() == ids[PAGE + 19]
