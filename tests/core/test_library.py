"""The Library facade on the real seed abstracts: import, titles, tags, status, notes, lists,
saved searches. Expected values are derived from the seed files themselves."""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from desktop_app.core.errors import LibraryError
from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from desktop_app.core.search.index import SearchIndex
from desktop_app.core.search.query import QuerySyntaxError
from desktop_app.core.search.sync import IndexSync
from tests.helpers.library import find_paper
from tests.helpers.pg_fixtures import BACKENDS, _import_seeds, library_from_template

RACES_TITLE = "RACES: Recursive Automated Composition for Environment Scaling"
RACES_WORDS = "Recursive Automated Composition for Environment Scaling"
RLVR_WORDS = "shrinkage issue of RLVR"


def _seed_file_facts(path: Path) -> tuple[str, str, int | None, int]:
    """(header, venue, year, number of abstracts) read straight from a seed file."""
    text = path.read_text("utf-8").lstrip("\ufeff").replace("\r\n", "\n")
    header, _, body = text.partition("\n")
    m = re.search(r"\b(\d{4})\b", header)
    venue = header[: m.start()].strip() if m else ""
    year = int(m.group(1)) if m else None
    paragraphs = [p for p in re.split(r"\n[ \t]*\n", body) if p.strip()]
    return header, venue, year, len(paragraphs)


@pytest.fixture(scope="module")
def _seed_template(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> Path:
    from tests.helpers.shared import SEEDS

    folder = tmp_path_factory.mktemp("seed-template") / "library"
    with Library.open(folder) as lib:
        assert lib.imports.from_files(SEEDS).added == 76
    return folder


@pytest.fixture(params=BACKENDS)
def seed_library(request: pytest.FixtureRequest, _seed_template: Path, library_dir: Path):
    """conftest's seed_library (the 76 seeds in this test's own folder), made by copying a
    library imported once per module instead of importing again for every test; the same
    on a PostgreSQL server (a database copied from a template imported once)."""
    if request.param == "postgresql":
        lib = Library.open(library_from_template(request.getfixturevalue("pg_server"), "seeds", _import_seeds))
    else:
        shutil.copytree(_seed_template, library_dir)
        lib = Library.open(library_dir)
    assert lib.papers.count() == 76
    yield lib
    lib.close()


def _queue_len(lib: Library) -> int:
    con = sqlite3.connect(lib.db_path)
    try:
        return con.execute("SELECT count(*) FROM index_queue").fetchone()[0]
    finally:
        con.close()


# ---- import ------------------------------------------------------------------------------------
def test_import_counts_venue_year_and_reimport_adds_nothing(empty_library: Library, seed_paths: list[Path]) -> None:
    lib = empty_library
    facts = {str(p): _seed_file_facts(p) for p in seed_paths}
    expected_total = sum(f[3] for f in facts.values())
    assert expected_total == 76
    assert any("论文列表" in f[0] for f in facts.values()), "a seed header is in Chinese"
    assert {(f[1], f[2]) for f in facts.values()} == {("NeurIPS", 2026)}

    report = lib.imports.from_files(seed_paths)
    assert (report.added, report.duplicates, report.failed) == (expected_total, 0, 0)
    for fr in report.files:  # per file: one paper per paragraph
        assert fr.added == facts[fr.path][3], fr.as_dict()
        assert fr.format == "seed"
    ids = lib.query("").ids
    assert len(ids) == lib.papers.count() == expected_total
    for pid in ids:
        p = lib.papers.get(pid)
        assert (p.venue, p.year) == ("NeurIPS", 2026)
        assert p.status == "unread" and p.rating == 0 and p.tags == [] and p.note == ""
    assert lib.index.index.doc_count() == expected_total
    assert _queue_len(lib) == 0

    again = lib.imports.from_files(seed_paths)
    assert (again.added, again.duplicates, again.failed) == (0, expected_total, 0)
    assert "already in the library" in again.summary()
    assert lib.papers.count() == expected_total
    assert lib.index.index.doc_count() == expected_total


def test_every_seed_paper_gets_a_short_derived_title(seed_library: Library) -> None:
    lib = seed_library
    for pid in lib.query("").ids:
        p = lib.papers.get(pid)
        assert p.title_source == "derived"
        assert p.title.strip() and p.title == " ".join(p.title.split())
        assert len(p.title) <= 100, p.title
        assert "\\" not in p.title and "***" not in p.title, p.title
    races = find_paper(lib, RACES_WORDS)
    assert lib.papers.get(races).title == RACES_TITLE


def test_edited_title_survives_reimport_and_an_abstract_alone_does_not_merge(seed_library: Library) -> None:
    lib = seed_library
    races = find_paper(lib, RACES_WORDS)
    other = find_paper(lib, RLVR_WORDS)
    change = lib.papers.set_title(races, "  My   own title  ")
    assert change.detail.old == (RACES_TITLE, "derived")
    p = lib.papers.get(races)
    assert (p.title, p.title_source) == ("My own title", "edited")
    with pytest.raises(LibraryError, match="empty"):
        lib.papers.set_title(races, "   ")

    # a record with the same abstract and another title is not "the same record"
    # (equal abstracts alone never merge; the pair is offered as a possible duplicate)
    records = [
        Record(abstract=lib.papers.get(races).abstract, title="A Title From BibTeX"),
        Record(abstract=lib.papers.get(other).abstract, title="Shrinkage of RLVR"),
    ]
    report = lib.imports.from_records([("again.bib", ParseResult(format="bibtex", records=records))])
    assert (report.added, report.duplicates) == (2, 0)
    assert (lib.papers.get(races).title, lib.papers.get(races).title_source) == ("My own title", "edited")
    # the same record again (the abstract with the paper's own title) is recognised, and merges
    # into the paper without touching the user's title
    again = [Record(abstract=lib.papers.get(races).abstract, title="My own title", venue=p.venue, year=p.year)]
    report = lib.imports.from_records([("own.bib", ParseResult(format="bibtex", records=again))])
    assert (report.added, report.duplicates) == (0, 1)
    assert report.files[0].matches[0].reason == "same-record" and report.files[0].matches[0].paper_id == races
    assert lib.query('title:"own title"').ids == [races]


def test_latex_is_plain_in_abstract_text_and_phrase_search_finds_races(seed_library: Library) -> None:
    lib = seed_library
    races = find_paper(lib, RACES_WORDS)
    p = lib.papers.get(races)
    assert "\\textbf{R}ecursive" in p.abstract  # the raw source interleaves markup
    for pid in lib.query("").ids:
        assert "\\textbf" not in lib.papers.get(pid).abstract_text
    res = lib.query('"Recursive Automated Composition"', sort="relevance")
    assert res.ids == [races]
    assert res.scores[races] > 0
    assert lib.query('abstract:"Recursive Automated Composition"').ids == [races]
    # a phrase in the wrong order is not a match
    assert races not in lib.query('"Composition Automated Recursive"').ids


def test_delete_and_restore_papers(seed_library: Library) -> None:
    lib = seed_library
    races = find_paper(lib, RACES_WORDS)
    lib.papers.delete([races])
    assert races not in lib.query("").ids
    assert lib.query('"Recursive Automated Composition"').ids == []
    with pytest.raises(LibraryError, match=f"no paper with id {races}"):
        lib.papers.get(races)
    lib.papers.restore([races])
    assert lib.query('"Recursive Automated Composition"').ids == [races]
    assert lib.index.index.doc_count() == 76


def test_undo_import_moves_the_papers_to_the_trash(seed_library: Library, seed_paths: list[Path]) -> None:
    lib = seed_library
    batch = lib.imports.batches()[0]
    assert (batch["added"], batch["duplicates"], batch["undone"]) == (76, 0, 0)
    races = find_paper(lib, RACES_WORDS)
    lib.notes.set(races, "attached later")
    lib.papers.delete([races])  # in the trash already: it stays there, as it was
    assert lib.imports.undo_cost(batch["id"])["papers"] == 75
    change = lib.imports.undo(batch["id"])
    assert len(change.paper_ids) == 75 and races not in change.paper_ids
    assert lib.papers.count() == 0 and lib.index.index.doc_count() == 0 and lib.trash.count() == 76
    assert lib.query("reasoning").ids == [] and lib.query("note:attached").ids == []
    with pytest.raises(LibraryError, match="was undone already"):
        lib.imports.undo(batch["id"])
    with pytest.raises(LibraryError, match="no import with id 999"):
        lib.imports.undo(999)
    lib.trash.restore([races])  # the trash gives it back, note and all
    assert lib.papers.get(races).note == "attached later"
    again = lib.imports.from_files(seed_paths)  # the rest come back from the trash, as this import's
    assert (again.added, again.duplicates) == (75, 1) and lib.trash.count() == 0
    assert lib.imports.undo_cost(again.batch_id)["papers"] == 75
    assert lib.integrity_check() == []


def test_undo_import_then_empty_trash_removes_the_papers_and_their_identity(
    seed_library: Library, seed_paths: list[Path]
) -> None:
    lib = seed_library
    lib.imports.undo(lib.imports.batches()[0]["id"])
    lib.trash.empty()
    assert lib.papers.count() == 0 and lib.trash.count() == 0
    assert lib.imports.from_files(seed_paths).added == 76  # the identity keys went with the papers
    assert lib.integrity_check() == []


# ---- tags ---------------------------------------------------------------------------------------
@pytest.fixture
def tagged(seed_library: Library) -> dict[str, int]:
    """Three seed papers tagged by what they are about."""
    lib = seed_library
    ids = {
        "races": find_paper(lib, RACES_WORDS),
        "rlvr": find_paper(lib, RLVR_WORDS),
        "fprm": find_paper(lib, "Fixed-Point Reasoning Model"),
    }
    lib.tags.add([ids["races"]], ["rl"])
    lib.tags.add([ids["rlvr"]], ["rl/rlvr"])
    lib.tags.add([ids["fprm"]], ["rlhf", "reasoning"])
    return ids


def test_tag_hierarchy_in_queries(seed_library: Library, tagged: dict[str, int]) -> None:
    lib = seed_library
    races, rlvr, fprm = tagged["races"], tagged["rlvr"], tagged["fprm"]
    assert set(lib.query("tag:rl").ids) == {races, rlvr}  # rl and its child, not "rlhf"
    assert set(lib.query("tag:RL").ids) == {races, rlvr}
    assert lib.query("tag:rl/rlvr").ids == [rlvr]
    assert lib.query("tag:rl/*").ids == [rlvr]  # children only
    assert lib.query("rl/*").ids == [rlvr]  # a bare path is a tag
    assert lib.query("#rl/rlvr").ids == [rlvr]
    assert set(lib.query("tag:rl*").ids) == {races, rlvr, fprm}  # plain prefix
    assert set(lib.query("tag:rl", tags=["rl/rlvr"]).ids) == {rlvr}

    lib.papers.set_status([rlvr], "read")
    assert lib.query("rl/* AND NOT status:read").ids == []
    assert lib.query("tag:rl AND NOT status:read").ids == [races]
    assert lib.query("tag:rl", status="read").ids == [rlvr]

    everyone = set(lib.query("").ids)
    assert set(lib.query("", not_tags=["rl"]).ids) == everyone - {races, rlvr}
    assert set(lib.query("", not_tags=["rl/rlvr"]).ids) == everyone - {rlvr}
    assert set(lib.query("", tags=["rl"], not_tags=["rl/rlvr"]).ids) == {races}
    # tags mix with full-text search
    assert lib.query('tag:rl AND "Recursive Automated Composition"').ids == [races]

    counts = {t.name: t.count for t in lib.tags.all()}
    assert counts == {"reasoning": 1, "rl": 1, "rl/rlvr": 1, "rlhf": 1}


def test_rename_parent_renames_children_and_merge_delete(seed_library: Library, tagged: dict[str, int]) -> None:
    lib = seed_library
    races, rlvr, fprm = tagged["races"], tagged["rlvr"], tagged["fprm"]
    lib.tags.rename("rl", "reinforcement")
    assert {t.name for t in lib.tags.all()} == {"reinforcement", "reinforcement/rlvr", "rlhf", "reasoning"}
    assert lib.papers.get(rlvr).tags == ["reinforcement/rlvr"]
    assert set(lib.query("tag:reinforcement").ids) == {races, rlvr}
    assert lib.query("tag:rl").ids == []
    with pytest.raises(LibraryError, match="no tag named 'rl'"):
        lib.tags.rename("rl", "x")

    # renaming onto an existing tag merges into it
    lib.tags.rename("rlhf", "reasoning")
    assert lib.papers.get(fprm).tags == ["reasoning"]
    assert "rlhf" not in {t.name for t in lib.tags.all()}

    # merge: every paper of the source gets the target; the source disappears
    lib.tags.merge("reinforcement/rlvr", "reasoning")
    assert set(lib.query("tag:reasoning").ids) == {rlvr, fprm}
    assert "reinforcement/rlvr" not in {t.name for t in lib.tags.all()}
    with pytest.raises(LibraryError, match="no tag named"):
        lib.tags.merge("nonexistent", "reasoning")

    # delete one tag; undo data restores the links
    lib.tags.recolor("reasoning", "#1f77b4")
    change = lib.tags.delete("reasoning")
    assert sorted(change.detail.links) == sorted([(rlvr, "reasoning"), (fprm, "reasoning")])
    assert change.detail.color == "#1f77b4"
    assert lib.query("tag:reasoning").ids == []
    assert lib.papers.get(fprm).tags == []
    lib.tags.set_links(change.detail.links, present=True)
    assert set(lib.query("tag:reasoning").ids) == {rlvr, fprm}


def test_delete_parent_keeps_children_and_remove_is_exact(seed_library: Library, tagged: dict[str, int]) -> None:
    lib = seed_library
    rlvr = tagged["rlvr"]
    lib.tags.add([rlvr], ["rl"])
    lib.tags.remove([rlvr], ["rl"])  # exactly "rl", not its child
    assert lib.papers.get(rlvr).tags == ["rl/rlvr"]
    lib.tags.delete("rl")
    assert lib.papers.get(rlvr).tags == ["rl/rlvr"]
    assert lib.query("tag:rl").ids == [rlvr]


def test_recolor_validation(seed_library: Library, tagged: dict[str, int]) -> None:
    lib = seed_library
    for bad in ("red", "#12345", "#1234567", "#12345g", "1f77b4", "#1f77b4\n", " #1f77b4"):
        with pytest.raises(LibraryError, match="a color looks like #1f77b4"):
            lib.tags.recolor("rl", bad)
    assert {t.name: t.color for t in lib.tags.all()}["rl"] == ""
    change = lib.tags.recolor("RL", "#A0b1C2")
    assert change.detail.old_color == ""
    assert {t.name: t.color for t in lib.tags.all()}["rl"] == "#A0b1C2"
    lib.tags.recolor("rl", "")
    assert {t.name: t.color for t in lib.tags.all()}["rl"] == ""
    with pytest.raises(LibraryError, match="no tag named 'nope'"):
        lib.tags.recolor("nope", "#000000")


def test_tag_names_are_normalized_and_bad_names_refused(seed_library: Library) -> None:
    lib = seed_library
    races = find_paper(lib, RACES_WORDS)
    lib.tags.add([races], ["  RL /  deep   rl / "])
    assert lib.papers.get(races).tags == ["RL/deep rl"]
    for bad in ("", " / ", "x" * 201):
        with pytest.raises(LibraryError):
            lib.tags.add([races], [bad])
    with pytest.raises(LibraryError, match="no paper with id 99999"):
        lib.tags.add([99999], ["rl"])


@pytest.fixture
def synthetic_library(library_dir: Path):
    """1,200 synthetic papers imported as parsed records."""
    lib = Library.open(library_dir)
    records = [
        Record(
            abstract=f"Synthetic abstract {i} on topic {i % 7} with the word zeugma{i % 3}.",
            title=f"Synthetic paper {i}",
        )
        for i in range(1200)
    ]
    report = lib.imports.from_records([("synthetic", ParseResult(format="csv", records=records))])
    assert report.added == 1200
    yield lib
    lib.close()


def test_add_tags_on_many_papers_does_not_touch_the_index(
    synthetic_library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = synthetic_library
    ids = lib.query("").ids
    assert len(ids) == 1200
    assert _queue_len(lib) == 0
    docs_before = lib.index.index.doc_count()
    assert docs_before == 1200

    calls: list[str] = []
    real_drain, real_update = IndexSync.drain, SearchIndex.update
    monkeypatch.setattr(IndexSync, "drain", lambda self: calls.append("drain") or real_drain(self))
    monkeypatch.setattr(SearchIndex, "update", lambda self, *a: calls.append("update") or real_update(self, *a))

    change = lib.tags.add(ids, ["rl/rlvr", "bulk"])
    assert not change.text_changed
    assert len(change.detail.links) == 2 * len(ids)
    assert calls == []
    assert _queue_len(lib) == 0
    assert lib.index.index.doc_count() == docs_before
    assert lib.query("tag:rl").total == 1200
    assert lib.query("tag:rl AND zeugma1").total == 400  # tag filter combines with the index
    assert {t.name: t.count for t in lib.tags.all()} == {"bulk": 1200, "rl/rlvr": 1200}

    lib.tags.remove(ids[:1000], ["bulk"])
    lib.tags.rename("rl", "reinforcement")
    assert calls == [] and _queue_len(lib) == 0
    assert lib.query("tag:bulk").total == 200
    assert lib.query("tag:reinforcement/rlvr").total == 1200

    # control: a text change does go through the queue and the index
    lib.notes.set(ids[0], "a note")
    assert calls == ["drain", "update"]
    assert _queue_len(lib) == 0


# ---- status / rating ----------------------------------------------------------------------------
def test_status_and_rating_validation_and_restore(seed_library: Library) -> None:
    lib = seed_library
    ids = lib.query("").ids
    a, b = ids[0], ids[1]
    with pytest.raises(LibraryError, match="status is one of unread, skimmed, read, not 'done'"):
        lib.papers.set_status([a], "done")
    for bad in (6, -1, 2.5, "3"):
        with pytest.raises(LibraryError, match="a rating is a whole number from 0 to 5"):
            lib.papers.set_rating([a], bad)  # type: ignore[arg-type]
    with pytest.raises(LibraryError, match="no paper with id 99999"):
        lib.papers.set_status([a, 99999], "read")
    assert lib.papers.get(a).status == "unread"  # all or nothing

    lib.papers.set_status([b], "skimmed")
    lib.papers.set_rating([b], 2)
    before = {pid: {"status": lib.papers.get(pid).status, "rating": lib.papers.get(pid).rating} for pid in (a, b)}
    change = lib.papers.set_status([a, b], "read")
    assert set(change.paper_ids) == {a, b}
    lib.papers.set_rating([a, b], 5)
    assert lib.papers.status_counts() == {"unread": 74, "skimmed": 0, "read": 2}
    assert lib.query("rating:>=5").total == 2

    lib.papers.set_fields(before)  # the undo of a bulk edit
    assert {
        pid: {"status": lib.papers.get(pid).status, "rating": lib.papers.get(pid).rating} for pid in (a, b)
    } == before
    assert lib.papers.status_counts() == {"unread": 75, "skimmed": 1, "read": 0}
    assert lib.query("status:skimmed rating:2").ids == [b]

    with pytest.raises(LibraryError, match="cannot set title"):
        lib.papers.set_fields({a: {"title": "x"}})
    with pytest.raises(LibraryError, match="status is one of"):
        lib.papers.set_fields({a: {"status": "bogus"}})
    with pytest.raises(LibraryError, match="rating is a whole number"):
        lib.papers.set_fields({a: {"rating": 9}})
    with pytest.raises(LibraryError, match="no paper with id 99999"):
        lib.papers.set_fields({99999: {"status": "read"}})
    with pytest.raises(LibraryError, match="status is one of"):  # all or nothing
        lib.papers.set_fields({a: {"status": "read"}, b: {"status": "bogus"}})
    assert (lib.papers.get(a).status, lib.papers.get(b).status) == ("unread", "skimmed")


# ---- notes --------------------------------------------------------------------------------------
def test_notes_keep_revisions_are_searchable_and_persist(seed_library: Library, library_dir: Path) -> None:
    lib = seed_library
    races = find_paper(lib, RACES_WORDS)
    # words that occur in no seed abstract, so any hit comes from the note
    for word in ("quokka", "wombat"):
        assert all(word not in lib.papers.get(pid).abstract_text.lower() for pid in lib.query("").ids)
        assert lib.query(word).ids == []

    lib.notes.set(races, "First thought: quokka composition.")
    lib.flush_index()
    assert lib.query("note:quokka").ids == [races]
    change = lib.notes.set(races, "Second thought: wombat **bold**.")
    assert change.detail.old == "First thought: quokka composition."
    lib.flush_index()
    revisions = lib.notes.revisions(races)
    assert [t for _, t in revisions] == ["First thought: quokka composition."]
    assert lib.query("note:wombat").ids == [races]
    assert lib.query("wombat").ids == [races]  # bare words search notes too
    assert lib.query("note:quokka").ids == []  # the document was replaced, not added
    assert lib.query("").total == 76

    unchanged = lib.notes.set(races, "Second thought: wombat **bold**.")
    assert not unchanged.text_changed
    assert len(lib.notes.revisions(races)) == 1
    lib.notes.set(races, "")
    assert [t for _, t in lib.notes.revisions(races)] == [
        "Second thought: wombat **bold**.",
        "First thought: quokka composition.",
    ]
    lib.notes.set(races, "Third: wombat again.")
    with pytest.raises(LibraryError, match="no paper with id 99999"):
        lib.notes.set(99999, "x")
    lib.close()

    with Library.open(lib.server.url if lib.server else library_dir) as again:  # a folder or a server's URL
        assert again.papers.get(races).note == "Third: wombat again."
        assert len(again.notes.revisions(races)) == 2
        assert again.query("note:wombat").ids == [races]
        assert again.papers.rows([races])[races].has_note


def test_note_save_gives_up_when_the_library_is_busy(seed_library: Library) -> None:
    import threading

    from desktop_app.core.errors import LibraryBusy

    lib = seed_library
    races = find_paper(lib, RACES_WORDS)
    held, release = threading.Event(), threading.Event()

    def long_write() -> None:
        with lib.store.write_lock:  # what an import holds for its whole transaction
            held.set()
            release.wait(10)

    worker = threading.Thread(target=long_write)
    worker.start()
    try:
        assert held.wait(10)
        with pytest.raises(LibraryBusy):
            lib.notes.set(races, "typed during an import", wait=0.05)
    finally:
        release.set()
        worker.join()
    lib.notes.set(races, "typed during an import", wait=1)
    assert lib.papers.get(races).note == "typed during an import"


# ---- highlights ---------------------------------------------------------------------------------
def test_highlights_reanchor_orphan_and_come_back(seed_library: Library) -> None:
    lib = seed_library
    races = find_paper(lib, RACES_WORDS)
    original = lib.papers.get(races).abstract
    quote = "composable building blocks"
    hid = lib.highlights.add_quote(races, quote, comment="like lego").detail.id
    lib.highlights.add_quote(races, "300 individual environments", color="green")
    assert lib.query("highlight:lego").ids == [races]

    lib.papers.set_abstract(races, "A sentence put in front. " + original)
    p = lib.papers.get(races)
    assert [(p.abstract_text[h.start : h.end], h.orphaned) for h in p.highlights] == [
        (quote, False),
        ("300 individual environments", False),
    ]

    lib.papers.set_abstract(races, original.replace(quote, "bricks"))
    p = lib.papers.get(races)
    assert {h.quote: h.orphaned for h in p.highlights} == {quote: True, "300 individual environments": False}
    assert lib.query("highlight:lego").ids == [races]  # an orphan is kept, not dropped

    lib.papers.set_abstract(races, original)
    p = lib.papers.get(races)
    assert all(not h.orphaned and p.abstract_text[h.start : h.end] == h.quote for h in p.highlights)

    lib.highlights.edit(hid, color="blue", comment="like duplo")
    assert lib.query("highlight:duplo").ids == [races] and lib.query("highlight:lego").ids == []
    row = lib.highlights.delete(hid).detail.row
    assert lib.query("highlight:duplo").ids == []
    lib.highlights.restore(row)
    assert lib.query("highlight:duplo").ids == [races]
    with pytest.raises(LibraryError, match="not a span of the abstract"):
        lib.highlights.add(races, 5, 5)
    with pytest.raises(LibraryError, match="a highlight color is one of"):
        lib.highlights.add(races, 0, 5, color="red")
    with pytest.raises(LibraryError, match="does not occur"):
        lib.highlights.add_quote(races, "words the abstract does not have")


# ---- reading lists ------------------------------------------------------------------------------
def test_reading_lists(seed_library: Library) -> None:
    lib = seed_library
    a, b, c, d = lib.query("", sort="id").ids[:4]
    lib.lists.create("To Read", "for the train")
    with pytest.raises(LibraryError, match="exists already"):
        lib.lists.create("to read")
    with pytest.raises(LibraryError, match="needs a name"):
        lib.lists.create("  ")
    lib.lists.add("To Read", [c, a, b])
    lib.lists.add("To Read", [a])  # already there: stays put
    assert [i[0] for i in lib.lists.items("To Read")] == [c, a, b]
    lib.lists.add("to read", [d], position=0)
    assert [i[0] for i in lib.lists.items("To Read")] == [d, c, a, b]
    lib.lists.move("To Read", b, 1)
    assert [(i[0], i[1]) for i in lib.lists.items("To Read")] == [(d, 0), (b, 1), (c, 2), (a, 3)]
    with pytest.raises(LibraryError, match="is not in"):
        lib.lists.move("To Read", 99999, 0)

    lib.lists.set_item_note("To Read", c, "read section 3")
    assert lib.lists.items("To Read")[2] == (c, 2, "read section 3")
    with pytest.raises(LibraryError, match="no reading list named 'Nope'"):
        lib.lists.set_item_note("Nope", c, "x")

    # the list filter, in list order (and reversed)
    assert lib.query("", list_name="To Read", sort="position").ids == [d, b, c, a]
    assert lib.query("", list_name="To Read", sort="position", descending=True).ids == [a, c, b, d]
    assert lib.query("", list_name="to read", sort="position").ids == [d, b, c, a]
    assert set(lib.query('list:"To Read"').ids) == {a, b, c, d}
    assert {i.name: i.count for i in lib.lists.all()} == {"To Read": 4}
    assert lib.papers.get(c).lists == ["To Read"]

    # remove and undo: back at the old positions, with the item note
    change = lib.lists.remove("To Read", [b, c])
    assert [i[0] for i in lib.lists.items("To Read")] == [d, a]
    lib.lists.restore(change.detail.snapshot)
    assert lib.lists.items("To Read") == [(d, 0, ""), (b, 1, ""), (c, 2, "read section 3"), (a, 3, "")]

    # delete and undo
    gone = lib.lists.delete("To Read")
    assert lib.lists.all() == []
    assert len(lib.query("").ids) == 76  # papers stay
    lib.lists.restore(gone.detail.snapshot)
    assert lib.lists.items("To Read") == [(d, 0, ""), (b, 1, ""), (c, 2, "read section 3"), (a, 3, "")]
    assert lib.lists.all()[0].description == "for the train"

    lib.lists.rename("To Read", "Later")
    assert lib.query("", list_name="Later", sort="position").ids == [d, b, c, a]
    # a trashed paper drops out of the list view and comes back with it
    lib.papers.delete([b])
    assert [i[0] for i in lib.lists.items("Later")] == [d, c, a]
    lib.papers.restore([b])
    assert [i[0] for i in lib.lists.items("Later")] == [d, b, c, a]


# ---- saved searches -----------------------------------------------------------------------------
@pytest.mark.parametrize("bad", ["foo:bar", "(reasoning", '"unclosed', "status:bogus", "rating:abc"])
def test_saved_search_refuses_invalid_query(empty_library: Library, bad: str) -> None:
    with pytest.raises(QuerySyntaxError):
        empty_library.searches.save("broken", bad)
    assert empty_library.searches.all() == []


def test_saved_searches(seed_library: Library) -> None:
    lib = seed_library
    lib.searches.save("  rl   unread ", "tag:rl AND NOT status:read")
    lib.searches.save("races", '"Recursive Automated Composition"')
    assert lib.searches.all() == [
        ("races", '"Recursive Automated Composition"'),
        ("rl unread", "tag:rl AND NOT status:read"),
    ]
    change = lib.searches.save("races", "reasoning")  # replace
    assert change.detail.old == '"Recursive Automated Composition"'
    name, query = lib.searches.all()[0]
    assert lib.query(query).total > 0
    with pytest.raises(LibraryError, match="needs a name"):
        lib.searches.save(" ", "x")
    lib.searches.delete("races")
    assert [n for n, _ in lib.searches.all()] == ["rl unread"]
    with pytest.raises(LibraryError, match="no saved search named 'races'"):
        lib.searches.delete("races")


def test_tag_counts_leave_out_trashed_papers(seed_library) -> None:
    ids = seed_library.query("").ids[:5]
    seed_library.tags.add(ids, ["rl/rlvr"])
    seed_library.papers.delete(ids[:2])
    assert {t.name: t.count for t in seed_library.tags.all()}["rl/rlvr"] == 3
    seed_library.papers.restore(ids[:2])
    assert {t.name: t.count for t in seed_library.tags.all()}["rl/rlvr"] == 5
