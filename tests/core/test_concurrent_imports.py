"""The same file imported at two desks at once gives each paper once: on
PostgreSQL the imports take a transaction-level advisory lock at their start, so the second
waits, then finds the first's papers and merges into them (before: 167 papers for 131)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from desktop_app.core.library import Library
from desktop_app.core.values import ImportReport
from tests.helpers.pg_fixtures import *  # noqa: F403 - pg_server, pg_url
from tests.helpers.pg_fixtures import new_database
from tests.helpers.shared import SEEDS

ROUNDS = 3


def _two_desks(where: str | Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Library]:
    libs = []
    for desk in ("a", "b"):  # each desk its own cache (index) and data folders, as on two machines
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / desk / "cache"))
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / desk / "data"))
        libs.append(Library.open(where))
    return libs


def _import_at_once(libs: list[Library], files: list[Path]) -> list[ImportReport]:
    barrier = threading.Barrier(len(libs))
    reports: list[ImportReport] = []
    errors: list[BaseException] = []

    def run(lib: Library) -> None:
        barrier.wait()
        try:
            reports.append(lib.imports.from_files(files))
        except BaseException as exc:  # noqa: BLE001 - collected, asserted below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(lib,)) for lib in libs]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    assert not errors, errors
    return reports


def _alone(tmp_path: Path) -> int:
    """How many papers the files make in a library of their own."""
    with Library.open(tmp_path / "alone") as lib:
        return lib.imports.from_files(SEEDS).added


@pytest.mark.shared
@pytest.mark.postgresql
def test_the_same_files_imported_at_two_desks_at_once_give_each_paper_once(
    pg_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _alone(tmp_path)
    assert expected > 50
    for r in range(ROUNDS):
        libs = _two_desks(new_database(pg_server), tmp_path / str(r), monkeypatch)
        try:
            reports = _import_at_once(libs, SEEDS)
            assert sorted(rep.added for rep in reports) == [0, expected], r  # the second merged
            assert all(len(lib.query("").ids) == expected for lib in libs), r
            assert sorted(reports[0].paper_ids + reports[1].paper_ids) == sorted(libs[0].query("").ids)
        finally:
            for lib in libs:
                lib.close()


def test_the_same_files_imported_twice_at_once_on_one_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite: the write lock (BEGIN IMMEDIATE) serializes the two imports the same way."""
    expected = _alone(tmp_path)
    libs = _two_desks(tmp_path / "lib", tmp_path, monkeypatch)
    try:
        reports = _import_at_once(libs, SEEDS)
        assert sorted(rep.added for rep in reports) == [0, expected]
        assert len(libs[0].query("").ids) == expected
    finally:
        for lib in libs:
            lib.close()
