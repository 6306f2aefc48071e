"""Triage progress from the library: decided papers, and papers decided since a moment from the
change log's "status" events (written here as the statistics' logging writes them)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from sqlalchemy import insert

from desktop_app.core.insights import triage_progress as triage
from desktop_app.core.library import Library
from desktop_app.core.models import ChangeLog


def _log(lib: Library, pid: int, old: str, new: str, at: datetime) -> None:
    with lib.store.write() as tx:
        tx.conn.execute(
            insert(ChangeLog.__table__).values(  # type: ignore[attr-defined]
                at=at, kind="status", paper_id=pid, detail=json.dumps({"old": old, "new": new})
            )
        )


def test_triaged_ids_and_statuses(seed_library: Library) -> None:
    lib = seed_library
    ids = lib.finder.list_ids()
    assert triage.triaged_ids(lib.store) == set()
    lib.papers.set_status(ids[:3], "read")
    lib.papers.set_status(ids[3:4], "skimmed")
    assert triage.triaged_ids(lib.store) == set(ids[:4])
    lib.papers.delete(ids[:1])
    assert triage.triaged_ids(lib.store) == set(ids[1:4])  # deleted papers do not count
    assert triage.statuses(lib.store, ids[:5]) == {ids[1]: "read", ids[2]: "read", ids[3]: "skimmed", ids[4]: "unread"}


def test_decided_since_reads_status_events(seed_library: Library) -> None:
    lib = seed_library
    a, b, c, d = lib.finder.list_ids()[:4]
    now = datetime.now(UTC)
    midnight = now - timedelta(hours=1)
    assert triage.decided_since(lib.store, midnight) == set()
    _log(lib, a, "unread", "read", now - timedelta(days=1))  # yesterday: not today's
    _log(lib, b, "unread", "skimmed", now)
    _log(lib, c, "unread", "read", now)
    _log(lib, c, "read", "unread", now)  # undone: not decided
    _log(lib, d, "unread", "read", now)
    assert triage.decided_since(lib.store, midnight) == {b, d}
