"""Writing ``change_log`` rows inside a write transaction (models.ChangeLog).

One row per paper per change, written by a few INSERT ... SELECTs per call, in the transaction of
the change itself: a rolled-back change leaves no row. Kinds written here (:class:`FieldKind`):

- ``"status"``: ``{"old": "unread", "new": "read"}`` (and ``"via": "import"|"merge"`` when the
  status came from a library file or a merge rather than from the reader's decision);
- ``"rating"``: ``{"old": 0, "new": 4}`` (``via`` likewise);
- ``"tag"``: ``{"added": "rl/rlvr"}`` or ``{"removed": "rl/rlvr"}``;
- ``"decision"``: ``{"old": null, "new": "keep"}`` (a triage decision; null is undecided).

Undo is an ordinary change: undoing a status change logs the reverse change.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any

from sqlalchemy import insert, literal, true

from desktop_app.core.changelog.actor import current_actor
from desktop_app.core.store import Tx
from desktop_app.core.store import tables as t


class FieldKind(StrEnum):
    """The kinds of row this module writes: one field of one paper changed, with its old and
    new value. Stored as their text ("status", ...). The other rows of the same table, one per
    facade call ("papers.set_status", ...: core/store/change_log.py), are what a shared
    library's desks follow; they skip these, which the statistics and triage progress read."""

    STATUS = "status"
    RATING = "rating"
    TAG = "tag"
    DECISION = "decision"


STATISTICS_KINDS = tuple(FieldKind)


def _dump(detail: Mapping[str, Any]) -> str:
    return json.dumps(detail, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def record(tx: Tx, kind: FieldKind, entries: Iterable[tuple[int, Mapping[str, Any]]]) -> int:
    """Log ``(paper_id, detail)`` entries of one ``kind`` in ``tx``; returns how many.

    Papers sharing a detail (a bulk edit: the same tag, the same old and new status) are written
    by one INSERT ... SELECT over their ids bound as one parameter: a bulk change of 1,000 papers
    costs a few statements, not 1,000 bound rows."""
    groups: dict[str, list[int]] = {}
    for pid, detail in entries:
        groups.setdefault(_dump(detail), []).append(int(pid))
    if not groups:
        return 0
    actor = tx.actor or current_actor()  # the store's (a shared library: the role), else the login
    cols = t.change_log.c
    for dumped, ids in groups.items():
        rows = (
            tx.d.id_values(ids)
            .add_columns(
                literal(tx.now, cols.at.type),
                literal(actor, cols.actor.type),
                literal(kind.value, cols.kind.type),
                literal(dumped, cols.detail.type),
            )
            .where(true())
        )
        tx.conn.execute(insert(t.change_log).from_select(["paper_id", "at", "actor", "kind", "detail"], rows))
    return sum(len(ids) for ids in groups.values())


def record_fields(
    tx: Tx, old: Mapping[int, Mapping[str, Any]], new: Mapping[int, Mapping[str, Any]], via: str | None = None
) -> None:
    """Log the status and rating changes between ``old`` and ``new`` column values per paper
    (only the values that really differ)."""
    for kind in (FieldKind.STATUS, FieldKind.RATING, FieldKind.DECISION):
        column = kind.value
        entries = []
        for pid, values in new.items():
            if column not in values or column not in old.get(pid, {}):
                continue
            before, after = old[pid][column], values[column]
            if before != after:
                detail: dict[str, Any] = {"old": before, "new": after}
                if via:
                    detail["via"] = via
                entries.append((pid, detail))
        record(tx, kind, entries)
