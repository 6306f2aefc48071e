"""Highlights: spans of the plain abstract with a color and an optional comment."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy import Select, delete, insert, select, update

from desktop_app.core.anchoring import make_anchor
from desktop_app.core.changelog.changes import writes
from desktop_app.core.changelog.undo_data import HighlightBefore, HighlightId, HighlightRow
from desktop_app.core.errors import LibraryError
from desktop_app.core.store import tables as t
from desktop_app.core.store.store import inserted_id
from desktop_app.core.values import Change, ChangeKind

if TYPE_CHECKING:
    from desktop_app.core.papers import Papers
    from desktop_app.core.store import Store

COLORS = ("yellow", "green", "blue", "pink", "purple")


def _check_color(color: str) -> str:
    if color not in COLORS:
        raise LibraryError(f"a highlight color is one of {', '.join(COLORS)}, not '{color}'")
    return color


class Highlights:
    """Add, edit, delete and restore highlights; each write re-queues the paper for the index
    (highlight comments are searchable)."""

    def __init__(self, store: Store, papers: Papers) -> None:
        self._store = store
        self._papers = papers

    @writes
    def add(self, paper_id: int, start: int, end: int, color: str = "yellow", comment: str = "") -> Change:
        """Highlight ``plain[start:end]`` of the paper's plain abstract."""
        _check_color(color)
        h = t.highlight
        with self._store.write() as tx:
            tx.require_papers([paper_id])
            plain: str = tx.conn.execute(select(t.paper.c.abstract_text).where(t.paper.c.id == paper_id)).scalar_one()
            if not (0 <= start < end <= len(plain)) or not plain[start:end].strip():
                raise LibraryError(f"{start}..{end} is not a span of the abstract (it has {len(plain)} characters)")
            a = make_anchor(plain, start, end)
            hid = inserted_id(
                tx.conn.execute(
                    insert(h).values(
                        paper_id=paper_id,
                        start=a.start,
                        end=a.end,
                        quote=a.quote,
                        prefix=a.prefix,
                        suffix=a.suffix,
                        color=color,
                        comment=comment,
                        orphaned=False,
                        created_at=tx.now,
                    )
                )
            )
            tx.queue_index([paper_id])
        return Change(ChangeKind.HIGHLIGHTS, (paper_id,), text_changed=True, detail=HighlightId(hid))

    @writes
    def add_quote(self, paper_id: int, quote: str, color: str = "yellow", comment: str = "") -> Change:
        """Highlight the first occurrence of ``quote`` in the plain abstract."""
        plain = self._papers.get(paper_id).abstract_text
        start = plain.find(quote)
        if start < 0 or not quote:
            raise LibraryError(f"'{quote}' does not occur in the abstract of paper {paper_id}")
        return self.add(paper_id, start, start + len(quote), color, comment)

    @writes
    def edit(self, highlight_id: int, *, color: str | None = None, comment: str | None = None) -> Change:
        """Change a highlight's color and/or comment; ``detail`` keeps the old ones."""
        h = t.highlight
        with self._store.write() as tx:
            found: Select[int, str, str] = select(h.c.paper_id, h.c.color, h.c.comment).where(h.c.id == highlight_id)
            row = tx.conn.execute(found).first()
            if row is None:
                raise LibraryError(f"no highlight with id {highlight_id}")
            pid, old_color, old_comment = row
            tx.conn.execute(
                update(h)
                .where(h.c.id == highlight_id)
                .values(
                    color=_check_color(color) if color is not None else old_color,
                    comment=comment if comment is not None else old_comment,
                )
            )
            tx.queue_index([pid])
        return Change(
            ChangeKind.HIGHLIGHTS,
            (pid,),
            text_changed=True,
            detail=HighlightBefore(highlight_id, old_color, old_comment),
        )

    @writes
    def delete(self, highlight_id: int) -> Change:
        """Delete a highlight; ``detail.row`` restores it."""
        h = t.highlight
        with self._store.write() as tx:
            row = tx.conn.execute(select(h).where(h.c.id == highlight_id)).mappings().first()
            if row is None:
                raise LibraryError(f"no highlight with id {highlight_id}")
            tx.conn.execute(delete(h).where(h.c.id == highlight_id))
            tx.queue_index([row["paper_id"]])
        return Change(ChangeKind.HIGHLIGHTS, (row["paper_id"],), text_changed=True, detail=HighlightRow(dict(row)))

    @writes
    def restore(self, row: Mapping[str, Any]) -> Change:
        """Put back a highlight deleted by :meth:`delete` (its ``detail.row``), same id."""
        with self._store.write() as tx:
            tx.conn.execute(insert(t.highlight).values(**row))
            tx.queue_index([row["paper_id"]])
        return Change(ChangeKind.HIGHLIGHTS, (row["paper_id"],), text_changed=True, detail=HighlightId(row["id"]))
