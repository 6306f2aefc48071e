"""Closing the window while edits that no journal keeps wait for the server: it asks first,
with Wait as the default; "Close anyway" closes."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_app.core.values import Change
from desktop_app.gui.editing import Waiting


def _answer(label: str, seen: list[str]) -> None:
    def click() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, click)
            return
        seen.append(box.text())
        next(b for b in box.buttons() if b.text() == label).click()

    QTimer.singleShot(0, click)


def test_closing_with_edits_only_in_memory_asks(make_window, library_dir: Path, qtbot) -> None:
    win = make_window(library_dir)
    win.edits.outbox.append(Waiting("Decide topic", lambda: Change("papers", ()), lambda ch: ch))
    assert win.edits.waiting_in_memory() == 1
    seen: list[str] = []
    try:
        _answer("Wait", seen)
        win.close()
        assert win.isVisible()
        assert seen[0].startswith("1 edit waits") and "kept only in this window" in seen[0]
        _answer("Close anyway", seen)
        win.close()
        assert not win.isVisible() and len(seen) == 2
    finally:
        win.edits.outbox.clear()  # the fixture's close must not ask
