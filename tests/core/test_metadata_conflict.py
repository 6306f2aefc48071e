"""Two programs editing one paper's metadata: with the values the editing started from
(``base``), a field the other changed meanwhile is a conflict, named with theirs and mine, and
nothing is written; fields only one side changed merge; saving the choice settles it."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.core.errors import MetadataConflict
from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record


@pytest.fixture
def two(tmp_path: Path):
    with Library.open(tmp_path / "lib") as mine:
        mine.imports.from_records(
            [
                (
                    "t",
                    ParseResult(
                        "bibtex",
                        [
                            Record(
                                title="Graph transformers", abstract="x", authors=["Doe, Jane"], venue="ICML", year=2024
                            )
                        ],
                    ),
                )
            ]
        )
        pid = mine.query("").ids[0]
        with Library.open(tmp_path / "lib") as theirs:
            yield mine, theirs, pid


def test_a_field_both_changed_is_a_conflict_and_nothing_is_written(two) -> None:
    mine, theirs, pid = two
    base = {"venue": "ICML", "year": "2024", "title": "Graph transformers"}
    theirs.papers.update_metadata(pid, {"venue": "NeurIPS", "authors": ["Doe, Jane", "Roe, Rick"]})
    with pytest.raises(MetadataConflict) as caught:
        mine.papers.update_metadata(
            pid, {"venue": "ICLR", "year": "2025", "title": "Graph transformers, revisited"}, base=base
        )
    assert caught.value.fields == {"venue": ("NeurIPS", "ICLR")}
    assert "changed the venue of this paper" in str(caught.value)
    view = mine.papers.get(pid)
    assert (view.venue, view.year, view.title) == ("NeurIPS", 2024, "Graph transformers")  # nothing written


def test_fields_only_one_side_changed_merge_and_the_choice_settles_it(two) -> None:
    mine, theirs, pid = two
    base = {"venue": "ICML", "year": "2024"}
    theirs.papers.update_metadata(pid, {"venue": "NeurIPS", "title": "Graph transformers (long version)"})
    with pytest.raises(MetadataConflict) as caught:
        mine.papers.update_metadata(pid, {"venue": "ICLR", "year": "2025"}, base=base)
    # keep theirs for the venue: save the rest with their venue as the base
    (their_venue, _mine) = caught.value.fields["venue"]
    mine.papers.update_metadata(pid, {"year": "2025"}, base={"year": "2024"})
    view = mine.papers.get(pid)
    assert (view.venue, view.year, view.title) == (their_venue, 2025, "Graph transformers (long version)")


def test_the_same_value_on_both_sides_or_no_base_is_no_conflict(two) -> None:
    mine, theirs, pid = two
    theirs.papers.update_metadata(pid, {"venue": "NeurIPS", "authors": ["Doe, Jane", "Roe, Rick"]})
    mine.papers.update_metadata(pid, {"venue": "NeurIPS"}, base={"venue": "ICML"})  # they agree
    mine.papers.update_metadata(pid, {"authors": ["Doe, Jane"]}, base={"authors": ["Doe, Jane", "Roe, Rick"]})
    assert mine.papers.get(pid).authors == ["Doe, Jane"]
    with pytest.raises(MetadataConflict) as caught:
        mine.papers.update_metadata(pid, {"authors": ["Zed, Zoe"]}, base={"authors": ["Doe, Jane", "Roe, Rick"]})
    assert caught.value.fields == {"authors": (["Doe, Jane"], ["Zed, Zoe"])}
    mine.papers.update_metadata(pid, {"venue": "ICLR"})  # no base: the edit wins, as before
    assert mine.papers.get(pid).venue == "ICLR"
