"""The edits recorded as applied (table ``applied_edit``, migration 0012), so that an edit sent
again is not applied twice.

A window sends each edit of a shared library with an id it made (a UUID). The transaction that
applies the edit records the id, with the edit's Change as JSON (:meth:`Store.once
<desktop_app.core.store.Store.once>`). When the connection drops after the COMMIT and before
its answer, the window believes the edit failed and sends it again from its outbox: the id is
found, nothing is written and the recorded Change stands for it. Rows older than
:data:`KEEP_DAYS` go as new ones are recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import Connection, delete, insert, select
from sqlalchemy.exc import SQLAlchemyError

from desktop_app.core.errors import AlreadyApplied
from desktop_app.core.store import tables as t

KEEP_DAYS = 90  # an outbox older than this sends its edits as if none had been applied


@dataclass
class Once:
    """The transaction of one edit sent with ``edit_id``; ``result`` is what it records with
    the id (the Change as JSON). :meth:`check` raises AlreadyApplied when the id was recorded."""

    conn: Connection
    edit_id: str
    result: str | None = None
    _found: tuple[bool, str | None] | None = field(default=None, repr=False)

    def check(self) -> None:
        """Raise :class:`AlreadyApplied` when a committed transaction recorded this id (read
        once; every later call answers the same, so a caller that swallowed it cannot go on)."""
        if self._found is None:
            row = self.conn.execute(select(t.applied_edit.c.change).where(t.applied_edit.c.id == self.edit_id)).first()
            self._found = (row is not None, None if row is None else row[0])
        found, change = self._found
        if found:
            raise AlreadyApplied("this edit had been saved already (its answer was lost with the connection)", change)

    def check_after(self, refused: Exception) -> None:
        """The edit was refused before it wrote anything (a check made by a read): when its id
        was recorded, it was refused because it is applied already, and :meth:`check` raises
        AlreadyApplied instead. A statement that cannot run now leaves ``refused`` as it is."""
        try:
            self.check()
        except SQLAlchemyError:
            return
        except AlreadyApplied as exc:
            raise exc from refused

    def record(self, now: datetime) -> None:
        """Record the id (and ``result``) in this transaction; forget those older than KEEP_DAYS."""
        ae = t.applied_edit
        self.conn.execute(delete(ae).where(ae.c.applied_at < now - timedelta(days=KEEP_DAYS)))
        self.conn.execute(insert(ae).values(id=self.edit_id, applied_at=now, change=self.result))
