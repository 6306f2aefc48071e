"""The note's history through the Library: the current text and every earlier one, newest first."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from desktop_app.core.library import Library
from tests.helpers.pg_fixtures import BACKENDS, seed_library_on


@pytest.fixture(params=BACKENDS)
def seed_library(request: pytest.FixtureRequest, library_dir: Path, seed_paths: list[Path]):
    """The 76 seeds, on SQLite and on PostgreSQL (tests/helpers/pg_fixtures.py)."""
    yield from seed_library_on(request, library_dir, seed_paths)


def _paper(lib: Library) -> int:
    return lib.query("").ids[0]


def test_three_saves_give_three_versions_newest_first(seed_library: Library) -> None:
    pid = _paper(seed_library)
    for text in ("first", "second", "third"):
        seed_library.notes.set(pid, text)
    history = seed_library.notes.history(pid)
    assert [v.text for v in history] == ["third", "second", "first"]
    assert history[0].id is None  # the note as it is now
    assert all(v.id is not None for v in history[1:])
    assert all(isinstance(v.saved_at, datetime) for v in history)
    assert history[1].saved_at >= history[2].saved_at
    one = seed_library.notes.revision(history[2].id)
    assert one is not None and one.text == "first" and one.id == history[2].id


def test_an_unchanged_save_adds_no_version_and_a_missing_revision_is_none(seed_library: Library) -> None:
    pid = _paper(seed_library)
    assert seed_library.notes.history(pid) == []
    seed_library.notes.set(pid, "same")
    seed_library.notes.set(pid, "same")
    assert [v.text for v in seed_library.notes.history(pid)] == ["same"]
    assert seed_library.notes.revision(987654) is None


def test_histories_are_per_paper(seed_library: Library) -> None:
    a, b = seed_library.query("").ids[:2]
    seed_library.notes.set(a, "a1")
    seed_library.notes.set(a, "a2")
    seed_library.notes.set(b, "b1")
    assert [v.text for v in seed_library.notes.history(a)] == ["a2", "a1"]
    assert [v.text for v in seed_library.notes.history(b)] == ["b1"]
