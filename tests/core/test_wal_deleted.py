"""Deleting the -wal file while the library is open loses acknowledged writes; `check` says so."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from tests.helpers.shared import ROOT

WRITER = """
import sys, time
from desktop_app.core.library import Library
lib = Library.open(sys.argv[1], ensure_index=False)
lib.notes.set(int(sys.argv[2]), "an acknowledged note")  # committed into the WAL
print("written", flush=True)
time.sleep(600)
"""


def _one_paper(folder: Path) -> int:
    with Library.open(folder) as lib:
        lib.imports.from_records([("t", ParseResult("bibtex", [Record(title="A paper", abstract="x")]))])
        return lib.query("").ids[0]


def test_check_notices_writes_lost_with_a_deleted_wal(tmp_path: Path) -> None:
    folder = tmp_path / "lib"
    pid = _one_paper(folder)
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(folder), str(pid)], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout.readline().strip() == "written"
        (folder / "library.sqlite-wal").unlink()  # while the library is open
    finally:
        os.kill(writer.pid, signal.SIGKILL)  # ... and then the program dies
        writer.wait(timeout=60)
    with Library.open(folder, ensure_index=False) as lib:
        assert lib.papers.get(pid).note == ""  # the acknowledged write is gone
        problems = lib.integrity_check()
    assert any("lacks 1 acknowledged write" in p and "-wal" in p for p in problems), problems


def test_no_false_alarm_after_many_writes_and_reopening(tmp_path: Path) -> None:
    folder = tmp_path / "lib"
    pid = _one_paper(folder)
    with Library.open(folder) as lib:
        for n in range(5):
            lib.notes.set(pid, f"note {n}")
    with Library.open(folder) as lib:
        assert lib.integrity_check() == []
        assert lib.store.missing_commits() == 0
