"""A note whose paper was deleted elsewhere, kept on a new paper (``lib.imports.note_as_new_paper``):
the new paper copies the deleted one while it is in the trash, is never merged into it or into
another paper, and its import is undone like any other."""

from __future__ import annotations

from pathlib import Path

from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record


def _paper(lib: Library) -> int:
    lib.imports.from_records(
        [
            (
                "t",
                ParseResult(
                    "bibtex",
                    [
                        Record(
                            title="Sparse attention at scale",
                            abstract="We measure sparse attention.",
                            authors=["Doe, Jane"],
                            year=2024,
                            doi="10.1/sparse",
                            venue="ICML",
                        )
                    ],
                ),
            )
        ]
    )
    return lib.query("").ids[0]


def test_the_new_paper_copies_the_trashed_one_and_holds_the_note(tmp_path: Path) -> None:
    with Library.open(tmp_path / "lib") as lib:
        pid = _paper(lib)
        lib.papers.delete([pid])
        change = lib.imports.note_as_new_paper(pid, "what I made of it")
        (new,) = change.paper_ids
        view = lib.papers.get(new)
        assert new != pid and view.note == "what I made of it"
        assert (view.title, view.authors, view.year, view.doi, view.venue) == (
            "Sparse attention at scale",
            ["Doe, Jane"],
            2024,
            "10.1/sparse",
            "ICML",
        )
        assert lib.trash.holds(pid)  # the deleted paper stays deleted
        assert lib.query("sparse").ids == [new]
        lib.imports.undo(change.detail.batch)
        assert lib.trash.holds(new) and lib.papers.get(new, trashed=True).note == "what I made of it"


def test_a_paper_deleted_for_good_leaves_its_number(tmp_path: Path) -> None:
    with Library.open(tmp_path / "lib") as lib:
        pid = _paper(lib)
        lib.papers.delete([pid])
        lib.trash.purge([pid])
        (new,) = lib.imports.note_as_new_paper(pid, "still mine").paper_ids
        assert lib.papers.get(new).title == f"Note kept from deleted paper {pid}"
        assert lib.papers.get(new).note == "still mine"


def test_it_is_never_merged_into_a_live_paper_with_the_same_doi(tmp_path: Path) -> None:
    with Library.open(tmp_path / "lib") as lib:
        pid = _paper(lib)
        lib.papers.delete([pid])
        lib.trash.restore([pid])  # another desk put it back meanwhile
        lib.papers.delete([pid])
        first = lib.imports.note_as_new_paper(pid, "one").paper_ids
        second = lib.imports.note_as_new_paper(pid, "two").paper_ids
        assert len(first) == len(second) == 1 and first != second
        assert {lib.papers.get(i).note for i in (*first, *second)} == {"one", "two"}
