"""Stable citation keys: every paper gets one (``paper.bibtex_key``), unique in the library

Until now a key was the file's own (or none) and exports made the rest up for each export, so
a paper's key depended on which papers were exported with it. Here each paper without a valid
key gets one by the pattern of ``core/citation_keys.py`` (``vaswani2017attention``), the way the
exports named it: papers in id order, a valid own key kept when no earlier paper took it, the
others ``familyYEARfirstword`` with ``a``, ``b``, ... on a clash -- the keys an export of the
whole library made, so a file exported before this keeps matching. A unique index on
``lower(bibtex_key)`` (keys compare case-insensitively, as in BibTeX) keeps them unique, on
SQLite and PostgreSQL alike. Trashed papers keep theirs (a restore brings the key back).

At 100,000 papers the upgrade to head takes about 9 s wall / 8 s CPU on a 2-core machine, of
which the keys take about 1.5 s, their UPDATEs 1.5 s and the backup every migration makes first
about 4 s (``benchmarks/bench_citation_keys.py``); no table is copied.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""
import json

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_BATCH = 5000


def upgrade() -> None:
    from desktop_app.core.citation_keys import is_valid_key, pattern_key, unique_key

    conn = op.get_bind()
    paper = sa.table("paper", sa.column("id", sa.Integer), sa.column("bibtex_key", sa.String),
                     sa.column("authors_json", sa.String), sa.column("year", sa.Integer),
                     sa.column("title", sa.String))
    rows = conn.execute(sa.select(paper.c.id, paper.c.bibtex_key, paper.c.authors_json, paper.c.year,
                                  paper.c.title).order_by(paper.c.id)).all()
    taken: set[str] = set()
    keys: dict[int, str] = {}
    for row in rows:
        own = (row.bibtex_key or "").strip()
        if is_valid_key(own) and own.lower() not in taken:
            keys[row.id] = own
            taken.add(own.lower())
    changed: list[dict[str, object]] = []
    for row in rows:
        key = keys.get(row.id)
        if key is None:
            try:
                authors = json.loads(row.authors_json or "[]")
            except ValueError:
                authors = []
            names = [a for a in authors if isinstance(a, str)] if isinstance(authors, list) else []
            key = unique_key(pattern_key(names, row.year, row.title or ""), taken)
            taken.add(key.lower())
        if key != row.bibtex_key:
            changed.append({"b_id": row.id, "b_key": key})
    update = (sa.update(paper).where(paper.c.id == sa.bindparam("b_id"))
              .values(bibtex_key=sa.bindparam("b_key")))
    for start in range(0, len(changed), _BATCH):
        conn.execute(update, changed[start:start + _BATCH])
    op.create_index("ix_paper_citation_key", "paper", [sa.text("lower(bibtex_key)")], unique=True)


def downgrade() -> None:
    op.drop_index("ix_paper_citation_key", table_name="paper")
