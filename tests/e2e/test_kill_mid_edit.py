"""Killing the app mid-edit loses nothing: saved text is in the database, and what was typed
since the last save is in a draft journal that the next start recovers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from desktop_app.core.library import Library

CHILD = r"""
import sys, time
from PySide6.QtCore import QSettings
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from desktop_app.gui.launch import open_main_window

win = open_main_window(sys.argv[1], QSettings(sys.argv[2], QSettings.Format.IniFormat))
app = QApplication.instance()
while not win.files.index_ready:
    app.processEvents()
win.focus_note()
QTest.keyClicks(win.reader.notes.edit, "typed before the pause")
end = time.monotonic() + 1.6          # the user pauses: autosave is due within one second
while time.monotonic() < end:
    app.processEvents()
    time.sleep(0.01)
QTest.keyClicks(win.reader.notes.edit, " and after")   # the last keystrokes, unsaved
print(win.current_id(), flush=True)
while True:                            # wait to be killed, like a crash or a power cut
    app.processEvents()
    time.sleep(0.01)
"""


def test_note_survives_kill_9(qapp, tmp_path: Path, seed_paths: list[Path]) -> None:
    lib_dir = tmp_path / "lib"
    with Library.open(lib_dir) as lib:
        lib.imports.from_files(seed_paths[:1])
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(lib_dir), str(tmp_path / "s.ini")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        line = proc.stdout.readline()
        assert line.strip().isdigit(), "the child did not get to the note"
        pid = int(line)
        time.sleep(0.5)  # longer than the draft delay, shorter than the autosave
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    with Library.open(lib_dir) as lib:
        note = lib.papers.get(pid).note
        assert note == "typed before the pause"  # the autosave, within a second
        assert lib.integrity_check() == []
    assert (lib_dir / "drafts" / f"{pid}.md").read_text("utf-8") == "typed before the pause and after"
    # the next start recovers the draft: nothing typed is lost
    from PySide6.QtCore import QSettings

    from desktop_app.gui.launch import close_window, open_main_window

    win = open_main_window(lib_dir, QSettings(str(tmp_path / "s2.ini"), QSettings.Format.IniFormat))
    try:
        assert win.library.papers.get(pid).note == "typed before the pause and after"
        assert [t for _, t in win.library.notes.revisions(pid)] == ["typed before the pause"]
        assert not (lib_dir / "drafts" / f"{pid}.md").exists()
    finally:
        close_window(win)
