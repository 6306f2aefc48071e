"""The library's -wal file deleted while the window is open: the window's poll notices, writes the
copy it still holds (here, a note the command line wrote meanwhile) back into the database, and
says so; the command line then reads the note and `check` finds nothing wrong, the window still
open."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.helpers.shared import ROOT


def _cli(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "desktop_app", "--library", str(folder), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_window_writes_back_a_deleted_wal(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    pid = win.current_id()
    wrote = _cli(seeded_dir, "note", str(pid), "--set", "written by the command line")
    assert wrote.returncode == 0, wrote.stderr
    assert _cli(seeded_dir, "tag", str(pid), "--add", "from-cli").returncode == 0
    (seeded_dir / "library.sqlite-wal").unlink()  # the window still holds it open
    qtbot.waitUntil(lambda: "-wal file was deleted" in win.statusBar().currentMessage(), timeout=10000)
    assert "Nothing was lost" in win.statusBar().currentMessage()
    shown = _cli(seeded_dir, "show", str(pid))  # another program, the window still open
    assert shown.returncode == 0, shown.stderr
    assert "written by the command line" in shown.stdout and "from-cli" in shown.stdout
    checked = _cli(seeded_dir, "check")
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith("ok")
    win.edits.set_status("read", [pid])  # the window goes on writing, to the file at the path
    later = _cli(seeded_dir, "show", str(pid))
    assert "status: read" in later.stdout and "written by the command line" in later.stdout
