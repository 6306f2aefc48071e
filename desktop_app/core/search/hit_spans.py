"""Where a query matched a text: character spans found through the index's own analyzer.

The reader used to mark every word that started like a query word ("in-context learning" lit
every word beginning with "in") and missed stemmed matches ("learn" did not mark "learned").
Here the text is tokenized by the very analyzer the schema gives the field (same tokenizer,
lower-casing and stemmer, with character offsets), and the parsed query's leaves are matched
against those tokens as the index matches them:

* a word matches tokens with the same stem (``learn`` marks "learning" and "learned");
* ``rl*`` matches tokens whose indexed term starts with ``rl`` (prefixes only where typed);
* ``word~`` matches terms within the edit distance Whoosh allows;
* a phrase matches only where its analysed words stand one after another, as one span;
* words under NOT (or the right side of ANDNOT) are not marked; leaves for other fields
  (``title:foo`` when the abstract is shown) are not marked either.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from whoosh import query

from desktop_app.core.search.errors import QuerySyntaxError

if TYPE_CHECKING:
    from whoosh.analysis import Analyzer

__all__ = ["hit_spans"]


@dataclass(frozen=True)
class _Token:
    term: str
    start: int
    end: int
    pos: int


@lru_cache(maxsize=16)
def _analyzer(field: str) -> Analyzer | None:
    from desktop_app.core.search.schema import build_schema

    schema = build_schema()
    return schema[field].analyzer if field in schema.names() else None


def _tokens(text: str, field: str) -> list[_Token]:
    analyzer = _analyzer(field)
    if analyzer is None:
        return []
    return [_Token(t.text, t.startchar, t.endchar, t.pos) for t in analyzer(text, chars=True, positions=True)]


def _positive_leaves(q: query.Query, negated: bool = False) -> Iterator[query.Query]:
    """The leaves of ``q`` that count as matches (not under a NOT)."""
    if isinstance(q, query.Not):
        return
    if q.is_leaf():
        if not negated:
            yield q
        return
    if isinstance(q, query.AndNot):
        yield from _positive_leaves(q.a, negated)
        return
    for child in q.children():
        yield from _positive_leaves(child, negated)


def _text(value: object) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _term_matcher(leaf: query.Query) -> Callable[[str], bool] | None:
    """A predicate on an indexed term, or None."""
    if isinstance(leaf, query.Prefix):
        prefix = _text(leaf.text)
        return lambda term: term.startswith(prefix)
    if isinstance(leaf, query.FuzzyTerm):
        from whoosh.support.levenshtein import distance

        word, maxdist, keep = _text(leaf.text), leaf.maxdist, leaf.prefixlength
        return lambda term: term[:keep] == word[:keep] and distance(term, word) <= maxdist
    if isinstance(leaf, query.Term):
        word = _text(leaf.text)
        return lambda term: term == word
    return None


def _phrase_spans(leaf: query.Phrase, tokens: list[_Token]) -> Iterator[tuple[int, int]]:
    """Whole occurrences of the phrase: each next word within ``slop`` positions of the last."""
    words = [_text(w) for w in leaf.words if w]
    if not words:
        return
    slop = max(1, int(getattr(leaf, "slop", 1) or 1))
    by_pos: dict[int, _Token] = {}
    for tok in tokens:
        by_pos.setdefault(tok.pos, tok)
    for first in tokens:
        if first.term != words[0]:
            continue
        last, ok = first, True
        for word in words[1:]:
            nxt = next(
                (by_pos[p] for p in range(last.pos + 1, last.pos + slop + 1) if p in by_pos and by_pos[p].term == word),
                None,
            )
            if nxt is None:
                ok = False
                break
            last = nxt
        if ok:
            yield first.start, last.end


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


@lru_cache(maxsize=32)
def _leaves(query_text: str, field: str) -> tuple[query.Query, ...]:
    """The query's leaves that mark text in ``field`` (parsed once per query text: the reader
    asks again for every paper shown)."""
    from desktop_app.core.search.query import parse

    try:
        parsed = parse(query_text)
    except QuerySyntaxError:
        return ()
    return tuple(leaf for leaf in _positive_leaves(parsed) if getattr(leaf, "fieldname", None) == field)


def hit_spans(query_text: str, text: str, field: str = "abstract") -> list[tuple[int, int]]:
    """Character spans ``(start, end)`` of ``text`` that ``query_text`` matched in ``field``,
    sorted and merged where they overlap. A query that does not parse, has no text part for
    ``field`` or matches nothing gives ``[]``."""
    if not query_text or not query_text.strip() or not text:
        return []
    leaves = _leaves(query_text, field)
    if not leaves:
        return []
    tokens = _tokens(text, field)
    spans: list[tuple[int, int]] = []
    for leaf in leaves:
        if isinstance(leaf, query.Phrase):
            spans.extend(_phrase_spans(leaf, tokens))
            continue
        matches = _term_matcher(leaf)
        if matches is None:
            continue
        spans.extend((tok.start, tok.end) for tok in tokens if matches(tok.term))
    return _merge(spans)
