"""The window's search index is written by a child process: an import's papers become
searchable through it, the status bar says "Indexing… n of m" meanwhile, and a text search
shown during the import is re-run when the index has caught up."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.mark.skipif(__import__("sys").platform == "win32", reason="no index writer process on Windows")
def test_imported_papers_become_searchable_through_the_child(
    make_window, library_dir: Path, qtbot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MARGINALIA_INDEX_BATCH", "10")  # several index commits for 76 papers
    win = make_window(library_dir)
    lib = win.library
    assert lib.index.mode == "process" and lib.index._worker is not None and lib.index._worker.alive
    shown: list[str] = []
    win.index_status.event.connect(lambda _e: shown.append(win.index_status.label.text()))
    win.search.set_text("verifiable")
    win.search.apply_now()
    assert win.model.rowCount() == 0
    win.files.import_sample()
    qtbot.waitUntil(lambda: lib.papers.count() == 76, timeout=60000)
    qtbot.waitUntil(lambda: lib.index.caught_up() and win.index_status.label.text() == "", timeout=60000)
    expected = lib.query("verifiable").total
    assert expected > 0
    qtbot.waitUntil(lambda: win.model.rowCount() == expected, timeout=10000)  # re-run when caught up
    assert any(text.startswith("Indexing… ") and " of 76" in text for text in shown), shown
    assert lib.index._thread is None  # the window's process never wrote the index
    assert lib.index.index.doc_count() == 76
