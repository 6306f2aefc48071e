"""The search-index writer in a child process (``marginalia --library DIR index-worker``): it
drains ``index_queue`` and the parent reads the results; killing it mid-drain loses nothing;
it exits when the parent's pipe closes; the parent falls back to its thread when it cannot
start; a full rebuild in two processes gives the same index as in one."""

from __future__ import annotations

import shutil
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from desktop_app.core.library import Library
from desktop_app.core.search import worker as index_worker
from desktop_app.core.search.worker import WorkerClient
from tests.helpers.library import find_paper, queued_ids

RACES_WORDS = "Recursive Automated Composition for Environment Scaling"
# the window writes in a thread on Windows (index_sync._writer_mode)
pytestmark = pytest.mark.skipif(__import__("sys").platform == "win32", reason="no index writer process on Windows")


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> Path:
    from tests.helpers.shared import SEEDS

    folder = tmp_path_factory.mktemp("template") / "library"
    with Library.open(folder) as lib:
        assert lib.imports.from_files(list(SEEDS)).added == 76
    return folder


@pytest.fixture
def lib_folder(template: Path, library_dir: Path) -> Path:
    shutil.copytree(template, library_dir)
    return library_dir


def _queue_everything_with_a_new_note(folder: Path, pid: int, note: str) -> None:
    """Behind the app's back: change a note and queue every paper, as a crash after an
    import's commit would leave them."""
    con = sqlite3.connect(folder / "library.sqlite")
    try:
        con.execute("UPDATE note SET text = ? WHERE paper_id = ?", (note, pid))
        if con.total_changes == 0:
            con.execute("INSERT INTO note (paper_id, text, updated_at) VALUES (?, ?, CURRENT_TIMESTAMP)", (pid, note))
        con.execute(
            "INSERT OR REPLACE INTO index_queue (paper_id, queued_at) SELECT id, '2026-01-01 00:00:00' FROM paper"
        )
        con.commit()
    finally:
        con.close()


def _wait(cond, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def test_child_drains_the_queue_and_the_parent_reads_it(lib_folder: Path) -> None:
    events: list[dict] = []
    with Library.open(lib_folder, background_index=True, ensure_index=False) as lib:
        lib.index.listeners.append(events.append)
        assert lib.index.mode == "process"
        assert lib.ensure_index() == "ok"
        worker = lib.index._worker
        assert worker is not None and worker.alive
        races = find_paper(lib, RACES_WORDS)
        lib.notes.set(races, "an echidna appears")  # the commit wakes the child; no wait here
        _wait(lib.index.caught_up)
        assert lib.query("echidna").ids == [races]
        assert queued_ids(lib_folder) == []
        assert lib.index._drain_lock.locked() is False and lib.index._thread is None  # no writer here
        lib.notes.set(races, "a wombat instead")
        lib.flush_index()  # waits for the child
        assert lib.query("echidna").ids == []
        assert lib.query("wombat").ids == [races]
        pid = worker.proc.pid
    assert worker.proc.poll() == 0, "the child exits with the library"
    assert any(e["event"] == "progress" and e["total"] >= 1 for e in events)
    assert pid != 0


def test_killing_the_child_mid_drain_loses_nothing(lib_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MARGINALIA_INDEX_BATCH", "5")  # 76 papers: 16 index commits
    with Library.open(lib_folder) as lib:
        races = find_paper(lib, RACES_WORDS)
    _queue_everything_with_a_new_note(lib_folder, races, "a numbat was here")

    left_at_kill: list[int] = []
    killed = threading.Event()
    first = WorkerClient(lib_folder / "index")

    def on_event(event: dict) -> None:
        if event["event"] == "progress" and not killed.is_set():
            first.kill()  # SIGKILL after the first index commit
            left_at_kill.append(len(queued_ids(lib_folder)))
            killed.set()

    first.on_event = on_event
    first.start()
    first.send("drain")
    assert killed.wait(60)
    _wait(lambda: first.exited)
    left = queued_ids(lib_folder)
    assert 0 < len(left) < 76, "killed mid-drain"
    assert len(left) == left_at_kill[0]

    second = WorkerClient(lib_folder / "index")  # the next start drains the rest
    second.start()
    answer = second.wait(second.send("ensure"), 120)
    assert answer["result"] == "ok" and answer["pending"] == 0
    second.close()
    assert second.proc.returncode == 0
    assert queued_ids(lib_folder) == []
    with Library.open(lib_folder) as lib:
        assert lib.index.index.doc_count() == 76
        assert lib.query("numbat").ids == [races]


def test_the_worker_exits_when_the_parents_pipe_closes(lib_folder: Path) -> None:
    worker = WorkerClient(lib_folder / "index")
    worker.start()
    worker.wait(worker.send("ensure"), 120)
    assert worker.alive
    worker.proc.stdin.close()  # what the window's death does; no "quit"
    assert worker.proc.wait(30) == 0
    _wait(lambda: worker.exited)


@pytest.mark.parametrize("child", ["cannot start", "dies at once"])
def test_the_parent_writes_itself_when_the_child_fails(
    child: str, lib_folder: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import sys

    command = [str(lib_folder / "no-such-program")] if child == "cannot start" else [sys.executable, "-c", "pass"]
    monkeypatch.setattr(index_worker, "worker_command", lambda folder: command)
    with Library.open(lib_folder, background_index=True) as lib:
        assert lib.index.mode == "thread"
        races = find_paper(lib, RACES_WORDS)
        lib.notes.set(races, "an echidna appears")
        lib.flush_index()
        assert lib.query("echidna").ids == [races]
    if child == "cannot start":
        assert "writing the index in a thread instead" in caplog.text


def test_rebuild_through_the_child_reports_progress(lib_folder: Path) -> None:
    seen: list[tuple[int, int]] = []
    with Library.open(lib_folder, background_index=True) as lib:
        assert lib.index.mode == "process"
        assert lib.reindex(lambda n, t: seen.append((n, t)))
        assert lib.index.is_open
        assert lib.index.index.doc_count() == 76
        assert lib.query('"Recursive Automated Composition"').total >= 1
    assert seen and seen[-1] == (76, 76)


def test_read_only_and_cli_keep_the_in_process_writer(lib_folder: Path) -> None:
    with Library.open(lib_folder) as lib:
        assert lib.index.mode == "inline"
    with Library.open(lib_folder, read_only=True, background_index=True) as lib:
        assert lib.index.mode == "inline"


def _ranked(lib: Library, q: str) -> list[tuple[float, int]]:
    """The top ten as (score to 4 places, id), ties in id order: summing a score's parts over one
    segment or two may differ in the last bits, which must not reorder papers that tie."""
    res = lib.query(q, sort="relevance")
    return sorted((-round(res.scores[pid], 4), pid) for pid in res.ids[:10])


@pytest.mark.parametrize("procs", ["1", "2"])
def test_a_rebuild_in_two_processes_gives_the_same_index(
    lib_folder: Path, procs: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MARGINALIA_INDEX_PROCS", procs)
    with Library.open(lib_folder) as lib:
        assert lib.reindex()
        segments = len(lib.index.index.searcher.reader().leaf_readers())
        assert segments == 1 if procs == "1" else 1 <= segments <= 2
        assert lib.index.index.doc_count() == 76
        # ranked alike; a prefix only matches alike (Whoosh scores a prefix that expands to one
        # term in a segment as that term, to several as a constant: it depends on the segments)
        got = {q: _ranked(lib, q) for q in ("learning", "reinforcement learning", '"in-context learning"', "agents")}
        prefix = set(lib.query("transf*").ids)
        assert lib.integrity_check() == []
    with Library.open(lib_folder) as lib:  # the next open finds it usable
        assert lib.ensure_index() == "ok"
    monkeypatch.setenv("MARGINALIA_INDEX_PROCS", "1")
    with Library.open(lib_folder) as lib:
        assert lib.reindex()
        assert got == {q: _ranked(lib, q) for q in got}
        assert prefix == set(lib.query("transf*").ids) and prefix


def test_the_worker_dies_with_a_killed_parent(lib_folder: Path) -> None:
    """kill -9 of the window's process closes the child's stdin: it exits on its own."""
    import os
    import signal
    import subprocess
    import sys

    script = (
        "import sys, time\n"
        "from desktop_app.core.library import Library\n"
        "lib = Library.open(sys.argv[1], background_index=True)\n"
        "print(lib.index._worker.proc.pid, flush=True)\n"
        "time.sleep(600)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script, str(lib_folder)], stdout=subprocess.PIPE, text=True)
    try:
        child = int(parent.stdout.readline())
        os.kill(child, 0)  # running
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)

        def gone() -> bool:
            try:
                os.kill(child, 0)
            except ProcessLookupError:
                return True
            # a zombie (its parent is dead, init reaps it) counts as gone
            stat = Path(f"/proc/{child}/stat")
            return stat.exists() and stat.read_text().split(") ")[-1].startswith("Z")

        _wait(gone, 30)
    finally:
        if parent.poll() is None:
            parent.kill()
