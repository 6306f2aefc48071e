"""Note history in the window: versions listed, changes shown as a diff, restore undoable."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication

from desktop_app.gui.note_history import NoteHistoryDialog, diff_html


def _fragments(doc: QTextDocument) -> list[tuple[str, bool, bool]]:
    """(text, drawn as inserted, drawn as deleted) for each run of the document."""
    out = []
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            fmt = frag.charFormat()
            inserted = fmt.background().style() != Qt.BrushStyle.NoBrush and not fmt.fontStrikeOut()
            out.append((frag.text(), inserted, fmt.fontStrikeOut()))
            it += 1
        block = block.next()
    return out


def _write(win, qtbot, text: str) -> None:
    edit = win.reader.notes.edit
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, text)
    assert win.reader.notes.flush()


def _open_history(win, qtbot) -> NoteHistoryDialog:
    win.findChild(object, "noteHistoryAction").trigger()
    dialog = win.findChild(NoteHistoryDialog)
    assert dialog is not None
    qtbot.waitExposed(dialog)
    return dialog


def test_three_saves_are_listed_diffed_and_restored_undoably(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.select_row(0)
    pid = win.current_id()
    for text in ("alpha beta", "alpha gamma beta", "gamma beta delta"):
        _write(win, qtbot, text)
    dialog = _open_history(win, qtbot)
    assert dialog.list.count() == 3
    labels = [dialog.list.item(n).text() for n in range(3)]
    assert labels[0].startswith("Current note") and "gamma beta delta" in labels[0]
    assert "alpha gamma beta" in labels[1] and "alpha beta" in labels[2]

    # the current note against the version before it: "alpha " deleted, " delta" inserted
    dialog.list.setCurrentRow(0)
    frags = _fragments(dialog.diff.document())
    assert "".join(t for t, ins, _ in frags if ins) == " delta"
    assert "".join(t for t, _, dele in frags if dele) == "alpha "
    assert dialog.diff.toPlainText() == "alpha gamma beta delta"
    # the middle version: " gamma" inserted into "alpha beta", nothing deleted
    dialog.list.setCurrentRow(1)
    frags = _fragments(dialog.diff.document())
    assert "".join(t for t, ins, _ in frags if ins).strip() == "gamma"
    assert not [t for t, _, dele in frags if dele]
    # the oldest version against the current note
    dialog.list.setCurrentRow(2)
    dialog.against_current.setChecked(True)
    frags = _fragments(dialog.diff.document())
    assert "alpha" in "".join(t for t, _, dele in frags if dele)
    assert "delta" in "".join(t for t, ins, _ in frags if ins)
    assert not dialog.list.item(0).data(Qt.ItemDataRole.UserRole) and dialog.restore_button.isEnabled()

    # restore the oldest: stored, shown in the editor, one undo step of its own
    qtbot.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)
    assert win.library.notes.text(pid) == "alpha beta"
    assert win.reader.notes.edit.toPlainText() == "alpha beta"
    assert dialog.list.count() == 4 and dialog.versions[0].text == "alpha beta"
    assert win.undo_stack.undoText() == "Restore note version"
    win.undo_stack.undo()  # the open dialog follows the undo
    assert win.library.notes.text(pid) == "gamma beta delta"
    assert dialog.versions[0].text == "gamma beta delta" and dialog.list.count() == 5
    win.undo_stack.redo()
    assert win.library.notes.text(pid) == "alpha beta"
    dialog.close()
    win.activateWindow()
    qtbot.keyClick(win.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert win.library.notes.text(pid) == "gamma beta delta"
    assert win.reader.notes.edit.toPlainText() == "gamma beta delta"
    win.undo_stack.redo()
    assert win.library.notes.text(pid) == "alpha beta"


def test_the_current_version_cannot_be_restored_and_no_paper_no_dialog(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.select_row(0)
    _write(win, qtbot, "only text")
    dialog = _open_history(win, qtbot)
    assert dialog.list.count() == 1
    assert not dialog.restore_button.isEnabled()
    dialog.close()
    # the button beside the note editor opens the same dialog
    qtbot.mouseClick(win.reader.notes.history_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: any(isinstance(w, NoteHistoryDialog) and w.isVisible() for w in QApplication.topLevelWidgets()),
        timeout=3000,
    )


def test_a_note_with_markup_is_shown_as_text(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.select_row(0)
    _write(win, qtbot, "plain")
    hostile = '<script>alert(1)</script> <b>bold?</b> <img src="http://example.org/x.png"> &amp;'
    _write(win, qtbot, hostile)
    dialog = _open_history(win, qtbot)
    dialog.list.setCurrentRow(0)
    shown = dialog.diff.toPlainText()
    assert "<script>alert(1)</script>" in shown and "<b>bold?</b>" in shown and "&amp;" in shown
    assert "<img" in shown
    html = diff_html("", hostile)
    assert "<script" not in html and "<b>" not in html and "<img" not in html
    assert "&lt;script&gt;" in html
    # nothing in the document is bold, an image or a link
    doc = dialog.diff.document()
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            assert not fmt.isImageFormat() and not fmt.isAnchor() and fmt.fontWeight() <= 400
            it += 1
        block = block.next()


def test_screenshot_views_prepare_their_dialogs(make_window, seeded_dir: Path, qtbot) -> None:
    from desktop_app.gui.duplicates_view import DuplicatesDialog, screenshot_duplicates
    from desktop_app.gui.note_history import screenshot_note_history

    win = make_window(seeded_dir)
    dialog = screenshot_note_history(win)
    assert isinstance(dialog, NoteHistoryDialog) and dialog.isVisible()
    assert dialog.list.count() == 3 and dialog.list.currentRow() == 1
    assert not dialog.grab().isNull()
    dialog.close()
    dups = screenshot_duplicates(win)
    assert isinstance(dups, DuplicatesDialog) and not dups.is_searching()
    assert len(dups.pairs) == 1 and dups.pairs[0].label == "same abstract"
    assert win.model.rowCount() == 77
