"""Paper → Edit metadata… driven as a user would: Ctrl+I, typing, the author buttons, Save, Ctrl+Z."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel, QRadioButton

from desktop_app.core.library import Library
from desktop_app.gui.metadata_editor import MetadataEditor, screenshot_view


def _open_editor(win, qtbot) -> MetadataEditor:
    _activate(win, qtbot)
    win.table.setFocus()
    qtbot.keyClick(win.table, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    dialog = win.metadata_editor
    assert isinstance(dialog, MetadataEditor) and dialog.isVisible()
    _activate(dialog, qtbot)
    return dialog


def _activate(window, qtbot) -> None:
    """Make ``window`` the active one, as the window manager does (shortcuts follow it)."""
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=3000)


def _save(dialog: MetadataEditor, qtbot) -> None:
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Save), Qt.MouseButton.LeftButton)


def test_edit_authors_reorder_save_undo_and_search(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    qtbot.waitUntil(lambda: not win.follow_pending(), timeout=3000)
    pid = win.current_id()
    before = win.library.papers.get(pid)
    dialog = _open_editor(win, qtbot)
    assert dialog.paper.id == pid
    assert dialog.authors.authors() == before.authors

    # two authors typed "Given Family" and "Family, Given", each added with Enter
    for name in ("Quentin Zyxwvut", "Aardvark, Beatrix"):
        dialog.authors.new.setFocus()
        qtbot.keyClicks(dialog.authors.new, name)
        qtbot.keyClick(dialog.authors.new, Qt.Key.Key_Return)
    assert dialog.isVisible()  # Enter in the author field adds, it does not press Save
    assert dialog.authors.authors()[-2:] == ["Zyxwvut, Quentin", "Aardvark, Beatrix"]
    # the last one moved to the top with Move up, one click per place
    for _ in range(dialog.authors.list.count() - 1):
        qtbot.mouseClick(dialog.authors.up, Qt.MouseButton.LeftButton)
    assert not dialog.authors.up.isEnabled()
    expected = ["Aardvark, Beatrix", *before.authors, "Zyxwvut, Quentin"]
    assert dialog.authors.authors() == expected
    dialog.venue.clear()
    qtbot.keyClicks(dialog.venue, "Journal of Tests")
    qtbot.keyClicks(dialog.year, "")  # the year left as it was
    _save(dialog, qtbot)
    assert not dialog.isVisible()

    after = win.library.papers.get(pid)
    assert after.authors == expected and after.venue == "Journal of Tests"
    assert after.title == before.title and after.doi == before.doi
    assert win.undo_stack.undoText() == "Edit metadata"
    # the reader and the table follow
    qtbot.waitUntil(lambda: "Aardvark, Beatrix" in win.reader.meta.text(), timeout=3000)

    # the new author is searchable once the index has the change
    win.library.flush_index()
    win.search.box.setFocus()
    qtbot.keyClicks(win.search.box, "Zyxwvut")
    qtbot.waitUntil(lambda: win.model.ids == [pid], timeout=5000)
    qtbot.keyClick(win.search.box, Qt.Key.Key_Escape)

    # Ctrl+Z restores exactly the previous values, in one step
    _activate(win, qtbot)
    win.table.setFocus()
    qtbot.keyClick(win.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    restored = win.library.papers.get(pid)
    assert restored.authors == before.authors and restored.venue == before.venue
    assert win.undo_stack.index() == 0
    win.undo_stack.redo()
    assert win.library.papers.get(pid).authors == expected
    make_window.close(win)
    with Library.open(seeded_dir) as lib:
        assert lib.papers.get(pid).authors == expected
        assert lib.query("Zyxwvut").ids == [pid]


def test_remove_and_move_down(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    pid = win.current_id()
    dialog = _open_editor(win, qtbot)
    dialog.authors.set_authors(["A, One", "B, Two", "C, Three"])
    dialog.authors.list.setCurrentRow(0)
    qtbot.mouseClick(dialog.authors.down, Qt.MouseButton.LeftButton)
    assert dialog.authors.authors() == ["B, Two", "A, One", "C, Three"]
    dialog.authors.list.setCurrentRow(2)
    qtbot.mouseClick(dialog.authors.remove, Qt.MouseButton.LeftButton)
    assert dialog.authors.authors() == ["B, Two", "A, One"]
    _save(dialog, qtbot)
    assert win.library.papers.get(pid).authors == ["B, Two", "A, One"]


def test_invalid_values_are_refused_with_a_message(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    pid = win.current_id()
    before = win.library.papers.get(pid)
    dialog = _open_editor(win, qtbot)
    dialog.venue.clear()
    qtbot.keyClicks(dialog.venue, "Changed")
    dialog.doi.clear()
    qtbot.keyClicks(dialog.doi, "11.1234/not-a-doi")
    _save(dialog, qtbot)
    assert dialog.isVisible()  # stays open with the message
    assert dialog.error.isVisible() and "is not a DOI" in dialog.error.text()
    assert "10.1234/abc" in dialog.error.text()  # says what a DOI looks like
    assert win.library.papers.get(pid).venue == before.venue  # nothing written
    assert win.undo_stack.count() == 0

    for widget, text, message in (
        (dialog.year, "20x6", "the year is a number"),
        (dialog.arxiv, "1234.5", "is not an arxiv id"),
        (dialog.url, "www.example.org", "is not a web address"),
    ):
        dialog.doi.clear()
        widget.clear()
        qtbot.keyClicks(widget, text)
        _save(dialog, qtbot)
        assert dialog.isVisible() and message in dialog.error.text().lower(), message
        widget.clear()

    # fixed: the DOI typed as a link is stored bare
    qtbot.keyClicks(dialog.doi, "https://doi.org/10.1234/abc.567")
    idx = dialog.entry_type.findData("article")
    dialog.entry_type.setCurrentIndex(idx)
    _save(dialog, qtbot)
    assert not dialog.isVisible()
    saved = win.library.papers.get(pid)
    assert (saved.doi, saved.venue, saved.entry_type) == ("10.1234/abc.567", "Changed", "article")


def test_the_title_edit_in_the_dialog_and_nothing_changed(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    pid = win.current_id()
    before = win.library.papers.get(pid)
    dialog = _open_editor(win, qtbot)
    _save(dialog, qtbot)  # nothing changed: closes, nothing on the stack
    assert not dialog.isVisible() and win.undo_stack.count() == 0
    dialog = _open_editor(win, qtbot)
    dialog.title.clear()
    qtbot.keyClicks(dialog.title, "A title from the dialog")
    _save(dialog, qtbot)
    assert win.library.papers.get(pid).title == "A title from the dialog"
    qtbot.waitUntil(lambda: win.reader.title_edit.text() == "A title from the dialog", timeout=3000)
    win.undo_stack.undo()
    p = win.library.papers.get(pid)
    assert (p.title, p.title_source) == (before.title, before.title_source)


def test_the_shortcut_is_free_and_listed(make_window, seeded_dir: Path) -> None:
    from PySide6.QtGui import QAction

    from desktop_app.gui.shortcuts_help import SHORTCUTS

    win = make_window(seeded_dir)
    key = QKeySequence("Ctrl+I")
    holders = [a for a in win.findChildren(QAction) if key in a.shortcuts()]
    assert [a.objectName() for a in holders] == ["editMetadataAction"]
    assert any(k == "Ctrl+I" for k, _ in SHORTCUTS)


def test_screenshot_view_returns_the_filled_dialog(make_window, seeded_dir: Path, tmp_path: Path) -> None:
    win = make_window(seeded_dir)
    widget = screenshot_view(win)
    assert isinstance(widget, MetadataEditor) and widget.title.text() == win.library.papers.get(win.current_id()).title
    assert widget.grab().save(str(tmp_path / "metadata.png"))


def test_the_citation_key_is_edited_refused_when_taken_and_undone(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    pid = win.current_id()
    before = win.library.papers.get(pid).bibtex_key
    other = next(i for i in win.library.query("").ids if i != pid)
    taken = win.library.papers.get(other).bibtex_key
    dialog = _open_editor(win, qtbot)
    assert dialog.citation_key.text() == before
    dialog.citation_key.clear()
    qtbot.keyClicks(dialog.citation_key, taken)
    _save(dialog, qtbot)
    assert dialog.isVisible() and f"paper {other}'s already" in dialog.error.text()
    assert win.library.papers.get(pid).bibtex_key == before and win.undo_stack.count() == 0
    dialog.citation_key.clear()
    qtbot.keyClicks(dialog.citation_key, "mine2026quokka")
    _save(dialog, qtbot)
    assert not dialog.isVisible()
    assert win.library.papers.get(pid).bibtex_key == "mine2026quokka"
    assert win.undo_stack.undoText() == "Edit citation key"
    assert win.library.query("key:mine2026quokka").ids == [pid]
    win.undo_stack.undo()
    assert win.library.papers.get(pid).bibtex_key == before


def test_the_reader_shows_the_citation_key(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    key = win.library.papers.get(win.current_id()).bibtex_key
    qtbot.waitUntil(lambda: f"@{key}" in win.reader.meta.text(), timeout=3000)


def test_fields_changed_elsewhere_meanwhile_are_chosen_field_by_field(make_window, seeded_dir: Path, qtbot) -> None:
    """Another program changes the venue and the title while the dialog is open; the user edits
    the venue and the year. Save keeps the dialog open with theirs and mine for the venue only
    (the title and the year each changed on one side); keeping theirs writes their venue and
    my year, one undo step."""
    win = make_window(seeded_dir)
    pid = win.current_id()
    before = win.library.papers.get(pid)
    dialog = _open_editor(win, qtbot)
    with Library.open(seeded_dir, ensure_index=False) as other:
        other.papers.update_metadata(pid, {"venue": "Their Venue", "title": "Their title"})
    dialog.venue.clear()
    qtbot.keyClicks(dialog.venue, "My Venue")
    dialog.year.clear()
    qtbot.keyClicks(dialog.year, "2019")
    _save(dialog, qtbot)
    assert dialog.isVisible() and dialog.choices.isVisible()
    assert "changed the venue of this paper" in dialog.error.text()
    assert set(dialog.choices.chosen()) == {"venue"}
    assert win.library.papers.get(pid).venue == "Their Venue"  # nothing written yet
    theirs = dialog.choices.findChild(QRadioButton, "theirs_venue")
    assert dialog.choices.findChild(QRadioButton, "mine_venue").isChecked()  # mine by default
    labels = [w.text() for w in dialog.choices.findChildren(QLabel)]
    assert "Their Venue" in labels and "My Venue" in labels
    qtbot.mouseClick(theirs, Qt.MouseButton.LeftButton)
    _save(dialog, qtbot)
    assert not dialog.isVisible()
    saved = win.library.papers.get(pid)
    assert (saved.venue, saved.year, saved.title) == ("Their Venue", 2019, "Their title")
    assert win.undo_stack.count() == 1
    win.undo_stack.undo()
    assert win.library.papers.get(pid).year == before.year


def test_keeping_mine_writes_mine_over_theirs(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    pid = win.current_id()
    dialog = _open_editor(win, qtbot)
    with Library.open(seeded_dir, ensure_index=False) as other:
        other.papers.update_metadata(pid, {"authors": ["Elsewhere, Eve"]})
    dialog.authors.set_authors(["Mine, May", "Also, Al"])
    _save(dialog, qtbot)
    assert dialog.isVisible() and set(dialog.choices.chosen()) == {"authors"}
    assert "Elsewhere, Eve" in [w.text() for w in dialog.choices.findChildren(QLabel)]
    _save(dialog, qtbot)  # mine stays checked
    assert not dialog.isVisible()
    assert win.library.papers.get(pid).authors == ["Mine, May", "Also, Al"]
