"""Related papers: the papers nearest a paper in the library's semantic space, or, for a paper
whose words no other paper uses, those sharing its key terms by BM25.

:func:`related_to` ranks by ``SemanticSpace.related`` (core/insights/semantic.py): on the shared
screening sets the share of an included paper's ten related papers that are included is 1.34×
(ADHD) and 1.31× (Bannach-Brown) what BM25 key terms give (benchmarks/bench_related_quality.py).

BM25 key terms: a paper's key terms are the words of its title and abstract, analysed as the index analyses them
(stems), weighted by tf-idf against the index's document frequencies; the best
:data:`KEY_TERMS` of them, each boosted by its weight, make an OR query on the title and
abstract fields that the index's BM25F executor scores (``SearchIndex.ranked_pids``). The paper
itself is left out. ``lib.insights.related``, ``related:ID`` and ``like:ID`` in the query language and
``marginalia related ID`` use :func:`related_to`.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from desktop_app.core.errors import LibraryError

if TYPE_CHECKING:
    from whoosh.query import Query

    from desktop_app.core.search.index import SearchIndex
    from desktop_app.core.store import Store

# What the reader shows (only the neighbours worth reading): a paper is left out when its score is below RELATIVE × the
# best one's or below FLOOR, so a paper with few real neighbours shows fewer than ten. Measured
# on the shared sets (related_to's semantic scores, ten per paper): the 76 seed abstracts, four
# venues of unrelated topics, score 0.16-0.24 (10th-90th percentile; the best of each 0.18-0.32)
# and their lists past 0.16 are unrelated by reading (stomatal detection -> logistic regression
# at 0.156); ADHD's 851 screening papers, one topic, score 0.37-0.62 and the share of a paper's
# related papers carrying its own label falls from about 0.85 to 0.44 below 0.5 × the best.
# With 0.6 and 0.16: 36 of the 76 seed papers show fewer than ten (3-9), 24 of 120 ADHD papers.
RELATIVE = 0.6
FLOOR = 0.16  # a semantic score (cosine scale, 0-1); BM25's scores have no scale: RELATIVE only
# The word shown beside each: "strong" from about ADHD's median (0.5), "related" from the seeds'
# top fifth (0.204 is their 75th percentile, 0.235 the 90th), "weak" below.
STRONG = 0.45
RELATED = 0.22
BM25_RELATED = 0.8  # key terms only (no semantic space): "related" from this share of the best, never "strong"

KEY_TERMS = 25  # terms in the query: enough to find the topic, few enough to stay fast
MIN_LENGTH = 3  # shorter tokens (digits, "rl", "x") are noise more often than topic
FIELDS = ("title", "abstract")
RELATED_SHOWN = 20  # papers a related:ID search shows
POOL = 50  # candidates each ranking gives a blend
SEMANTIC_WEIGHT = 0.5  # the semantic space's share of a blended score


@cache
def _analyzer() -> Any:  # noqa: ANN401 - a Whoosh analyzer (Whoosh has no types)
    from desktop_app.core.search.schema import build_schema

    return build_schema()["abstract"].analyzer


@cache
def _stop_words() -> frozenset[str]:
    from whoosh.analysis import STOP_WORDS

    analyze = _analyzer()
    words: frozenset[str] = frozenset(t.text for w in STOP_WORDS for t in analyze(w)) | STOP_WORDS
    return words


def term_counts(text: str) -> Counter[str]:
    """How often each index term (stem) occurs in ``text``, stop words and short tokens left out."""
    stop = _stop_words()
    return Counter(
        t.text for t in _analyzer()(text) if len(t.text) >= MIN_LENGTH and not t.text.isdigit() and t.text not in stop
    )


def key_terms(index: SearchIndex, title: str, abstract: str, k: int = KEY_TERMS) -> list[tuple[str, float]]:
    """The ``k`` terms of a title and abstract with the highest tf-idf, best first. A term only
    this paper has (document frequency 1) cannot relate it to another and is skipped."""
    counts = term_counts(title) + term_counts(title) + term_counts(abstract)  # title words count twice
    if not counts:
        return []
    docs, freq = index.doc_frequencies("abstract", counts)
    _, title_freq = index.doc_frequencies("title", counts)
    weights = []
    for term, tf in counts.items():
        df = max(freq.get(term, 0), title_freq.get(term, 0))
        if df < 2:
            continue
        idf = math.log(1 + (docs - df + 0.5) / (df + 0.5))
        weights.append((term, (1 + math.log(tf)) * idf))
    weights.sort(key=lambda tw: (-tw[1], tw[0]))
    return weights[:k]


def related_query(terms: list[tuple[str, float]]) -> Query | None:
    """An OR of the terms on the title and abstract fields, each boosted by its weight."""
    if not terms:
        return None
    from whoosh import query

    return query.Or([query.Term(field, term, boost=weight) for term, weight in terms for field in FIELDS])


def paper_text(store: Store, paper_id: int) -> tuple[str, str]:
    """(title, plain abstract) of a live paper; LibraryError when there is none."""
    from sqlalchemy import select

    from desktop_app.core.store import tables as t

    p = t.paper.c
    with store.read() as conn:
        row = conn.execute(select(p.title, p.abstract_text).where(p.id == paper_id, p.deleted_at.is_(None))).first()
    if row is None:
        raise LibraryError(f"no paper with id {paper_id}")
    return row[0] or "", row[1] or ""


def bm25_related(
    store: Store,
    index: SearchIndex,
    paper_id: int,
    n: int = 10,
) -> list[tuple[int, float]]:
    """The ``n`` papers sharing most of ``paper_id``'s key terms by BM25F, (id, score) best first."""
    title, abstract = paper_text(store, paper_id)
    q = related_query(key_terms(index, title, abstract))
    if q is None or n <= 0:
        return []
    ranked = index.ranked_pids(q, n + 1)  # deleted papers are not in the index
    return [(pid, score) for pid, score in ranked if pid != paper_id][:n]


def blend(
    bm25: list[tuple[int, float]],
    semantic: list[tuple[int, float]],
    weight: float = SEMANTIC_WEIGHT,
) -> list[tuple[int, float]]:
    """Both rankings merged: ``weight`` × cosine + (1 - ``weight``) × BM25 score over the best
    BM25 score; a paper missing from one ranking scores 0 there. Best first, ties by id."""
    top = max((s for _, s in bm25), default=0.0) or 1.0
    score: dict[int, float] = {}
    for pid, s in bm25:
        score[pid] = (1 - weight) * s / top
    for pid, s in semantic:
        score[pid] = score.get(pid, 0.0) + weight * max(s, 0.0)
    return sorted(score.items(), key=lambda ps: (-ps[1], ps[0]))


def related_to(
    store: Store,
    index: SearchIndex,
    paper_id: int,
    n: int = 10,
    *,
    wait: bool = True,
) -> tuple[list[tuple[int, float]], Query | dict[int, float] | None]:
    """(the ``n`` papers most related to ``paper_id`` as (paper id, score), best first, the
    paper itself left out; what ranks them: their scores, or the BM25 query that scored them
    for a paper outside the semantic space, None when it has no key terms either).

    ``wait``: fit the semantic space if it is not current; without it a large library's space
    is fitted in a thread and BM25 answers (or the last space, for the papers it holds) meanwhile."""
    from desktop_app.core.insights.semantic import library_space, ready_space

    title, abstract = paper_text(store, paper_id)  # LibraryError for a paper that is not there
    if n <= 0:
        return [], None
    space = library_space(store) if wait else ready_space(store)
    ranked = _live(store, space.related(paper_id, n + 5))[:n] if space is not None else []
    if ranked:
        return ranked, dict(ranked)
    q = related_query(key_terms(index, title, abstract))
    if q is None:
        return [], q
    ranked = index.ranked_pids(q, n + 1)  # deleted papers are not in the index
    return [(pid, score) for pid, score in ranked if pid != paper_id][:n], q


def _live(store: Store, ranked: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """``ranked`` without the papers deleted since the space was fitted."""
    if not ranked:
        return ranked
    from sqlalchemy import select

    from desktop_app.core.store import tables as t

    p = t.paper.c
    with store.read() as conn:
        live: set[int] = set(
            conn.execute(
                select(p.id).where(store.dialect.in_ids(p.id, [pid for pid, _ in ranked]), p.deleted_at.is_(None))
            ).scalars()
        )
    return [(pid, score) for pid, score in ranked if pid in live]


@dataclass(frozen=True)
class RelatedPaper:
    """One paper the reader lists as related: its score and a word for it."""

    paper_id: int
    score: float
    strength: str  # "strong" | "related" | "weak"


def strength(score: float, top: float, semantic: bool) -> str:
    """The word for ``score`` (see :data:`STRONG`, :data:`RELATED`, :data:`BM25_RELATED`)."""
    if semantic:
        return "strong" if score >= STRONG else "related" if score >= RELATED else "weak"
    return "related" if top > 0 and score >= BM25_RELATED * top else "weak"


def worth_showing(ranked: list[tuple[int, float]], semantic: bool, n: int = 10) -> list[RelatedPaper]:
    """The first ``n`` of ``ranked`` (best first) that pass :data:`RELATIVE` and, for semantic
    scores, :data:`FLOOR`; the best one is kept whenever it is above the floor."""
    if not ranked:
        return []
    top = ranked[0][1]
    out = []
    for pid, score in ranked[:n]:
        if score < RELATIVE * top or (semantic and score < FLOOR):
            break  # best first: the rest are lower still
        out.append(RelatedPaper(pid, score, strength(score, top, semantic)))
    return out


def shown_related(
    store: Store,
    index: SearchIndex,
    paper_id: int,
    n: int = 10,
    pool: int = 10,
) -> tuple[list[tuple[int, float]], list[RelatedPaper]]:
    """(the ``pool`` papers most related to ``paper_id``, as :func:`related_to` ranks them; the
    first ``n`` of them strong enough to show, :func:`worth_showing`)."""
    ranked, why = related_to(store, index, paper_id, max(n, pool))
    return ranked, worth_showing(ranked, isinstance(why, dict), n)
