"""Shared fixtures: every test gets its own library folder; Qt runs offscreen; nothing touches
the user's real data or settings."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SEEDS = sorted((SHARED / "seeds").glob("*.txt"))
CORPUS = SHARED / "corpus"

SHARED_MISSING = (
    f"needs the shared seeds and corpus, expected in {SHARED} (beside the checkout); "
    "a checkout alone skips these tests"
)
_SHARED_NAMES = ("SEEDS", "CORPUS", "SHARED", "seed_library", "seed_paths", "find_paper", "seeded")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without ../shared the tests that read it are skipped with the reason; CI must have it."""
    if SEEDS:
        return
    if os.environ.get("CI"):
        pytest.exit(f"CI is set but {SHARED_MISSING}", returncode=1)
    sources: dict[Path, str] = {}
    for item in items:
        path = Path(item.fspath)
        if path not in sources:
            sources[path] = path.read_text(encoding="utf-8")
        if item.get_closest_marker("shared") or any(name in sources[path] for name in _SHARED_NAMES):
            item.add_marker(pytest.mark.skip(reason=SHARED_MISSING))


pytest_plugins = ["tests.core.pg_fixtures"]  # pg_server, pg_url: shared (PostgreSQL) libraries


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point HOME, XDG folders and MARGINALIA_LIBRARY at temporary folders."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("MARGINALIA_LIBRARY", str(home / "default-library"))


@pytest.fixture
def seed_paths() -> list[Path]:
    return list(SEEDS)


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


def find_paper(lib, words: str) -> int:
    """The id of the seed paper whose plain abstract contains ``words``."""
    for pid in lib.query("").ids:
        if words in lib.papers.get(pid).abstract_text:
            return pid
    raise AssertionError(f"no paper contains {words!r}")


def queued_ids(folder: Path) -> list[int]:
    """The paper ids waiting in a library's ``index_queue``, read with plain sqlite3."""
    con = sqlite3.connect(folder / "library.sqlite")
    try:
        return [r[0] for r in con.execute("SELECT paper_id FROM index_queue ORDER BY paper_id")]
    finally:
        con.close()


def papers_in(db: Path) -> int:
    """Live papers in a database file, read with plain sqlite3 (no Library, no migration).
    The path is made absolute: this SQLite treats a relative "file:..." name as a URI."""
    con = sqlite3.connect(db.absolute())
    try:
        return con.execute("SELECT count(*) FROM paper WHERE deleted_at IS NULL").fetchone()[0]
    finally:
        con.close()


_exit_status: list[int] = []


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _exit_status.append(int(exitstatus))


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """Leave with pytest's own exit status once everything is reported. Since the citation and attachment
    work was merged the interpreter's shutdown after the GUI tests sometimes crashes (SIGSEGV, exit 139) while
    Qt and Python tear down their objects, after every test passed; the cause is not found yet,
    so the run ends here, past all reporting, instead of failing on a crash no test made.
    MARGINALIA_NORMAL_EXIT=1 keeps the usual shutdown (to hunt the crash)."""
    import sys

    if _exit_status and not os.environ.get("MARGINALIA_NORMAL_EXIT"):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_exit_status[-1])
