"""The Whoosh index is derived: a missing, corrupt or outdated index is rebuilt at open, a
rebuild swaps in a new folder, and index updates lost to a crash are redone from the queue."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from desktop_app.core.library import Library
from desktop_app.core.search.index import STAMP, SearchIndex
from desktop_app.core.search.schema import SCHEMA_VERSION
from tests.helpers.library import find_paper, queued_ids

PHRASE = '"Recursive Automated Composition"'
RACES_WORDS = "Recursive Automated Composition for Environment Scaling"


@pytest.fixture(scope="module")
def seeded_template(tmp_path_factory: pytest.TempPathFactory, seed_paths_module: list[Path]) -> Path:
    """A closed library folder holding the 76 seeds with a note on the RACES paper; each test
    works on its own copy."""
    folder = tmp_path_factory.mktemp("template") / "library"
    with Library.open(folder) as lib:
        assert lib.imports.from_files(seed_paths_module).added == 76
        lib.notes.set(find_paper(lib, RACES_WORDS), "remember the quokka")
    return folder


@pytest.fixture(scope="module")
def seed_paths_module(shared_dir: Path) -> list[Path]:
    from tests.helpers.shared import SEEDS

    return list(SEEDS)


@pytest.fixture
def lib_folder(seeded_template: Path, library_dir: Path) -> Path:
    shutil.copytree(seeded_template, library_dir)
    return library_dir


def _races(lib: Library) -> int:
    return find_paper(lib, RACES_WORDS)


def _assert_search_works(lib: Library) -> None:
    races = _races(lib)
    assert lib.query(PHRASE, sort="relevance").ids == [races]
    assert lib.query("note:quokka").ids == [races]
    assert lib.query("reasoning").total > 1
    assert lib.index.index.doc_count() == lib.papers.count() == 76
    assert lib.integrity_check() == []


def _garbage_segments(index: Path) -> None:
    # compound segments are one .seg file; separate ones (what we write) are .trm/.pst/.col/...
    segs = [p for p in index.iterdir() if p.suffix not in (".toc", ".json", ".lock") and p.is_file()]
    assert segs, sorted(p.name for p in index.iterdir())
    for f in segs:
        f.write_bytes(b"not a whoosh segment " * 64)


def _garbage_toc(index: Path) -> None:
    tocs = list(index.glob("_*.toc"))
    assert tocs
    for f in tocs:
        f.write_bytes(b"\x00" * f.stat().st_size)


def _garbage_everything(index: Path) -> None:
    for f in index.iterdir():
        if f.name != STAMP:
            f.write_bytes(b"\xff garbage \x00" * 50)


def _old_schema_stamp(index: Path) -> None:
    stamp = index / STAMP
    meta = json.loads(stamp.read_text("utf-8"))
    assert meta["schema"] == SCHEMA_VERSION
    meta["schema"] = SCHEMA_VERSION - 1
    stamp.write_text(json.dumps(meta), "utf-8")


def _unreadable_stamp(index: Path) -> None:
    (index / STAMP).write_text("{not json", "utf-8")


def _empty_folder(index: Path) -> None:
    shutil.rmtree(index)
    index.mkdir()


DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "deleted": (lambda index: shutil.rmtree(index), "missing"),
    "emptied": (_empty_folder, "missing"),
    "garbage segments": (_garbage_segments, "unreadable"),
    "garbage toc": (_garbage_toc, "unreadable"),
    "garbage everywhere": (_garbage_everything, "unreadable"),
    "older schema": (_old_schema_stamp, "outdated"),
    "bad stamp": (_unreadable_stamp, "unreadable stamp"),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_damaged_index_is_rebuilt_at_open(lib_folder: Path, damage: str) -> None:
    hurt, why = DAMAGE[damage]
    hurt(lib_folder / "index")
    with Library.open(lib_folder, ensure_index=False) as lib:
        assert lib.ensure_index().startswith(why)
        _assert_search_works(lib)
    stamp = json.loads((lib_folder / "index" / STAMP).read_text("utf-8"))
    assert stamp["schema"] == SCHEMA_VERSION
    # the repaired index is accepted as is next time
    with Library.open(lib_folder, ensure_index=False) as lib:
        assert lib.ensure_index() == "ok"
        _assert_search_works(lib)


def test_plain_open_repairs_without_being_asked(lib_folder: Path) -> None:
    _garbage_everything(lib_folder / "index")
    with Library.open(lib_folder) as lib:
        _assert_search_works(lib)


def test_index_missing_a_paper_is_rebuilt_as_inconsistent(lib_folder: Path) -> None:
    with Library.open(lib_folder) as lib:
        races = _races(lib)
        lib.index.index.update([], [races])  # behind the library's back
        assert lib.query(PHRASE).ids == []
        problems = lib.integrity_check()
        assert any("1 missing" in p for p in problems), problems
    with Library.open(lib_folder, ensure_index=False) as lib:
        assert lib.ensure_index() == "inconsistent"
        _assert_search_works(lib)


def test_reindex_swaps_in_a_new_folder(lib_folder: Path) -> None:
    index = lib_folder / "index"
    with Library.open(lib_folder) as lib:
        marker = index / "marker-of-the-old-folder"
        marker.write_text("old")
        seen: list[tuple[int, int]] = []
        assert lib.reindex(progress=lambda n, t: seen.append((n, t))) is True
        assert not marker.exists()
        assert seen and seen[-1] == (76, 76)
        assert sorted(p.name for p in lib_folder.iterdir() if p.name.startswith("index")) == ["index"]
        _assert_search_works(lib)


def test_queue_is_redone_after_a_crash_between_commit_and_index_update(
    lib_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(self: SearchIndex, docs: object, deleted: object) -> None:
        raise OSError("simulated crash before the index commit")

    with Library.open(lib_folder) as lib:
        races = _races(lib)
        monkeypatch.setattr(SearchIndex, "update", crash)
        change = lib.notes.set(races, "now about a wombat")  # committed; the index update fails
        assert change.text_changed
        assert lib.papers.get(races).note == "now about a wombat"
        assert lib.index.last_error and "simulated crash" in lib.index.last_error
        assert lib.query("note:wombat").ids == []  # the index missed it ...
        assert queued_ids(lib_folder) == [races]  # ... but the queue kept it
        assert any("wait for the search index" in p for p in lib.integrity_check())
    # close() could not drain either; the queue survives the "crash"
    assert queued_ids(lib_folder) == [races]
    monkeypatch.undo()

    with Library.open(lib_folder, ensure_index=False) as lib:
        assert lib.ensure_index() == "ok"  # redone from the queue, no rebuild needed
        assert lib.query("note:wombat").ids == [races]
        assert lib.query("note:quokka").ids == []
        assert queued_ids(lib_folder) == []
        assert lib.integrity_check() == []


def test_rows_queued_by_another_writer_are_indexed_at_open(lib_folder: Path) -> None:
    with Library.open(lib_folder) as lib:
        races = _races(lib)
        other = find_paper(lib, "Fixed-Point Reasoning Model")
    con = sqlite3.connect(lib_folder / "library.sqlite")
    with con:
        con.execute("UPDATE note SET text='the platypus returns' WHERE paper_id=?", (races,))
        con.execute("UPDATE paper SET deleted_at='2026-01-01 00:00:00' WHERE id=?", (other,))
        con.executemany(
            "INSERT INTO index_queue (paper_id, queued_at) VALUES (?, '2026-01-01 00:00:00')", [(races,), (other,)]
        )
    con.close()
    with Library.open(lib_folder, ensure_index=False) as lib:
        assert lib.ensure_index() == "ok"
        assert lib.query("platypus").ids == [races]
        assert lib.query("quokka").ids == []
        assert lib.query('"Fixed-Point Reasoning Model"').ids == []
        assert lib.index.index.doc_count() == 75
        assert queued_ids(lib_folder) == []


def test_background_index_thread_catches_up(lib_folder: Path) -> None:
    with Library.open(lib_folder, background_index=True) as lib:
        races = _races(lib)
        lib.notes.set(races, "an echidna appears")
        lib.flush_index()
        assert lib.query("echidna").ids == [races]
        assert queued_ids(lib_folder) == []


def test_damage_seen_only_while_searching_is_repaired(seed_library, library_dir) -> None:
    """Bytes overwritten inside a segment pass the open check; the first search that trips on
    them marks the index for a rebuild, and the next open (or the CLI's retry) repairs it."""
    import pytest

    from desktop_app.core.errors import IndexDamaged

    index = seed_library.index.index

    def broken(*_a, **_k):
        raise ValueError("Block tag error")  # what Whoosh raised on a damaged posting block

    # matching_pid_array: what the Finder asks for a text-only query (matching_pids, a set, calls it)
    original = index.matching_pid_array
    index.matching_pid_array = broken
    with pytest.raises(IndexDamaged, match="being rebuilt"):
        seed_library.query("reinforcement")
    index.matching_pid_array = original
    assert not seed_library.index.is_open
    assert seed_library.query("tag:none OR status:read").total == 0  # SQL-only queries still work
    assert seed_library.ensure_index() != "ok"
    assert seed_library.query("reinforcement").total > 0


def test_closing_without_drain_stops_the_index_thread_between_commits(tmp_path, monkeypatch) -> None:
    """close(drain=False) leaves what is queued for the next open: the thread writing the index
    stops after its current commit instead of writing everything first (30 s at most)."""
    import time

    from desktop_app.core.library import Library
    from desktop_app.core.records import ParseResult, Record

    monkeypatch.setenv("MARGINALIA_INDEX_BATCH", "10")
    lib = Library.open(tmp_path / "lib", background_index="thread")
    records = [Record(title=f"Paper number {i}", abstract=f"about topic {i}") for i in range(1500)]
    lib.imports.from_records([("many.json", ParseResult("csljson", records))])
    deadline = time.monotonic() + 30
    while lib.index.pending() == 1500 and time.monotonic() < deadline:  # the thread is writing
        time.sleep(0.01)
    t0 = time.monotonic()
    lib.index.close(drain=False)
    took = time.monotonic() - t0
    left = lib.index.pending()
    lib.close()
    assert left > 1000, f"the thread went on to write {1500 - left} papers"
    assert took < 5, took
    with Library.open(tmp_path / "lib") as again:  # the next open writes the rest
        assert again.index.pending() == 0
        assert len(again.query("paper").ids) == 1500
