"""Highlights: spans of the plain abstract with a color and an optional comment."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import text

from desktop_app.core.anchoring import make_anchor
from desktop_app.core.db import LibraryError
from desktop_app.core.values import Change

if TYPE_CHECKING:
    from desktop_app.core.library import Library

COLORS = ("yellow", "green", "blue", "pink", "purple")


def _check_color(color: str) -> str:
    if color not in COLORS:
        raise LibraryError(f"a highlight color is one of {', '.join(COLORS)}, not '{color}'")
    return color


def add_highlight(self: Library, paper_id: int, start: int, end: int, color: str = "yellow", comment: str = "") -> Change:
    """Highlight ``plain[start:end]`` of the paper's plain abstract."""
    from desktop_app.core.library import now_text

    _check_color(color)
    with self._tx() as conn:
        self._require_papers(conn, [paper_id])
        plain = conn.execute(text("SELECT abstract_text FROM paper WHERE id=:i"), {"i": paper_id}).scalar_one()
        if not (0 <= start < end <= len(plain)) or not plain[start:end].strip():
            raise LibraryError(f"{start}..{end} is not a span of the abstract (it has {len(plain)} characters)")
        a = make_anchor(plain, start, end)
        hid = conn.execute(
            text("INSERT INTO highlight (paper_id, start, end, quote, prefix, suffix, color, comment, orphaned, created_at) "
                 "VALUES (:p, :s, :e, :q, :pr, :su, :c, :cm, 0, :n)"),
            {"p": paper_id, "s": a.start, "e": a.end, "q": a.quote, "pr": a.prefix, "su": a.suffix,
             "c": color, "cm": comment, "n": now_text()},
        ).lastrowid
        self._queue(conn, [paper_id])
    return self._commit_change(Change("highlights", (paper_id,), text_changed=True, detail={"id": hid}))


def highlight_quote(self: Library, paper_id: int, quote: str, color: str = "yellow", comment: str = "") -> Change:
    """Highlight the first occurrence of ``quote`` in the plain abstract."""
    plain = self.paper(paper_id).abstract_text
    start = plain.find(quote)
    if start < 0 or not quote:
        raise LibraryError(f"'{quote}' does not occur in the abstract of paper {paper_id}")
    return self.add_highlight(paper_id, start, start + len(quote), color, comment)


def edit_highlight(self: Library, highlight_id: int, *, color: str | None = None, comment: str | None = None) -> Change:
    with self._tx() as conn:
        row = conn.execute(text("SELECT paper_id, color, comment FROM highlight WHERE id=:h"), {"h": highlight_id}).first()
        if row is None:
            raise LibraryError(f"no highlight with id {highlight_id}")
        pid, old_color, old_comment = row
        conn.execute(
            text("UPDATE highlight SET color=:c, comment=:m WHERE id=:h"),
            {"c": _check_color(color) if color is not None else old_color,
             "m": comment if comment is not None else old_comment, "h": highlight_id},
        )
        self._queue(conn, [pid])
    return self._commit_change(Change("highlights", (pid,), text_changed=True,
                                      detail={"id": highlight_id, "color": old_color, "comment": old_comment}))


def delete_highlight(self: Library, highlight_id: int) -> Change:
    """Delete a highlight; ``detail["row"]`` restores it."""
    with self._tx() as conn:
        row = conn.execute(text("SELECT * FROM highlight WHERE id=:h"), {"h": highlight_id}).mappings().first()
        if row is None:
            raise LibraryError(f"no highlight with id {highlight_id}")
        conn.execute(text("DELETE FROM highlight WHERE id=:h"), {"h": highlight_id})
        self._queue(conn, [row["paper_id"]])
    return self._commit_change(Change("highlights", (row["paper_id"],), text_changed=True, detail={"row": dict(row)}))


def restore_highlight(self: Library, row: dict) -> Change:
    cols = ", ".join(row)
    with self._tx() as conn:
        conn.execute(text(f"INSERT INTO highlight ({cols}) VALUES ({', '.join(':' + c for c in row)})"), row)
        self._queue(conn, [row["paper_id"]])
    return self._commit_change(Change("highlights", (row["paper_id"],), text_changed=True, detail={"id": row["id"]}))
