"""While a window is open on a library, the command line's read commands on it are answered by a
thread of the window (no SQLAlchemy, numpy or Whoosh imported by the command), with what the
command prints in its own process, edits made in the window included; closed, the window
answers nothing and the command runs in its own process again."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from desktop_app import cli_remote
from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from tests.helpers.cli import run_listing_modules
from tests.helpers.shared import ROOT

HEAVY = {"sqlalchemy", "sqlmodel", "whoosh", "numpy"}


@pytest.fixture
def answering(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Windows answer (the suite turns that off); the sockets go in a private folder of the test."""
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    monkeypatch.setenv("MARGINALIA_WINDOW_ANSWERS", "1")
    monkeypatch.delenv(cli_remote.NO_SERVER_ENV, raising=False)
    return {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}


def _roots(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


def test_the_window_answers_reads_on_its_library_until_it_closes(
    make_window, library_dir: Path, tmp_path: Path, answering: dict[str, str], qtbot
) -> None:
    with Library.open(library_dir) as lib:
        records = [Record(title=f"Lens study {n}", abstract=f"Grinding lenses, case {n}.") for n in range(30)]
        lib.imports.from_records([("t.bib", ParseResult("bibtex", records))])
    alone_env = {**answering, cli_remote.NO_SERVER_ENV: "1"}

    def both(*args: str) -> tuple[str, set[str], str]:
        """The answer, the modules the command loaded, and what it prints in its own process."""
        res, modules = run_listing_modules(answering, tmp_path, "--library", str(library_dir), *args)
        alone, _ = run_listing_modules(alone_env, tmp_path, "--library", str(library_dir), *args)
        assert (res.returncode, res.stderr) == (alone.returncode, alone.stderr), args
        return res.stdout, _roots(modules), alone.stdout

    win = make_window(library_dir)
    assert win.command_answers is not None and win.command_answers.running
    qtbot.waitUntil(lambda: win.library.index.is_open, timeout=30000)
    path = cli_remote.socket_path(library_dir)
    assert path is not None and path.exists() and path.stat().st_mode & 0o077 == 0

    out, modules, alone = both("search", "lenses", "--limit", "5")
    assert not modules & HEAVY, "the command ran in its own process"
    assert out == alone and "Lens study" in out

    pid = win.current_id()
    assert pid is not None
    win.edits.add_tags([pid], ["from/window"])  # the window's edit: the next answer has it
    out, modules, alone = both("list", "--query", "tag:from/*")
    assert not modules & HEAVY and out == alone and f"{pid}" in out

    make_window.close(win)
    assert win.command_answers is None and not path.exists()
    out, modules, alone = both("show", str(pid))
    assert "sqlalchemy" in modules and out == alone and "from/window" in out


def test_turned_off_the_window_answers_nothing(
    make_window, library_dir: Path, answering: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MARGINALIA_WINDOW_ANSWERS", "0")
    win = make_window(library_dir)
    path = cli_remote.socket_path(library_dir)
    assert win.command_answers is None and path is not None and not path.exists()
