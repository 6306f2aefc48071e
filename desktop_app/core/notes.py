"""Notes: one markdown note per paper; every earlier text is kept as a revision."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Select, insert, select, update

from desktop_app.core.changelog.changes import writes
from desktop_app.core.changelog.undo_data import NoteBefore
from desktop_app.core.errors import LibraryBusy
from desktop_app.core.store import Store
from desktop_app.core.store import tables as t
from desktop_app.core.values import Change, ChangeKind


@dataclass(frozen=True)
class NoteVersion:
    """One text a note has had: a stored revision (``id``), or the note as it is now (``id`` None)."""

    id: int | None
    saved_at: datetime | None
    text: str


def _when(value: object) -> datetime | None:
    if value is None or isinstance(value, datetime):
        return value
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        return None


class Notes:
    """A paper's note and its earlier texts."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def text(self, paper_id: int) -> str:
        """The note as stored now ("" when there is none)."""
        with self.store.read() as conn:
            return conn.execute(select(t.note.c.text).where(t.note.c.paper_id == paper_id)).scalar() or ""

    @writes
    def set(self, paper_id: int, note: str, *, base: str | None = None, wait: float | None = None) -> Change:
        """Replace a paper's note. The previous text (when different and not empty) becomes a
        revision, so no text is ever lost to an overwrite.

        ``base`` is the text the editor started from. When the stored text is not ``base``,
        someone else (the CLI, another window) changed the note meanwhile: ours is written, theirs
        is kept as a revision and returned as ``detail.conflict`` so the window can say so.
        With ``wait`` (seconds), raise LibraryBusy instead of blocking longer than that behind
        another write."""
        if wait is not None:  # (this process's writers and, on SQLite, another process's)
            try:
                with self.store.waiting_at_most(wait):
                    return self._write(paper_id, lambda _old: note, base)
            except LibraryBusy:
                raise LibraryBusy("the library is busy; the note will be saved in a moment") from None
        return self._write(paper_id, lambda _old: note, base)

    @writes
    def append(self, paper_id: int, text: str) -> Change:
        """Add ``text`` as a new paragraph line at the end of the note, atomically: the current
        text is read inside the write transaction, so concurrent appends all survive."""
        return self._write(paper_id, lambda old: (old + "\n" if old else "") + text)

    def _write(self, paper_id: int, new_text: Callable[[str], str], base: str | None = None) -> Change:
        """One transaction: read the note under the write lock, keep it as a revision, write."""
        with self.store.write() as tx:
            tx.require_papers([paper_id])
            tx.d.lock_paper(tx.conn, paper_id)
            # FOR UPDATE: PostgreSQL locks the row read here; SQLite's write lock is already held
            old = tx.conn.execute(select(t.note.c.text).where(t.note.c.paper_id == paper_id).with_for_update()).scalar()
            note = new_text(old or "")
            if old == note:
                return Change(ChangeKind.NOTE, (paper_id,))
            theirs = old or ""
            conflict = base is not None and theirs != base
            if old:
                tx.conn.execute(insert(t.note_revision).values(paper_id=paper_id, text=old, saved_at=tx.now))
            ins = tx.d.insert(t.note).values(paper_id=paper_id, text=note, updated_at=tx.now)
            tx.conn.execute(
                ins.on_conflict_do_update(
                    index_elements=["paper_id"],
                    set_={"text": ins.excluded.text, "updated_at": ins.excluded.updated_at},
                )
            )
            tx.conn.execute(update(t.paper).where(t.paper.c.id == paper_id).values(updated_at=tx.now))
            tx.queue_index([paper_id])
        before = NoteBefore(theirs, theirs if conflict else None)
        return Change(ChangeKind.NOTE, (paper_id,), text_changed=True, detail=before)

    def revisions(self, paper_id: int) -> list[tuple[str, str]]:
        """Earlier texts of a paper's note, newest first: (saved_at, text)."""
        rev = t.note_revision
        stmt: Select[object, str] = (
            select(rev.c.saved_at, rev.c.text).where(rev.c.paper_id == paper_id).order_by(rev.c.id.desc())
        )
        with self.store.read() as conn:
            return [(str(saved_at)[:19], text) for saved_at, text in conn.execute(stmt)]

    def history(self, paper_id: int) -> list[NoteVersion]:
        """Every text the note has had, newest first: the current note (``id`` None, when there
        is one) and then its revisions. Each earlier text is a revision saved when it was replaced."""
        rev = t.note_revision
        with self.store.read() as conn:
            now = conn.execute(select(t.note.c.text, t.note.c.updated_at).where(t.note.c.paper_id == paper_id)).first()
            revisions: Select[int, object, str] = (
                select(rev.c.id, rev.c.saved_at, rev.c.text).where(rev.c.paper_id == paper_id).order_by(rev.c.id.desc())
            )
            rows = conn.execute(revisions).all()
        out = [NoteVersion(None, _when(now[1]), now[0])] if now is not None and now[0] else []
        out += [NoteVersion(rid, _when(at), text) for rid, at, text in rows]
        return out

    def revision(self, revision_id: int) -> NoteVersion | None:
        """One stored revision by id (None when there is no such revision)."""
        rev = t.note_revision
        with self.store.read() as conn:
            row = conn.execute(select(rev.c.id, rev.c.saved_at, rev.c.text).where(rev.c.id == revision_id)).first()
        return None if row is None else NoteVersion(row[0], _when(row[1]), row[2])
