"""The window's compound edits told as data, so that they can wait in the outbox's journal for a
shared library's server: a topic decided, a tag deleted, a search saved or snapshotted, a note
kept as a new paper, papers restored from the trash. Each goes through JSON (as the journal
writes it), applies in one call, and its undo (from the Change it returned) puts the library back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_app.core.errors import LibraryError
from desktop_app.core.library import Library
from desktop_app.core.library_call import ChangeRef, DescribedEdit, LibraryCall
from desktop_app.core.records import ParseResult, Record


def _journaled(edit: DescribedEdit) -> DescribedEdit:
    """The edit as the next window reads it back from the journal."""
    again = DescribedEdit.from_json(json.loads(json.dumps(edit.to_json())))
    assert again == edit
    return again


def _run(lib: Library, edit: DescribedEdit):
    edit = _journaled(edit)
    change = edit.do(lib)
    # the Change goes through JSON too: a value the undo reads must survive it
    return change, (lambda: edit.undo(lib, change))


def _live(lib: Library) -> set[int]:
    from sqlalchemy import select

    from desktop_app.core.store import tables as t

    with lib.store.read() as conn:
        return set(conn.execute(select(t.paper.c.id).where(t.paper.c.deleted_at.is_(None))).scalars())


def _library(folder: Path, n: int = 5) -> tuple[Library, list[int]]:
    lib = Library.open(folder)
    lib.imports.from_records(
        [
            (
                "t.bib",
                ParseResult(
                    "bibtex", [Record(title=f"Paper {i} on optics", abstract=f"Lenses {i}.") for i in range(n)]
                ),
            )
        ]
    )
    return lib, sorted(_live(lib))


def test_a_topic_decided_decides_only_its_live_undecided_papers(library_dir: Path) -> None:
    lib, ids = _library(library_dir)
    with lib:
        a, b, c, d, _e = ids
        lib.papers.set_decision([b], "keep")
        lib.papers.delete([c])
        change, undo = _run(
            lib,
            DescribedEdit(
                "Decide topic",
                LibraryCall("papers", "decide_undecided", ([a, b, c, d], "skip")),
                LibraryCall("topics", "undo_decide", (ChangeRef(),)),
            ),
        )
        assert change.paper_ids == (a, d)
        rows = lib.papers.rows([a, b, d])
        assert [rows[i].decision for i in (a, b, d)] == ["skip", "keep", "skip"]
        undo()
        rows = lib.papers.rows([a, b, d])
        assert [rows[i].decision for i in (a, b, d)] == [None, "keep", None]
        with pytest.raises(LibraryError):
            lib.papers.decide_undecided([a], None)  # type: ignore[arg-type]


def test_a_deleted_tag_comes_back_with_its_color_and_papers_even_unused(library_dir: Path) -> None:
    lib, ids = _library(library_dir)
    with lib:
        lib.tags.add(ids[:2], ["optics/lenses"])
        lib.tags.recolor("optics/lenses", "#1f77b4")
        lib.papers.delete([ids[1]])  # in the trash: its link comes back too
        lib.tags.add([ids[2]], ["unused"])
        lib.tags.recolor("unused", "#ff0000")
        lib.tags.remove([ids[2]], ["unused"])  # colored: it stays with no paper
        for name, papers in (("optics/lenses", {ids[0], ids[1]}), ("unused", set())):
            change, undo = _run(
                lib,
                DescribedEdit(
                    "Delete tag",
                    LibraryCall("tags", "delete", (name,)),
                    LibraryCall("tags", "undelete", (ChangeRef(),)),
                ),
            )
            assert name not in {tag.name for tag in lib.tags.all()}
            back = undo()
            tags = {tag.name: tag for tag in lib.tags.all()}
            assert tags[name].color == ("#1f77b4" if papers else "#ff0000")
            assert set(back.paper_ids) == papers
        assert "optics/lenses" in lib.papers.rows([ids[0]])[ids[0]].tags
        lib.trash.restore([ids[1]])
        assert "optics/lenses" in lib.papers.rows([ids[1]])[ids[1]].tags


def test_a_saved_search_undone_is_gone_or_its_old_query_again(library_dir: Path) -> None:
    lib, _ids = _library(library_dir)
    with lib:
        save = DescribedEdit(
            "Save search",
            LibraryCall("searches", "save", ("Optics", "lenses")),
            LibraryCall("searches", "unsave", (ChangeRef(),)),
        )
        _change, undo = _run(lib, save)
        assert dict(lib.searches.all()) == {"Optics": "lenses"}
        undo()
        assert lib.searches.all() == []
        lib.searches.save("Optics", "optics")
        _change, undo = _run(lib, save)
        assert dict(lib.searches.all()) == {"Optics": "lenses"}
        undo()
        assert dict(lib.searches.all()) == {"Optics": "optics"}


def test_a_snapshot_takes_a_free_name_keeps_the_order_and_passes_over_the_deleted(library_dir: Path) -> None:
    lib, ids = _library(library_dir)
    with lib:
        lib.lists.create("Optics")
        lib.papers.delete([ids[2]])
        order = [ids[3], ids[0], ids[2], ids[1]]
        change, undo = _run(
            lib,
            DescribedEdit(
                "Snapshot search to list",
                LibraryCall("lists", "snapshot", ("Optics", "Snapshot of the search “lenses”", order)),
                LibraryCall("lists", "delete", (ChangeRef(("detail", "name")),)),
            ),
        )
        assert change.detail.name == "Optics (2)"
        assert [pid for pid, _pos, _note in lib.lists.items("Optics (2)")] == [ids[3], ids[0], ids[1]]
        undo()
        assert [info.name for info in lib.lists.all()] == ["Optics"]


def test_a_note_kept_as_a_new_paper_and_papers_restored_are_edits_of_the_journal(library_dir: Path) -> None:
    lib, ids = _library(library_dir)
    with lib:
        lib.papers.delete([ids[0]])
        change, undo = _run(
            lib,
            DescribedEdit(
                "Keep note as a new paper",
                LibraryCall("imports", "note_as_new_paper", (ids[0], "What I typed")),
                LibraryCall("imports", "undo", (ChangeRef(("detail", "batch")),)),
            ),
        )
        (new,) = change.paper_ids
        assert lib.notes.text(new) == "What I typed"
        undo()
        assert new not in _live(lib)
        _change, undo = _run(
            lib,
            DescribedEdit(
                "Restore",
                LibraryCall("trash", "restore", ([ids[0]],)),
                LibraryCall("papers", "delete", ([ids[0]],)),
            ),
        )
        assert ids[0] in _live(lib)
        undo()
        assert ids[0] not in _live(lib)
