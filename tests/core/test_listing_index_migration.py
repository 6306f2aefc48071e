"""Migration 0010: the listing by title (and by year) reads an index in the order it shows the
papers, on SQLite and PostgreSQL, instead of sorting every live paper; an upgrade from 0009 with
papers in it keeps them and the order."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import Engine, text

from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from desktop_app.core.store import migrate as db
from tests.helpers.pg_fixtures import *  # noqa: F403 - pg_server, pg_url

TITLES = ["beta paper", "Alpha paper", "gamma Paper", "alpha Paper", "Delta"]
RECORDS = [
    Record(title=title, abstract=f"About thing {i}.", doi=f"10.9/{i}", year=2020 + i % 2)
    for i, title in enumerate(TITLES)
]


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
def at_0009(location: str) -> Iterator[str]:
    """A library with five papers, taken back to 0009 (no listing index)."""
    with Library.open(location) as lib:
        lib.imports.from_records([("t.bib", ParseResult("bibtex", list(RECORDS)))])
    engine = _engine(location)
    try:
        with engine.begin() as conn:
            cfg = db.alembic_config()
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0009")
    finally:
        engine.dispose()
    yield location


def _plan(location: str, sql: str) -> str:
    """The query plan of ``sql`` as one string. PostgreSQL is told not to scan the table
    (five rows: it would, and sort them); it still sorts when no index holds the order."""
    engine = _engine(location)
    try:
        with engine.connect() as conn:
            if location.startswith("postgresql"):
                conn.execute(text("SET enable_seqscan = off"))
                conn.execute(text("SET enable_bitmapscan = off"))
                rows = conn.execute(text(f"EXPLAIN {sql}")).scalars().all()
            else:
                rows = [r[-1] for r in conn.execute(text(f"EXPLAIN QUERY PLAN {sql}"))]
    finally:
        engine.dispose()
    return "\n".join(rows)


def _listing_sql(location: str, sort: str, descending: bool = False) -> str:
    """The statement ``lib.query("", sort=...)`` runs, as this dialect spells it."""
    from desktop_app.core.finder import _order_by
    from desktop_app.core.store import tables as t
    from desktop_app.core.store.dialect import dialect_for

    engine = _engine(location)
    try:
        d = dialect_for(engine.dialect.name)
        p = t.paper.c
        stmt = (
            t.paper.select()
            .with_only_columns(p.id)
            .where(p.deleted_at.is_(None))
            .order_by(*_order_by(sort, descending, d), p.id)
        )
        return str(stmt.compile(dialect=engine.dialect, compile_kwargs={"literal_binds": True}))
    finally:
        engine.dispose()


def test_listing_by_title_and_year_reads_the_index_after_the_upgrade(at_0009: str) -> None:
    location = at_0009
    for sort, descending in (("title", False), ("year", True)):
        plan = _plan(location, _listing_sql(location, sort, descending))
        assert "ix_paper_live_title" not in plan and "ix_paper_live_year" not in plan
    with Library.open(location) as lib:
        assert lib.migration_backup is None or f"before-{db.SCHEMA_HEAD}" in lib.migration_backup
        by_title = lib.query("", sort="title").ids
        by_year = lib.query("", sort="year", descending=True).ids
        titles = [lib.papers.get(pid).title for pid in by_title]
        assert [s.lower() for s in titles] == sorted(s.lower() for s in TITLES)
        shown = [(lib.papers.get(pid).year, lib.papers.get(pid).title.lower()) for pid in by_year]
        assert shown == sorted(shown, key=lambda yt: (-yt[0], yt[1]))
    engine = _engine(location)
    try:
        assert db.revision_of(engine) == db.SCHEMA_HEAD
    finally:
        engine.dispose()
    title_plan = _plan(location, _listing_sql(location, "title"))
    year_plan = _plan(location, _listing_sql(location, "year", descending=True))
    assert "ix_paper_live_title" in title_plan
    assert "ix_paper_live_year" in year_plan
    for plan in (title_plan, year_plan):  # read in order: no sort of all papers
        assert "TEMP B-TREE" not in plan and "Sort Key" not in plan, plan


def test_a_deleted_paper_leaves_the_listing_that_reads_the_index(location: str) -> None:
    with Library.open(location) as lib:
        ids = lib.imports.from_records([("t.bib", ParseResult("bibtex", list(RECORDS)))]).paper_ids
        lib.papers.delete([ids[0]])
        shown = lib.query("", sort="title").ids
        assert ids[0] not in shown and len(shown) == len(TITLES) - 1
