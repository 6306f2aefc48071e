"""Another program holding the library's write lock never freezes the window:
an edit made meanwhile waits in a worker (one undo step, stored when the lock is free), a note
waits in the editor; the GUI thread never waits more than a fraction of a second."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HOLD = """
import sqlite3, sys, time
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
con.execute("COMMIT")
"""


def _hold(db: Path, seconds: float) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(db), str(seconds)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
    return proc


def test_an_edit_while_another_process_writes(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.elsewhere_timer.stop()
    pid = win.current_id()
    before = win.undo_stack.count()
    holder = _hold(seeded_dir / "library.sqlite", 2.5)
    t0 = time.monotonic()
    win.edits.set_status("read", [pid])
    stalled = time.monotonic() - t0
    assert stalled < 0.6, f"the window waited {stalled:.2f} s for another program"
    assert win.undo_stack.count() == before + 1  # one step, already on the stack
    qtbot.waitUntil(lambda: holder.poll() is not None, timeout=10000)
    qtbot.waitUntil(lambda: not win.edits.busy(), timeout=10000)
    assert win.library.papers.get(pid).status == "read"
    win.undo_stack.undo()
    qtbot.waitUntil(lambda: not win.edits.busy(), timeout=10000)
    assert win.library.papers.get(pid).status == "unread"


def test_a_note_while_another_process_writes(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.elsewhere_timer.stop()
    notes = win.reader.notes
    pid = win.current_id()
    qtbot.keyClicks(notes.edit, "typed while locked")
    holder = _hold(seeded_dir / "library.sqlite", 2.0)
    t0 = time.monotonic()
    assert not notes.flush()  # not yet: the editor keeps it and tries again
    assert time.monotonic() - t0 < 0.6
    assert notes.state.text() == "waiting to save…"
    holder.wait(10)
    qtbot.waitUntil(lambda: notes.flush(), timeout=10000)
    assert win.library.notes.text(pid) == "typed while locked"


def test_undo_and_redo_while_another_process_writes(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.elsewhere_timer.stop()
    pid = win.current_id()
    win.edits.set_status("read", [pid])  # a small edit, run here: nothing holds the lock
    assert win.library.papers.get(pid).status == "read" and not win.edits.busy()
    holder = _hold(seeded_dir / "library.sqlite", 2.5)
    t0 = time.monotonic()
    win.undo_stack.undo()
    stalled = time.monotonic() - t0
    assert stalled < 0.6, f"the undo waited {stalled:.2f} s on the GUI thread"
    assert win.edits.busy()  # in the worker, waiting for the lock
    assert "Another program is writing" in win.statusBar().currentMessage()
    qtbot.waitUntil(lambda: holder.poll() is not None, timeout=10000)
    qtbot.waitUntil(lambda: not win.edits.busy(), timeout=10000)
    assert win.library.papers.get(pid).status == "unread"  # the undo landed after
    holder = _hold(seeded_dir / "library.sqlite", 2.5)
    t0 = time.monotonic()
    win.undo_stack.redo()
    assert time.monotonic() - t0 < 0.6
    qtbot.waitUntil(lambda: holder.poll() is not None, timeout=10000)
    qtbot.waitUntil(lambda: not win.edits.busy(), timeout=10000)
    assert win.library.papers.get(pid).status == "read"
    win.undo_stack.undo()  # and afterwards, with the lock free, here again
    assert not win.edits.busy() and win.library.papers.get(pid).status == "unread"
