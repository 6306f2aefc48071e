"""No graphical session: the window's start says so in one line, before Qt is imported."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from desktop_app.platform_check import NO_SESSION, no_graphical_session
from tests.helpers.shared import ROOT

# prints whether Qt was imported by the time main() returned, after main's own output
PROBE = (
    "import sys; from desktop_app.cli import main; rc = main(sys.argv[1:]); "
    "print('qt-imported' if 'PySide6' in sys.modules else 'no-qt'); sys.exit(rc)"
)


def clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """Only what a login shell on a console or over ssh has: no DISPLAY, no WAYLAND_DISPLAY."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "LANG": "C.UTF-8",
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "PYTHONPATH": str(ROOT),
        **extra,
    }


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", PROBE, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize("args", [[], ["gui"], ["gui", "some.bib"]])
def test_the_window_without_a_session_says_so_in_one_line(tmp_path: Path, args: list[str]) -> None:
    if sys.platform in ("win32", "darwin"):
        pytest.skip("Windows and macOS always have a session for the window")
    lib = tmp_path / "lib"
    done = run(clean_env(tmp_path), "--library", str(lib), *args)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.splitlines() == [NO_SESSION]
    assert "no graphical session" in NO_SESSION and "marginalia --help" in NO_SESSION
    assert done.stdout.split() == ["no-qt"]  # said before PySide6 was imported
    assert not lib.exists()  # and before the library was made


def test_the_command_line_still_works_without_a_session(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    done = run(clean_env(tmp_path), "--library", str(lib), "list")
    assert done.returncode == 0, done.stderr
    assert (lib / "library.sqlite").exists()
    assert done.stdout.split() == ["no-qt"]


def test_smoke_test_without_a_session_draws_offscreen(tmp_path: Path) -> None:
    """Nobody watches a smoke test: with no screen it uses Qt's offscreen platform."""
    done = run(clean_env(tmp_path), "--library", str(tmp_path / "lib"), "gui", "--smoke-test")
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split()[0] == "OK"


def test_which_environments_have_a_session() -> None:
    linux = "linux"
    assert no_graphical_session({}, linux)
    assert no_graphical_session({"QT_QPA_PLATFORM": "xcb"}, linux)
    assert no_graphical_session({"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ""}, linux)
    assert not no_graphical_session({"DISPLAY": ":0"}, linux)
    assert not no_graphical_session({"WAYLAND_DISPLAY": "wayland-0"}, linux)
    for platform in ("offscreen", "minimal", "vnc", "eglfs", "linuxfb", "xcb;offscreen"):
        assert not no_graphical_session({"QT_QPA_PLATFORM": platform}, linux), platform
    assert no_graphical_session({}, "freebsd14")
    for other in ("win32", "darwin"):
        assert not no_graphical_session({}, other)
