""" "Did you mean": a spelling correction for a query that found (almost) nothing.

Only the words of text fields are corrected (bare words, ``title:``/``abstract:``/... values and
the words inside a phrase); operators, ``tag:``/``status:``/``year:`` values, ``#tags``, prefixes
(``learn*``), fuzzy terms (``learn~``) and numbers are kept as typed, and so are field prefixes.

The index holds stems ("reinforc", "learn"), not words, so a correction is made in two steps:
an unknown stem is replaced by the nearest stem of the index's vocabulary (the terms within two
Damerau-Levenshtein edits, found through the per-segment vocabulary saved beside the index,
vocabulary.py; the most frequent wins a tie), then the word shown is
the surface form of that stem nearest to what the user typed, read from the text of a few papers
that hold it ("reinforcment" stems to the known "reinforc", but is not one of its surface forms
"reinforcement", "reinforced": it is corrected too). Nothing here imports Qt.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from desktop_app.core.search.schema import DEFAULT_FIELDS, TEXT_FIELDS

if TYPE_CHECKING:
    from desktop_app.core.search.index import SearchIndex
    from desktop_app.core.search.sync import IndexSync
    from desktop_app.core.store import Store

__all__ = ["FEW_HITS", "correct_query", "did_you_mean", "edit_distance"]

FEW_HITS = 3  # a query with fewer hits than this is offered a correction
_SAMPLE_DOCS = 12  # papers read for the surface forms of one stem
_OPERATORS = frozenset({"and", "or", "not", "andnot", "andmaybe", "to"})
_TOKEN = re.compile(
    r"(?P<field>[A-Za-z_]+):(?!//)"
    r'|"(?P<phrase>[^"]*)"'
    r"|(?P<open>\()|(?P<close>\))"
    r'|(?P<word>[^\s()"]+)'
)
_WORD = re.compile(r"\w+")
_COMMON_FIELDS = ("abstract", "title")  # where a misspelt word's neighbours are usually found
_PLAIN_WORD = re.compile(r"[^\W\d_]{3,}")  # letters only, three or more: worth correcting

# (stem, field) -> the papers' texts, read by the caller (ids -> texts)
TextsOf = Callable[[Sequence[int]], Iterable[str]]


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (insertions, deletions, substitutions)."""
    if len(a) < len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


class _Speller:
    """Corrects one word at a time against an open index; caches what it read."""

    def __init__(self, index: SearchIndex, texts_of: TextsOf) -> None:
        self._searcher = index.searcher
        self._reader = self._searcher.reader()
        self._analyzer = self._searcher.schema["abstract"].analyzer
        self._texts_of = texts_of
        self._forms: dict[str, Counter[str]] = {}
        self._vocabulary = index.vocabulary()  # the terms near a stem, without Whoosh's scan

    def stem(self, word: str) -> str:
        tokens = [t.text for t in self._analyzer(word)]
        return tokens[0] if len(tokens) == 1 else ""

    def _freq(self, fields: Sequence[str], stem: str) -> int:
        return sum(self._reader.doc_frequency(f, stem) for f in fields)

    def _forms_of(self, fields: Sequence[str], stem: str) -> Counter[str]:
        """The words in the papers' text that stem to ``stem``, with their counts."""
        if stem in self._forms:
            return self._forms[stem]
        docnums: list[int] = []
        for f in fields:
            if self._reader.doc_frequency(f, stem):
                # each field's first ids hold the first of them all: a frequent stem's whole
                # postings (60,000 papers at 100,000) are not read
                docnums.extend(itertools.islice(self._reader.postings(f, stem).all_ids(), _SAMPLE_DOCS))
            if len(docnums) >= _SAMPLE_DOCS:
                break
        pids = [self._searcher.stored_fields(d)["pid"] for d in sorted(set(docnums))[:_SAMPLE_DOCS]]
        forms: Counter[str] = Counter()
        for text in self._texts_of(pids):
            for w in _WORD.findall(text.lower()):
                if w[:1] == stem[:1] and self.stem(w) == stem:
                    forms[w] += 1
        self._forms[stem] = forms
        return forms

    def _surface(self, fields: Sequence[str], stem: str, typed: str) -> str:
        forms = self._forms_of(fields, stem)
        if not forms:
            return stem
        return min(forms, key=lambda w: (edit_distance(w, typed), -forms[w], w))

    def _candidates(self, fields: Sequence[str], stem: str, typed: str) -> dict[str, int]:
        """Known stems near ``stem`` (Levenshtein automaton), and known stems that begin the
        typed word ("optim" for "optimizaton", whose own stem is far from it), with their
        document frequencies. Cheapest first (at 100,000 papers the automaton walks the term
        files of every segment): distance 1 before 2, titles and abstracts before the rest."""
        common = [f for f in fields if f in _COMMON_FIELDS]
        tiers = [common, [f for f in fields if f not in _COMMON_FIELDS]] if common else [list(fields)]
        dists = (1,) if len(stem) <= 4 else (1, 2)
        found: dict[str, int] = {}
        for group in tiers:
            for f in group:
                for k in range(len(typed) - 1, 3, -1):
                    if freq := self._reader.doc_frequency(f, typed[:k]):
                        found[typed[:k]] = found.get(typed[:k], 0) + freq
            for dist in dists:
                for f in group:
                    for text in sorted(self._vocabulary.terms_within(f, stem, dist)):
                        found[text] = found.get(text, 0) + self._reader.doc_frequency(f, text)
                if len(found) >= 3:
                    return found
        return found

    def correct(self, word: str, fields: Sequence[str]) -> str | None:
        """The corrected word, or None when ``word`` is fine (or nothing close is known)."""
        typed = word.lower()
        stem = self.stem(typed)
        if not stem:
            return None
        if self._freq(fields, stem) and typed in self._forms_of(fields, stem):
            return None
        candidates = self._candidates(fields, stem, typed)
        if not candidates:
            return None
        near = sorted(candidates, key=lambda s: (edit_distance(s, stem), -candidates[s], s))[:8]
        scored = []
        for cand in near:
            surface = self._surface(fields, cand, typed)
            scored.append((edit_distance(surface, typed), -candidates[cand], surface))
        dist, _, best = min(scored)
        limit = 2 if len(typed) < 8 else 3
        return best if 0 < dist <= limit else None


def _like_case(word: str, typed: str) -> str:
    if typed.isupper() and len(typed) > 1:
        return word.upper()
    if typed[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def correct_query(index: SearchIndex, text: str, texts_of: TextsOf) -> str | None:
    """``text`` with its misspelt text words corrected, or None when there is nothing to offer.

    ``texts_of(paper_ids)`` returns the text of those papers (title, abstract, authors) from
    which the surface form of a corrected stem is read.
    """
    if not text.strip() or index.doc_count() == 0:
        return None
    speller = _Speller(index, texts_of)
    out: list[str] = []
    pos, changed = 0, False
    group: list[str | None] = []  # the field of each open parenthesis
    pending: str | None = None  # a "field:" waiting for its value
    for m in _TOKEN.finditer(text):
        out.append(text[pos : m.start()])
        pos = m.end()
        token = m.group(0)
        field = pending if pending is not None else (group[-1] if group else None)
        if m.group("field"):
            pending = m.group("field").lower()
            out.append(token)
            continue
        pending = None
        if m.group("open"):
            group.append(field)
            out.append(token)
            continue
        if m.group("close"):
            if group:
                group.pop()
            out.append(token)
            continue
        if field is not None and field not in TEXT_FIELDS:
            out.append(token)  # tag:, status:, year: ... are not spelling
            continue
        fields = (field,) if field else DEFAULT_FIELDS
        if m.group("phrase") is not None:
            fixed = _correct_words(speller, m.group("phrase"), fields)
            changed |= fixed != m.group("phrase")
            out.append(f'"{fixed}"')
            continue
        if token.lower() in _OPERATORS or not _PLAIN_WORD.fullmatch(token):
            out.append(token)  # AND, learn*, learn~, #tag, a/b, numbers
            continue
        fixed = _correct_words(speller, token, fields)
        changed |= fixed != token
        out.append(fixed)
    out.append(text[pos:])
    return "".join(out) if changed else None


def _correct_words(speller: _Speller, text: str, fields: Sequence[str]) -> str:
    def fix(m: re.Match[str]) -> str:
        word = m.group(0)
        if not _PLAIN_WORD.fullmatch(word):
            return word
        better = speller.correct(word, fields)
        return _like_case(better, word) if better else word

    return _WORD.sub(fix, text)


def did_you_mean(
    index: IndexSync,
    store: Store,
    count: Callable[[str], int],
    text: str,
    hits: int | None = None,
    finds_more_than: Callable[[str, int], bool] | None = None,
) -> str | None:
    """The correction ``lib.did_you_mean`` offers: only for a query with fewer than FEW_HITS
    hits (``hits``, when the caller has run it, saves running it again), and only when the
    corrected query finds more papers than the one typed (``count(query)``: its hits;
    ``finds_more_than(query, n)``, when given, answers that without counting them all)."""
    from desktop_app.core.search.errors import QuerySyntaxError

    if not text.strip() or not index.is_open:
        return None
    try:
        if hits is None:
            hits = count(text)
        if hits >= FEW_HITS:
            return None
        with index.index._lock:
            index.index._current()
            fixed = correct_query(index.index, text, lambda ids: _texts(store, ids))
        if fixed is None:
            return None
        if not (finds_more_than(fixed, hits) if finds_more_than is not None else count(fixed) > hits):
            return None
    except QuerySyntaxError:
        return None
    return fixed


def _texts(store: Store, ids: Sequence[int]) -> list[str]:
    from sqlalchemy import select

    from desktop_app.core.store import tables as t

    p = t.paper.c
    with store.read() as conn:
        rows = conn.execute(select(p.title, p.abstract_text, p.authors_json, p.venue).where(p.id.in_(list(ids)))).all()
    return [" ".join(str(v or "") for v in row) for row in rows]
