"""Highlight anchors (the Hypothesis model): a position in the plain abstract plus the exact
quote with about 32 characters of context on each side. When the text changes, the quote is
found again (exactly, then fuzzily); a highlight that cannot be placed is orphaned, never lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

from sqlalchemy import Connection, select, update

from desktop_app.core.store import tables as t

CONTEXT = 32
FUZZY_MIN_RATIO = 0.75


@dataclass
class Anchor:
    start: int
    end: int
    quote: str
    prefix: str
    suffix: str


def make_anchor(plain: str, start: int, end: int) -> Anchor:
    start, end = max(0, start), min(len(plain), end)
    return Anchor(start, end, plain[start:end], plain[max(0, start - CONTEXT):start], plain[end:end + CONTEXT])


def _context_score(plain: str, start: int, end: int, prefix: str, suffix: str) -> float:
    before = plain[max(0, start - len(prefix)):start]
    after = plain[end:end + len(suffix)]
    a = SequenceMatcher(None, before, prefix).ratio() if prefix else 1.0
    b = SequenceMatcher(None, after, suffix).ratio() if suffix else 1.0
    return a + b


def locate(plain: str, quote: str, prefix: str, suffix: str, hint: int) -> tuple[int, int] | None:
    """Where the quote stands now: the exact occurrence with the best context (nearest the old
    position on ties), else the best fuzzy window of similar length, else None."""
    if not quote:
        return None
    hits = []
    pos = plain.find(quote)
    while pos != -1:
        hits.append(pos)
        pos = plain.find(quote, pos + 1)
    if hits:
        best = max(hits, key=lambda s: (_context_score(plain, s, s + len(quote), prefix, suffix), -abs(s - hint)))
        return best, best + len(quote)
    return _fuzzy(plain, quote)


def _fuzzy(plain: str, quote: str) -> tuple[int, int] | None:
    matcher = SequenceMatcher(None, plain, quote, autojunk=False)
    best: tuple[float, int, int] | None = None
    for block in matcher.get_matching_blocks():
        if block.size < 4:
            continue
        base = block.a - block.b
        for delta in range(-8, 9, 2):
            s = max(0, base + delta)
            for length in (len(quote) - 4, len(quote), len(quote) + 4):
                e = min(len(plain), s + max(1, length))
                ratio = SequenceMatcher(None, plain[s:e], quote, autojunk=False).ratio()
                if best is None or ratio > best[0]:
                    best = (ratio, s, e)
    if best is None or best[0] < FUZZY_MIN_RATIO:
        return None
    _, s, e = best
    # snap to word boundaries so the highlight covers whole words
    while s > 0 and plain[s - 1].isalnum() and plain[s].isalnum():
        s -= 1
    while e < len(plain) and plain[e - 1].isalnum() and plain[e].isalnum():
        e += 1
    return s, e


def reanchor_all(conn: Connection, paper_id: int, plain: str) -> tuple[int, int]:
    """Re-place every highlight of a paper on its new plain text. Returns (placed, orphaned).

    ``conn`` is the connection of the caller's write transaction."""
    h = t.highlight
    placed = orphaned = 0
    rows = conn.execute(
        select(h.c.id, h.c.start, h.c.quote, h.c.prefix, h.c.suffix).where(h.c.paper_id == paper_id)
    ).all()
    for hid, start, quote, prefix, suffix in rows:
        where = locate(plain, quote, prefix, suffix, start)
        if where is None:
            conn.execute(update(h).where(h.c.id == hid).values(orphaned=True))
            orphaned += 1
            continue
        a = make_anchor(plain, *where)
        conn.execute(
            update(h)
            .where(h.c.id == hid)
            .values(start=a.start, end=a.end, prefix=a.prefix, suffix=a.suffix, orphaned=False)
        )
        placed += 1
    return placed, orphaned
