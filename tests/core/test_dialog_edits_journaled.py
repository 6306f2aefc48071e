"""The dialogs' edits told as data, so that they can wait in the outbox's journal for a shared
library's server like the window's others: metadata (with the fields it started from), derived
titles written again, a duplicate merged or set apart, a file attached or removed. Each goes
through JSON as the journal writes it, applies in one call, and its undo puts the library back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_app.core.changelog.undo_data import AttachmentRef
from desktop_app.core.errors import LibraryError, MetadataConflict
from desktop_app.core.library import Library
from desktop_app.core.library_call import BadCall, ChangeRef, DescribedEdit, LibraryCall
from desktop_app.core.records import ParseResult, Record


def _journaled(edit: DescribedEdit) -> DescribedEdit:
    """The edit as the next window reads it back from the journal."""
    again = DescribedEdit.from_json(json.loads(json.dumps(edit.to_json())))
    assert again == edit
    return again


def _library(folder: Path, records: list[Record]) -> tuple[Library, list[int]]:
    lib = Library.open(folder)
    change = lib.imports.from_records([("t.bib", ParseResult("bibtex", records))])
    return lib, sorted(change.paper_ids)


def test_a_metadata_edit_keeps_its_fields_and_base_through_the_journal(library_dir: Path) -> None:
    lib, (pid,) = _library(library_dir, [Record(title="Lenses", abstract="On lenses.", year=2020)])
    with lib:
        changes: dict[str, object] = {"venue": "Optics Letters", "authors": ["Lin, Ada"], "year": "2021", "doi": ""}
        base: dict[str, object] = {"venue": "", "authors": [], "year": "2020", "doi": ""}
        edit = _journaled(
            DescribedEdit(
                "Edit metadata",
                LibraryCall("papers", "update_metadata", (pid, changes, base)),
                LibraryCall("papers", "update_metadata", (pid, ChangeRef(("detail", "old")))),
            )
        )
        assert edit.do.args[1] == changes and edit.do.args[2] == base
        change = edit.do(lib)
        paper = lib.papers.get(pid)
        assert (paper.venue, paper.authors, paper.year) == ("Optics Letters", ["Lin, Ada"], 2021)
        edit.undo(lib, change)
        paper = lib.papers.get(pid)
        assert (paper.venue, paper.authors, paper.year) == (None, [], 2020)

        # the base goes with it: a field changed meanwhile elsewhere is a conflict on the replay
        lib.papers.update_metadata(pid, {"venue": "Applied Optics"})
        with pytest.raises(MetadataConflict) as caught:
            edit.do(lib)
        assert caught.value.paper_id == pid and set(caught.value.fields) == {"venue"}
        assert lib.papers.get(pid).venue == "Applied Optics"  # nothing written


def test_derived_titles_written_again_go_through_the_journal_keyed_by_text(library_dir: Path) -> None:
    lib, ids = _library(
        library_dir,
        [Record(title="", abstract=f"We study lenses of kind {n} and their focal lengths.") for n in range(3)],
    )
    with lib:
        a, b, _c = ids
        before = {pid: lib.papers.get(pid).title for pid in ids}
        assert lib.papers.get(a).title_source == "derived"
        edit = _journaled(
            DescribedEdit(
                "Re-derive titles",
                LibraryCall("papers", "set_derived_titles", ({str(a): "Lenses A", str(b): "Lenses B"},)),
                LibraryCall("papers", "set_derived_titles", (ChangeRef(("detail", "old")),)),
            )
        )
        change = edit.do(lib)
        assert set(change.paper_ids) == {a, b}
        assert (lib.papers.get(a).title, lib.papers.get(b).title) == ("Lenses A", "Lenses B")
        edit.undo(lib, change)
        assert {pid: lib.papers.get(pid).title for pid in ids} == before


def test_a_merge_and_a_dismissal_go_through_the_journal(library_dir: Path) -> None:
    lib, (a, b, c) = _library(
        library_dir,
        [
            Record(title="Lenses", abstract="On lenses.", venue="Optics"),
            Record(title="Lenses (preprint)", abstract="On lenses."),
            Record(title="Mirrors", abstract="On mirrors."),
        ],
    )
    with lib:
        lib.tags.add([b], ["preprint"])
        merge = _journaled(
            DescribedEdit(
                "Merge duplicate",
                LibraryCall("duplicates", "merge", (a, b, {"title": "other"})),
                LibraryCall("duplicates", "undo_merge", (ChangeRef(("detail", "merge_id")),)),
            )
        )
        change = merge.do(lib)
        assert lib.papers.get(a).title == "Lenses (preprint)" and "preprint" in lib.papers.get(a).tags
        assert b not in lib.query("").ids
        merge.undo(lib, change)
        assert lib.papers.get(a).title == "Lenses" and b in lib.query("").ids

        dismiss = _journaled(
            DescribedEdit(
                "Not duplicates",
                LibraryCall("duplicates", "dismiss", (c, a)),
                LibraryCall("duplicates", "undismiss", (c, a)),
            )
        )
        change = dismiss.do(lib)
        assert lib.duplicates.dismissed() == [(a, c)]
        dismiss.undo(lib, change)
        assert lib.duplicates.dismissed() == []


@pytest.mark.parametrize("mode", ["copy", "link"])
def test_a_file_attached_and_removed_goes_through_the_journal(library_dir: Path, tmp_path: Path, mode: str) -> None:
    lib, (pid,) = _library(library_dir, [Record(title="Lenses", abstract="On lenses.")])
    pdf = tmp_path / "elsewhere" / "lenses.pdf"
    pdf.parent.mkdir()
    pdf.write_bytes(b"%PDF-1.4 lenses")
    with lib:
        attach = _journaled(
            DescribedEdit(
                "Attach lenses.pdf",
                LibraryCall("attachments", "add", (pid, str(pdf)), {"mode": mode}),
                LibraryCall("attachments", "remove", (ChangeRef(("detail", "attachment_id")),)),
            )
        )
        change = attach.do(lib)
        (shown,) = lib.attachments.for_paper(pid)
        assert shown.kind == mode and shown.exists and shown.location is not None
        assert (shown.location == pdf) == (mode == "link")
        attach.undo(lib, change)
        assert lib.attachments.for_paper(pid) == []

        aid = change.detail_as(AttachmentRef).attachment_id
        lib.attachments.restore(aid)
        remove = _journaled(
            DescribedEdit(
                "Remove attached file lenses.pdf",
                LibraryCall("attachments", "remove", (aid,)),
                LibraryCall("attachments", "restore", (aid,)),
            )
        )
        change = remove.do(lib)
        assert lib.attachments.for_paper(pid) == []
        remove.undo(lib, change)
        assert [v.id for v in lib.attachments.for_paper(pid)] == [aid]

        # the file gone by the time the server is back: said, nothing attached
        pdf.unlink()
        with pytest.raises(LibraryError, match="not a file that can be attached"):
            attach.do(lib)


def test_a_copy_staged_while_the_server_is_away_is_attached_then_removed(library_dir: Path, tmp_path: Path) -> None:
    lib, (pid, gone) = _library(
        library_dir, [Record(title="Lenses", abstract="On lenses."), Record(title="Mirrors", abstract="On mirrors.")]
    )
    pdf = tmp_path / "lenses.pdf"
    pdf.write_bytes(b"%PDF-1.4 lenses")
    with lib:
        staged = lib.attachments.stage(pdf)
        assert staged.parent.parent == library_dir / "outbox" / "attachments" and staged.name == "lenses.pdf"
        pdf.unlink()  # the original may go: the copy is the library's
        attach = _journaled(
            DescribedEdit(
                "Attach lenses.pdf",
                LibraryCall("attachments", "add_staged", (pid, str(staged))),
                LibraryCall("attachments", "remove", (ChangeRef(("detail", "attachment_id")),)),
            )
        )
        change = attach.do(lib)
        [shown] = lib.attachments.for_paper(pid)
        assert shown.kind == "copy" and shown.exists and shown.location.read_bytes() == b"%PDF-1.4 lenses"
        assert not staged.exists() and not staged.parent.exists()
        attach.undo(lib, change)
        assert lib.attachments.for_paper(pid) == [] and shown.location.exists()  # a soft removal

        # refused when sent (its paper deleted meanwhile): said, and the staged copy goes too
        again = lib.attachments.stage(shown.location)
        lib.papers.delete([gone])
        with pytest.raises(LibraryError):
            lib.attachments.add_staged(gone, again)
        assert not again.exists()
        # only a copy staged in this library's folder is attached (and removed)
        with pytest.raises(LibraryError, match="not a copy staged"):
            lib.attachments.add_staged(pid, shown.location)
        assert shown.location.exists()


def test_the_new_managers_are_callable_and_others_still_refused() -> None:
    for manager in ("duplicates", "attachments"):
        LibraryCall.from_json({"manager": manager, "method": "add", "args": [], "kwargs": {}})
    with pytest.raises(BadCall):
        LibraryCall.from_json({"manager": "exports", "method": "to_file", "args": [], "kwargs": {}})
    with pytest.raises(BadCall):
        LibraryCall("attachments", "_view")
    # ids as JSON keys are text: an edit holding numbers as keys is refused before it is journaled
    with pytest.raises(BadCall):
        LibraryCall("papers", "set_derived_titles", ({1: "A title"},)).to_json()
