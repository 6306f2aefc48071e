"""A second start on an open library hands its files to the running window, which raises itself
and opens the import preview; when nobody answers, the second start says the files were not
imported instead of dropping them."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QLockFile, QTimer
from PySide6.QtNetwork import QLocalServer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from desktop_app.core.library import Library
from desktop_app.gui import import_export
from desktop_app.gui.launch import open_forwarded, run_gui, serve_second_starts
from desktop_app.gui.single_instance import (
    ANSWER_TIMEOUT_MS,
    hand_over,
    parse_request,
    request,
    server_name,
)

ROOT = Path(__file__).resolve().parents[2]
KNOWN = (
    "TY  - JOUR\nTI  - Sparse attention for long documents\nAU  - Lee, Ann\nPY  - 2021\n"
    "DO  - 10.5555/sparse.2021\nAB  - We study sparse attention over long inputs.\nER  - \n\n"
)
NEW = (
    "TY  - JOUR\nTI  - Dense retrieval without labels\nAU  - Kim, Bo\nPY  - 2022\n"
    "AB  - Retrieval with contrastive pretraining and no labels.\nER  - \n"
)


@pytest.fixture
def runtime_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """XDG_RUNTIME_DIR in tmp: the sockets of this test are its own."""
    folder = tmp_path / "run"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    return folder


@pytest.fixture
def held_lock(library_dir: Path):
    """The library's lock, held by this process as the running window's would be."""
    library_dir.mkdir(parents=True, exist_ok=True)
    lock = QLockFile(str(library_dir / ".marginalia.lock"))
    lock.setStaleLockTime(0)
    assert lock.tryLock(100)
    yield lock
    lock.unlock()


def test_the_request_is_one_versioned_json_line_of_absolute_paths(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    line = request(["a.ris", str(tmp_path / "b.bib")])
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert parse_request(line) == [str(tmp_path / "a.ris"), str(tmp_path / "b.bib")]
    assert parse_request(b"raise\n") == []  # what the first version sent
    assert parse_request(b'{"v": 1}\n') == []
    for bad in (b"open a.ris\n", b'{"open": ["a"]}\n', b'{"v": 1, "open": "a.ris"}\n', b"[1]\n"):
        assert parse_request(bad) is None, bad


def test_a_file_opened_while_the_window_runs_reaches_its_import_preview(
    make_window, library_dir: Path, tmp_path: Path, runtime_dir: Path, held_lock: QLockFile, qtbot, monkeypatch
) -> None:
    """`marginalia --library L gui two.ris`, run from another folder while L is open: the second
    process exits 0 once the window acknowledged; the window shows one import preview listing
    the file's record that is already there, and imports the new one when accepted."""
    with Library.open(library_dir) as lib:
        known = tmp_path / "known.ris"
        known.write_text(KNOWN, "utf-8")
        assert lib.imports.from_files([known]).added == 1
    work = tmp_path / "downloads"
    work.mkdir()
    (work / "two.ris").write_text(KNOWN + NEW, "utf-8")
    win = make_window(library_dir)
    server = serve_second_starts(library_dir)
    assert server is not None
    assert Path(server.name).parent == runtime_dir
    server.set_handler(lambda paths: open_forwarded(win, paths))
    shown: list = []

    def exec_(dialog) -> int:
        shown.append(dialog)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(import_export.ImportPreview, "exec", exec_)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    second = subprocess.Popen(
        [sys.executable, "-m", "desktop_app", "--library", str(library_dir), "gui", "two.ris"],
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        with qtbot.waitSignal(win.files.changed, timeout=60000):
            qtbot.waitUntil(lambda: second.poll() is not None, timeout=60000)
        _, err = second.communicate(timeout=10)
    finally:
        if second.poll() is None:
            second.kill()
        server.close()
    assert second.returncode == 0, err.decode()
    assert b"did not answer" not in err
    assert len(shown) == 1
    preview = shown[0]
    assert [Path(fr.path) for fr in preview.report.files] == [work / "two.ris"]
    assert preview.matches.topLevelItemCount() == 1
    assert preview.matches.topLevelItem(0).text(1) == "Sparse attention for long documents"
    assert "two.ris (ris): 1 new, 1 already there" in preview.details.toPlainText()
    assert win.library.papers.count() == 2
    assert "Dense retrieval without labels" in [win.library.papers.get(i).title for i in win.library.query("").ids]
    assert win.isVisible()


def test_requests_that_come_before_the_window_are_kept(
    library_dir: Path, runtime_dir: Path, held_lock: QLockFile, qtbot
) -> None:
    """The server listens before the window is built: what it acknowledged then is handed over
    once the handler is set, in order."""
    from PySide6.QtNetwork import QLocalSocket

    server = serve_second_starts(library_dir)
    assert server is not None
    try:
        answers = []
        for name in ("a.ris", "b.bib"):
            sock = QLocalSocket()
            sock.connectToServer(server.name)
            assert sock.waitForConnected(1000)
            sock.write(request([f"/data/{name}"]))
            qtbot.waitUntil(lambda s=sock: s.canReadLine(), timeout=5000)
            answers.append(bytes(sock.readLine().data()))
            sock.abort()
        assert all(b'"ok": true' in a for a in answers), answers
        got: list[list[str]] = []
        server.set_handler(got.append)
        assert got == [["/data/a.ris"], ["/data/b.bib"]]
    finally:
        server.close()


def test_a_stale_socket_file_is_no_answer_and_is_replaced(
    library_dir: Path, runtime_dir: Path, held_lock: QLockFile
) -> None:
    """A crash leaves the socket file behind: a second start is refused at once (no answer),
    and the next instance holding the lock listens in its place."""
    name = server_name(library_dir)
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(name)  # the file exists; nobody listens
    stale.close()
    assert Path(name).exists()
    start = time.monotonic()
    assert not hand_over(library_dir, ["/data/x.ris"])
    assert time.monotonic() - start < 2
    server = serve_second_starts(library_dir)
    assert server is not None and server.server.isListening()
    server.close()


def test_an_instance_that_does_not_answer_is_said_with_the_files(
    library_dir: Path, tmp_path: Path, runtime_dir: Path, held_lock: QLockFile, qtbot, capsys
) -> None:
    """The library is locked and something accepts on its socket but never answers (a hung
    window): the second start gives up after the timeout, says which files were not imported (a
    warning box and stderr), and exits 1 without opening the library."""
    hung = QLocalServer()
    QLocalServer.removeServer(server_name(library_dir))
    assert hung.listen(server_name(library_dir))  # connections queue up; nothing reads them
    bib = tmp_path / "paper.bib"
    bib.write_text("@article{k, title={Something}, year={2020}}\n", "utf-8")
    seen: list[str] = []

    def answer_the_box() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            seen.append(box.text())
            box.close()
        else:
            QTimer.singleShot(50, answer_the_box)

    QTimer.singleShot(50, answer_the_box)
    args = type("Args", (), {"files": [str(bib)], "screenshot": None, "gui_smoke": False})()
    start = time.monotonic()
    try:
        code = run_gui(library_dir, args)
    finally:
        hung.close()
    took = time.monotonic() - start
    assert code == 1
    assert ANSWER_TIMEOUT_MS / 1000 - 0.5 < took < ANSWER_TIMEOUT_MS / 1000 + 15
    assert len(seen) == 1 and "did not answer" in seen[0] and "paper.bib" in seen[0], seen
    err = capsys.readouterr().err
    assert "did not answer" in err and "paper.bib" in err
    assert not (library_dir / "library.sqlite").exists()  # the library was not opened
