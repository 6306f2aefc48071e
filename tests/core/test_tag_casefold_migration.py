"""Migration 0009: tags equal but for case are merged (links moved, a colour kept), then a unique
index on lower(name) keeps them one, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import Engine, insert, select
from sqlalchemy.exc import IntegrityError

from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from desktop_app.core.store import migrate as db
from desktop_app.core.store import tables as t
from tests.helpers.pg_fixtures import *  # noqa: F403 - pg_server, pg_url

RECORDS = [Record(title=f"Paper {i}", abstract=f"About thing {i}.", doi=f"10.9/{i}") for i in range(3)]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return str(tmp_path / "lib") if request.param == "sqlite" else request.getfixturevalue("pg_url")


def _engine(location: str) -> Engine:
    if location.startswith("postgresql"):
        from desktop_app.core.shared_library import make_engine

        return make_engine(location)
    from desktop_app.core.store.engine import make_migration_engine

    return make_migration_engine(Path(location) / "library.sqlite")


@pytest.fixture
def at_0008_with_case_twins(location: str) -> Iterator[tuple[str, list[int]]]:
    """A library with three papers, taken back to 0008, then given "Topic", "topic" (coloured)
    and "TOPIC" and a lone "other"."""
    with Library.open(location) as lib:
        ids = sorted(lib.imports.from_records([("t.bib", ParseResult("bibtex", list(RECORDS)))]).paper_ids)
    engine = _engine(location)
    try:
        with engine.begin() as conn:
            cfg = db.alembic_config()
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0008")
        with engine.begin() as conn:
            tags = [("Topic", ""), ("topic", "#112233"), ("TOPIC", "#445566"), ("other", "")]
            tid = [conn.execute(insert(t.tag).values(name=n, color=c)).inserted_primary_key[0] for n, c in tags]
            links = [(ids[0], tid[0]), (ids[0], tid[1]), (ids[1], tid[2]), (ids[2], tid[3])]
            conn.execute(insert(t.paper_tag), [{"paper_id": p, "tag_id": g} for p, g in links])
    finally:
        engine.dispose()
    yield location, ids


def test_case_twins_merge_into_the_oldest_with_a_colour(at_0008_with_case_twins: tuple[str, list[int]]) -> None:
    location, (p0, p1, p2) = at_0008_with_case_twins
    with Library.open(location) as lib:
        tags = {(x.name, x.color, x.count) for x in lib.tags.all()}
        assert tags == {("Topic", "#112233", 2), ("other", "", 1)}  # the first colour among them
        assert lib.papers.get(p0).tags == ["Topic"]  # two links became one
        assert lib.papers.get(p1).tags == ["Topic"]
        assert lib.papers.get(p2).tags == ["other"]
        with pytest.raises(IntegrityError), lib.store.engine.begin() as conn:  # the index refuses a twin
            conn.execute(insert(t.tag).values(name="OTHER", color=""))
        with lib.store.read() as conn:
            assert conn.execute(select(t.tag.c.name).where(t.tag.c.name == "OTHER")).first() is None
        lib.tags.add([p2], ["TOPIC"])  # found, not made
        assert set(lib.papers.get(p2).tags) == {"other", "Topic"}
        assert len(lib.tags.all()) == 2
