"""The managers on PostgreSQL: the same code, the PostgreSQL forms of store/dialect.py.

The Library facade opens SQLite folders today (a shared PostgreSQL library is its own issue);
the managers only need a Store, so they run here on a real PostgreSQL server.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app.core.errors import LibraryError
from desktop_app.core.finder import Finder
from desktop_app.core.highlights import Highlights
from desktop_app.core.importing.imports import Imports
from desktop_app.core.notes import Notes
from desktop_app.core.papers import Papers
from desktop_app.core.reading_lists import ReadingLists
from desktop_app.core.records import ParseResult, Record
from desktop_app.core.saved_searches import SavedSearches
from desktop_app.core.search.sync import IndexSync
from desktop_app.core.store import Store
from desktop_app.core.tags import Tags
from tests.helpers.postgres_server import postgres_server

pytest.importorskip("psycopg", reason="psycopg is a test dependency (pip install -e '.[test]')")


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.fixture
def store(pg_url: str) -> Iterator[Store]:
    from sqlalchemy import create_engine
    from sqlmodel import SQLModel

    import desktop_app.core.models  # noqa: F401 - the tables

    engine = create_engine(pg_url)
    SQLModel.metadata.drop_all(engine)
    SQLModel.metadata.create_all(engine)
    yield Store(engine)
    engine.dispose()


RECORDS = [
    Record(
        title="Scaling RL with Verifiable Rewards",
        abstract="Reinforcement learning with rewards.",
        authors=["Lin, Wei"],
        year=2026,
        doi="10.1/a",
        venue="NeurIPS",
    ),
    Record(
        title="Diffusion for Graphs",
        abstract="A diffusion model over graphs.",
        year=2025,
        authors=["Ng, A."],
        venue="ICML",
    ),
    Record(title="Tokenizers Matter", abstract="A controlled study of tokenizer choice.", year=2026, venue="ACL"),
]


def test_the_managers_run_on_postgresql(store: Store, tmp_path: Path) -> None:
    assert store.dialect.name == "postgresql"
    imports, papers, tags, notes = Imports(store), Papers(store), Tags(store), Notes(store)
    lists, searches = ReadingLists(store), SavedSearches(store)
    report = imports.from_records([("t.bib", ParseResult("bibtex", list(RECORDS)))])
    assert report.added == 3
    again = imports.from_records([("t.bib", ParseResult("bibtex", [RECORDS[0]]))])
    assert again.added == 0 and again.merged + again.duplicates == 1  # same DOI: one paper
    index = IndexSync(tmp_path / "index", store)  # not opened: SQL-only queries below
    finder = Finder(store, index)
    everything = finder.query("", sort="title")
    assert papers.count() == everything.total == 3
    rl, diffusion, tok = (everything.ids[i] for i in (1, 0, 2))  # Diffusion, Scaling, Tokenizers
    assert papers.get(rl).title.startswith("Scaling")

    # tags: case-insensitive names, hierarchy, rename with children, merge, counts
    tags.add([rl, diffusion], ["RL/rlvr"])
    tags.add([tok], ["rl"])
    assert tags.add([rl], ["rl/RLVR"]).detail.links == ()  # same tag, any case (undo data holds tuples)
    assert finder.query("tag:rl", sort="id").ids == sorted([rl, diffusion, tok])
    assert finder.query("tag:rl/rlvr", sort="id").ids == sorted([rl, diffusion])
    assert finder.query("", tags=["RL"], not_tags=["rl/rlvr"]).ids == [tok]
    tags.rename("RL", "reinforcement")
    assert {t.name: t.count for t in tags.all()} == {"reinforcement": 1, "reinforcement/rlvr": 2}
    tags.merge("reinforcement/rlvr", "reinforcement")
    assert {t.name: t.count for t in tags.all()} == {"reinforcement": 3}
    assert papers.rows([rl])[rl].tags == ["reinforcement"]

    # status, rating, sorting by status, trash
    papers.set_status([rl], "read")
    papers.set_rating([rl, tok], 4)
    assert finder.query("status:read").ids == [rl]
    assert finder.query("rating:>=4", sort="id").ids == sorted([rl, tok])
    assert finder.query("", sort="status", descending=True).ids[0] == rl
    papers.delete([tok])
    assert papers.count() == 2 and papers.status_counts() == {"unread": 1, "skimmed": 0, "read": 1}
    papers.restore([tok])

    # notes keep every text; append is atomic; a stale base is reported
    notes.set(rl, "first")
    notes.append(rl, "second")
    assert notes.text(rl) == "first\nsecond"
    assert notes.set(rl, "mine", base="first").detail.conflict == "first\nsecond"
    assert [t for _, t in notes.revisions(rl)] == ["first\nsecond", "first"]

    # reading lists: order, moves, case-insensitive names, list: queries
    lists.create("Group meeting")
    lists.add("group MEETING", [tok, rl, diffusion])
    lists.move("Group meeting", diffusion, 0)
    assert [pid for pid, _, _ in lists.items("Group meeting")] == [diffusion, tok, rl]
    assert finder.query('list:"group meeting"', sort="id").ids == sorted([rl, diffusion, tok])
    assert finder.query("", list_name="Group meeting", sort="position").ids == [diffusion, tok, rl]
    with pytest.raises(LibraryError, match="exists already"):
        lists.create("GROUP MEETING")

    # highlights and saved searches
    Highlights(store, papers).add_quote(rl, "rewards", comment="key")
    assert [h.quote for h in papers.get(rl).highlights] == ["rewards"]
    searches.save("To read", "status:unread AND tag:reinforcement")
    assert searches.all() == [("To read", "status:unread AND tag:reinforcement")]


def test_possible_duplicates_on_postgresql(store: Store) -> None:
    from desktop_app.core.duplicates import Duplicates

    imports, papers, tags = Imports(store), Papers(store), Tags(store)
    imports.from_records([("t.bib", ParseResult("bibtex", list(RECORDS)))])
    typo = Record(
        title="Scaling RL with Verifable Rewards",
        abstract="Reinforcement learning with rewards.",
        authors=["Lin, Wei"],
        year=2026,
        doi="10.1/A",
        venue="NeurIPS 2026",
    )
    report = imports.from_records([("u.bib", ParseResult("bibtex", [typo]))], keep_apart=frozenset({(0, 0)}))
    assert report.added == 1
    dups = Duplicates(store, papers)
    [pair] = dups.find()
    assert pair.reason == "doi"
    tags.add([pair.b], ["copy"])
    before = (papers.get(pair.a), papers.get(pair.b))
    change = dups.merge(pair.a, pair.b, {"venue": "other"})
    assert papers.get(pair.a).venue == "NeurIPS 2026" and papers.get(pair.a).tags == ["copy"]
    assert dups.find() == []
    dups.undo_merge(change.detail.merge_id)
    assert (papers.get(pair.a), papers.get(pair.b)) == before
    dups.dismiss(pair.b, pair.a)
    assert dups.find() == []
