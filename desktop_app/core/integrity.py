"""The library's health check: the database's own checks, the index queue, and whether the
derived index holds exactly the live papers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import func, select

from desktop_app.core.store import Store
from desktop_app.core.store import tables as t
from desktop_app.core.store.wal_witness import describe_lost

if TYPE_CHECKING:
    from desktop_app.core.search.sync import IndexSync


def index_disagreement(store: Store, index: IndexSync) -> str | None:
    """How the index's papers differ from the live papers, or None when they are the same set.

    The open check compares counts only; a damaged segment can keep the count and lose papers.
    """
    if not index.is_open:
        return None
    import numpy as np

    with store.read() as conn:  # as arrays: a command-line search runs this first (100,000 ids)
        live_ids = np.sort(
            np.asarray(
                store.fetch_ids(conn, select(t.paper.c.id).where(t.paper.c.deleted_at.is_(None))), dtype=np.int64
            )
        )
    indexed_ids = np.sort(index.index.all_pid_array())
    if np.array_equal(live_ids, indexed_ids):
        return None
    live, indexed = set(live_ids.tolist()), set(indexed_ids.tolist())
    if indexed == live:
        return None
    return f"search index differs from the database: {len(live - indexed)} missing, {len(indexed - live)} extra"


def integrity_problems(store: Store, index: IndexSync) -> list[str]:
    """Problems found in the database and the index; empty when all is well."""
    with store.read() as conn:
        problems = store.dialect.integrity_problems(conn)
    missing, named = store.lost_writes()
    if missing:
        problems.append(
            f"the database lacks {describe_lost(missing, named)}: was its -wal file deleted or "
            "replaced while the library was open? Those writes are gone unless a backup has them; "
            "`marginalia restore` lists the backups"
        )
    with store.read() as conn:
        queued = conn.execute(select(func.count()).select_from(t.index_queue)).scalar_one()
        if queued:
            problems.append(f"{queued} papers wait for the search index")
    if index.is_open:
        differs = index_disagreement(store, index)
        if differs:
            problems.append(f"{differs} (run `marginalia check --repair`)")
    else:
        problems.append("search index is not open")
    return problems
