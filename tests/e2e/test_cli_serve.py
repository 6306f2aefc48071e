"""``marginalia serve`` answers the read commands of other ``marginalia`` processes: the same
output, byte for byte, as the command run in its own process; never stale after another
process writes, reindexes or restores; a killed server leaves the command line working."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from desktop_app import cli_remote
from tests.helpers.cli import run_listing_modules

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("sqlalchemy", "sqlmodel", "whoosh", "numpy")

TOPICS = [
    "graph neural networks for molecules",
    "reinforcement learning for robots",
    "protein folding with transformers",
    "causal inference in economics",
]


def _bibtex(n: int = 40) -> str:
    out = []
    for i in range(n):
        topic = TOPICS[i % len(TOPICS)]
        out.append(
            f"@article{{p{i},\n  title = {{Study {i} of {topic}}},\n  author = {{Author{i % 7}, A. and Other, B.}},\n"
            f"  year = {{{2015 + i % 10}}},\n  journal = {{Journal {i % 3}}},\n"
            f"  abstract = {{We study {topic}. Case {i} shows {'gains' if i % 2 else 'losses'} "
            f"on benchmark {i % 5} with method m{i}.}}\n}}\n"
        )
    return "\n".join(out)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    e = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "PYTHONIOENCODING": "utf-8",
        "XDG_RUNTIME_DIR": str(run),
        "MARGINALIA_ACTOR": "tester",
    }
    e.pop(cli_remote.NO_SERVER_ENV, None)
    return e


def cli(
    env: dict[str, str], lib: Path | str, *args: str, served: bool | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess:
    e = dict(env)
    if served is False:
        e[cli_remote.NO_SERVER_ENV] = "1"
    return subprocess.run(
        [sys.executable, "-m", "desktop_app", "--library", str(lib), *args],
        env=e,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        cwd=cwd,
    )


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One library for the module (copied per test): 40 papers, tags, a note, a reading list,
    decisions and one paper in the trash."""
    base = tmp_path_factory.mktemp("template")
    run = base / "run"
    run.mkdir(mode=0o700)
    e = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8", "XDG_RUNTIME_DIR": str(run)}
    lib = base / "lib"
    src = base / "papers.bib"
    src.write_text(_bibtex(), "utf-8")
    done = cli(e, lib, "import", str(src), served=False)
    assert done.returncode == 0, done.stderr
    for args in (
        ["tag", "1", "2", "3", "--add", "rl/agents"],
        ["note", "4", "--set", "a note on four"],
        ["reading-list", "create", "meeting"],
        ["reading-list", "add", "meeting", "5", "6"],
        ["triage", "decide", "keep", "1", "5", "9"],
        ["triage", "decide", "skip", "2", "6"],
        ["delete", "40"],
    ):
        done = cli(e, lib, *args, served=False)
        assert done.returncode == 0, (args, done.stderr)
    return lib


@pytest.fixture
def library(tmp_path: Path, template: Path) -> Path:
    lib = tmp_path / "lib"
    shutil.copytree(template, lib)
    return lib


class Serving:
    def __init__(self, env: dict[str, str], lib: Path | str) -> None:
        self.env, self.lib = env, lib
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "desktop_app", "--library", str(lib), "serve", "--idle", "0"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self.path = self._path()
        deadline = time.monotonic() + 120
        while True:
            sock = cli_remote.connect(self.path, 0.2) if self.path.exists() else None
            if sock is not None:
                sock.close()
                return
            if self.proc.poll() is not None:
                raise AssertionError(f"serve ended: {self.proc.stderr.read() if self.proc.stderr else ''}")
            if time.monotonic() > deadline:
                raise AssertionError("serve never listened")
            time.sleep(0.1)

    def _path(self) -> Path:
        old = os.environ.get("XDG_RUNTIME_DIR")
        os.environ["XDG_RUNTIME_DIR"] = self.env["XDG_RUNTIME_DIR"]
        try:
            path = cli_remote.socket_path(self.lib if isinstance(self.lib, str) else Path(self.lib))
        finally:
            if old is None:
                del os.environ["XDG_RUNTIME_DIR"]
            else:
                os.environ["XDG_RUNTIME_DIR"] = old
        assert path is not None
        return path

    def stop(self) -> str:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        _, err = self.proc.communicate(timeout=60)
        return err


class ThreadServing:
    """The same answers from a thread of this process, as the window gives them
    (``serving.BackgroundServer``, started by ``gui/command_answers.py``)."""

    def __init__(self, env: dict[str, str], lib: Path | str, ready: Callable[[], bool] = lambda: True) -> None:
        from desktop_app.cli_parser import parse_command_line
        from desktop_app.serving import BackgroundServer

        self.answers = BackgroundServer(lib, parse_command_line, ready)
        assert self.answers.start(), "the thread did not listen"
        path = cli_remote.socket_path(lib)
        assert path is not None
        self.path = path

    def stop(self) -> str:
        self.answers.stop()
        return ""


@pytest.fixture(params=["serve", "thread"])
def server(
    env: dict[str, str], library: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Serving | ThreadServing]:
    """``marginalia serve`` in its own process, or a thread of this one (the window's way)."""
    if request.param == "serve":
        s: Serving | ThreadServing = Serving(env, library)
    else:
        monkeypatch.setenv("XDG_RUNTIME_DIR", env["XDG_RUNTIME_DIR"])  # where the thread's socket goes
        s = ThreadServing(env, library)
    try:
        yield s
    finally:
        s.stop()


def served_without_imports(
    env: dict[str, str], lib: Path | str, tmp_path: Path, *args: str
) -> tuple[subprocess.CompletedProcess, set[str]]:
    res, modules = run_listing_modules(env, tmp_path, "--library", str(lib), *args)
    return res, {m.split(".")[0] for m in modules}


READS = [
    ["search", "reinforcement robots"],
    ["search", "reinforcment", "--json"],  # did-you-mean
    ["search", "title:(unclosed"],  # a query's syntax error: exit 1, its message
    ["list", "--limit", "7"],
    ["list", "--query", "tag:rl/* and not read", "--json"],
    ["list", "--sort", "year", "--descending"],
    ["show", "4"],
    ["show", "4", "--json"],
    ["show", "999"],  # no such paper: exit 1
    ["note", "4"],
    ["related", "1", "--limit", "5"],
    ["stats"],
    ["triage", "queue", "--limit", "10"],
    ["triage", "queue", "protein", "--json"],
    ["trash", "list"],
    ["reading-list", "ls"],
    ["reading-list", "show", "meeting", "--json"],
    ["imports"],
    ["topics", "--k", "3"],
]


def test_every_read_command_prints_what_it_prints_in_its_own_process(
    env: dict[str, str], library: Path, server: Serving | ThreadServing, tmp_path: Path
) -> None:
    for args in READS:
        alone = cli(env, library, *args, served=False)
        res, modules = served_without_imports(env, library, tmp_path, *args)
        assert not modules & set(HEAVY), (args, "answered in its own process")
        assert (res.returncode, res.stdout, res.stderr) == (alone.returncode, alone.stdout, alone.stderr), args
    assert cli(env, library, "show", "999", served=False).returncode == 1


def test_answers_are_never_stale_after_another_process_writes(
    env: dict[str, str], library: Path, server: Serving | ThreadServing
) -> None:
    def same(*args: str) -> str:
        alone = cli(env, library, *args, served=False)
        res = cli(env, library, *args)
        assert (res.returncode, res.stdout, res.stderr) == (alone.returncode, alone.stdout, alone.stderr), args
        return res.stdout

    assert "zqxfresh" not in same("search", "zqxfresh")
    for write, check, expect in [
        (["note", "7", "--set", "zqxfresh words"], ["search", "zqxfresh"], "Study 6 of"),
        (["tag", "8", "--add", "fresh/tag"], ["list", "--query", "tag:fresh/*"], "Study 7 of"),
        (["title", "9", "A zqxretitled paper"], ["search", "zqxretitled"], "zqxretitled"),
        (["triage", "decide", "keep", "10"], ["show", "10", "--json"], '"decision": "keep"'),
        (["delete", "7"], ["trash", "list"], "Study 6 of"),
    ]:
        done = cli(env, library, *write, served=False)
        assert done.returncode == 0, (write, done.stderr)
        assert expect in same(*check), (write, check)
    assert "Study 6 of" not in same("search", "zqxfresh")  # deleted: gone from the index too


def test_a_reindex_or_a_restore_by_another_process_is_followed(
    env: dict[str, str], library: Path, server: Serving | ThreadServing
) -> None:
    assert cli(env, library, "backup", served=False).returncode == 0
    assert cli(env, library, "note", "11", "--set", "zqxafterbackup", served=False).returncode == 0
    assert "Study 10 of" in cli(env, library, "search", "zqxafterbackup").stdout
    assert cli(env, library, "reindex", served=False).returncode == 0  # a new index folder
    assert "Study 10 of" in cli(env, library, "search", "zqxafterbackup").stdout
    restored = cli(env, library, "restore", "1", served=False)
    assert restored.returncode == 0, restored.stderr  # a new database file, without the note
    res = cli(env, library, "search", "zqxafterbackup")
    alone = cli(env, library, "search", "zqxafterbackup", served=False)
    assert (res.stdout, res.stderr) == (alone.stdout, alone.stderr)
    assert "Study 10 of" not in res.stdout


def test_writes_run_in_their_own_process(
    env: dict[str, str], library: Path, server: Serving | ThreadServing, tmp_path: Path
) -> None:
    res, modules = served_without_imports(env, library, tmp_path, "tag", "12", "--add", "own/process")
    assert res.returncode == 0, res.stderr
    assert "sqlalchemy" in modules
    assert "own/process" in cli(env, library, "show", "12").stdout


def test_a_relative_library_path_is_the_same_library(
    env: dict[str, str], library: Path, server: Serving | ThreadServing, tmp_path: Path
) -> None:
    res, modules = served_without_imports(env, "lib", tmp_path, "show", "4")
    assert res.returncode == 0 and "a note on four" in res.stdout and "Study 3 of" in res.stdout
    assert not modules & set(HEAVY)
    other = tmp_path / "other"
    res = cli(env, other, "list")  # another library: never answered by this server
    assert res.returncode == 0 and res.stdout == ""


def test_a_killed_server_leaves_the_command_line_working(env: dict[str, str], library: Path) -> None:
    first = Serving(env, library)
    first.proc.send_signal(signal.SIGKILL)
    first.proc.wait(30)
    assert first.path.exists()  # a stale socket file
    res = cli(env, library, "show", "4")
    assert res.returncode == 0 and "Study 3 of" in res.stdout
    second = Serving(env, library)  # takes the stale name over
    try:
        busy = subprocess.run(
            [sys.executable, "-m", "desktop_app", "--library", str(library), "serve"],
            env=env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=120,
        )
        assert busy.returncode == 1 and "already answers" in busy.stderr
    finally:
        err = second.stop()
    assert "server stopped" in err
    assert not second.path.exists()  # removed on SIGTERM


def test_the_socket_is_private(env: dict[str, str], server: Serving | ThreadServing) -> None:
    assert server.path.stat().st_mode & 0o077 == 0


@pytest.mark.postgresql
def test_a_server_library_is_served_fresh(env: dict[str, str], pg_url: str, tmp_path: Path) -> None:
    src = tmp_path / "papers.bib"
    src.write_text(_bibtex(12), "utf-8")
    assert cli(env, pg_url, "import", str(src), served=False).returncode == 0
    s = Serving(env, pg_url)
    try:
        for write, check, expect in [
            (["note", "3", "--set", "zqxserver words"], ["search", "zqxserver"], "Study 2 of"),
            (["tag", "4", "--add", "lab/shared"], ["list", "--query", "tag:lab/*"], "Study 3 of"),
        ]:
            assert cli(env, pg_url, *write, served=False).returncode == 0
            res, alone = cli(env, pg_url, *check), cli(env, pg_url, *check, served=False)
            assert (res.stdout, res.stderr) == (alone.stdout, alone.stderr) and expect in res.stdout
    finally:
        s.stop()


def _serve_processes(lib: Path) -> list[int]:
    """The pids of ``marginalia serve`` processes for *lib* (read from /proc)."""
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"serve" in argv and str(lib).encode() in argv:
            pids.append(int(proc.name))
    return pids


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc to find the started server")
def test_a_loop_of_commands_starts_a_server_that_answers_the_rest(
    env: dict[str, str], library: Path, tmp_path: Path
) -> None:
    """One call starts nothing; the second within a minute starts ``marginalia serve`` in the
    background; the calls after it are answered by that server, with the same output, and it
    ends on SIGTERM like one started by hand. ``MARGINALIA_AUTO_SERVE=0`` starts none."""
    e = {k: v for k, v in env.items() if k != cli_remote.AUTO_SERVE_ENV}
    off = {**e, cli_remote.AUTO_SERVE_ENV: "0"}
    alone = cli(e, library, "search", "reinforcement robots", served=False)
    try:
        for _ in range(2):
            assert cli(off, library, "search", "reinforcement robots").stdout == alone.stdout
        time.sleep(1.0)
        assert _serve_processes(library) == [], "started although turned off"

        assert cli(e, library, "search", "reinforcement robots").stdout == alone.stdout  # the first: a stamp
        time.sleep(1.0)
        assert _serve_processes(library) == [], "one call started a server"
        assert cli(e, library, "search", "reinforcement robots").stdout == alone.stdout  # the second: a start
        deadline = time.monotonic() + 120
        while True:
            res, modules = served_without_imports(e, library, tmp_path, "search", "reinforcement robots")
            if not modules & set(HEAVY):
                break
            assert time.monotonic() < deadline, "no server answered the calls after the second"
            time.sleep(0.5)
        assert (res.returncode, res.stdout, res.stderr) == (alone.returncode, alone.stdout, alone.stderr)
        assert len(_serve_processes(library)) == 1  # the calls made while it opened started no other
    finally:
        for pid in _serve_processes(library):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 30
    while _serve_processes(library) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _serve_processes(library) == []


def test_a_thread_not_ready_leaves_the_command_to_its_own_process(
    env: dict[str, str], library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the window builds its index the thread refuses; the command runs in its own
    process and prints the same. Stopped, the socket file goes, and a serve process may start."""
    monkeypatch.setenv("XDG_RUNTIME_DIR", env["XDG_RUNTIME_DIR"])
    ready = [False]
    s = ThreadServing(env, library, lambda: ready[0])
    try:
        alone = cli(env, library, "show", "4", served=False)
        res, modules = served_without_imports(env, library, tmp_path, "show", "4")
        assert "sqlalchemy" in modules, "answered although not ready"
        assert (res.returncode, res.stdout) == (alone.returncode, alone.stdout)
        ready[0] = True
        res, modules = served_without_imports(env, library, tmp_path, "show", "4")
        assert not modules & set(HEAVY) and res.stdout == alone.stdout
        from desktop_app.cli_parser import parse_command_line
        from desktop_app.serving import BackgroundServer

        assert not BackgroundServer(library, parse_command_line).start()  # one answers for a library
    finally:
        s.stop()
    assert not s.path.exists() and not s.answers.running
    again = Serving(env, library)  # the name is free for a serve process
    again.stop()
