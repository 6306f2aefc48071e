"""An edit sent with an id of its own is applied once (``Library.apply_once``, table applied_edit,
migration 0012): sent again with the same id it writes nothing and returns the Change of the
first time, whose undo then undoes what was applied. On both stores; the lost answer itself (the
connection dropped after the COMMIT) is in tests/core/test_lost_answer.py."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from desktop_app.core import change_json
from desktop_app.core.changelog.undo_data import HighlightId, HighlightRow, ListAdded, NoteKeptAsPaper
from desktop_app.core.errors import AlreadyApplied, LibraryError
from desktop_app.core.library import Library
from desktop_app.core.library_call import ChangeRef, DescribedEdit, LibraryCall
from desktop_app.core.records import ParseResult, Record
from desktop_app.core.store import tables as t
from desktop_app.core.values import Change, ChangeKind
from tests.helpers.pg_fixtures import BACKENDS, empty_library_on


@pytest.fixture(params=BACKENDS)
def lib(request: pytest.FixtureRequest, library_dir: Path) -> Iterator[Library]:
    """Three papers, on SQLite and on PostgreSQL (tests/helpers/pg_fixtures.py)."""
    for library in empty_library_on(request, library_dir):
        records = [Record(title=f"Paper {i} on lenses", abstract=f"Thin lenses focus light {i}.") for i in range(3)]
        library.imports.from_records([("t.bib", ParseResult("bibtex", records))])
        yield library


def _count(lib: Library, table) -> int:
    with lib.store.read() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def _ids(lib: Library) -> list[int]:
    return sorted(lib.query("", sort="added").ids)


def _sent(lib: Library, edit: DescribedEdit, edit_id: str):
    """The edit applied as the outbox sends it: read back from its journal's JSON."""
    again = DescribedEdit.from_json(json.loads(json.dumps(edit.to_json())))
    return lib.apply_once(edit_id, lambda: again.do(lib))


def test_a_highlight_sent_twice_is_added_once_and_undone(lib: Library) -> None:
    pid = _ids(lib)[0]
    edit = DescribedEdit(
        "Highlight",
        LibraryCall("highlights", "add", (pid, 0, 4, "yellow", "")),
        LibraryCall("highlights", "delete", (ChangeRef(("detail", "id")),)),
    )
    key = uuid.uuid4().hex
    first = _sent(lib, edit, key)
    again = _sent(lib, edit, key)  # the answer to the first was lost: sent again
    assert _count(lib, t.highlight) == 1
    assert again == first and again.detail == first.detail == HighlightId(first.detail_as(HighlightId).id)
    edit.undo(lib, again)
    assert _count(lib, t.highlight) == 0
    assert _count(lib, t.applied_edit) == 1
    # another id is another edit
    _sent(lib, edit, uuid.uuid4().hex)
    assert _count(lib, t.highlight) == 1


def test_list_adds_and_a_note_kept_as_a_paper_sent_twice_are_made_once(lib: Library) -> None:
    a, b, c = _ids(lib)
    lib.lists.create("To read")
    add = DescribedEdit(
        "Add",
        LibraryCall("lists", "add", ("To read", [a, b])),
        LibraryCall("lists", "remove", ("To read", ChangeRef(("detail", "added")))),
    )
    key = uuid.uuid4().hex
    first = _sent(lib, add, key)
    again = _sent(lib, add, key)
    assert [p for p, _, _ in lib.lists.items("To read")] == [a, b]
    assert again.detail == first.detail == ListAdded("To read", [a, b])  # not "nothing added"
    add.undo(lib, again)
    assert lib.lists.items("To read") == []

    lib.papers.delete([c])
    keep = DescribedEdit(
        "Keep note as a new paper",
        LibraryCall("imports", "note_as_new_paper", (c, "My note")),
        LibraryCall("imports", "undo", (ChangeRef(("detail", "batch")),)),
    )
    key = uuid.uuid4().hex
    live = len(_ids(lib))
    first = _sent(lib, keep, key)
    again = _sent(lib, keep, key)
    assert len(_ids(lib)) == live + 1  # one new paper, not two
    assert again.paper_ids == first.paper_ids and again.detail == first.detail
    assert isinstance(again.detail, NoteKeptAsPaper)
    keep.undo(lib, again)
    assert len(_ids(lib)) == live


def test_a_refused_edit_records_nothing_and_a_change_not_written_down_is_said(lib: Library) -> None:
    pid = _ids(lib)[0]
    key = uuid.uuid4().hex
    with pytest.raises(LibraryError, match="not a span"):
        lib.apply_once(key, lambda: lib.highlights.add(pid, 0, 10_000))
    assert _count(lib, t.applied_edit) == 0
    lib.apply_once(key, lambda: lib.highlights.add(pid, 0, 4))  # refused before: applied now
    assert _count(lib, t.highlight) == 1

    # a value with no JSON form: such a Change is recorded without it
    assert change_json.dumps(Change(ChangeKind.HIGHLIGHTS, detail=HighlightRow({"x": object()}))) is None
    key = uuid.uuid4().hex
    lib.apply_once(key, lambda: lib.papers.set_status([pid], "read"))
    with lib.store.write() as tx:  # as a transaction that could not write its Change down
        tx.conn.execute(t.applied_edit.update().where(t.applied_edit.c.id == key).values(change=None))
    with pytest.raises(AlreadyApplied, match="saved already"):
        lib.apply_once(key, lambda: lib.papers.set_status([pid], "unread"))
    assert lib.papers.get(pid).status == "read"


def test_the_writes_inside_are_logged_under_their_own_operation(lib: Library) -> None:
    pid = _ids(lib)[0]
    with lib.store.read() as conn:
        before = int(conn.execute(select(func.max(t.change_log.c.seq))).scalar() or 0)
    lib.apply_once(uuid.uuid4().hex, lambda: lib.tags.add([pid], ["optics"]))
    with lib.store.read() as conn:
        kinds = list(
            conn.execute(
                select(t.change_log.c.kind, t.change_log.c.paper_id).where(
                    t.change_log.c.seq > before, t.change_log.c.kind != "tag"
                )
            )
        )
    assert kinds == [("tags.add", pid)]


def test_every_kind_of_change_reads_back_equal(library_dir: Path) -> None:
    """What apply_once records: the Change, undo data included (tuples, int keys, times, nested shapes)."""
    with Library.open(library_dir) as lib:
        records = [Record(title=f"Paper {i} on lenses", abstract=f"Thin lenses focus light {i}.") for i in range(3)]
        lib.imports.from_records([("t.bib", ParseResult("bibtex", records))])
        a, b, c = _ids(lib)
        lib.lists.create("L")
        lib.lists.add("L", [a, b])
        hid = lib.highlights.add(a, 0, 4).detail_as(HighlightId).id
        lib.tags.add([a], ["x"])
        changes = [
            lib.papers.set_status([a, b], "read"),
            lib.papers.set_title(a, "A new title"),
            lib.papers.update_metadata(b, {"venue": "Optics", "year": "2020"}),
            lib.tags.add([b], ["y"]),
            lib.tags.merge("y", "x"),
            lib.tags.delete("x"),
            lib.highlights.delete(hid),
            lib.lists.remove("L", [b]),
            lib.lists.delete("L"),
            lib.duplicates.dismiss(a, c),
            lib.papers.delete([c]),
        ]
        for change in changes:
            text = change_json.dumps(change)
            assert text is not None, change
            again = change_json.loads(text)
            assert again == change and again.detail == change.detail, change
    for bad in ("[]", '{"kind": "papers", "detail": {"$shape": "Change"}}', '{"detail": {"$shape": "Merged"}}'):
        with pytest.raises(ValueError):
            change_json.loads(bad)
