"""The trash: deleted papers are kept across restarts, come back with restore,
and go for good with purge / empty, taking every row that hangs on them, their index documents
and the attached copies only they had; ``check`` reports copies nobody refers to."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, or_, select

from desktop_app.core.changelog.undo_data import Purged
from desktop_app.core.errors import LibraryError
from desktop_app.core.library import Library
from desktop_app.core.store import tables as t
from tests.helpers.library import find_paper
from tests.helpers.pg_fixtures import BACKENDS, seed_library_on

RACES_WORDS = "Recursive Automated Composition"
PDF = b"%PDF-1.4\n% trashed paper\n" + bytes(range(256)) * 8 + b"\n%%EOF\n"

DEPENDENT = {  # table -> the columns naming a paper
    "paper_tag": ("paper_id",),
    "note": ("paper_id",),
    "note_revision": ("paper_id",),
    "highlight": ("paper_id",),
    "reading_list_item": ("paper_id",),
    "paper_identity": ("paper_id",),
    "attachment": ("paper_id",),
    "paper_merge": ("kept_id", "merged_id"),
    "distinct_pair": ("low_id", "high_id"),
}


def _rows_naming(lib: Library, pid: int) -> dict[str, int]:
    """How many rows of each dependent table (and ``paper`` itself) name ``pid``."""
    tables = {"paper": ("id",), **DEPENDENT}
    with lib.store.read() as conn:
        return {
            name: conn.execute(
                select(func.count())
                .select_from(getattr(t, name))
                .where(or_(*(getattr(t, name).c[c] == pid for c in cols)))
            ).scalar_one()
            for name, cols in tables.items()
        }


@pytest.fixture(params=BACKENDS)
def any_seed_library(request: pytest.FixtureRequest, library_dir: Path, seed_paths: list[Path]) -> Iterator[Library]:
    """The seed library on SQLite, and on PostgreSQL."""
    yield from seed_library_on(request, library_dir, seed_paths)


def _everything_on(lib: Library, pid: int, other: int, tmp_path: Path) -> Path:
    """Give ``pid`` a tag, a note with a revision, a highlight, a list place, an attached copy and
    a "not a duplicate" pair; returns the copy's path in the library."""
    lib.tags.add([pid], ["trash/test"])
    lib.notes.set(pid, "first words")
    lib.notes.set(pid, "second words")
    lib.highlights.add(pid, 0, 9)
    lib.lists.create("To read")
    lib.lists.add("To read", [pid, other])
    src = tmp_path / "paper.pdf"
    src.write_bytes(PDF)
    change = lib.attachments.add(pid, src)
    lib.duplicates.dismiss(pid, other)
    return lib.folder / lib.attachments.get(change.detail.attachment_id).path


def test_deleted_papers_are_listed_and_kept_across_a_restart(seed_library: Library, library_dir: Path) -> None:
    lib = seed_library
    ids = lib.query("").ids[:3]
    assert lib.trash.count() == 0 and lib.trash.items() == []
    lib.papers.delete(ids[:2])
    lib.papers.delete(ids[2:])
    assert lib.trash.count() == 3
    assert lib.trash.ids()[0] == ids[2]  # the most recently deleted first
    assert sorted(lib.trash.ids()) == sorted(ids)
    assert lib.query("", trash=True).total == 3
    assert lib.query("").total == 73
    lib.close()
    with Library.open(library_dir) as again:
        assert sorted(again.trash.ids()) == sorted(ids)
        item = next(i for i in again.trash.items() if i.id == ids[0])
        assert item.title == again.papers.rows([ids[0]])[ids[0]].title and item.deleted_at[:2] == "20"
        assert set(item.as_json()) == {"id", "title", "year", "venue", "deleted_at"}
        again.trash.restore(ids[:1])
        assert again.papers.count() == 74 and again.trash.count() == 2


def test_the_trash_view_finds_words_in_its_papers(seed_library: Library) -> None:
    lib = seed_library
    races = find_paper(lib, RACES_WORDS)
    lib.papers.delete([races, lib.query("").ids[-1]])
    assert lib.query("recursive automated", trash=True).ids == [races]
    assert lib.query("zorblax", trash=True).ids == []
    assert races not in lib.query("recursive").ids  # the live views never show it


def test_restore_refuses_ids_not_in_the_trash_and_changes_nothing(seed_library: Library) -> None:
    lib = seed_library
    a, b = lib.query("").ids[:2]
    lib.papers.delete([a])
    with pytest.raises(LibraryError, match=f"not in the trash: paper {b}"):
        lib.trash.restore([a, b])
    with pytest.raises(LibraryError, match="no paper with id 99999"):
        lib.trash.restore([a, 99999])
    with pytest.raises(LibraryError, match="no paper with id 99999"):
        lib.trash.purge([99999])
    with pytest.raises(LibraryError, match=f"not in the trash: paper {b}"):
        lib.trash.purge([b])
    assert lib.trash.ids() == [a] and lib.papers.count() == 75


def test_restore_brings_a_paper_back_into_search(seed_library: Library) -> None:
    lib = seed_library
    races = find_paper(lib, RACES_WORDS)
    lib.papers.delete([races])
    assert lib.query(f'"{RACES_WORDS}"').ids == []
    change = lib.trash.restore([races])
    assert change.paper_ids == (races,) and change.detail.restored
    assert lib.query(f'"{RACES_WORDS}"').ids == [races]
    assert lib.trash.count() == 0 and lib.integrity_check() == []


def test_purge_removes_the_paper_every_row_on_it_its_index_entry_and_its_file(
    any_seed_library: Library, tmp_path: Path
) -> None:
    lib = any_seed_library
    races = find_paper(lib, RACES_WORDS)
    other = next(i for i in lib.query("").ids if i != races)
    copy = _everything_on(lib, races, other, tmp_path)
    assert copy.is_file()
    before = _rows_naming(lib, races)
    assert all(
        before[k]
        for k in (
            "paper",
            "paper_tag",
            "note",
            "note_revision",
            "highlight",
            "reading_list_item",
            "paper_identity",
            "attachment",
            "distinct_pair",
        )
    )
    lib.papers.delete([races])
    assert copy.is_file()  # in the trash the copy stays: a restore finds it
    change = lib.trash.purge([races])
    assert change.detail == Purged(files=1)
    assert set(_rows_naming(lib, races).values()) == {0}
    assert not copy.exists() and not copy.parent.exists()
    assert lib.trash.count() == 0 and lib.papers.count() == 75
    assert [p for p, _, _ in lib.lists.items("To read")] == [other]
    lib.flush_index()
    assert lib.index.index.doc_count() == 75
    assert lib.integrity_check() == []
    with pytest.raises(LibraryError, match=f"no paper with id {races}"):
        lib.trash.restore([races])


def test_purge_is_logged_in_the_change_log(seed_library: Library) -> None:
    lib = seed_library
    pid = lib.query("").ids[0]
    lib.papers.delete([pid])
    lib.trash.purge([pid])
    con = sqlite3.connect(lib.folder / "library.sqlite")
    try:
        kinds = [r[0] for r in con.execute("SELECT kind FROM change_log WHERE paper_id = ? ORDER BY seq", (pid,))]
    finally:
        con.close()
    assert kinds[-2:] == ["papers.delete", "trash.purge"]


def test_a_merged_paper_goes_to_the_trash_and_can_be_deleted_for_good(seed_library: Library) -> None:
    lib = seed_library
    keep, other = lib.query("").ids[:2]
    change = lib.duplicates.merge(keep, other)
    assert lib.trash.ids() == [other]
    lib.trash.purge([other])
    assert _rows_naming(lib, other)["paper_merge"] == 0
    with pytest.raises(LibraryError, match=f"no merge with id {change.detail.merge_id}"):
        lib.duplicates.undo_merge(change.detail.merge_id)
    assert lib.papers.count() == 75 and lib.integrity_check() == []


def test_empty_trash_deletes_every_trashed_paper_and_only_those(seed_library: Library, tmp_path: Path) -> None:
    lib = seed_library
    ids = lib.query("").ids
    src = tmp_path / "kept.pdf"
    src.write_bytes(PDF)
    lib.attachments.add(ids[5], src)  # a live paper's copy stays
    lib.papers.delete(ids[:4])
    change = lib.trash.empty()
    assert sorted(change.paper_ids) == sorted(ids[:4]) and change.detail.purged
    assert lib.trash.count() == 0 and lib.papers.count() == 72
    assert lib.attachments.first_file(ids[5]) is not None
    assert lib.trash.empty().paper_ids == ()  # an empty trash: nothing to do
    assert lib.integrity_check() == []


def test_check_reports_copies_left_behind_in_the_files_folder(seed_library: Library, tmp_path: Path) -> None:
    lib = seed_library
    pid = lib.query("").ids[0]
    src = tmp_path / "paper.pdf"
    src.write_bytes(PDF)
    lib.attachments.add(pid, src)
    assert lib.integrity_check() == []
    stray = lib.folder / "files" / "999" / "orphan.pdf"
    stray.parent.mkdir(parents=True)
    stray.write_bytes(PDF)
    (lib.folder / "files" / "999" / ".attach-0123456789ab.tmp").write_bytes(b"being written")
    problems = lib.integrity_check()
    assert len(problems) == 1 and problems[0].startswith("files/999/orphan.pdf is in the library's files/ folder")
    assert "no paper refers to it" in problems[0]


def test_the_undo_of_a_delete_says_when_the_paper_was_deleted_for_good(seed_library: Library) -> None:
    lib = seed_library
    pid = lib.query("").ids[0]
    lib.papers.delete([pid])
    lib.trash.purge([pid])
    with pytest.raises(LibraryError, match=rf"no paper with id {pid} \(deleted for good\)"):
        lib.papers.restore([pid])
