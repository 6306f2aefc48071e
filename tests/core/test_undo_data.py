"""Undo data is typed, and the manager that made a change undoes it: each write's Change keeps
its own shape of undo data (core/changelog/undo_data.py), ``lib.undo(change)`` puts the library
back as it was, and the paths journals wrote when the undo data was a dict still resolve."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest
from sqlalchemy import Table, desc, select

from desktop_app.core.changelog import undo_data as u
from desktop_app.core.errors import LibraryError
from desktop_app.core.library import Library
from desktop_app.core.library_call import BadCall, ChangeRef, DescribedEdit
from desktop_app.core.store import tables as t
from desktop_app.core.values import Change, ChangeKind
from tests.helpers import undo_setups

# what a user sees of a library: the rows of these tables, with tags and lists by name (an undo
# may make a tag or a list again under a new id), when a row was written aside; not the look-up
# keys of paper_identity, which an edit of the metadata files and its undo leaves (derived data)
_TABLES: tuple[Table, ...] = (
    t.paper,
    t.tag,
    t.paper_tag,
    t.note,
    t.highlight,
    t.reading_list,
    t.reading_list_item,
    t.saved_search,
    t.distinct_pair,
    t.attachment,
)
_KEPT_IDS = {"paper", "highlight", "attachment"}  # the others' ids are not the user's


def _state(lib: Library) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the tables a user edits, as sorted tuples: a timestamp only as whether it is
    set (a paper in the trash), a softly removed attachment left out."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    with lib.store.read() as conn:
        tag_names = dict(conn.execute(select(t.tag.c.id, t.tag.c.name)).all())
        list_names = dict(conn.execute(select(t.reading_list.c.id, t.reading_list.c.name)).all())
        for table in _TABLES:
            stmt = select(table)
            if table is t.attachment:
                stmt = stmt.where(t.attachment.c.removed_at.is_(None))
            rows = []
            for row in conn.execute(stmt).mappings():
                values = dict(row)
                if table.name not in _KEPT_IDS:
                    values.pop("id", None)
                if "tag_id" in values:
                    values["tag_id"] = tag_names[values["tag_id"]]
                if "list_id" in values:
                    values["list_id"] = list_names[values["list_id"]]
                rows.append(tuple((k, True if isinstance(v, datetime) else v) for k, v in sorted(values.items())))
            out[table.name] = sorted(rows, key=repr)
    return out


def _ids(lib: Library, n: int) -> list[int]:
    return sorted(lib.query("").ids)[:n]


def _derived(lib: Library) -> int:
    with lib.store.read() as conn:
        return int(
            conn.execute(
                select(t.paper.c.id).where(t.paper.c.title_source == "derived").order_by(t.paper.c.id).limit(1)
            ).scalar_one()
        )


def _pdf(folder: Path) -> Path:
    path = folder / "paper.pdf"
    path.write_bytes(b"%PDF-1.4\n% a small file\n")
    return path


Setup = Callable[[Library, list[int], Path], None]
Edit = Callable[[Library, list[int], Path], Change]


_nothing, _tagged, _listed = undo_setups.nothing, undo_setups.tagged, undo_setups.listed


def _noted(lib: Library, ids: list[int], _tmp: Path) -> None:
    lib.notes.set(ids[0], "first thoughts")


def _highlighted(lib: Library, ids: list[int], _tmp: Path) -> None:
    abstract = lib.papers.get(ids[0]).abstract_text
    lib.highlights.add(ids[0], 0, min(12, len(abstract)), "yellow", "a start")


def _highlight_id(lib: Library, ids: list[int]) -> int:
    return lib.papers.get(ids[0]).highlights[0].id


def _trashed(lib: Library, ids: list[int], _tmp: Path) -> None:
    lib.papers.delete(ids[:2])


def _attached(lib: Library, ids: list[int], tmp: Path) -> None:
    lib.attachments.add(ids[0], _pdf(tmp))


def _attachment_id(lib: Library, ids: list[int]) -> int:
    return lib.attachments.for_paper(ids[0])[0].id


def _searched(lib: Library, _ids: list[int], _tmp: Path) -> None:
    lib.searches.save("mine", "status:unread")


# (name, what is there first, the edit, the undo data its Change keeps)
ROUND_TRIPS: list[tuple[str, Setup, Edit, type[u.UndoData]]] = [
    ("tags.add", _tagged, lambda lib, ids, _: lib.tags.add(ids[:4], ["undo/alpha", "fresh"]), u.TagsAdded),
    ("tags.remove", _tagged, lambda lib, ids, _: lib.tags.remove(ids[:4], ["undo/beta"]), u.TagsRemoved),
    ("tags.rename", _tagged, lambda lib, _ids, _: lib.tags.rename("undo", "done"), u.TagRenamed),
    ("tags.merge into a tag", _tagged, lambda lib, _ids, _: lib.tags.merge("undo/alpha", "undo/beta"), u.TagMerged),
    ("tags.merge into a new tag", _tagged, lambda lib, _ids, _: lib.tags.merge("undo/alpha", "gamma"), u.TagMerged),
    ("tags.recolor", _tagged, lambda lib, _ids, _: lib.tags.recolor("undo/alpha", "#ff0000"), u.TagRecolored),
    ("tags.delete", _tagged, lambda lib, _ids, _: lib.tags.delete("undo/alpha"), u.TagDeleted),
    ("papers.set_title", _nothing, lambda lib, ids, _: lib.papers.set_title(ids[0], "A title of mine"), u.TitleBefore),
    (
        "papers.update_metadata",
        _nothing,
        lambda lib, ids, _: lib.papers.update_metadata(ids[0], {"venue": "Undo Conference", "year": 1999}),
        u.MetadataBefore,
    ),
    ("papers.set_status", _nothing, lambda lib, ids, _: lib.papers.set_status(ids[:4], "read"), u.ColumnBefore),
    ("papers.set_rating", _nothing, lambda lib, ids, _: lib.papers.set_rating(ids[:4], 3), u.ColumnBefore),
    ("papers.set_decision", _nothing, lambda lib, ids, _: lib.papers.set_decision(ids[:4], "keep"), u.ColumnBefore),
    (
        "papers.decide_undecided",
        lambda lib, ids, _: lib.papers.set_decision(ids[:1], "skip") and None,
        lambda lib, ids, _: lib.papers.decide_undecided(ids[:4], "maybe"),
        u.ColumnBefore,
    ),
    ("papers.delete", _nothing, lambda lib, ids, _: lib.papers.delete(ids[:3]), u.Trashed),
    ("papers.restore", _trashed, lambda lib, ids, _: lib.papers.restore(ids[:2]), u.Restored),
    ("trash.restore", _trashed, lambda lib, ids, _: lib.trash.restore(ids[:2]), u.Restored),
    (
        "set_derived_titles",
        _nothing,
        lambda lib, _ids, _: lib.set_derived_titles({_derived(lib): "A derived title, derived again"}),
        u.TitlesBefore,
    ),
    ("notes.set", _noted, lambda lib, ids, _: lib.notes.set(ids[0], "second thoughts"), u.NoteBefore),
    ("notes.append", _noted, lambda lib, ids, _: lib.notes.append(ids[0], "and more"), u.NoteBefore),
    ("highlights.add", _nothing, lambda lib, ids, _: lib.highlights.add(ids[0], 0, 5, "blue", "c"), u.HighlightId),
    (
        "highlights.edit",
        _highlighted,
        lambda lib, ids, _: lib.highlights.edit(_highlight_id(lib, ids), color="green", comment="changed"),
        u.HighlightBefore,
    ),
    (
        "highlights.delete",
        _highlighted,
        lambda lib, ids, _: lib.highlights.delete(_highlight_id(lib, ids)),
        u.HighlightRow,
    ),
    ("lists.create", _nothing, lambda lib, _ids, _: lib.lists.create("New list"), u.ListCreated),
    (
        "lists.snapshot",
        _listed,
        lambda lib, ids, _: lib.lists.snapshot("Reading", "a search kept", ids[3:7]),
        u.ListSnapshotted,
    ),
    ("lists.rename", _listed, lambda lib, _ids, _: lib.lists.rename("Reading", "Read"), u.ListRenamed),
    ("lists.describe", _listed, lambda lib, _ids, _: lib.lists.describe("Reading", "other"), u.DescriptionBefore),
    ("lists.delete", _listed, lambda lib, _ids, _: lib.lists.delete("Reading"), u.ListSnapshot),
    ("lists.add", _listed, lambda lib, ids, _: lib.lists.add("Reading", ids[3:8]), u.ListAdded),
    ("lists.remove", _listed, lambda lib, ids, _: lib.lists.remove("Reading", ids[1:3]), u.ListSnapshot),
    ("lists.move", _listed, lambda lib, ids, _: lib.lists.move("Reading", ids[0], 3), u.PositionBefore),
    (
        "lists.set_item_note",
        _listed,
        lambda lib, ids, _: lib.lists.set_item_note("Reading", ids[1], "changed"),
        u.ItemNoteBefore,
    ),
    ("lists.reorder", _listed, lambda lib, ids, _: lib.lists.reorder("Reading", ids[4::-1]), u.OrderBefore),
    ("lists.move_many", _listed, lambda lib, ids, _: lib.lists.move_many("Reading", ids[:2], 3), u.OrderBefore),
    ("searches.save new", _nothing, lambda lib, _ids, _: lib.searches.save("new", "status:read"), u.SearchSaved),
    ("searches.save over", _searched, lambda lib, _ids, _: lib.searches.save("mine", "status:read"), u.SearchSaved),
    ("searches.delete", _searched, lambda lib, _ids, _: lib.searches.delete("mine"), u.SearchBefore),
    ("duplicates.merge", _tagged, lambda lib, ids, _: lib.duplicates.merge(ids[2], ids[3]), u.Merged),
    ("duplicates.dismiss", _nothing, lambda lib, ids, _: lib.duplicates.dismiss(ids[1], ids[0]), u.Dismissed),
    (
        "duplicates.undismiss",
        lambda lib, ids, _: lib.duplicates.dismiss(ids[0], ids[1]) and None,
        lambda lib, ids, _: lib.duplicates.undismiss(ids[0], ids[1]),
        u.Undismissed,
    ),
    ("attachments.add", _nothing, lambda lib, ids, tmp: lib.attachments.add(ids[0], _pdf(tmp)), u.AttachmentAdded),
    (
        "attachments.remove",
        _attached,
        lambda lib, ids, _: lib.attachments.remove(_attachment_id(lib, ids)),
        u.AttachmentRemoved,
    ),
]


@pytest.mark.parametrize(("setup", "edit", "shape"), [r[1:] for r in ROUND_TRIPS], ids=[r[0] for r in ROUND_TRIPS])
def test_an_edit_keeps_its_shape_of_undo_data_and_lib_undo_puts_the_library_back(
    seed_library: Library, tmp_path: Path, setup: Setup, edit: Edit, shape: type[u.UndoData]
) -> None:
    lib = seed_library
    ids = _ids(lib, 10)
    setup(lib, ids, tmp_path)
    before = _state(lib)
    change = edit(lib, ids, tmp_path)
    assert type(change.detail) is shape
    assert _state(lib) != before  # the edit changed something
    undone = lib.undo(change)
    assert isinstance(undone, Change)
    assert _state(lib) == before


def test_an_undo_is_logged_as_the_method_that_reverses_the_edit(seed_library: Library) -> None:
    lib = seed_library
    ids = _ids(lib, 3)
    change = lib.tags.add(ids, ["logged"])
    lib.undo(change)
    with lib.store.read() as conn:
        kind = conn.execute(select(t.change_log.c.kind).order_by(desc(t.change_log.c.seq)).limit(1)).scalar_one()
    assert kind == "tags.set_links"
    assert lib.papers.get(ids[0]).tags == []


def test_what_cannot_be_undone_is_refused(seed_library: Library, tmp_path: Path) -> None:
    lib = seed_library
    ids = _ids(lib, 6)
    lib.papers.delete(ids[:1])
    purged = lib.trash.purge(ids[:1])
    assert purged.detail == u.Purged(files=0) and purged.detail.purged
    merged = lib.duplicates.merge(ids[1], ids[2])
    unmerged = lib.duplicates.undo_merge(merged.detail_as(u.Merged).merge_id)
    assert unmerged.detail == u.MergeUndone(merged.detail_as(u.Merged).merge_id, ids[1], ids[2])
    assert unmerged.detail.restored and not unmerged.detail.deleted
    aid = lib.attachments.add(ids[3], _pdf(tmp_path)).detail_as(u.AttachmentAdded).attachment_id
    hard = lib.attachments.remove(aid, hard=True)
    assert hard.detail == u.AttachmentRemoved(aid, hard=True)
    links = lib.tags.set_links([(ids[4], "x")], present=True)
    assert links.detail is u.NOTHING
    for change in (purged, unmerged, hard, links):
        with pytest.raises(LibraryError, match="cannot be undone"):
            lib.undo(change)


def test_a_note_saved_over_another_programs_text_keeps_it_as_the_conflict(seed_library: Library) -> None:
    lib = seed_library
    pid = _ids(lib, 1)[0]
    assert lib.notes.set(pid, "start").detail == u.NoteBefore(old="", conflict=None)
    assert lib.notes.set(pid, "start").detail is u.NOTHING  # the same text: nothing to undo
    mine = lib.notes.set(pid, "mine", base="start")
    assert mine.detail == u.NoteBefore(old="start", conflict=None)
    lib.notes.set(pid, "theirs")  # another program
    change = lib.notes.set(pid, "mine again", base="mine")
    assert change.detail == u.NoteBefore(old="theirs", conflict="theirs")
    lib.undo(change)
    assert lib.papers.get(pid).note == "theirs"


def test_a_note_kept_as_a_new_paper_and_an_undone_import(seed_library: Library) -> None:
    lib = seed_library
    pid = _ids(lib, 1)[0]
    lib.papers.delete([pid])
    kept = lib.imports.note_as_new_paper(pid, "a note")
    assert isinstance(kept.detail, u.NoteKeptAsPaper) and kept.detail.kept_from == pid
    undone = lib.undo(kept)  # the new paper to the trash
    assert undone.detail == u.ImportUndone(kept.detail.batch or 0) and undone.detail.deleted
    assert not lib.query("").ids or kept.paper_ids[0] not in lib.query("").ids
    with pytest.raises(LibraryError, match="cannot be undone"):
        lib.undo(undone)


def test_the_papers_moved_are_told_apart_from_other_edits(seed_library: Library) -> None:
    lib = seed_library
    ids = _ids(lib, 2)
    assert isinstance(lib.papers.delete(ids).detail, u.PapersMoved)
    assert isinstance(lib.trash.restore(ids).detail, u.PapersMoved)
    assert not isinstance(lib.papers.set_status(ids, "read").detail, u.PapersMoved)
    assert not isinstance(lib.tags.add(ids, ["x"]).detail, u.PapersMoved)


def test_detail_as_names_the_shape_it_found(seed_library: Library) -> None:
    change = seed_library.tags.add(_ids(seed_library, 1), ["x"])
    assert change.detail_as(u.TagLinks).links == change.detail_as(u.TagsAdded).links
    with pytest.raises(TypeError, match="keeps TagsAdded, not TagDeleted"):
        change.detail_as(u.TagDeleted)


# ---- the journal's paths into the undo data ----------------------------------------------------
def test_the_paths_earlier_journals_wrote_read_the_same_values(seed_library: Library) -> None:
    """Each ``("detail", key, ...)`` the window's described edits use (gui/editing.py), against the
    typed undo data: the value the dict held under that key."""
    lib = seed_library
    ids = _ids(lib, 5)
    title = lib.papers.get(ids[0]).title
    lib.lists.create("L")
    lib.lists.add("L", ids[:3])
    lib.lists.set_item_note("L", ids[0], "n")
    hid = lib.highlights.add(ids[0], 0, 5, "yellow", "c").detail_as(u.HighlightId).id
    lib.searches.save("s", "status:read")
    cases: list[tuple[Change, tuple[str | int, ...], object]] = [
        (lib.tags.add(ids[:2], ["t"]), ("detail", "links"), [(ids[0], "t"), (ids[1], "t")]),
        (lib.papers.set_status(ids[:1], "read"), ("detail", "old"), {ids[0]: {"status": "unread"}}),
        (lib.papers.set_title(ids[0], "New"), ("detail", "old", 0), title),
        (lib.papers.set_title(ids[0], "Newer"), ("detail", "old", 1), "edited"),
        (lib.highlights.edit(hid, comment="d"), ("detail", "comment"), "c"),
        (lib.highlights.edit(hid, color="blue"), ("detail", "id"), hid),
        (lib.lists.add("L", ids[3:5]), ("detail", "added"), ids[3:5]),
        (lib.lists.move("L", ids[0], 2), ("detail", "old"), 0),
        (lib.lists.set_item_note("L", ids[0], "m"), ("detail", "old"), "n"),
        (lib.lists.snapshot("L", "d", ids[:2]), ("detail", "name"), "L (2)"),
        (lib.lists.remove("L", ids[:1]), ("detail", "snapshot", "name"), "L"),
        (lib.tags.recolor("t", "#00ff00"), ("detail", "old_color"), ""),
        (lib.searches.delete("s"), ("detail", "old"), "status:read"),
        (lib.tags.rename("t", "u"), ("detail", "renamed"), {"t": "u"}),
        (lib.highlights.delete(hid), ("detail", "row", "id"), hid),
        (lib.tags.add(ids[:1], ["v"]), ("paper_ids",), (ids[0],)),
        (lib.tags.add(ids[:1], ["w"]), ("detail", "links", 0, 1), "w"),
    ]
    for change, path, value in cases:
        assert ChangeRef(path).resolve(change) == value, path
    change = lib.tags.delete("u")
    assert ChangeRef(()).resolve(change) is change


def test_a_journal_an_earlier_version_wrote_is_done_and_undone(seed_library: Library) -> None:
    """The JSON of an edit journaled when the undo data was a dict: read back, done, undone."""
    lib = seed_library
    ids = _ids(lib, 2)
    written = {
        "text": "Add tag from-disk",
        "do": {"manager": "tags", "method": "add", "args": [ids, ["from-disk"]], "kwargs": {}},
        "undo": {
            "manager": "tags",
            "method": "set_links",
            "args": [{"$change": ["detail", "links"]}],
            "kwargs": {"present": False},
        },
    }
    edit = DescribedEdit.from_json(json.loads(json.dumps(written)))
    change = edit.do(lib)
    assert lib.papers.get(ids[0]).tags == ["from-disk"]
    edit.undo(lib, change)
    assert lib.papers.get(ids[0]).tags == []
    assert edit.to_json() == written  # written back the same


def test_a_path_reads_values_never_privates_or_methods() -> None:
    change = Change(ChangeKind.TAGS, (1,), ("t",), detail=u.TagsAdded([(1, "t")]))
    for path in (("detail", "__class__"), ("detail", "nope"), ("detail_as",), ("detail", "_private"), ("__init__",)):
        with pytest.raises(BadCall):
            ChangeRef(path).resolve(change)
    with pytest.raises(BadCall):
        ChangeRef(("detail",)).resolve(None)
    assert ChangeRef(("detail", "links", 0, 0)).resolve(change) == 1
    assert ChangeRef(("kind",)).resolve(change) == "tags"


# ---- deeply immutable ------------------------------------------------------------------------
def _mutable_parts(value: object, at: str = "detail") -> list[str]:
    """Where a list, dict or set (or a dataclass not frozen) hides in ``value``."""
    if isinstance(value, list | dict | set | bytearray):
        return [at]
    if isinstance(value, MappingProxyType):
        return [p for k, v in value.items() for p in _mutable_parts(v, f"{at}[{k!r}]")]
    if isinstance(value, tuple):
        return [p for i, v in enumerate(value) for p in _mutable_parts(v, f"{at}[{i}]")]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if not type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
            return [at]
        return [p for f in dataclasses.fields(value) for p in _mutable_parts(getattr(value, f.name), f"{at}.{f.name}")]
    return []


def test_the_undo_data_of_every_edit_holds_no_mutable_container(seed_library: Library) -> None:
    lib = seed_library
    ids = _ids(lib, 8)
    lib.tags.add(ids[:3], ["a"])
    lib.tags.add(ids[2:5], ["b"])
    lib.lists.create("L")
    lib.lists.add("L", ids[:4])
    lib.lists.set_item_note("L", ids[1], "n")
    abstract = lib.papers.get(ids[0]).abstract_text
    hid = lib.highlights.add(ids[0], 0, min(5, len(abstract)), "yellow", "c").detail_as(u.HighlightId).id
    changes = [
        lib.tags.add(ids[:4], ["c"]),
        lib.tags.remove(ids[:2], ["c"]),
        lib.papers.set_status(ids[:3], "read"),
        lib.papers.update_metadata(ids[0], {"authors": ["Lin, Ada", "Ng, Bo"], "venue": "V"}),
        lib.set_derived_titles({_derived(lib): "A derived title, again"}),
        lib.highlights.delete(hid),
        lib.lists.add("L", ids[4:6]),
        lib.lists.reorder("L", ids[5::-1]),
        lib.lists.remove("L", ids[1:3]),
        lib.lists.snapshot("L", "kept", ids[:3]),
        lib.tags.merge("a", "b"),
        lib.tags.delete("b"),
        lib.lists.delete("L"),
    ]
    shapes = {type(c.detail) for c in changes}
    assert {u.TagsAdded, u.ColumnBefore, u.MetadataBefore, u.TitlesBefore, u.HighlightRow, u.ListSnapshot} <= shapes
    for change in changes:
        assert _mutable_parts(change.detail) == [], type(change.detail).__name__
    merged = changes[-3].detail_as(u.TagMerged).merge
    assert isinstance(merged.tagged, tuple) and set(merged.tagged) == set(ids[:3])


def test_mutating_the_undo_data_fails_and_its_makers_containers_are_not_kept() -> None:
    links = [(1, "t"), (2, "t")]
    added = u.TagsAdded(links)
    links.append((3, "t"))  # the caller's list: a copy was frozen
    assert added.links == ((1, "t"), (2, "t"))
    with pytest.raises(AttributeError):
        added.links.append((4, "t"))  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        added.links[0] = (5, "t")  # type: ignore[index]
    old = {7: {"status": "unread"}}
    column = u.ColumnBefore("status", "read", old)
    old[7]["status"] = "read"
    assert column.old[7]["status"] == "unread"
    with pytest.raises(TypeError):
        column.old[7]["status"] = "read"  # type: ignore[index]
    with pytest.raises(TypeError):
        column.old[8] = {}  # type: ignore[index]
    snapshot = u.ListSnapshot({"name": "L", "description": "", "items": [(1, 0, "n")]})
    with pytest.raises(AttributeError):
        snapshot.snapshot["items"].append((2, 1, ""))
    with pytest.raises(dataclasses.FrozenInstanceError):
        snapshot.snapshot = {}  # type: ignore[misc]
    merge = u.TagMerge(u.TagRow(1, "a", ""), "b", False, [1, 2], [2])
    with pytest.raises(AttributeError):
        merge.gained.append(3)  # type: ignore[attr-defined]
    assert u.MetadataBefore({"authors": ["Lin, Ada"]}, ["authors"]) == u.MetadataBefore(
        {"authors": ("Lin, Ada",)}, ("authors",)
    )


def test_a_journal_path_reads_plain_values_through_tuples_and_read_only_mappings() -> None:
    snapshot = u.ListSnapshot({"name": "L", "description": "", "items": [(4, 0, "n"), (5, 1, "")]})
    change = Change(ChangeKind.LISTS, (4, 5), detail=snapshot)
    assert ChangeRef(("detail", "snapshot", "items", 1, 0)).resolve(change) == 5
    items = ChangeRef(("detail", "snapshot", "items")).resolve(change)
    assert type(items) is list and items == [(4, 0, "n"), (5, 1, "")]
    plain = ChangeRef(("detail", "snapshot")).resolve(change)
    assert type(plain) is dict and type(plain["items"]) is list
    plain["items"].append((6, 2, ""))  # a copy: the undo data stays as it was
    assert len(change.detail_as(u.ListSnapshot).snapshot["items"]) == 2
    column = Change(ChangeKind.PAPERS, (7,), detail=u.ColumnBefore("status", "read", {7: {"status": "unread"}}))
    old = ChangeRef(("detail", "old")).resolve(column)
    assert type(old) is dict and type(old[7]) is dict and old == {7: {"status": "unread"}}
    assert ChangeRef(("paper_ids",)).resolve(column) == (7,)  # a Change's own fields as they are


def _log_after(lib: Library, seq: int, kind: str) -> dict[int, dict[str, object]]:
    """The change log's ``kind`` rows after ``seq``: their stored detail (JSON) per paper."""
    c = t.change_log.c
    with lib.store.read() as conn:
        rows = conn.execute(select(c.paper_id, c.detail).where(c.seq > seq, c.kind == kind).order_by(c.seq)).all()
    return {int(pid): json.loads(detail) for pid, detail in rows}


def _head(lib: Library) -> int:
    with lib.store.read() as conn:
        return int(conn.execute(select(t.change_log.c.seq).order_by(desc(t.change_log.c.seq)).limit(1)).scalar() or 0)


def test_the_change_log_stores_the_values_the_typed_undo_data_holds_and_its_undo_writes_them_back(
    seed_library: Library,
) -> None:
    """The change log keeps, as JSON, what an edit changed (the statistics' rows); read back, they
    are the values the Change's read-only undo data holds, and its undo, given those read-only
    values, logs them back."""
    lib = seed_library
    ids = _ids(lib, 3)
    lib.papers.set_rating(ids[:1], 2)
    seq = _head(lib)
    change = lib.papers.set_rating(ids, 4)
    old = change.detail_as(u.ColumnBefore).old
    assert isinstance(old, MappingProxyType) and isinstance(old[ids[0]], MappingProxyType)
    logged = _log_after(lib, seq, "rating")
    assert logged == {pid: {"old": old[pid]["rating"], "new": 4} for pid in ids}
    seq = _head(lib)
    lib.undo(change)
    assert _log_after(lib, seq, "rating") == {pid: {"old": 4, "new": old[pid]["rating"]} for pid in ids}
    assert [lib.papers.get(pid).rating for pid in ids] == [2, 0, 0]

    seq = _head(lib)
    tagged = lib.tags.add(ids[:2], ["logged"])
    links = tagged.detail_as(u.TagsAdded).links
    assert links == tuple((pid, "logged") for pid in ids[:2])
    assert _log_after(lib, seq, "tag") == {pid: {"added": name} for pid, name in links}
    seq = _head(lib)
    lib.undo(tagged)
    assert _log_after(lib, seq, "tag") == {pid: {"removed": name} for pid, name in links}
