"""Migration 0011: the sidebar's decision counts read a covering index, not every live row."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.dialects import sqlite

from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from desktop_app.core.store import tables as t


def test_the_decision_counts_use_the_live_decision_index(library_dir: Path) -> None:
    records = [Record(title=f"Paper {i}", abstract=f"About topic {i}.") for i in range(30)]
    with Library.open(library_dir) as lib:
        lib.imports.from_records([("r", ParseResult("csv", records))])
        ids = lib.query("", sort="added").ids
        lib.papers.set_decision(ids[:4], "keep")
        lib.papers.set_decision(ids[4:6], "skip")
        lib.papers.delete(ids[:1])
        assert lib.papers.decision_counts() == {"keep": 3, "maybe": 0, "skip": 2, "none": 24}
    p = t.paper.c  # the statement decision_counts runs
    stmt = select(p.decision, func.count()).where(p.deleted_at.is_(None)).group_by(p.decision)
    sql = str(stmt.compile(dialect=sqlite.dialect()))
    con = sqlite3.connect(library_dir / "library.sqlite")
    try:
        plan = " ".join(str(row[-1]) for row in con.execute("EXPLAIN QUERY PLAN " + sql))
    finally:
        con.close()
    assert "COVERING INDEX ix_paper_live_decision" in plan, plan
