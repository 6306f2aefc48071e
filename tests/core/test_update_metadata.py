"""lib.papers.update_metadata: one transaction, checked values, the previous values for undo,
the index re-queued, updated_at bumped."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from desktop_app.core.changelog.undo_data import MetadataBefore
from desktop_app.core.errors import LibraryError
from desktop_app.core.library import Library
from desktop_app.core.metadata import ENTRY_TYPES, parse_author, short_authors
from desktop_app.core.store import tables as t
from tests.helpers.library import find_paper
from tests.helpers.pg_fixtures import BACKENDS, seed_library_on


@pytest.fixture(params=BACKENDS)
def seed_library(request: pytest.FixtureRequest, library_dir: Path, seed_paths: list[Path]):
    """The 76 seeds, on SQLite and on PostgreSQL (tests/helpers/pg_fixtures.py)."""
    yield from seed_library_on(request, library_dir, seed_paths)


def _updated_at(lib: Library, pid: int) -> object:
    with lib.store.read() as conn:
        return conn.execute(select(t.paper.c.updated_at).where(t.paper.c.id == pid)).scalar_one()


def _identity_keys(lib: Library, pid: int) -> set[str]:
    pi = t.paper_identity.c
    with lib.store.read() as conn:
        return set(conn.execute(select(pi.key).where(pi.paper_id == pid)).scalars())


def test_update_returns_the_previous_values_and_undo_restores_them(seed_library: Library) -> None:
    lib = seed_library
    pid = lib.query("").ids[0]
    before = lib.papers.get(pid)
    stamp = _updated_at(lib, pid)
    change = lib.papers.update_metadata(
        pid,
        {
            "title": "  A   new title ",
            "authors": ["Vaswani, Ashish", " Shazeer,  Noam "],
            "venue": "Proc. Test Venue",
            "year": "2017",
            "doi": "https://doi.org/10.5555/3295222.3295349",
            "arxiv_id": "arXiv:1706.03762v7",
            "url": "https://example.org/paper",
            "entry_type": "inproceedings",
        },
    )
    after = lib.papers.get(pid)
    assert after.title == "A new title" and after.title_source == "edited"
    assert after.authors == ["Vaswani, Ashish", "Shazeer, Noam"]
    assert (after.venue, after.year, after.doi, after.arxiv_id, after.url, after.entry_type) == (
        "Proc. Test Venue",
        2017,
        "10.5555/3295222.3295349",
        "1706.03762",
        "https://example.org/paper",
        "inproceedings",
    )
    assert _updated_at(lib, pid) > stamp
    assert change.text_changed and change.paper_ids == (pid,)
    assert set(change.detail.fields) >= {"title", "authors", "venue", "year", "doi", "arxiv_id", "url", "entry_type"}
    old = change.detail.old
    assert old["title"] == before.title and old["authors"] == tuple(before.authors) and old["year"] == before.year
    # the new DOI is filed as a look-up key for the duplicate finder
    assert "doi:10.5555/3295222.3295349" in _identity_keys(lib, pid)

    lib.papers.update_metadata(pid, old)  # what Undo does
    back = lib.papers.get(pid)
    for field in (
        "title",
        "title_source",
        "authors",
        "venue",
        "year",
        "doi",
        "arxiv_id",
        "url",
        "entry_type",
        "abstract",
        "abstract_text",
    ):
        assert getattr(back, field) == getattr(before, field), field


def test_the_index_is_requeued_and_the_new_author_is_searchable(seed_library: Library) -> None:
    lib = seed_library
    pid = lib.query("").ids[3]
    assert lib.query("author:Zyxwvutsrq").ids == []
    lib.papers.update_metadata(pid, {"authors": ["Zyxwvutsrq, Quentin"]})
    lib.flush_index()
    assert lib.query("author:Zyxwvutsrq").ids == [pid]
    assert lib.query("Zyxwvutsrq").ids == [pid]


def test_abstract_edit_recomputes_the_plain_text(seed_library: Library) -> None:
    lib = seed_library
    pid = lib.query("").ids[1]
    lib.papers.update_metadata(pid, {"abstract": "We study $\\alpha$-divergences in plain words."})
    p = lib.papers.get(pid)
    assert p.abstract.startswith("We study $\\alpha$")
    assert "α" in p.abstract_text
    lib.flush_index()
    assert pid in lib.query("divergences").ids


def test_nothing_changed_writes_nothing(seed_library: Library) -> None:
    lib = seed_library
    pid = lib.query("").ids[2]
    p = lib.papers.get(pid)
    stamp = _updated_at(lib, pid)
    change = lib.papers.update_metadata(pid, {"venue": p.venue or "", "authors": list(p.authors)})
    assert change.detail == MetadataBefore(old={}, fields=[])
    assert _updated_at(lib, pid) == stamp


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"year": "19"}, "the year is a number from 1000"),
        ({"year": "3050"}, "the year is a number from 1000"),
        ({"year": "soon"}, "the year is a number"),
        ({"doi": "11.1234/abc"}, "is not a DOI"),
        ({"doi": "10.1234"}, "is not a DOI"),
        ({"arxiv_id": "1706.037"}, "is not an arXiv id"),
        ({"url": "ftp://example.org/x"}, "is not a web address"),
        ({"url": "example.org"}, "is not a web address"),
        ({"entry_type": "poem"}, "the entry type is one of"),
        ({"title": "   "}, "the title cannot be empty"),
        ({"bibtex_key": "x"}, "is not a field"),
        ({"authors": "Vaswani, Ashish"}, "a list of names"),
    ],
)
def test_invalid_values_are_refused_and_nothing_is_written(seed_library: Library, changes: dict, message: str) -> None:
    lib = seed_library
    pid = lib.query("").ids[0]
    before = lib.papers.get(pid)
    with pytest.raises(LibraryError, match=message):
        lib.papers.update_metadata(pid, {"venue": "Changed venue", **changes})
    assert lib.papers.get(pid).venue == before.venue  # the valid field of the same edit is not written


def test_old_arxiv_ids_and_clearing_fields(seed_library: Library) -> None:
    lib = seed_library
    pid = find_paper(lib, "Recursive Automated Composition")
    lib.papers.update_metadata(pid, {"arxiv_id": "hep-th/9901001v2", "doi": "doi:10.1000/xyz123"})
    assert lib.papers.get(pid).arxiv_id == "hep-th/9901001"
    assert lib.papers.get(pid).doi == "10.1000/xyz123"
    lib.papers.update_metadata(pid, {"arxiv_id": "", "doi": " ", "year": "", "entry_type": ""})
    p = lib.papers.get(pid)
    assert (p.arxiv_id, p.doi, p.year, p.entry_type) == (None, None, None, None)


def test_a_deleted_paper_cannot_be_edited(seed_library: Library) -> None:
    lib = seed_library
    pid = lib.query("").ids[0]
    lib.papers.delete([pid])
    with pytest.raises(LibraryError, match="no paper"):
        lib.papers.update_metadata(pid, {"venue": "X"})


def test_short_authors_and_parsing() -> None:
    assert short_authors([]) == ""
    assert short_authors(["Vaswani, Ashish"]) == "Vaswani"
    assert short_authors(["Vaswani, Ashish", "Shazeer, Noam"]) == "Vaswani, Shazeer"
    assert short_authors(["Vaswani, Ashish", "Shazeer, Noam", "Parmar, Niki"]) == "Vaswani, Shazeer et al."
    assert short_authors(["World Health Organization"]) == "World Health Organization"
    assert parse_author("Ashish Vaswani") == "Vaswani, Ashish"
    assert parse_author("Vaswani, Ashish") == "Vaswani, Ashish"
    assert parse_author("Adrian Del Maestro") == "Del Maestro, Adrian"
    assert {"article", "inproceedings", "misc"} <= ENTRY_TYPES.keys()


def test_the_table_rows_carry_the_short_authors_and_modified(seed_library: Library) -> None:
    lib = seed_library
    pid = lib.query("").ids[0]
    lib.papers.update_metadata(pid, {"authors": ["Vaswani, Ashish", "Shazeer, Noam", "Parmar, Niki"]})
    row = lib.papers.rows([pid])[pid]
    assert row.authors_short == "Vaswani, Shazeer et al."
    assert row.updated_at[:4].isdigit() and len(row.updated_at) == 19
