"""Notes: one markdown note per paper; every earlier text is kept as a revision."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import text

from desktop_app.core.values import Change

if TYPE_CHECKING:
    from desktop_app.core.library import Library


class LibraryBusy(Exception):
    """The library is busy with a long write (an import); try again shortly."""


def set_note(self: Library, paper_id: int, note: str, *, wait: float | None = None) -> Change:
    """Replace a paper's note. The previous text (when different and not empty) becomes a
    revision, so no text is ever lost to an overwrite. With ``wait`` (seconds), raise
    LibraryBusy instead of blocking longer than that behind another write."""
    if wait is not None:
        if not self._write_lock.acquire(timeout=wait):
            raise LibraryBusy("the library is busy; the note will be saved in a moment")
        try:
            return set_note(self, paper_id, note)
        finally:
            self._write_lock.release()
    from desktop_app.core.library import now_text

    with self._tx() as conn:
        self._require_papers(conn, [paper_id])
        old = conn.execute(text("SELECT text FROM note WHERE paper_id=:i"), {"i": paper_id}).scalar()
        if old == note:
            return Change("note", (paper_id,))
        now = now_text()
        if old:
            conn.execute(
                text("INSERT INTO note_revision (paper_id, text, saved_at) VALUES (:i, :t, :n)"),
                {"i": paper_id, "t": old, "n": now},
            )
        conn.execute(
            text("INSERT INTO note (paper_id, text, updated_at) VALUES (:i, :t, :n) "
                 "ON CONFLICT(paper_id) DO UPDATE SET text=excluded.text, updated_at=excluded.updated_at"),
            {"i": paper_id, "t": note, "n": now},
        )
        conn.execute(text("UPDATE paper SET updated_at=:n WHERE id=:i"), {"n": now, "i": paper_id})
        self._queue(conn, [paper_id])
    return self._commit_change(Change("note", (paper_id,), text_changed=True, detail={"old": old or ""}))
