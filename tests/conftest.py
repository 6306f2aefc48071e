"""Shared fixtures: every test gets its own library folder; Qt runs offscreen; nothing touches
the user's real data or settings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers.shared import SEEDS, SHARED, SHARED_MISSING

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# the tests run the command line in loops: no server starts itself behind their backs (the one
# test of that starting, tests/e2e/test_cli_serve.py, turns it back on for its own processes)
os.environ["MARGINALIA_AUTO_SERVE"] = "0"
# nor does every test's window answer the command line (tests/gui/test_command_answers.py turns it on)
os.environ["MARGINALIA_WINDOW_ANSWERS"] = "0"


def _needs_shared(item: pytest.Item) -> bool:
    """A test reads ../shared when it carries the ``shared`` marker or uses ``shared_dir``, itself
    or through a fixture built on it (``seed_paths``, ``seed_library``, ``seeded_dir``...):
    ``fixturenames`` is the whole closure of the fixtures a test uses."""
    return item.get_closest_marker("shared") is not None or "shared_dir" in item.fixturenames


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without ../shared the tests that read it are skipped with the reason; CI must have it."""
    if SEEDS:
        return
    needing = [item for item in items if _needs_shared(item)]
    if needing and os.environ.get("CI"):
        pytest.exit(f"CI is set but {SHARED_MISSING}", returncode=1)
    for item in needing:
        item.add_marker(pytest.mark.skip(reason=SHARED_MISSING))


# pg_server, pg_url: shared (PostgreSQL) libraries; own_server: a server a test stops and starts
pytest_plugins = ["tests.helpers.pg_fixtures", "tests.helpers.offline_server"]


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point HOME, XDG folders and MARGINALIA_LIBRARY at temporary folders."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("MARGINALIA_LIBRARY", str(home / "default-library"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """``../shared``: a test using it (or a fixture built on it) is skipped without it."""
    if not SEEDS:  # reached only when a test asks for it at run time (getfixturevalue)
        pytest.skip(SHARED_MISSING)
    return SHARED


@pytest.fixture
def seed_paths(shared_dir: Path) -> list[Path]:
    """The seed abstracts (76 in 8 files), a new list for each test."""
    return sorted((shared_dir / "seeds").glob("*.txt"))


@pytest.fixture
def library_dir(tmp_path: Path) -> Path:
    return tmp_path / "library"


@pytest.fixture
def empty_library(library_dir: Path):
    from desktop_app.core.library import Library

    lib = Library.open(library_dir)
    yield lib
    lib.close()


@pytest.fixture
def seed_library(library_dir: Path, seed_paths: list[Path]):
    """A library holding the 76 seed abstracts."""
    from desktop_app.core.library import Library

    lib = Library.open(library_dir)
    report = lib.imports.from_files(seed_paths)
    assert report.added == 76, report.as_dict()
    yield lib
    lib.close()
