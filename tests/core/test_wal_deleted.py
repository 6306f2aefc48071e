"""Deleting the -wal file while the library is open: `check` says which acknowledged writes the
database lacks, and, while the program holding the deleted file is still running, that they are
only in that program's copy; the holder writes them back (core/store/wal_witness.py)."""

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
lib.tags.add([int(sys.argv[2])], ["kept"])
print("written", flush=True)
if sys.stdin.readline().strip() == "write back":  # the window's poll
    print(lib.write_back_lost_wal(), flush=True)
    sys.stdin.readline()
"""


def _check(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "desktop_app", "--library", str(folder), "check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _one_paper(folder: Path) -> int:
    with Library.open(folder) as lib:
        lib.imports.from_records([("t", ParseResult("bibtex", [Record(title="A paper", abstract="x")]))])
        return lib.query("").ids[0]


def test_check_notices_writes_lost_with_a_deleted_wal(tmp_path: Path) -> None:
    folder = tmp_path / "lib"
    pid = _one_paper(folder)
    writer = _writer(folder, pid)
    try:
        assert writer.stdout.readline().strip() == "written"
        (folder / "library.sqlite-wal").unlink()  # while the library is open
    finally:
        os.kill(writer.pid, signal.SIGKILL)  # ... and then the program dies
        writer.wait(timeout=60)
    with Library.open(folder, ensure_index=False) as lib:
        assert lib.papers.get(pid).note == ""  # the acknowledged writes are gone
        problems = lib.integrity_check()
    lost = next(p for p in problems if "acknowledged write" in p)
    assert "lacks 2 acknowledged writes" in lost and "-wal" in lost  # the note and the tag
    assert f"notes.set on paper {pid}" in lost and f"tags.add on paper {pid}" in lost


def _writer(folder: Path, pid: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(folder), str(pid)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def test_check_while_the_holder_runs_says_where_the_writes_are(tmp_path: Path) -> None:
    folder = tmp_path / "lib"
    pid = _one_paper(folder)
    writer = _writer(folder, pid)
    try:
        assert writer.stdout.readline().strip() == "written"
        (folder / "library.sqlite-wal").unlink()
        checked = _check(folder)
        assert checked.returncode == 1
        assert "disk I/O error" not in checked.stderr
        assert "library.sqlite-wal was deleted or replaced while another program" in checked.stderr
        assert f"notes.set on paper {pid}" in checked.stderr and f"tags.add on paper {pid}" in checked.stderr
        writer.stdin.write("write back\n")
        writer.stdin.flush()
        assert int(writer.stdout.readline()) > 0  # pages written back from the holder's copy
        after = _check(folder)  # the holder still running
        assert after.returncode == 0, after.stderr
        assert after.stdout.startswith("ok")
    finally:
        os.kill(writer.pid, signal.SIGKILL)  # killed: what it wrote back stays
        writer.wait(timeout=60)
    with Library.open(folder, ensure_index=False) as lib:
        paper = lib.papers.get(pid)
        assert paper.note == "an acknowledged note" and "kept" in paper.tags
        assert lib.store.missing_commits() == 0


def test_no_false_alarm_after_many_writes_and_reopening(tmp_path: Path) -> None:
    folder = tmp_path / "lib"
    pid = _one_paper(folder)
    with Library.open(folder) as lib:
        for n in range(5):
            lib.notes.set(pid, f"note {n}")
    with Library.open(folder) as lib:
        assert lib.integrity_check() == []
        assert lib.store.missing_commits() == 0


def test_the_poll_never_waits_for_a_write_in_progress(tmp_path: Path) -> None:
    import threading
    import time

    folder = tmp_path / "lib"
    pid = _one_paper(folder)
    with Library.open(folder, ensure_index=False) as lib:
        lib.notes.set(pid, "held in the -wal")
        (folder / "library.sqlite-wal").unlink()
        holding, release = threading.Event(), threading.Event()

        def writer() -> None:  # a write in a worker of the same process, mid-transaction
            with lib.store.write_lock:
                holding.set()
                release.wait(10)

        thread = threading.Thread(target=writer)
        thread.start()
        holding.wait(10)
        t0 = time.monotonic()
        assert lib.write_back_lost_wal() is None  # not now: the writer has the lock
        assert time.monotonic() - t0 < 0.2
        release.set()
        thread.join(10)
        assert lib.write_back_lost_wal() is not None  # the next poll writes it back
    with Library.open(folder, ensure_index=False) as lib:
        assert lib.papers.get(pid).note == "held in the -wal"
        assert lib.store.missing_commits() == 0


def test_a_backup_after_the_wal_was_deleted_under_this_process_keeps_every_write(tmp_path: Path) -> None:
    """The window's backup (a new connection of the same process) after the -wal went: the copy
    it holds is written back first, so the backup is made and holds the writes (before, the new
    connection read the shared-memory index's promise of frames the file lacked: "disk I/O error")."""
    folder = tmp_path / "lib"
    pid = _one_paper(folder)
    with Library.open(folder, ensure_index=False) as lib:
        lib.notes.set(pid, "kept through the backup")
        (folder / "library.sqlite-wal").unlink()
        made = lib.backups.make("manual")
        assert lib.write_back_lost_wal() is not None  # the window still hears that it happened
        assert lib.papers.get(pid).note == "kept through the backup"
    import sqlite3

    with sqlite3.connect(made) as copy:
        notes = [row[0] for row in copy.execute("SELECT text FROM note WHERE paper_id = ?", (pid,))]
    assert notes == ["kept through the backup"]
