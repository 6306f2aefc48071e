"""File → Undo last import…: Cancel is the default, the question says what goes, and it goes to
the trash (it comes back from there)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_app.core.library import Library
from desktop_app.gui.undo_import import undo_import_box, undo_import_text


def _annotate(folder: Path) -> None:
    """Three of the imported papers get notes, two of them five highlights."""
    with Library.open(folder) as lib:
        ids = lib.query("").ids
        for pid in ids[:3]:
            lib.notes.set(pid, "my thoughts")
        lib.notes.set(ids[3], "")  # an empty note is no note
        for n in range(3):
            lib.highlights.add(ids[0], n * 10, n * 10 + 5, "yellow", "")
        for n in range(2):
            lib.highlights.add(ids[1], n * 10, n * 10 + 5, "green", "")


def test_the_library_counts_what_an_undo_removes(seeded_dir: Path) -> None:
    _annotate(seeded_dir)
    with Library.open(seeded_dir) as lib:
        batch = lib.imports.batches()[0]
        assert lib.imports.undo_cost(batch["id"]) == {"papers": 76, "notes": 3, "highlights": 5}


def test_the_text_names_the_counts_the_file_and_the_time() -> None:
    batch = {"source": "/home/a/neurips.txt", "started_at": datetime(2026, 11, 30, 13, 2, tzinfo=UTC)}
    local = batch["started_at"].astimezone()
    text = undo_import_text(batch, {"papers": 214, "notes": 3, "highlights": 5}, today=local.date())
    assert text == (
        f"Move the 214 papers added by the import of neurips.txt at {local:%H:%M} to the trash? "
        "3 of them have notes, 5 highlights; they go with them. The Trash in the sidebar brings "
        "them back, or deletes them for good."
    )
    other_day = undo_import_text(batch, {"papers": 1, "notes": 0, "highlights": 0}, today=date(2027, 1, 1))
    assert other_day.startswith(f"Move the 1 paper added by the import of neurips.txt on {local:%Y-%m-%d} at")
    assert "It has no note or highlight. The Trash in the sidebar brings it back" in other_day


def test_cancel_is_the_default_and_enter_removes_nothing(make_window, seeded_dir: Path, qtbot) -> None:
    _annotate(seeded_dir)
    win = make_window(seeded_dir)
    box = undo_import_box(win, win.library.imports.batches()[0], {"papers": 76, "notes": 3, "highlights": 5})
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
    assert box.escapeButton() is box.button(QMessageBox.StandardButton.Cancel)

    action = next(a for a in win.findChildren(QAction) if a.text() == "Undo last import…")
    seen: list[str] = []

    def answer(click_remove: bool) -> None:
        w = QApplication.activeModalWidget()
        if not isinstance(w, QMessageBox):
            QTimer.singleShot(20, lambda: answer(click_remove))
            return
        if QApplication.activeWindow() is not w:  # as on a desktop: the question has the keyboard
            w.activateWindow()
            QTimer.singleShot(20, lambda: answer(click_remove))
            return
        seen.append(w.text())
        assert w.defaultButton() is w.button(QMessageBox.StandardButton.Cancel)
        if click_remove:
            w.findChild(object, "undoImportRemove").click()
        else:
            qtbot.keyClick(w, Qt.Key.Key_Return)  # Enter answers with the default: Cancel

    QTimer.singleShot(0, lambda: answer(False))
    action.trigger()
    assert "Move the 76 papers added by the import of" in seen[0]
    assert "3 of them have notes, 5 highlights; they go with them." in seen[0]
    assert win.library.papers.count() == 76

    QTimer.singleShot(0, lambda: answer(True))
    action.trigger()
    assert win.library.papers.count() == 0 and win.library.trash.count() == 76
    assert win.sidebar.trash_item().text(0) == "Trash  (76)"
    assert win.stack.currentWidget() is win.splitter  # not the welcome panel: the sidebar reaches the trash
    win.on_sidebar_filter("trash", "")
    assert win.model.rowCount() == 76
