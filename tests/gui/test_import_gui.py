"""Importing every real corpus file through the window: preview, then a report."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialog, QMessageBox

from desktop_app.gui import import_export
from tests.helpers.shared import CORPUS

pytestmark = pytest.mark.shared  # every test here reads ../shared

CORPUS_FILES = sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "SOURCES.md")


def test_every_corpus_file_imports_from_the_gui_with_a_report(
    make_window, library_dir: Path, qtbot, monkeypatch
) -> None:
    previews: list = []

    def accept(dialog) -> int:
        previews.append(dialog)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(import_export.ImportPreview, "exec", accept)
    reports: list[QMessageBox] = []
    monkeypatch.setattr(QMessageBox, "open", lambda box, *a: reports.append(box))
    win = make_window(library_dir)
    win.files.import_paths([str(p) for p in CORPUS_FILES])
    qtbot.waitUntil(
        lambda: win.library.papers.count() > 0 and win.stack.currentWidget() is not win.welcome, timeout=120000
    )
    assert len(previews) == 1
    from PySide6.QtWidgets import QLabel, QPlainTextEdit

    head = previews[0].findChild(QLabel).text()
    assert "new papers" in head and "could not be read" in head
    assert "biber-examples.bib (bibtex)" in previews[0].findChild(QPlainTextEdit).toPlainText()
    count = win.library.papers.count()
    assert count > 600  # 115 + 20 + 212 + 156 + ... minus cross-file duplicates
    assert win.model.rowCount() == count
    # broken inputs were reported: the arXiv error feed and the RIS file without TY
    qtbot.waitUntil(lambda: bool(reports), timeout=5000)
    details = reports[-1].detailedText()
    assert "arXiv returned an error" in details
    assert "TY" in details
    # importing the same files again adds nothing
    before = win.library.papers.count()
    win.files.import_paths([str(p) for p in CORPUS_FILES])
    qtbot.waitUntil(lambda: len(previews) == 2, timeout=60000)
    qtbot.waitUntil(lambda: len(reports) == 2, timeout=60000)  # the second import is done
    assert win.library.papers.count() == before
