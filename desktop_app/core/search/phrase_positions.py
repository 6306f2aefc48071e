"""Which candidate documents hold a phrase's words one after another, read from the words'
positions in Whoosh's postings.

Whoosh's phrase matcher walks an intersection of the words' matchers and builds span objects
for every candidate: 80 µs a document, 310 ms for the 3,800 abstracts at 100,000 papers that
hold "in", "context" and "learning". Here each word's postings are read block by block (ids and
the encoded positions, as Whoosh 3 stores them), the candidates' positions are decoded with the
field format's own decoder, and the words are checked for consecutive positions with sets.

Only the default phrase (``slop`` 1: the words next to each other, in order) is answered; it is
what Whoosh's ``SpanNear2(ordered=True, mindist=1, slop=1)`` matches: for a span ``(start, end)``
so far, the next word at position ``end + 1``. Any other slop, or postings of another codec,
raise :class:`NotCovered` and the caller uses Whoosh's matcher.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from whoosh.reading import IndexReader


class NotCovered(Exception):
    """Not a phrase or postings this module reads; use Whoosh's phrase matcher."""


def _term_positions(segreader: IndexReader, field: str, btext: bytes, candidates: np.ndarray) -> list[list[int]]:
    """The positions of the term in each candidate (local docnums, ascending, every one of them
    holding the term)."""
    from whoosh.matching.wrappers import FilterMatcher

    m = segreader.postings(field, btext)
    while isinstance(m, FilterMatcher):  # deletions: the candidates are live documents already
        m = m.child
    if not all(hasattr(m, a) for a in ("_read_data", "_next_block", "_lastblock", "_fixedsize", "_byteids")):
        raise NotCovered("postings of another codec")
    if m._byteids or m._fixedsize is not None and m._fixedsize >= 0:
        raise NotCovered("postings without position lists")
    ids: list[np.ndarray] = []
    values: list[bytes] = []
    while True:
        m._read_data()
        ids.append(np.cumsum(np.asarray(m._data[0], dtype=np.int64)))
        values.extend(m._data[2])
        if m._lastblock:
            break
        m._next_block()
    docs = np.concatenate(ids)
    at = np.searchsorted(docs, candidates)
    if len(at) and (at.max() >= len(docs) or not np.array_equal(docs[at], candidates)):
        raise ValueError(f"a candidate does not hold the term {btext!r}")
    decode = segreader.schema[field].format.decode_positions
    return [decode(values[i]) for i in at.tolist()]


def consecutive(segreader: IndexReader, field: str, btexts: list[bytes], candidates: np.ndarray) -> np.ndarray:
    """The candidates (local docnums of one segment, ascending, each holding every word) in
    which the words stand one after another, in order."""
    if not len(candidates):
        return candidates
    per_word = [_term_positions(segreader, field, b, candidates) for b in btexts]
    firsts = per_word[0]
    rest = [[set(p) for p in word] for word in per_word[1:]]
    keep = np.zeros(len(candidates), dtype=bool)
    for i, starts in enumerate(firsts):
        for p in starts:
            if all(p + k in rest[k - 1][i] for k in range(1, len(btexts))):
                keep[i] = True
                break
    out: np.ndarray = candidates[keep]
    return out
