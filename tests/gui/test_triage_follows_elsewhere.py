"""Triage follows changes made elsewhere as the reader does: a note written
at the command line while the paper is in triage shows up, or, over unsaved typing, the "Changed
elsewhere" banner with both texts kept; a title or tag changed elsewhere is shown."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication

from desktop_app.core.library import Library
from tests.helpers.cli import cli


def _triage(make_window, seeded_dir: Path, qtbot):
    win = make_window(seeded_dir)
    win.elsewhere_timer.stop()  # the test decides when the window looks
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()  # (xcb in Xvfb: no window manager makes it active; focus follows it)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=5000)
    win.findChild(QAction, "triageAction").trigger()
    view = win.triage.view
    qtbot.waitUntil(lambda: view.active and view.current_id() is not None, timeout=3000)
    return win, view


def test_a_cli_note_and_title_show_in_triage(make_window, seeded_dir: Path, qtbot) -> None:
    win, view = _triage(make_window, seeded_dir, qtbot)
    pid = view.current_id()
    cli(seeded_dir, "note", str(pid), "--set", "written at the command line")
    cli(seeded_dir, "tag", str(pid), "--add", "from-the-shell")
    win.edits.check_note_elsewhere()
    assert view.notes.paper_id() == pid
    assert view.notes.edit.toPlainText() == "written at the command line"
    assert view.notes.isVisible() and not view.notes.banner.isVisible()
    assert "from-the-shell" in view.tags.tags()


def test_typing_over_a_cli_note_in_triage_keeps_both(make_window, seeded_dir: Path, qtbot) -> None:
    win, view = _triage(make_window, seeded_dir, qtbot)
    pid = view.current_id()
    qtbot.keyClick(view, Qt.Key.Key_N)  # the note field
    qtbot.waitUntil(lambda: view.notes.edit.hasFocus(), timeout=3000)
    qtbot.keyClicks(view.notes.edit, "typed in triage")
    cli(seeded_dir, "note", str(pid), "--set", "written at the command line")
    win.edits.check_note_elsewhere()
    assert view.notes.banner.isVisible()  # not overwritten silently
    assert view.notes.edit.toPlainText() == "typed in triage"
    assert view.notes.flush()
    with Library.open(seeded_dir, ensure_index=False) as lib:
        assert lib.papers.get(pid).note == "typed in triage"
        assert "written at the command line" in [t for _, t in lib.notes.revisions(pid)]
