"""A query executor that matches and scores with numpy over Whoosh's postings.

Whoosh stays the index of record (analysis, storage, postings, updates); this module reads a
query's term postings into arrays (:mod:`postings_cache`) and answers with array operations:

- a term: its postings; a prefix, fuzzy or other expanding term: Whoosh's own term expansion,
  then one union (with summed scores) cached for the index generation;
- AND / OR / NOT: set operations on sorted docnums through a boolean array over all documents
  (linear in the index size; no sorting);
- a phrase: the documents holding every word, then Whoosh's phrase matcher checks positions
  for those candidates only; the result is cached for the generation;
- scores: BM25F exactly as Whoosh computes it (same idf and average field length from the
  searcher, the same one-byte field lengths, the same formula), summed over a query's leaves
  as Whoosh's union and intersection matchers sum them.

Anything else raises :class:`Unsupported`; the caller then uses Whoosh's searcher.
Docnums are the searcher's global docnums (segment offset + local docnum), as in Whoosh's hits.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from desktop_app.core.search import segment_arrays
from desktop_app.core.search.postings_cache import PostingsCache

if TYPE_CHECKING:
    from whoosh.query import Query
    from whoosh.searching import Searcher

Scored = tuple[np.ndarray, np.ndarray]  # docnums (ascending, int64), scores (float64)
_EMPTY_DOCS = np.empty(0, dtype=np.int64)


class Unsupported(Exception):
    """The executor does not cover this query; use Whoosh's searcher."""


def _length_table() -> np.ndarray:
    from whoosh.util.numeric import byte_to_length

    return np.array([float(byte_to_length(i) or 0) for i in range(256)], dtype=np.float64)


class IndexView:
    """One searcher's arrays: docnum -> paper id, the live-document mask and field lengths."""

    def __init__(self, searcher: Searcher, folder: Path, cache: PostingsCache, *, writable: bool) -> None:
        self.searcher = searcher
        self.cache = cache
        reader = searcher.reader()
        self.generation = reader.generation()
        self.leaves = []  # (segment reader, global offset, SegmentArrays)
        for segreader, offset in reader.leaf_readers():
            if segreader.segment() is None:  # an empty index
                continue
            arrays = segment_arrays.load_or_compute(folder, segreader, writable=writable)
            self.leaves.append((segreader, offset, arrays))
        total = reader.doc_count_all()
        self.pids = np.concatenate([a.pids for _, _, a in self.leaves]) if self.leaves else np.empty(0, dtype=np.int64)
        assert len(self.pids) == total, "segment arrays do not cover the index"
        self.live = np.ones(total, dtype=bool)
        self.has_deletions = False
        for segreader, offset, _ in self.leaves:
            if segreader.has_deletions():
                self.has_deletions = True
                dead = np.fromiter(segreader.segment().deleted_docs(), dtype=np.int64)
                self.live[dead + offset] = False
        self.live_docs = np.flatnonzero(self.live)
        self._lengths: dict[str, np.ndarray] = {}
        self._by_pid: tuple[np.ndarray, np.ndarray] | None = None
        self._doc_by_pid: np.ndarray | None = None  # paper id -> live docnum, -1 for none
        # prefix unions and phrase matches are kept in the postings cache (bounded in bytes) under
        # the segments and their deletions they were computed on
        self.state = tuple((a.segment_id, r.segment().deleted_count()) for r, _, a in self.leaves)

    def scored_result(self, key: tuple[object, ...]) -> Scored | None:
        """The (docs, scores) kept under ``key``, or None."""
        value = self.cache.get(("result", self.state, key))
        if isinstance(value, tuple):
            docs, scores = value
            return docs, scores
        return None

    def docs_result(self, key: tuple[object, ...]) -> np.ndarray | None:
        """The docs kept under ``key``, or None."""
        value = self.cache.get(("result", self.state, key))
        return value if isinstance(value, np.ndarray) else None

    def keep(self, key: tuple[object, ...], value: Scored | np.ndarray) -> None:
        arrays = value if isinstance(value, tuple) else (value,)
        self.cache.put(("result", self.state, key), value, sum(a.nbytes for a in arrays))

    # ---- paper ids -----------------------------------------------------------------------------
    def pids_of(self, docs: np.ndarray) -> np.ndarray:
        pids: np.ndarray = self.pids[docs]
        return pids

    def live_pids(self) -> np.ndarray:
        return self.pids[self.live_docs]

    def docs_of(self, pids: np.ndarray) -> np.ndarray:
        """Live docnums of these paper ids (ids not in the index are left out), ascending, each
        once. Paper ids are dense, so a table indexed by id gives the docnums (70,000 ids: 0.3 ms
        against 2.4 ms for a binary search and a sort); ids far beyond the documents' count
        (a library whose ids were renumbered sparsely) are searched for instead."""
        pids = np.asarray(pids, dtype=np.int64)
        if self._doc_by_pid is None:
            live_pids = self.pids[self.live_docs]
            top = int(live_pids.max(initial=-1)) + 1
            if top > 4 * len(self.pids) + 1_000_000:
                self._doc_by_pid = np.empty(0, dtype=np.int64)  # too sparse for a table
            else:
                table = np.full(top, -1, dtype=np.int64)
                table[live_pids] = self.live_docs
                self._doc_by_pid = table
        table = self._doc_by_pid
        if not len(table) and len(self.live_docs):
            return self._docs_by_search(pids)
        docs = table[pids[(pids >= 0) & (pids < len(table))]]
        mask = np.zeros(len(self.pids), dtype=bool)
        mask[docs[docs >= 0]] = True
        found: np.ndarray = np.flatnonzero(mask)
        return found

    def _docs_by_search(self, pids: np.ndarray) -> np.ndarray:
        if self._by_pid is None:
            live_pids = self.pids[self.live_docs]
            order = np.argsort(live_pids, kind="stable")
            self._by_pid = (live_pids[order], self.live_docs[order])
        keys, docs = self._by_pid
        at = np.searchsorted(keys, pids)
        at[at >= len(keys)] = 0
        found = keys[at] == pids if len(keys) else np.zeros(len(pids), bool)
        return np.unique(docs[at[found]])

    def lengths(self, field: str) -> np.ndarray:
        """Whoosh's field length of every document (decoded from its one-byte form)."""
        out = self._lengths.get(field)
        if out is None:
            table = _length_table()
            parts = [table[a.length_bytes[field]] for _, _, a in self.leaves]
            out = np.concatenate(parts) if parts else np.empty(0)
            self._lengths[field] = out
        return out

    # ---- postings ------------------------------------------------------------------------------
    def postings(self, field: str, btext: bytes) -> tuple[np.ndarray, np.ndarray]:
        """Global docnums (live only, ascending) and weights of one term."""
        docs_parts, w_parts = [], []
        for segreader, offset, arrays in self.leaves:
            if (field, btext) not in segreader:
                continue
            docs, weights = self.cache.postings(segreader, arrays.segment_id, field, btext)
            docs_parts.append(docs.astype(np.int64) + offset)
            w_parts.append(weights)
        if not docs_parts:
            return _EMPTY_DOCS, np.empty(0)
        docs = np.concatenate(docs_parts) if len(docs_parts) > 1 else docs_parts[0]
        weights = np.concatenate(w_parts) if len(w_parts) > 1 else w_parts[0]
        if self.has_deletions:
            keep = self.live[docs]
            docs, weights = docs[keep], weights[keep]
        return docs, weights


class FastExecutor:
    """Matches and scores queries on one :class:`IndexView`."""

    def __init__(self, view: IndexView) -> None:
        self.view = view
        self.n = len(view.pids)  # every docnum of the searcher is below this
        s = view.searcher
        from whoosh import scoring

        w = s.weighting
        # BM25F with one B for all fields is what the app's searcher uses
        self._bm25 = isinstance(w, scoring.BM25F) and not w._field_B
        self.B = getattr(w, "B", 0.75)
        self.K1 = getattr(w, "K1", 1.2)
        # a leaf scored once, even if used twice (matching, then ranking the same query)
        self._scored: dict[int, tuple[Query, Scored]] = {}

    # ---- matching ------------------------------------------------------------------------------
    def match(self, q: Query) -> np.ndarray:
        """Ascending live docnums that ``q`` matches (as ``searcher.docs_for_query``)."""
        from whoosh import query as wq

        if isinstance(q, wq.Every):
            if q.fieldname not in (None, "", "*"):
                raise Unsupported("Every on a field")
            return self.view.live_docs
        if q is wq.NullQuery or isinstance(q, type(wq.NullQuery)):
            return _EMPTY_DOCS
        if isinstance(q, wq.Not):
            return _minus(self.view.live_docs, self.match(q.query), self.n)
        if isinstance(q, wq.AndNot):
            return _minus(self.match(q.a), self.match(q.b), self.n)
        if isinstance(q, wq.AndMaybe):
            return self.match(q.a)
        if isinstance(q, wq.Require):
            return _intersect([self.match(q.a), self.match(q.b)], self.n)
        if type(q) is wq.And:
            kids = [self.match(c) for c in q.children()]
            return _intersect(kids, self.n) if kids else _EMPTY_DOCS
        if type(q) is wq.Or:
            if getattr(q, "minmatch", 0):
                raise Unsupported("Or with minmatch")
            if self._bm25 and _word_key(q) is not None:
                return self.score(q)[0]  # scored once, kept: ranking the same words reads it back
            kids = [self.match(c) for c in q.children()]
            return _union(kids, self.n)
        return self.leaf(q)[0]

    # ---- scoring -------------------------------------------------------------------------------
    def score(self, q: Query) -> Scored:
        """Docnums ``q`` matches and their scores, as Whoosh's searcher scores them."""
        from whoosh import query as wq

        if not self._bm25:
            raise Unsupported("weighting other than BM25F")
        if q.boost != 1.0 and not (q.is_leaf() and not isinstance(q, wq.MultiTerm)):
            raise Unsupported("boost on a compound or expanding query")
        if type(q) is wq.Or:
            if getattr(q, "minmatch", 0) or getattr(q, "scale", None):
                raise Unsupported("Or with minmatch or scale")
            word = _word_key(q)
            if word is not None:
                return self._word_union(q, word)
            return _sum_union([self.score(c) for c in q.children()], self.n)
        if type(q) is wq.And:
            return _sum_intersection([self.score(c) for c in q.children()], self.n)
        if not q.is_leaf() or isinstance(q, wq.Every) or q is wq.NullQuery:
            raise Unsupported(f"scoring {type(q).__name__}")
        return self.leaf(q)

    def top(self, q: Query, limit: int, within: np.ndarray | None = None) -> list[tuple[int, float]]:
        """The best ``limit`` (docnum, score) pairs: score descending, then docnum ascending,
        which is the order of Whoosh's top-k collector."""
        docs, scores = self.score(q)
        if within is not None:
            keep = _mask(within, self.n)[docs]
            docs, scores = docs[keep], scores[keep]
        if len(docs) > limit:
            kth = np.partition(scores, len(scores) - limit)[len(scores) - limit]
            keep = scores >= kth
            docs, scores = docs[keep], scores[keep]
        order = np.lexsort((docs, -scores))[:limit]
        return [(int(d), float(s)) for d, s in zip(docs[order], scores[order], strict=True)]

    def _word_union(self, q: Query, key: tuple[object, ...]) -> Scored:
        """A word (a term, a phrase, a prefix) searched in each of its fields: the union of the
        fields' matches with their scores summed, kept for the index generation. A query box
        asks for the same words again and again (each keystroke of "reinforcement learning"
        repeats "reinforcement"; a page of results, another sort, the match and then the
        ranking of one query), and the union of five fields is most of a word's cost."""
        found = self.view.scored_result(key)
        if found is None:
            found = _sum_union([self.score(c) for c in q.children()], self.n)
            self.view.keep(key, found)
        return found

    # ---- leaves --------------------------------------------------------------------------------
    def leaf(self, q: Query) -> Scored:
        key = id(q)
        found = self._scored.get(key)
        if found is not None:
            return found[1]
        from whoosh import query as wq

        if type(q) is wq.Term:
            out = self._term(q.fieldname, q.text, q.boost)
        elif isinstance(q, wq.Phrase):
            out = self._phrase(q)
        elif isinstance(q, wq.MultiTerm) and not _matches_every(q):
            out = self._expanded(q)
        else:
            raise Unsupported(f"{type(q).__name__} leaf")
        self._scored[key] = (q, out)  # the query is kept, so its id is not reused meanwhile
        return out

    def _btext(self, field: str, text: object) -> bytes | None:
        schema = self.view.searcher.schema
        if field not in schema:
            return None
        try:
            btext: bytes = schema[field].to_bytes(text)
        except ValueError:
            return None
        return btext

    def _term(self, field: str, text: object, boost: float = 1.0) -> Scored:
        btext = self._btext(field, text)
        if btext is None:
            return _EMPTY_DOCS, np.empty(0)
        docs, weights = self.view.postings(field, btext)
        if not len(docs):
            return docs, np.empty(0)
        return docs, self._bm25_scores(field, btext, docs, weights) * boost if boost != 1.0 else self._bm25_scores(
            field, btext, docs, weights
        )

    def _bm25_scores(self, field: str, btext: bytes, docs: np.ndarray, weights: np.ndarray) -> np.ndarray:
        s = self.view.searcher
        if not s.schema[field].scorable:
            raise Unsupported(f"unscorable field {field}")
        idf = s.idf(field, btext)
        avgfl = s.avg_field_length(field) or 1
        B, K1 = self.B, self.K1  # noqa: N806 - BM25's own names
        tf = weights.astype(np.float64)
        fl = self.view.lengths(field)[docs]
        # whoosh.scoring.bm25, term for term in the same order, so the floats are the same
        scores: np.ndarray = idf * ((tf * (K1 + 1)) / (tf + K1 * ((1 - B) + B * fl / avgfl)))
        return scores

    def _expanded(self, q: Query) -> Scored:
        """A prefix, fuzzy or range term: Whoosh's expansion, one union with summed scores."""
        view = self.view
        field = q.field()
        attrs = sorted((k, repr(v)) for k, v in vars(q).items() if k not in ("startchar", "endchar"))
        key = ("expanded", type(q).__name__, field, tuple(attrs))
        found = view.scored_result(key)
        if found is None:
            reader = view.searcher.reader()
            btexts = [b for b in q._btexts(reader) if b]
            parts = [self._term(field, b) for b in btexts]
            found = _sum_union(parts, self.n)
            if len(btexts) > 1 and q.constantscore and not _whoosh_sums(len(btexts), reader.doc_count_all()):
                found = (found[0], np.ones(len(found[0])))
            view.keep(key, found)
        return found

    def _phrase(self, q: Query) -> Scored:
        """Documents with every word (array intersection), then Whoosh's phrase matcher checks
        word positions for those candidates only. Scores: the words' term scores summed, as
        Whoosh's phrase matcher (an intersection underneath) scores."""
        view = self.view
        field = q.fieldname
        if field not in view.searcher.schema:
            return _EMPTY_DOCS, np.empty(0)
        words = list(q.words)
        parts = [self._term(field, w) for w in words]
        if not words or any(not len(p[0]) for p in parts):
            return _EMPTY_DOCS, np.empty(0)
        docs, scores = _sum_intersection(parts, self.n)
        if len(words) == 1:
            return docs, scores * q.boost if q.boost != 1.0 else scores
        key = ("phrase", field, tuple(words), q.slop)
        matched = view.docs_result(key)
        if matched is None:
            matched = self._phrase_check(q, docs)
            view.keep(key, matched)
        keep = _mask(matched, self.n)[docs]
        docs, scores = docs[keep], scores[keep]
        return docs, scores * q.boost if q.boost != 1.0 else scores

    def _phrase_check(self, q: Query, candidates: np.ndarray) -> np.ndarray:
        """The candidates (global docnums holding every word) where the words form the phrase."""
        from desktop_app.core.search import phrase_positions

        if q.slop == 1:
            field = q.fieldname
            try:
                btexts = [self.view.searcher.schema[field].to_bytes(w) for w in q.words]
                found = []
                for segreader, offset, _ in self.view.leaves:
                    local = candidates[(candidates >= offset) & (candidates < offset + segreader.doc_count_all())]
                    if len(local) and all((field, b) in segreader for b in btexts):
                        found.append(phrase_positions.consecutive(segreader, field, btexts, local - offset) + offset)
                return np.concatenate(found) if found else _EMPTY_DOCS
            except (phrase_positions.NotCovered, ValueError):
                pass  # Whoosh's matcher answers
        return self._whoosh_phrase_check(q, candidates)

    def _whoosh_phrase_check(self, q: Query, candidates: np.ndarray) -> np.ndarray:
        from whoosh import query as wq

        plain = wq.Phrase(q.fieldname, list(q.words), slop=q.slop)
        m = plain.matcher(self.view.searcher)
        out = []
        for doc in candidates.tolist():
            if not m.is_active():
                break
            if m.id() < doc:
                m.skip_to(doc)
                if not m.is_active():
                    break
            if m.id() == doc:
                out.append(doc)
        return np.asarray(out, dtype=np.int64)


def _whoosh_sums(n_terms: int, doc_count_all: int) -> bool:
    """Whether Whoosh scores a constant-score expansion of ``n_terms`` terms by summing the terms'
    BM25 scores, or gives every document 1.0. Its ``Or`` picks a matcher by size
    (``whoosh.query.compound.Or._matcher``, top-k search: ``needs_current`` is False): a tree of
    union matchers, which ignores the missing weighting and sums, for two terms or more than
    5,000 documents; otherwise a preloaded array matcher that, unweighted, scores 1."""
    return n_terms < 1024 and (n_terms == 2 or doc_count_all > 5000)


def _word_key(q: Query) -> tuple[object, ...] | None:
    """The cache key of an ``Or`` of leaves (one word in several fields), or None for any other
    ``Or``. The key holds every attribute of every leaf (field, text, boost, slop, ...), so two
    queries share an entry only when Whoosh would score them the same."""
    from whoosh import query as wq

    kids = list(q.children())  # (an iterator)
    if not kids or not all(
        k.is_leaf() and (type(k) is wq.Term or isinstance(k, wq.Phrase | wq.MultiTerm)) for k in kids
    ):
        return None
    return (
        "word",
        tuple(
            (
                type(k).__name__,
                tuple(sorted((a, repr(v)) for a, v in vars(k).items() if a not in ("startchar", "endchar"))),
            )
            for k in kids
        ),
    )


def _matches_every(q: Query) -> bool:
    """``field:*`` and an empty prefix are Whoosh's Every in disguise (not covered here)."""
    from whoosh import query as wq

    return (isinstance(q, wq.Prefix) and q.text == "") or (isinstance(q, wq.Wildcard) and q.text == "*")


def _mask(docs: np.ndarray, n: int) -> np.ndarray:
    mask = np.zeros(n, dtype=bool)
    mask[docs] = True
    return mask


def _union(parts: list[np.ndarray], n: int) -> np.ndarray:
    parts = [p for p in parts if len(p)]
    if not parts:
        return _EMPTY_DOCS
    if len(parts) == 1:
        return parts[0]
    mask = np.zeros(n, dtype=bool)
    for p in parts:
        mask[p] = True
    return np.flatnonzero(mask)


def _intersect(parts: list[np.ndarray], n: int) -> np.ndarray:
    parts = sorted(parts, key=len)
    out = parts[0]
    for p in parts[1:]:
        if not len(out):
            break
        out = out[_mask(p, n)[out]]
    return out


def _minus(a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
    if not len(a) or not len(b):
        return a
    rest: np.ndarray = a[~_mask(b, n)[a]]
    return rest


def _sum_union(parts: list[Scored], n: int) -> Scored:
    """Docnums in any part; a document's score is its parts' scores summed in the parts' order
    (as Whoosh's union matcher adds them)."""
    parts = [p for p in parts if len(p[0])]
    if not parts:
        return _EMPTY_DOCS, np.empty(0)
    if len(parts) == 1:
        return parts[0]
    seen = np.zeros(n, dtype=bool)
    total = np.zeros(n)
    for docs, scores in parts:
        seen[docs] = True
        total[docs] += scores  # docnums are unique within a part
    docs = np.flatnonzero(seen)
    return docs, total[docs]


def _sum_intersection(parts: list[Scored], n: int) -> Scored:
    if not parts or any(not len(p[0]) for p in parts):
        return _EMPTY_DOCS, np.empty(0)
    docs = _intersect([p[0] for p in parts], n)
    total = np.zeros(len(docs))
    for pdocs, pscores in parts:
        total += pscores[np.searchsorted(pdocs, docs)]
    return docs, total
