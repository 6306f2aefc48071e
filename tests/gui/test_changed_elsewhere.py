"""The note on screen is written by another program: nothing is overwritten silently."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from desktop_app.core.library import Library
from tests.helpers.cli import cli


def test_core_keeps_both_texts_and_reports_the_conflict(tmp_path: Path) -> None:
    from desktop_app.core.records import ParseResult, Record

    with Library.open(tmp_path / "lib") as lib:
        lib.imports.from_records([("t", ParseResult("bibtex", [Record(title="A", abstract="x")]))])
        pid = lib.query("").ids[0]
        lib.notes.set(pid, "first")
        lib.notes.set(pid, "theirs")  # another program, after the editor loaded "first"
        change = lib.notes.set(pid, "mine", base="first")
        assert change.detail.conflict == "theirs"
        assert lib.papers.get(pid).note == "mine"
        assert "theirs" in [text for _, text in lib.notes.revisions(pid)]
        assert lib.notes.set(pid, "mine again", base="mine").detail.conflict is None


def test_typing_over_a_note_changed_by_the_cli_shows_the_banner(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.elsewhere_timer.stop()  # the test decides when the window looks
    pid = win.current_id()
    notes = win.reader.notes
    assert notes.paper_id() == pid and not notes.banner.isVisible()
    cli(seeded_dir, "note", str(pid), "--set", "written at the command line")
    qtbot.keyClicks(notes.edit, "typed in the window")
    assert notes.flush()
    assert notes.banner.isVisible()
    with Library.open(seeded_dir, ensure_index=False) as lib:
        assert lib.papers.get(pid).note == "typed in the window"
        assert "written at the command line" in [t for _, t in lib.notes.revisions(pid)]
    # Take theirs: the other text becomes the note again; ours stays in the revisions
    qtbot.mouseClick(notes.banner.take_button, Qt.MouseButton.LeftButton)
    assert not notes.banner.isVisible()
    assert notes.edit.toPlainText() == "written at the command line"
    with Library.open(seeded_dir, ensure_index=False) as lib:
        assert lib.papers.get(pid).note == "written at the command line"
        assert "typed in the window" in [t for _, t in lib.notes.revisions(pid)]
    # ... and undo brings ours back
    win.undo_stack.undo()
    assert win.library.papers.get(pid).note == "typed in the window"


def test_an_idle_editor_shows_the_new_text_and_keep_mine_dismisses(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.elsewhere_timer.stop()
    pid = win.current_id()
    notes = win.reader.notes
    cli(seeded_dir, "note", str(pid), "--set", "from the shell")
    win.edits.check_note_elsewhere()  # what the window's timer does every two seconds
    assert notes.edit.toPlainText() == "from the shell"
    assert not notes.banner.isVisible() and notes.state.text() == "updated from elsewhere"
    # unsaved typing when the other write lands: the banner at once, the typing kept
    qtbot.keyClick(notes.edit, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(notes.edit, " + mine")
    cli(seeded_dir, "note", str(pid), "--append", "second shell line")
    win.edits.check_note_elsewhere()
    assert notes.banner.isVisible()
    assert notes.edit.toPlainText() == "from the shell + mine"
    qtbot.mouseClick(notes.banner.keep_button, Qt.MouseButton.LeftButton)
    assert not notes.banner.isVisible()
    assert notes.flush()
    assert win.library.papers.get(pid).note == "from the shell + mine"
    assert "from the shell\nsecond shell line" in [t for _, t in win.library.notes.revisions(pid)]


def test_a_title_changed_elsewhere_is_named_and_undo_brings_it_back(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    pid = win.current_id()
    cli(seeded_dir, "title", str(pid), "A title from the shell")
    messages: list[str] = []
    win.edits.message.connect(lambda text, _ms: messages.append(text))
    win.reader.title_edit.setText("My own title")
    win.reader.title_edit.editingFinished.emit()
    assert win.library.papers.get(pid).title == "My own title"
    assert any("changed elsewhere to “A title from the shell”" in m for m in messages), messages
    win.undo_stack.undo()
    assert win.library.papers.get(pid).title == "A title from the shell"
