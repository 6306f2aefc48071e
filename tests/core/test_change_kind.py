"""A Change names one of the kinds the views refresh by; a string from outside becomes its kind."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from desktop_app.core.values import Change, ChangeKind


def test_a_string_becomes_its_kind_and_an_unknown_one_is_refused() -> None:
    change = Change("tags", (1, 2))  # type: ignore[arg-type] - a string, as a journal or a test gives it
    assert change.kind is ChangeKind.TAGS and change.kind == "tags"
    with pytest.raises(ValueError, match="tag"):
        Change("tag")  # type: ignore[arg-type]


def test_every_change_the_library_makes_names_its_kind(library_dir: Path) -> None:
    with Library.open(library_dir) as lib:
        added = lib.imports.from_records(
            [
                (
                    "r",
                    ParseResult(
                        "csv", [Record(title="A", abstract="Alpha text."), Record(title="B", abstract="Beta text.")]
                    ),
                )
            ]
        )
        ids = lib.query("", sort="added").ids
        changes = [
            lib.papers.set_status(ids, "read"),
            lib.tags.add(ids, ["x"]),
            lib.notes.set(ids[0], "n"),
            lib.lists.create("l"),
            lib.papers.delete(ids[:1]),
        ]
    assert added.added == 2
    assert [c.kind for c in changes] == [
        ChangeKind.PAPERS,
        ChangeKind.TAGS,
        ChangeKind.NOTE,
        ChangeKind.LISTS,
        ChangeKind.PAPERS,
    ]
    assert all(isinstance(c.kind, ChangeKind) for c in changes)
