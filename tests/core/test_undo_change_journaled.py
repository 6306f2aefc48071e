"""A described edit whose undo is ``UNDO_CHANGE`` (``lib.undo`` of the Change its do-call
returned) goes through the journal's JSON and undoes each edit the window and its dialogs make
exactly as the explicit undo they named before did; journals written in that earlier form still
read and replay."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from desktop_app.core.library import Library
from desktop_app.core.library_call import UNDO_CHANGE, BadCall, ChangeRef, DescribedEdit, LibraryCall, UndoChange
from desktop_app.core.records import ParseResult, Record
from desktop_app.core.store import outbox_journal
from desktop_app.core.values import Change
from tests.core.test_undo_data import _state
from tests.helpers import undo_setups

_RANDOM = {"uid"}  # a value each library draws for itself


def _alike(lib: Library) -> dict[str, list[tuple[object, ...]]]:
    """What a user sees of the library (tests/core/test_undo_data.py), but the values two
    libraries made alike still draw apart."""
    return {
        table: [tuple(kv for kv in row if kv[0] not in _RANDOM) for row in rows] for table, rows in _state(lib).items()
    }


def _call(manager: str, method: str, *args: object, **kwargs: object) -> LibraryCall:
    return LibraryCall(manager, method, args, kwargs)


def _ref(*path: str | int) -> ChangeRef:
    return ChangeRef(path)


def _journaled(edit: DescribedEdit) -> DescribedEdit:
    """The edit as the next window reads it back from the journal."""
    again = DescribedEdit.from_json(json.loads(json.dumps(edit.to_json())))
    assert again == edit
    return again


def _library(folder: Path) -> tuple[Library, list[int]]:
    """Six papers with titles, then two whose title is derived from the abstract."""
    lib = Library.open(folder)
    records = [Record(title=f"Paper {i} on optics", abstract=f"Lenses {i}.", year=2000 + i) for i in range(6)]
    records += [Record(title="", abstract=f"We study lenses of kind {n} and their focal lengths.") for n in range(2)]
    change = lib.imports.from_records([("t.bib", ParseResult("bibtex", records))])
    return lib, sorted(change.paper_ids)


def _pdf(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "paper.pdf"
    path.write_bytes(b"%PDF-1.4\n% a small file\n")
    return path


Setup = Callable[[Library, list[int], Path], object]
# the do-call, and the undo the window named for it before UNDO_CHANGE
Calls = Callable[[Library, list[int], Path], tuple[LibraryCall, LibraryCall]]


_nothing, _tagged, _listed = undo_setups.nothing, undo_setups.tagged, undo_setups.listed


def _trashed(lib: Library, ids: list[int], _tmp: Path) -> None:
    lib.papers.delete(ids[:2])


def _everything(lib: Library, ids: list[int], tmp: Path) -> None:
    _tagged(lib, ids, tmp)
    _listed(lib, ids, tmp)
    lib.highlights.add(ids[0], 0, 5, "yellow", "a start")
    lib.searches.save("mine", "status:unread")
    lib.attachments.add(ids[5], _pdf(tmp / "setup"))


def _hid(lib: Library, ids: list[int]) -> int:
    return lib.papers.get(ids[0]).highlights[0].id


def _aid(lib: Library, ids: list[int]) -> int:
    return lib.attachments.for_paper(ids[5])[0].id


def _column(setter: str, value: object) -> Calls:
    return lambda _lib, ids, _tmp: (
        _call("papers", setter, ids[:4], value),
        _call("papers", "set_fields", _ref("detail", "old")),
    )


# (name, set up, the calls): the edits of gui/editing.py, gui/duplicates_view.py,
# gui/attach_controller.py, gui/metadata_editor.py and gui/retitle_dialog.py whose journaled undo
# is now UNDO_CHANGE, each with the explicit undo it named before
EDITS: list[tuple[str, Setup, Calls]] = [
    (
        "add tags",
        _tagged,
        lambda _lib, ids, _tmp: (
            _call("tags", "add", ids[:4], ["undo/alpha", "fresh"]),
            _call("tags", "set_links", _ref("detail", "links"), present=False),
        ),
    ),
    (
        "remove a tag",
        _tagged,
        lambda _lib, ids, _tmp: (
            _call("tags", "remove", ids[:4], ["undo/beta"]),
            _call("tags", "set_links", _ref("detail", "links"), present=True),
        ),
    ),
    ("mark read", _nothing, _column("set_status", "read")),
    ("rate", _nothing, _column("set_rating", 4)),
    ("decide", _nothing, _column("set_decision", "keep")),
    (
        "edit a title",
        _nothing,
        lambda _lib, ids, _tmp: (
            _call("papers", "set_title", ids[0], "A title of mine"),
            _call("papers", "set_title", ids[0], _ref("detail", "old", 0), source=_ref("detail", "old", 1)),
        ),
    ),
    (
        "restore a paper for its note",
        _trashed,
        lambda _lib, ids, _tmp: (_call("papers", "restore", [ids[0]]), _call("papers", "delete", [ids[0]])),
    ),
    (
        "keep a note as a new paper",
        _trashed,
        lambda _lib, ids, _tmp: (
            _call("imports", "note_as_new_paper", ids[0], "What I typed"),
            _call("imports", "undo", _ref("detail", "batch")),
        ),
    ),
    (
        "move to the trash",
        _nothing,
        lambda _lib, ids, _tmp: (_call("papers", "delete", ids[:3]), _call("papers", "restore", ids[:3])),
    ),
    (
        "restore from the trash",
        _trashed,
        lambda _lib, ids, _tmp: (_call("trash", "restore", ids[:2]), _call("papers", "delete", ids[:2])),
    ),
    (
        "highlight",
        _nothing,
        lambda _lib, ids, _tmp: (
            _call("highlights", "add", ids[0], 0, 5, "blue", "c"),
            _call("highlights", "delete", _ref("detail", "id")),
        ),
    ),
    (
        "delete a highlight",
        _everything,
        lambda lib, ids, _tmp: (
            _call("highlights", "delete", _hid(lib, ids)),
            _call("highlights", "restore", _ref("detail", "row")),
        ),
    ),
    (
        "create a list",
        _nothing,
        lambda _lib, _ids, _tmp: (_call("lists", "create", "New list"), _call("lists", "delete", "New list")),
    ),
    (
        "add to a list",
        _listed,
        lambda _lib, ids, _tmp: (
            _call("lists", "add", "Reading", ids[3:8]),
            _call("lists", "remove", "Reading", _ref("detail", "added")),
        ),
    ),
    (
        "move in a list",
        _listed,
        lambda _lib, ids, _tmp: (
            _call("lists", "move", "Reading", ids[0], 3),
            _call("lists", "move", "Reading", ids[0], _ref("detail", "old")),
        ),
    ),
    (
        "reorder a list",
        _listed,
        lambda _lib, ids, _tmp: (
            _call("lists", "move_many", "Reading", ids[:2], 3),
            _call("lists", "reorder", "Reading", _ref("detail", "old")),
        ),
    ),
    (
        "remove from a list",
        _listed,
        lambda _lib, ids, _tmp: (
            _call("lists", "remove", "Reading", ids[1:3]),
            _call("lists", "restore", _ref("detail", "snapshot")),
        ),
    ),
    (
        "edit an item's note",
        _listed,
        lambda _lib, ids, _tmp: (
            _call("lists", "set_item_note", "Reading", ids[1], "changed"),
            _call("lists", "set_item_note", "Reading", ids[1], _ref("detail", "old")),
        ),
    ),
    (
        "rename a list",
        _listed,
        lambda _lib, _ids, _tmp: (
            _call("lists", "rename", "Reading", "Read"),
            _call("lists", "rename", "Read", "Reading"),
        ),
    ),
    (
        "describe a list",
        _listed,
        lambda _lib, _ids, _tmp: (
            _call("lists", "describe", "Reading", "other"),
            _call("lists", "describe", "Reading", _ref("detail", "old")),
        ),
    ),
    (
        "delete a list",
        _listed,
        lambda _lib, _ids, _tmp: (
            _call("lists", "delete", "Reading"),
            _call("lists", "restore", _ref("detail", "snapshot")),
        ),
    ),
    (
        "rename a tag",
        _tagged,
        lambda _lib, _ids, _tmp: (_call("tags", "rename", "undo", "done"), _call("tags", "rename", "done", "undo")),
    ),
    (
        "merge a tag",
        _tagged,
        lambda _lib, _ids, _tmp: (_call("tags", "merge", "undo/alpha", "gamma"), _call("tags", "unmerge", _ref())),
    ),
    (
        "recolor a tag",
        _tagged,
        lambda _lib, _ids, _tmp: (
            _call("tags", "recolor", "undo/alpha", "#ff0000"),
            _call("tags", "recolor", "undo/alpha", _ref("detail", "old_color")),
        ),
    ),
    (
        "delete a tag",
        _tagged,
        lambda _lib, _ids, _tmp: (_call("tags", "delete", "undo/alpha"), _call("tags", "undelete", _ref())),
    ),
    (
        "save a search",
        _everything,
        lambda _lib, _ids, _tmp: (
            _call("searches", "save", "mine", "status:read"),
            _call("searches", "unsave", _ref()),
        ),
    ),
    (
        "delete a saved search",
        _everything,
        lambda _lib, _ids, _tmp: (
            _call("searches", "delete", "mine"),
            _call("searches", "save", "mine", _ref("detail", "old")),
        ),
    ),
    (
        "snapshot a search to a list",
        _listed,
        lambda _lib, ids, _tmp: (
            _call("lists", "snapshot", "Reading", "Snapshot of the search “lenses”", ids[3:7]),
            _call("lists", "delete", _ref("detail", "name")),
        ),
    ),
    (
        "merge duplicates",
        _everything,
        lambda _lib, ids, _tmp: (
            _call("duplicates", "merge", ids[2], ids[3], {"title": "other"}),
            _call("duplicates", "undo_merge", _ref("detail", "merge_id")),
        ),
    ),
    (
        "not duplicates",
        _nothing,
        lambda _lib, ids, _tmp: (
            _call("duplicates", "dismiss", ids[3], ids[1]),
            _call("duplicates", "undismiss", ids[3], ids[1]),
        ),
    ),
    (
        "attach a file",
        _nothing,
        lambda _lib, ids, tmp: (
            _call("attachments", "add", ids[0], str(_pdf(tmp)), mode="copy"),
            _call("attachments", "remove", _ref("detail", "attachment_id")),
        ),
    ),
    (
        "attach a staged copy",
        _nothing,
        lambda lib, ids, tmp: (
            _call("attachments", "add_staged", ids[0], str(lib.attachments.stage(_pdf(tmp)))),
            _call("attachments", "remove", _ref("detail", "attachment_id")),
        ),
    ),
    (
        "remove an attached file",
        _everything,
        lambda lib, ids, _tmp: (
            _call("attachments", "remove", _aid(lib, ids)),
            _call("attachments", "restore", _aid(lib, ids)),
        ),
    ),
    (
        "edit metadata",
        _nothing,
        lambda _lib, ids, _tmp: (
            _call(
                "papers",
                "update_metadata",
                ids[1],
                {"venue": "Optics Letters", "authors": ["Lin, Ada", "Ng, Bo"], "year": "2021"},
                {"venue": "", "authors": [], "year": "2001"},
            ),
            _call("papers", "update_metadata", ids[1], _ref("detail", "old")),
        ),
    ),
    (
        "re-derive titles",
        _nothing,
        lambda _lib, ids, _tmp: (
            _call("papers", "set_derived_titles", {str(ids[6]): "Lenses A", str(ids[7]): "Lenses B"}),
            _call("papers", "set_derived_titles", _ref("detail", "old")),
        ),
    ),
]


@pytest.mark.parametrize("calls", [r[1:] for r in EDITS], ids=[r[0] for r in EDITS])
def test_undo_change_undoes_each_edit_as_its_explicit_undo_did(tmp_path: Path, calls: tuple[Setup, Calls]) -> None:
    """Two libraries alike: the same edit, journaled, undone by UNDO_CHANGE in one and by the
    explicit call the window named before in the other, leaves both the same, and not as the
    edit left them."""
    setup, make = calls
    states = []
    for name in ("undo_change", "explicit"):
        lib, ids = _library(tmp_path / name)
        with lib:
            setup(lib, ids, tmp_path / name / "files")
            do, explicit = make(lib, ids, tmp_path / name / "files")
            edit = _journaled(
                DescribedEdit("An edit", do) if name == "undo_change" else DescribedEdit("An edit", do, explicit)
            )
            assert isinstance(edit.undo, UndoChange if name == "undo_change" else LibraryCall)
            before = _alike(lib)
            change = edit.do(lib)
            done = _alike(lib)
            assert done != before  # the edit changed something
            undone = edit.undo(lib, change)
            assert isinstance(undone, Change)
            states.append((before, done, _alike(lib)))
    (before, done, by_lib_undo), (before_too, done_too, by_explicit_call) = states
    assert (before, done) == (before_too, done_too)
    assert by_lib_undo == by_explicit_call != done


def test_undo_change_is_written_as_lib_undo_of_the_change_and_read_back() -> None:
    edit = DescribedEdit("Add tag x", LibraryCall("tags", "add", ([1, 2], ["x"])))
    assert edit.undo is UNDO_CHANGE
    written = edit.to_json()
    assert written["undo"] == {"method": "undo", "args": [{"$change": []}]}
    again = DescribedEdit.from_json(json.loads(json.dumps(written)))
    assert again == edit and again.undo is UNDO_CHANGE
    for undo in (None, {}, {"method": "undo"}, {"method": "undo", "args": [{"$change": ["detail"]}]}, "undo"):
        with pytest.raises(BadCall):
            DescribedEdit.from_json({**written, "undo": undo})


def test_undo_change_runs_lib_undo(library_dir: Path) -> None:
    lib, ids = _library(library_dir)
    with lib:
        change = UNDO_CHANGE(lib, lib.tags.add(ids[:2], ["x"]))
        assert lib.papers.get(ids[0]).tags == []
        assert change.kind == "tags"  # what tags.set_links returned: the papers' tags changed
        assert set(change.paper_ids) == set(ids[:2])
        with pytest.raises(BadCall):  # the Change is what it undoes
            UNDO_CHANGE(lib, None)


# ---- a journal file written in the earlier form ------------------------------------------------
def test_a_journal_file_of_the_earlier_form_reads_and_replays(library_dir: Path, tmp_path: Path) -> None:
    """A journal file as windows wrote it before UNDO_CHANGE (every undo an explicit call whose
    ``$change`` paths read the Change), next to an edit in the new form: each is done and undone."""
    lib, ids = _library(library_dir)
    with lib:
        lib.lists.create("Reading")
        lib.lists.add("Reading", ids[:3])
        url = "postgresql://lin@db.example/papers"
        document = {
            "version": 1,
            "library": url,
            "edits": [
                {
                    "text": "Add tag from-disk",
                    "do": {"manager": "tags", "method": "add", "args": [ids[:2], ["from-disk"]], "kwargs": {}},
                    "undo": {
                        "manager": "tags",
                        "method": "set_links",
                        "args": [{"$change": ["detail", "links"]}],
                        "kwargs": {"present": False},
                    },
                },
                {
                    "text": "Mark read",
                    "do": {"manager": "papers", "method": "set_status", "args": [ids[:2], "read"], "kwargs": {}},
                    "undo": {
                        "manager": "papers",
                        "method": "set_fields",
                        "args": [{"$change": ["detail", "old"]}],
                        "kwargs": {},
                    },
                },
                {
                    "text": "Edit title",
                    "do": {"manager": "papers", "method": "set_title", "args": [ids[0], "Mine"], "kwargs": {}},
                    "undo": {
                        "manager": "papers",
                        "method": "set_title",
                        "args": [ids[0], {"$change": ["detail", "old", 0]}],
                        "kwargs": {"source": {"$change": ["detail", "old", 1]}},
                    },
                },
                {
                    "text": "Reorder list",
                    "do": {"manager": "lists", "method": "move_many", "args": ["Reading", [ids[2]], 0], "kwargs": {}},
                    "undo": {
                        "manager": "lists",
                        "method": "reorder",
                        "args": ["Reading", {"$change": ["detail", "old"]}],
                        "kwargs": {},
                    },
                },
                {
                    "text": "Delete tag from-disk",
                    "do": {"manager": "tags", "method": "delete", "args": ["from-disk"], "kwargs": {}},
                    "undo": {"manager": "tags", "method": "undelete", "args": [{"$change": []}], "kwargs": {}},
                },
                {
                    "text": "Rate 4",
                    "do": {"manager": "papers", "method": "set_rating", "args": [ids[3:5], 4], "kwargs": {}},
                    "undo": {"method": "undo", "args": [{"$change": []}]},
                },
            ],
        }
        path = tmp_path / "journal.json"
        path.write_text(json.dumps(document, indent=1), "utf-8")
        edits = outbox_journal.read(path, url)
        assert [type(e.undo) for e in edits] == [LibraryCall] * 5 + [UndoChange]
        assert [e.to_json() for e in edits] == document["edits"]  # written back the same
        before = _state(lib)
        changes = [edit.do(lib) for edit in edits]
        paper = lib.papers.get(ids[0])
        assert (paper.title, paper.status, paper.tags) == ("Mine", "read", [])
        assert [p for p, _, _ in lib.lists.items("Reading")] == [ids[2], ids[0], ids[1]]
        assert lib.papers.get(ids[3]).rating == 4
        for edit, change in reversed(list(zip(edits, changes, strict=True))):
            edit.undo(lib, change)
        assert _state(lib) == before
