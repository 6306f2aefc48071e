"""When a read command starts ``marginalia serve`` by itself (cli_remote.start_server_if_repeated):
only the second call of a loop, never one alone, never a second server while the first opens
the library, never when turned off; the command it starts is this installation's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from desktop_app import cli_remote


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[list[str]]:
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    monkeypatch.delenv(cli_remote.AUTO_SERVE_ENV, raising=False)
    monkeypatch.delenv(cli_remote.NO_SERVER_ENV, raising=False)
    calls: list[list[str]] = []

    def popen(argv: list[str], **kwargs: object) -> None:
        assert kwargs["start_new_session"] is True and kwargs["stdout"] == subprocess.DEVNULL
        calls.append(argv)

    monkeypatch.setattr(subprocess, "Popen", popen)
    return calls


def test_one_call_starts_nothing_the_second_soon_after_starts_one(started: list[list[str]], tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    t = 1_000_000.0
    assert not cli_remote.start_server_if_repeated(lib, now=t)
    assert started == []
    assert cli_remote.start_server_if_repeated(lib, now=t + 5)
    assert started == [
        [
            sys.executable,
            "-m",
            "desktop_app",
            "--library",
            str(lib),
            "serve",
            "--idle",
            f"{cli_remote.AUTO_IDLE_MINUTES:g}",
        ]
    ]
    # while it opens the library, the calls of the loop start no second server
    assert not cli_remote.start_server_if_repeated(lib, now=t + 6)
    assert not cli_remote.start_server_if_repeated(lib, now=t + 5 + cli_remote.START_GRACE_S - 1)
    assert len(started) == 1
    # it went away (idled out, killed): the next loop starts one again
    later = t + 5 + cli_remote.START_GRACE_S + 600
    assert not cli_remote.start_server_if_repeated(lib, now=later)
    assert cli_remote.start_server_if_repeated(lib, now=later + 1)
    assert len(started) == 2


def test_calls_far_apart_start_nothing(started: list[list[str]], tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    for i in range(4):
        assert not cli_remote.start_server_if_repeated(lib, now=1_000_000.0 + i * (cli_remote.REPEAT_WINDOW_S + 1))
    assert started == []


def test_each_library_has_its_own_loop(started: list[list[str]], tmp_path: Path) -> None:
    assert not cli_remote.start_server_if_repeated(tmp_path / "a", now=1_000_000.0)
    assert not cli_remote.start_server_if_repeated(tmp_path / "b", now=1_000_001.0)
    assert started == []


@pytest.mark.parametrize(
    "env", [(cli_remote.AUTO_SERVE_ENV, "0"), (cli_remote.AUTO_SERVE_ENV, "no"), (cli_remote.NO_SERVER_ENV, "1")]
)
def test_turned_off(
    started: list[list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, env: tuple[str, str]
) -> None:
    monkeypatch.setenv(*env)
    for i in range(3):
        assert not cli_remote.start_server_if_repeated(tmp_path / "lib", now=1_000_000.0 + i)
    assert started == []


def test_no_private_socket_folder_starts_nothing(
    started: list[list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli_remote, "socket_dir", lambda: None)
    for i in range(3):
        assert not cli_remote.start_server_if_repeated(tmp_path / "lib", now=1_000_000.0 + i)
    assert started == []


def test_a_bundle_starts_its_own_binary(started: list[list[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert cli_remote.serve_command("postgresql://lab@db/papers")[:3] == [
        sys.executable,
        "--library",
        "postgresql://lab@db/papers",
    ]
