"""Writing a transaction's change_log rows (core/changelog/changes.py says what they are for).

Here, inside the store package, so that :meth:`Store.write` needs nothing outside it: the facade
operation running (``OPERATION``, set by ``changes.logged``) names the rows' kind; the papers the
transaction touched are its rows.
"""

from __future__ import annotations

import contextvars
import json
from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import Connection, insert

from desktop_app.core.store import tables as t
from desktop_app.core.store.dialect import Dialect

MANY = 5000  # more papers than this in one write: one library-wide row instead of one per paper

# (operation name, [logged yet]) of the facade call running in this context
OPERATION: contextvars.ContextVar[tuple[str, list[bool]] | None] = contextvars.ContextVar(
    "marginalia_operation", default=None
)


def log_write(conn: Connection, dialect: Dialect, touched: Iterable[int], now: datetime, actor: str) -> None:
    """Write the change rows of one transaction, just before its commit (Store.write)."""
    op = OPERATION.get()
    ids = sorted(touched)
    if not ids and (op is None or op[1][0]):
        return  # nothing a desk must re-read (the index queue's own bookkeeping, a no-op)
    kind = op[0] if op is not None else "write"
    if op is not None:
        op[1][0] = True
    if len(ids) > MANY:
        rows: list[dict[str, object]] = [{"paper_id": None, "detail": json.dumps({"count": len(ids)})}]
    else:
        rows = [{"paper_id": pid, "detail": "{}"} for pid in ids] or [{"paper_id": None, "detail": "{}"}]
    for row in rows:
        row.update(at=now, actor=actor, kind=kind)
    dialect.order_change_log(conn)
    conn.execute(insert(t.change_log), rows)
    dialect.notify_changes(conn)
