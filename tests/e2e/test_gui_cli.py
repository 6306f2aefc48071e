"""The window started as a user's command line starts it: screenshot and smoke test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

from tests.helpers.cli import run_app


def test_screenshot_of_a_selected_paper(tmp_path: Path, seed_paths: list[Path]) -> None:
    lib = tmp_path / "lib"
    assert run_app("--library", str(lib), "import", *map(str, seed_paths)).returncode == 0
    assert run_app("--library", str(lib), "tag", "1", "--add", "rl/rlvr").returncode == 0
    out = tmp_path / "shot.png"
    res = run_app(
        "--library",
        str(lib),
        "gui",
        "--screenshot",
        str(out),
        "--query",
        "reinforcement",
        "--select",
        "1",
        "--size",
        "1200x800",
    )
    assert res.returncode == 0, res.stderr
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1200, 800)
    # not a blank image: many distinct colors on a sample grid
    colors = {img.pixel(x, y) for x in range(0, 1200, 37) for y in range(0, 800, 29)}
    assert len(colors) > 20


def test_smoke_tests(tmp_path: Path) -> None:
    res = run_app("--smoke-test")
    assert res.returncode == 0 and res.stdout.strip() == "OK", res.stderr
    # the sample papers were indexed by the writer's child process and found by a text search
    assert "search index: writer process" in res.stderr, res.stderr
    res = run_app("--library", str(tmp_path / "fresh"), "gui", "--smoke-test")
    assert res.returncode == 0 and "OK" in res.stdout, res.stderr
    assert (tmp_path / "fresh" / "library.sqlite").exists()


def test_version() -> None:
    from desktop_app import __version__

    res = run_app("--version")
    assert res.returncode == 0 and res.stdout.strip() == f"marginalia {__version__}"


def test_a_library_newer_than_the_code_is_refused_untouched(tmp_path: Path) -> None:
    import hashlib
    import sqlite3

    lib = tmp_path / "lib"
    assert run_app("--library", str(lib), "list").returncode == 0
    con = sqlite3.connect(lib / "library.sqlite")
    con.execute("UPDATE alembic_version SET version_num='9999'")
    con.commit()
    con.close()
    before = hashlib.sha256((lib / "library.sqlite").read_bytes()).hexdigest()
    res = run_app("--library", str(lib), "list")
    assert res.returncode == 1
    assert "newer version of Marginalia" in res.stderr and "Traceback" not in res.stderr
    assert hashlib.sha256((lib / "library.sqlite").read_bytes()).hexdigest() == before


def test_a_second_instance_hands_over_to_the_first(tmp_path: Path) -> None:
    """Starting the app again on an open library raises the running window and exits."""
    import time

    lib = tmp_path / "lib"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    first = subprocess.Popen(
        [sys.executable, "-m", "desktop_app", "--library", str(lib)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while not (lib / ".marginalia.lock").exists() or not (lib / "index").exists():
            assert time.monotonic() < deadline, "the first instance did not start"
            time.sleep(0.1)
        time.sleep(1.0)  # the local server listens right after the window is built
        second = run_app("--library", str(lib))
        assert second.returncode == 0, second.stderr
        assert first.poll() is None  # the first one is still running, undisturbed
    finally:
        first.terminate()
        first.wait(timeout=30)
    assert run_app("--library", str(lib), "check").returncode == 0


def _run_bounded(*args: str) -> subprocess.CompletedProcess:
    """Run with a short timeout: a dialog waiting for a click would hang here for ever."""
    try:
        return subprocess.run(
            [sys.executable, "-m", "desktop_app", *args],
            capture_output=True,
            text=True,
            timeout=60,
            env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        )
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"`marginalia {' '.join(args)}` did not exit (a dialog waiting?)") from exc


def test_screenshot_and_smoke_test_fail_on_a_library_that_cannot_be_opened(tmp_path: Path) -> None:
    """An unreadable database and a newer schema: one line on stderr, exit 1, no dialog, no change."""
    import hashlib
    import sqlite3

    garbage = tmp_path / "garbage"
    garbage.mkdir()
    (garbage / "library.sqlite").write_bytes(b"this is not an SQLite database, just some text\n" * 40)
    newer = tmp_path / "newer"
    assert run_app("--library", str(newer), "list").returncode == 0
    con = sqlite3.connect(newer / "library.sqlite")
    con.execute("UPDATE alembic_version SET version_num='9999'")
    con.commit()
    con.close()
    for lib, expected in ((garbage, "is not a readable Marginalia library"), (newer, "newer version of Marginalia")):
        before = hashlib.sha256((lib / "library.sqlite").read_bytes()).hexdigest()
        for mode in (["--screenshot", str(tmp_path / "shot.png")], ["--smoke-test"]):
            res = _run_bounded("--library", str(lib), "gui", *mode)
            assert res.returncode == 1, (mode, res.stderr)
            assert expected in res.stderr and "Traceback" not in res.stderr, res.stderr
            assert res.stderr.count("marginalia:") == 1, res.stderr
            assert not (tmp_path / "shot.png").exists()
        assert hashlib.sha256((lib / "library.sqlite").read_bytes()).hexdigest() == before
