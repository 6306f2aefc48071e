"""Possible duplicates (``lib.duplicates``): found from the look-up keys, compared, merged field by
field with the user's data moved over, undone exactly, dismissed."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import delete, func, select

from desktop_app.core.errors import LibraryError
from desktop_app.core.formats import read_path
from desktop_app.core.library import Library
from desktop_app.core.sameness import NEAR_REASON
from desktop_app.core.store import tables as t
from tests.helpers.duplicates import (
    CHAPTERS,
    FIRST,
    REVISED,
    SECOND,
    import_kept_apart,
    write_file,
)
from tests.helpers.pg_fixtures import BACKENDS, empty_library_on
from tests.helpers.shared import CORPUS


@pytest.fixture(params=BACKENDS)
def empty_library(request: pytest.FixtureRequest, library_dir: Path):
    """An empty library, on SQLite and on PostgreSQL (tests/helpers/pg_fixtures.py)."""
    yield from empty_library_on(request, library_dir)


# the same paper again, its title mistyped, its abstract revised; and another book by Schank
# two chapters of one book, each carrying the book's blurb as its abstract
def _id(lib: Library, title: str) -> int:
    ids = [i for i in lib.query("").ids if lib.papers.get(i).title == title]
    assert len(ids) == 1, (title, ids)
    return ids[0]


@pytest.fixture
def pairs_library(empty_library: Library, tmp_path: Path) -> Library:
    """Cats twice (one DOI; kept apart at import), two books under one citation key, and two
    chapters with one blurb."""
    lib = empty_library
    lib.imports.from_files([write_file(tmp_path, "first.bib", FIRST)])
    import_kept_apart(lib, write_file(tmp_path, "second.bib", SECOND))
    report = lib.imports.from_files([write_file(tmp_path, "chapters.ris", CHAPTERS)])
    assert (report.added, report.duplicates) == (2, 0)  # equal abstracts alone never merge
    assert lib.papers.count() == 6
    return lib


def _state(lib: Library, *ids: int) -> dict:
    """Everything the user sees of these papers, of the lists and of the tags."""
    return {
        "papers": [lib.papers.get(i) for i in ids],
        "lists": {i.name: lib.lists.items(i.name) for i in lib.lists.all()},
        "tags": lib.tags.all(),
        "count": lib.papers.count(),
        "revisions": [lib.notes.revisions(i) for i in ids],
    }


def _keys(lib: Library, pid: int) -> list[str]:
    pi = t.paper_identity
    with lib.store.read() as conn:
        return sorted(conn.execute(select(pi.c.key).where(pi.c.paper_id == pid)).scalars())


# ---- find -----------------------------------------------------------------------------------
def test_find_offers_the_pairs_the_import_left_apart_strongest_first(pairs_library: Library) -> None:
    lib = pairs_library
    cats, typo = _id(lib, "Deep Learning for Cats"), _id(lib, "Deep Lerning for Cats")
    scripts, concept = _id(lib, "Scripts, Plans and Goals"), _id(lib, "Conceptual Dependency")
    outcomes, scm = _id(lib, "Potential outcomes"), _id(lib, "Structural causal models")
    found = [(p.a, p.b, p.reason, p.label, p.strong) for p in lib.duplicates.find()]
    assert found == [
        (cats, typo, "doi", "same DOI", True),
        (outcomes, scm, "same abstract", "same abstract", False),
        (scripts, concept, "same citation key", "same citation key", False),
    ]
    first = lib.duplicates.find(limit=1)
    assert len(first) == 1 and (first[0].title_a, first[0].title_b) == (
        "Deep Learning for Cats",
        "Deep Lerning for Cats",
    )


def test_a_trashed_paper_is_not_offered(pairs_library: Library) -> None:
    lib = pairs_library
    lib.papers.delete([_id(lib, "Deep Lerning for Cats")])
    assert [p.reason for p in lib.duplicates.find()] == ["same abstract", "same citation key"]


@pytest.mark.shared
def test_find_in_a_real_bibliography_offers_a_title_twice(empty_library: Library) -> None:
    """JabRef's authors file holds the conference and the journal paper of one title (two DOIs,
    two years): not one paper by the rules, but worth a look."""
    lib = empty_library
    lib.imports.from_files([CORPUS / "bibtex" / "jabref__jabref-authors.bib"])
    pairs = [p for p in lib.duplicates.find() if "BPEL Process Fragments" in p.title_a]
    assert len(pairs) == 1 and pairs[0].reason == "same title"
    a, b = lib.papers.get(pairs[0].a), lib.papers.get(pairs[0].b)
    assert {a.year, b.year} == {2007, 2008} and a.doi != b.doi
    diffs = {d.field: d for d in lib.duplicates.compare(pairs[0].a, pairs[0].b)}
    assert not diffs["title"].equal and not diffs["doi"].equal and diffs["authors"].equal


def test_a_key_shared_by_too_many_papers_offers_none_of_its_pairs(pairs_library: Library, tmp_path: Path) -> None:
    """51 chapters called "Introduction" would be 1,275 pairs that say nothing: none is offered."""
    from desktop_app.core.duplicates import MAX_GROUP

    lib = pairs_library

    def misc(title: str, n: int, key: str) -> str:
        return "".join(
            f"@misc{{{key}{i},\n  title = {{{title}}},\n  author = {{Author{i}, A.}},\n  year = {{{1900 + i}}},\n}}\n"
            for i in range(n)
        )

    lib.imports.from_files([write_file(tmp_path, "intros.bib", misc("Introduction", MAX_GROUP + 1, "intro"))])
    assert len(lib.duplicates.find()) == 3
    lib.imports.from_files([write_file(tmp_path, "prefaces.bib", misc("Preface", 2, "preface"))])
    assert [p.reason for p in lib.duplicates.find()] == ["doi", "same abstract", "same title", "same citation key"]


def test_refresh_keys_files_keys_for_papers_made_before(pairs_library: Library) -> None:
    lib = pairs_library
    before = lib.duplicates.find()
    with lib.store.write() as tx:
        tx.conn.execute(delete(t.paper_identity))
    # without keys only the semantic space finds a pair: the two books of one abstract
    assert [(p.title_a, p.title_b, p.reason) for p in lib.duplicates.find()] == [
        ("Potential outcomes", "Structural causal models", NEAR_REASON)
    ]
    change = lib.duplicates.refresh_keys()
    assert len(change.paper_ids) == 6 and change.detail.keys > 6
    assert lib.duplicates.find() == before
    assert lib.duplicates.refresh_keys().paper_ids == ()  # every paper has keys now


# ---- compare --------------------------------------------------------------------------------
def test_compare_lists_fields_side_by_side_with_the_default_choice(pairs_library: Library) -> None:
    lib = pairs_library
    cats, typo = _id(lib, "Deep Learning for Cats"), _id(lib, "Deep Lerning for Cats")
    diffs = {d.field: d for d in lib.duplicates.compare(cats, typo)}
    assert (diffs["title"].a, diffs["title"].b, diffs["title"].equal) == (
        "Deep Learning for Cats",
        "Deep Lerning for Cats",
        False,
    )
    assert diffs["authors"].equal and diffs["authors"].a == "Smith, John; Doe, Jane"
    assert (diffs["url"].a, diffs["url"].default) == ("", "other")  # the kept paper lacks one
    assert diffs["venue"].default == "keep" and diffs["abstract"].b == REVISED
    assert {d.default for d in lib.duplicates.compare(typo, cats)} == {"keep"}
    with pytest.raises(LibraryError, match="itself"):
        lib.duplicates.compare(cats, cats)


# ---- merge and undo -------------------------------------------------------------------------
def test_merge_with_choices_moves_everything_and_undo_restores_it_exactly(pairs_library: Library) -> None:
    lib = pairs_library
    cats, typo = _id(lib, "Deep Learning for Cats"), _id(lib, "Deep Lerning for Cats")
    other_paper = _id(lib, "Potential outcomes")
    lib.tags.add([cats, typo], ["ml"])
    lib.tags.add([typo], ["cats/felids", "to-read"])
    lib.tags.add([cats], ["mine"])
    for name, ids in (("both", [other_paper, typo, cats]), ("other only", [other_paper, typo]), ("kept only", [cats])):
        lib.lists.create(name)
        lib.lists.add(name, ids)
    lib.notes.set(cats, "kept note")
    lib.notes.set(typo, "typo's note\nsecond line")
    kept_hl = lib.highlights.add_quote(cats, "cute").detail.id
    other_hl = lib.highlights.add_quote(typo, "very cute").detail.id
    lib.papers.set_status([cats], "skimmed")
    lib.papers.set_status([typo], "read")
    lib.papers.set_rating([cats], 4)
    lib.papers.set_rating([typo], 2)
    keys_before = _keys(lib, cats)
    before = _state(lib, cats, typo)

    change = lib.duplicates.merge(cats, typo, {"abstract": "other", "venue": "other"})
    assert change.paper_ids == (cats, typo) and change.detail.deleted and change.text_changed
    merged = lib.papers.get(cats)
    assert merged.title == "Deep Learning for Cats"  # kept: not chosen
    assert (merged.abstract_text, merged.venue) == (REVISED, "J. Cats")  # chosen from the other
    assert merged.url == "https://example.org/cats"  # the kept paper had none
    assert merged.bibtex_key == "smith2020deep"
    assert merged.tags == ["cats/felids", "mine", "ml", "to-read"]
    assert merged.lists == ["both", "kept only", "other only"]
    assert [p for p, _, _ in lib.lists.items("both")] == [other_paper, cats]  # the kept paper's place
    assert [p for p, _, _ in lib.lists.items("other only")] == [other_paper, cats]  # took the other's
    assert merged.note == "kept note\n\n— merged from: Deep Lerning for Cats —\ntypo's note\nsecond line"
    assert (merged.status, merged.rating) == ("read", 4)
    # the kept paper took the other's abstract: its own highlight re-anchors on the new text, and
    # the other's highlights, whose abstract it now is, come along
    assert [(h.id, h.quote, h.orphaned) for h in merged.highlights] == [
        (other_hl, "very cute", False),
        (kept_hl, "cute", False),
    ]
    assert lib.papers.count() == 5
    with pytest.raises(LibraryError, match="no paper"):
        lib.papers.get(typo)
    assert set(_keys(lib, typo)) <= set(_keys(lib, cats))  # the other's keys are the kept paper's too
    assert [p.a for p in lib.duplicates.find()] == [other_paper, _id(lib, "Scripts, Plans and Goals")]
    assert lib.query("lerning").ids == [cats]  # by the merged note; the trashed paper left the index
    assert cats in lib.query('"very cute indeed"').ids

    undone = lib.duplicates.undo_merge(change.detail.merge_id)
    assert undone.detail.restored and undone.paper_ids == (cats, typo)
    assert _state(lib, cats, typo) == before
    assert lib.papers.get(typo).highlights[0].id == other_hl
    assert _keys(lib, cats) == keys_before
    assert lib.duplicates.find()[0].reason == "doi"
    assert lib.query("lerning").ids == [typo]
    assert lib.integrity_check() == []
    with pytest.raises(LibraryError, match="undone already"):
        lib.duplicates.undo_merge(change.detail.merge_id)
    # and it can be merged again (the redo)
    again = lib.duplicates.merge(cats, typo, {"abstract": "other", "venue": "other"})
    assert again.detail.merge_id != change.detail.merge_id
    assert lib.papers.get(cats).venue == "J. Cats"


def test_merge_of_equal_abstracts_moves_the_highlights(pairs_library: Library) -> None:
    lib = pairs_library
    outcomes, scm = _id(lib, "Potential outcomes"), _id(lib, "Structural causal models")
    hl = lib.highlights.add_quote(scm, "structural models", comment="the second half").detail.id
    before = _state(lib, outcomes, scm)
    change = lib.duplicates.merge(outcomes, scm, {"title": "other", "authors": "other"})
    merged = lib.papers.get(outcomes)
    assert (merged.title, merged.authors) == ("Structural causal models", ["Pearl, Judea"])
    assert [(h.id, h.quote, h.comment) for h in merged.highlights] == [(hl, "structural models", "the second half")]
    assert merged.note == ""  # neither had one
    assert _no_note_rows(lib)
    lib.duplicates.undo_merge(change.detail.merge_id)
    assert _state(lib, outcomes, scm) == before


def _no_note_rows(lib: Library) -> bool:
    """No note row was made for a merge without notes (undo then has nothing to delete)."""
    with lib.store.read() as conn:
        return conn.execute(select(func.count()).select_from(t.note)).scalar_one() == 0


def test_highlights_stay_with_the_trashed_paper_when_the_abstracts_differ(pairs_library: Library) -> None:
    lib = pairs_library
    cats, typo = _id(lib, "Deep Learning for Cats"), _id(lib, "Deep Lerning for Cats")
    hl = lib.highlights.add_quote(typo, "very cute").detail.id
    change = lib.duplicates.merge(cats, typo)  # the kept paper keeps its own abstract
    assert lib.papers.get(cats).highlights == []
    h = t.highlight.c
    with lib.store.read() as conn:
        assert conn.execute(select(h.paper_id).where(h.id == hl)).scalar_one() == typo
    lib.duplicates.undo_merge(change.detail.merge_id)
    assert [x.id for x in lib.papers.get(typo).highlights] == [hl]


def test_a_note_written_after_the_merge_survives_its_undo(pairs_library: Library) -> None:
    lib = pairs_library
    scripts, concept = _id(lib, "Scripts, Plans and Goals"), _id(lib, "Conceptual Dependency")
    lib.notes.set(concept, "chapter 3 matters")
    change = lib.duplicates.merge(scripts, concept)
    assert lib.papers.get(scripts).note == "— merged from: Conceptual Dependency —\nchapter 3 matters"
    lib.notes.set(scripts, "rewritten after the merge")
    lib.duplicates.undo_merge(change.detail.merge_id)
    assert lib.papers.get(scripts).note == ""
    assert [text for _, text in lib.notes.revisions(scripts)][0] == "rewritten after the merge"
    assert lib.papers.get(concept).note == "chapter 3 matters"


def test_merge_refuses_a_paper_with_itself_a_trashed_one_and_bad_choices(pairs_library: Library) -> None:
    lib = pairs_library
    cats, typo = _id(lib, "Deep Learning for Cats"), _id(lib, "Deep Lerning for Cats")
    with pytest.raises(LibraryError, match="cannot be merged with itself"):
        lib.duplicates.merge(cats, cats)
    with pytest.raises(LibraryError, match="not a field"):
        lib.duplicates.merge(cats, typo, {"rating": "other"})
    with pytest.raises(LibraryError, match="'keep' or 'other'"):
        lib.duplicates.merge(cats, typo, {"title": "mine"})
    lib.papers.delete([typo])
    with pytest.raises(LibraryError, match=f"paper {typo} is in the trash"):
        lib.duplicates.merge(cats, typo)
    with pytest.raises(LibraryError, match="no paper with id 999"):
        lib.duplicates.merge(cats, 999)
    assert lib.duplicates.merges() == []


# ---- dismiss --------------------------------------------------------------------------------
def test_a_dismissed_pair_is_not_offered_again_until_undismissed(pairs_library: Library) -> None:
    lib = pairs_library
    scripts, concept = _id(lib, "Scripts, Plans and Goals"), _id(lib, "Conceptual Dependency")
    change = lib.duplicates.dismiss(concept, scripts)  # either order
    assert change.detail.pair == (min(scripts, concept), max(scripts, concept))
    assert [p.reason for p in lib.duplicates.find()] == ["doi", "same abstract"]
    lib.duplicates.dismiss(scripts, concept)  # twice is once
    assert lib.duplicates.dismissed() == [(min(scripts, concept), max(scripts, concept))]
    lib.duplicates.undismiss(scripts, concept)
    assert [p.reason for p in lib.duplicates.find()][-1] == "same citation key"
    with pytest.raises(LibraryError):
        lib.duplicates.dismiss(scripts, scripts)


def test_keep_apart_at_import_is_what_makes_the_pair(empty_library: Library, tmp_path: Path) -> None:
    """Control: without keep_apart the import merges the mistyped copy, and nothing is offered."""
    lib = empty_library
    lib.imports.from_files([write_file(tmp_path, "first.bib", FIRST)])
    second = write_file(tmp_path, "second.bib", SECOND)
    report = lib.imports.from_records([(str(second), read_path(second))])
    assert report.duplicates == 1
    assert [p.reason for p in lib.duplicates.find()] == ["same citation key"]
