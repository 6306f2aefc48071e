"""Highlight anchors (the Hypothesis model): a position in the plain abstract plus the exact
quote with about 32 characters of context on each side.

When the text changes, every highlight is placed again by :func:`locate`:

1. the quote found exactly with its old prefix and suffix around it stays there (nearest the
   expected position when it occurs more than once);
2. otherwise candidate spans are gathered: every exact occurrence of the quote, and fuzzy
   matches (diff-match-patch's bitap ``match_main``) of the quote's head and tail, and of the
   old prefix and suffix, searched around the *expected* position (the old position carried
   through a diff of the old and new text, when the old text is known);
3. each candidate is scored by how much of the quote it keeps and how much of the old context
   is still around it, or, if better, how close it is to the expected position (:func:`score`),
   and ranked by that score minus a small penalty for its distance from the expected position;
4. the best candidate is accepted only if its quote similarity is at least :data:`QUOTE_MIN`
   and its score at least :data:`SCORE_MIN`; otherwise the highlight is orphaned: kept, with
   its quote and comment, and shown as "no longer in the abstract", never moved onto words the
   user did not mark.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from diff_match_patch import diff_match_patch
from sqlalchemy import Connection, Select, select, update

from desktop_app.core.store import tables as t

CONTEXT = 32
# At most a quarter of the quote's characters may have been edited (Levenshtein distance over
# the longer length): "treats verifiable environments as composable building blocks" ->
# "... construction blocks" (0.81) re-anchors; "50 base environments" -> "a few environments"
# (0.65) does not, since the words the user marked (and commented on) are gone.
QUOTE_MIN = 0.75
# Quote and context together (see :func:`score`): an exact quote of up to 32 characters whose
# surroundings were all rewritten scores 0.6 + 0.4 * (context left) and is orphaned below 0.7.
SCORE_MIN = 0.70
# Weight of the context in the score for a quote of up to CONTEXT characters; a longer quote
# says more by itself, so its context weighs proportionally less.
CONTEXT_WEIGHT = 0.4
# Ranking only (not the threshold): a candidate a whole text length away loses this much.
POSITION_WEIGHT = 0.1
# Bitap's Match_Distance when the old text is known: an exact match may then be found up to
# half of it away from where the diff puts the passage (a quote moved intact is found anywhere).
NEAR_MAPPED = 8 * CONTEXT


@dataclass
class Anchor:
    start: int
    end: int
    quote: str
    prefix: str
    suffix: str


def make_anchor(plain: str, start: int, end: int) -> Anchor:
    start, end = max(0, start), min(len(plain), end)
    return Anchor(start, end, plain[start:end], plain[max(0, start - CONTEXT) : start], plain[end : end + CONTEXT])


def _dmp(text_length: int = 1000) -> diff_match_patch:
    dmp = diff_match_patch()
    dmp.Diff_Timeout = 0.2  # seconds; an unfinished diff is coarser, never wrong
    dmp.Match_Threshold = 0.5
    dmp.Match_Distance = max(1, text_length)
    return dmp


_DIFF = _dmp()


def similarity(a: str, b: str) -> float:
    """1 - Levenshtein distance / longer length (1.0: equal, 0.0: nothing in common)."""
    if a == b:
        return 1.0
    if not a or not b:
        return 0.0
    distance: int = _DIFF.diff_levenshtein(_DIFF.diff_main(a, b, False))  # diff_match_patch: no hints
    return 1.0 - distance / max(len(a), len(b))


def _leading_similarity(old: str, text: str) -> float:
    """How well ``old`` matches the beginning of ``text`` (text beyond the match is free):
    1 - edits / len(old), the edits counted until all of ``old`` is consumed."""
    if not old:
        return 1.0
    consumed = edits = inserted = deleted = 0
    for op, chunk in _DIFF.diff_main(old, text[: 2 * len(old)], False):
        if consumed >= len(old):
            break
        if op == diff_match_patch.DIFF_EQUAL:
            edits += max(inserted, deleted)
            inserted = deleted = 0
            consumed += len(chunk)
        elif op == diff_match_patch.DIFF_DELETE:
            deleted += len(chunk)
            consumed += len(chunk)
        else:
            inserted += len(chunk)
    edits += max(inserted, deleted)
    return max(0.0, 1.0 - edits / len(old))


def context_similarity(plain: str, start: int, end: int, prefix: str, suffix: str) -> float:
    """How much of the old prefix (just before ``start``) and suffix (just after ``end``) is
    still there: the mean of 1 - edits / length of each. An empty one (the quote was at the
    text's edge) counts 1 when the candidate is at that edge too, and is left out otherwise;
    with nothing to compare, 1."""
    parts = []
    if prefix or start == 0:
        parts.append(_leading_similarity(prefix[::-1], plain[max(0, start - 2 * len(prefix)) : start][::-1]))
    if suffix or end == len(plain):
        parts.append(_leading_similarity(suffix, plain[end : end + 2 * len(suffix)]))
    return sum(parts) / len(parts) if parts else 1.0


def score(
    plain: str,
    start: int,
    end: int,
    quote: str,
    prefix: str,
    suffix: str,
    mapped: tuple[int, int] | None = None,
) -> tuple[float, float]:
    """(quote similarity, combined score) of the candidate ``plain[start:end]``.

    The combined score is ``(1 - w) * quote + w * surroundings`` with ``w`` the
    :data:`CONTEXT_WEIGHT` (less for quotes longer than CONTEXT). The surroundings are the old
    context still around the candidate, or, if better, how exactly it covers ``mapped`` (the old
    span carried through the diff: 1 when both ends coincide, 0 when they are CONTEXT characters
    off in all), so that a quote still where it was keeps its place even when both sides of it
    were rewritten, while words that merely follow a deleted quote gain nothing."""
    q = similarity(plain[start:end], quote)
    w = CONTEXT_WEIGHT * min(1.0, CONTEXT / max(1, len(quote)))
    around = context_similarity(plain, start, end, prefix, suffix)
    if mapped is not None:
        off = abs(start - mapped[0]) + abs(end - mapped[1])
        around = max(around, 1.0 - min(1.0, off / CONTEXT))
    return q, (1.0 - w) * q + w * around


def _exact_hits(plain: str, quote: str) -> list[int]:
    hits = []
    pos = plain.find(quote)
    while pos != -1:
        hits.append(pos)
        pos = plain.find(quote, pos + 1)
    return hits


def _fuzzy_spans(
    plain: str,
    quote: str,
    prefix: str,
    suffix: str,
    expected: int,
    reach: int,
) -> set[tuple[int, int]]:
    """Candidate spans near ``expected`` from bitap matches of the quote's head and tail and of
    the old prefix and suffix (each at most Match_MaxBits characters). A match costs
    errors / pattern length + distance / ``reach`` and must cost at most 0.5."""
    dmp = _dmp(reach)
    bits, n = dmp.Match_MaxBits, len(quote)

    def near(pattern: str, loc: int) -> int:
        return dmp.match_main(plain, pattern, loc) if pattern else -1

    spans: set[tuple[int, int]] = set()
    head, tail = quote[:bits], quote[-bits:]
    hs = near(head, expected)
    te = near(tail, expected + n - len(tail))
    te = te + len(tail) if te >= 0 else -1
    ps = near(prefix[-bits:], expected - len(prefix[-bits:]))
    pe = ps + len(prefix[-bits:]) if ps >= 0 else -1
    ss = near(suffix[:bits], expected + n)
    for s in (hs, pe):
        if s >= 0:
            spans.add((s, s + n))
            for e in (te, ss):
                if e > s:
                    spans.add((s, e))
    for e in (te, ss):
        if e >= 0:
            spans.add((e - n, e))
    return spans


def _word_variants(plain: str, start: int, end: int, snap_start: bool, snap_end: bool) -> set[tuple[int, int]]:
    """The span with its edges moved to word boundaries (when the old quote began/ended on one),
    plus the span one word shorter at either end."""
    n = len(plain)
    s, e = max(0, min(start, n)), max(0, min(end, n))
    while s < e and plain[s].isspace():
        s += 1
    while e > s and plain[e - 1].isspace():
        e -= 1
    if snap_start:
        while 0 < s < n and plain[s - 1].isalnum() and plain[s].isalnum():
            s -= 1
    if snap_end:
        while 0 < e < n and plain[e - 1].isalnum() and plain[e].isalnum():
            e += 1
    starts, ends = {s}, {e}
    if snap_start:
        nxt = plain.find(" ", s, e)
        if nxt != -1:
            starts.add(nxt + 1)
    if snap_end:
        prv = plain.rfind(" ", s, e)
        if prv != -1:
            ends.add(prv)
    return {(a, b) for a in starts for b in ends if a < b}


def locate(
    plain: str,
    quote: str,
    prefix: str,
    suffix: str,
    expected: int,
    mapped: tuple[int, int] | None = None,
) -> tuple[int, int] | None:
    """Where the quote stands now, or None (orphan). ``expected`` is where it should start;
    ``mapped`` the old span carried through a diff of the old and new text, if known."""
    if not quote or not plain:
        return None
    expected = max(0, min(expected, len(plain)))
    hits = _exact_hits(plain, quote)

    def distance(s: int) -> float:
        return abs(s - expected) / max(1, len(plain))

    exact = [s for s in hits if context_similarity(plain, s, s + len(quote), prefix, suffix) == 1.0]
    if exact:
        best = min(exact, key=distance)
        return best, best + len(quote)

    spans = {(s, s + len(quote)) for s in hits}
    snap_start = not (prefix and prefix[-1].isalnum() and quote[0].isalnum())
    snap_end = not (suffix and suffix[0].isalnum() and quote[-1].isalnum())
    # the diff tells where the passage went: search near it (and fast); otherwise search it all
    reach = NEAR_MAPPED if mapped is not None else len(plain)
    rough = _fuzzy_spans(plain, quote, prefix, suffix, expected, reach)
    if mapped is not None:
        rough.add(mapped)
    for s, e in rough:
        spans |= _word_variants(plain, s, e, snap_start, snap_end)

    best_rank, best_span = None, None
    for s, e in spans:
        if not (0 <= s < e <= len(plain)) or not plain[s:e].strip():
            continue
        q, total = score(plain, s, e, quote, prefix, suffix, mapped)
        if q < QUOTE_MIN or total < SCORE_MIN:
            continue
        rank = (total - POSITION_WEIGHT * distance(s), -s)
        if best_rank is None or rank > best_rank:
            best_rank, best_span = rank, (s, e)
    return best_span


def carry(old_plain: str, plain: str) -> Callable[[int], int]:
    """Maps a position in ``old_plain`` to the corresponding one in ``plain`` (through a diff;
    a position inside deleted text goes to where the deletion was)."""
    if old_plain == plain:
        return lambda pos: pos
    dmp = _dmp(len(plain))
    diffs = dmp.diff_main(old_plain, plain, False)
    return lambda pos: dmp.diff_xIndex(diffs, pos)


def reanchor_all(conn: Connection, paper_id: int, plain: str, old_plain: str | None = None) -> tuple[int, int]:
    """Re-place every highlight of a paper on its new plain text. Returns (placed, orphaned).

    ``old_plain`` is the text the placed highlights' positions refer to (when known, positions
    are carried through a diff of it to the new text). ``conn`` is the connection of the
    caller's write transaction."""
    h = t.highlight
    placed = orphaned = 0
    stmt: Select[int, int, int, str, str, str, bool] = select(
        h.c.id, h.c.start, h.c.end, h.c.quote, h.c.prefix, h.c.suffix, h.c.orphaned
    ).where(h.c.paper_id == paper_id)
    rows = conn.execute(stmt).all()
    to_new = carry(old_plain, plain) if old_plain is not None else None
    for hid, start, end, quote, prefix, suffix, was_orphan in rows:
        mapped = (to_new(start), to_new(end)) if to_new is not None and not was_orphan else None
        where = locate(plain, quote, prefix, suffix, mapped[0] if mapped else start, mapped)
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
