"""A PostgreSQL server of a test's own, stopped, hung and started again by it: for the tests of a
shared library whose server goes away (``own_server``, registered in tests/conftest.py), and a
window on a new database there (:func:`shared_window`)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlparse

import pytest

from desktop_app.core.errors import ServerUnreachable
from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from tests.helpers.pg_fixtures import new_database
from tests.helpers.postgres_server import _require, postgres_server

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings

    from desktop_app.gui.main_window import MainWindow


class Server:
    """A throwaway server of this test's own, stopped and started again by it."""

    def __init__(self, url: str) -> None:
        query = parse_qs(urlparse(url).query)
        self.folder, self.port = Path(query["host"][0]), query["port"][0]
        self.url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self.prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def pg_ctl(self, *args: str) -> None:
        subprocess.run(
            [*self.prefix, _require("pg_ctl"), "-D", str(self.folder / "data"), *args],
            check=True,
            capture_output=True,
            timeout=120,
        )

    def stop(self) -> None:
        self.pg_ctl("-m", "immediate", "stop")

    def processes(self) -> list[int]:
        """The server's processes: the postmaster (the first line of postmaster.pid) and its children."""
        postmaster = int((self.folder / "data" / "postmaster.pid").read_text().split()[0])
        kids = subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True, text=True).stdout.split()
        return [postmaster, *(int(k) for k in kids)]

    def hang(self) -> list[int]:
        """Stop every process of the server (SIGSTOP): connections stay open, nothing answers."""
        stopped = self.processes()
        assert stopped, "no server process found"
        for pid in stopped:
            os.kill(pid, signal.SIGSTOP)
        return stopped

    @staticmethod
    def resume(stopped: list[int]) -> None:
        for pid in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    def start(self) -> None:
        self.pg_ctl(
            "-w",
            "-l",
            str(self.folder / "log"),
            "-o",
            f"-k {self.folder} -p {self.port} -c listen_addresses=''",
            "start",
        )


@pytest.fixture
def own_server() -> Iterator[Server]:
    pytest.importorskip("psycopg", reason="psycopg is needed: pip install -e '.[test]'")
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        pytest.skip("running as root without runuser: cannot start PostgreSQL")
    with postgres_server() as url:
        yield Server(url)


def shared_window(own_server: Server, settings: QSettings, qtbot: Any, records: list[Record]) -> MainWindow:
    """A new database on ``own_server`` holding ``records``, and a window on it with its index ready."""
    from desktop_app.gui.launch import open_shared_window

    url = new_database(own_server.url)
    with Library.open(url) as lib:
        lib.imports.from_records([("t.bib", ParseResult("bibtex", records))])
    win = open_shared_window(url, settings)
    qtbot.addWidget(win)
    qtbot.waitUntil(lambda: win.files.index_ready, timeout=60000)
    return win


def quiet(call: Callable[[], object]) -> None:
    """``call``, a lost server left unsaid (a read that makes the store notice it is gone)."""
    with contextlib.suppress(ServerUnreachable):
        call()


def undo_texts(win: MainWindow) -> list[str]:
    """The window's undo stack, oldest first, as its commands read."""
    stack = win.undo_stack
    return [stack.text(i) for i in range(stack.count())]
