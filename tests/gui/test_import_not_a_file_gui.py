"""A FIFO dropped on the window never blocks its thread: the window checks that a dropped path
is a regular file before peeking into it, and the reading job names what the FIFO is."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialog, QPlainTextEdit

from desktop_app.gui import import_export


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_dropped_fifo_is_reported_and_the_window_goes_on(
    make_window, library_dir: Path, tmp_path: Path, qtbot, monkeypatch
) -> None:
    fifo = tmp_path / "pipe.bib"
    os.mkfifo(fifo)
    good = tmp_path / "good.bib"
    good.write_text("@article{g, title = {A good paper}, year = 2020}\n", encoding="utf-8")
    previews: list = []

    def accept(dialog) -> int:
        previews.append(dialog)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(import_export.ImportPreview, "exec", accept)
    win = make_window(library_dir)

    def release() -> None:  # a window that did wait on the FIFO is let go after 5 s (and fails)
        with contextlib.suppress(OSError):  # nobody is reading it: as it should be
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))

    watchdog = threading.Timer(5.0, release)
    watchdog.daemon = True
    watchdog.start()
    start = time.monotonic()
    win.files.import_paths([str(fifo), str(good)])  # nobody ever writes to the FIFO
    assert time.monotonic() - start < 5
    qtbot.waitUntil(lambda: bool(previews), timeout=60000)
    assert "pipe.bib is a FIFO (named pipe), not a file" in previews[0].findChild(QPlainTextEdit).toPlainText()
    qtbot.waitUntil(lambda: win.library.papers.count() == 1, timeout=60000)
