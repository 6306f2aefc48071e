"""The tf-idf matrix of a library's papers, fitted to the library's own texts.

One row per live paper (title, unless it was derived from the abstract, then the plain abstract),
unigrams and bigrams, sublinear tf, L2-normalised: the features of the learned triage queue and
of near-duplicate detection. Nothing is downloaded; the vocabulary is the library's.

Building it (scikit-learn's TfidfVectorizer) costs about a second per 5,000 papers, so it is
kept: in memory for the process, and on disk under ``<library>/cache/`` for the next process (the
CLI's ``triage queue``), keyed by a fingerprint of the papers' texts (ids and text lengths).
Decisions, tags and ratings do not change the fingerprint; an edited abstract or a new paper does.
The matrix is held as its three CSR arrays (:class:`Csr`), so that reading it back and scoring
with it needs numpy only: a ``triage queue`` process imports neither scikit-learn nor SciPy.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from sqlalchemy import func, select

from desktop_app.core.store import tables as t

if TYPE_CHECKING:
    from desktop_app.core.store import Store

log = logging.getLogger(__name__)

CACHE_DIR = "cache"
MAX_FEATURES = 262_144  # the most frequent terms kept at 100,000 papers (memory: ~40 MB of floats)
_lock = threading.Lock()
_memory: dict[tuple[str, str], TextFeatures] = {}


@dataclass
class Csr:
    """A sparse matrix in compressed rows: row ``i`` holds ``data[indptr[i]:indptr[i+1]]`` at
    columns ``indices[...]``."""

    indptr: np.ndarray
    indices: np.ndarray
    data: np.ndarray
    shape: tuple[int, int]

    @classmethod
    def of(cls, matrix: object) -> Csr:
        """From a SciPy CSR matrix."""
        m = matrix.tocsr()  # type: ignore[attr-defined]
        return cls(np.asarray(m.indptr, dtype=np.int64), np.asarray(m.indices, dtype=np.int32),
                   np.asarray(m.data, dtype=np.float32), (int(m.shape[0]), int(m.shape[1])))

    def row_of_each_value(self) -> np.ndarray:
        return np.repeat(np.arange(self.shape[0], dtype=np.int64), np.diff(self.indptr))

    def dot(self, weights: np.ndarray) -> np.ndarray:
        """The matrix times a dense vector of one weight per column (float64, one per row)."""
        if not len(self.data):
            return np.zeros(self.shape[0])
        products = self.data.astype(np.float64) * weights[self.indices]
        return np.bincount(self.row_of_each_value(), weights=products, minlength=self.shape[0])

    def row(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """(columns, values) of row ``i``."""
        start, end = self.indptr[i], self.indptr[i + 1]
        return self.indices[start:end], self.data[start:end]

    def column_sums(self, rows: np.ndarray, row_weights: np.ndarray) -> np.ndarray:
        """Σ over ``rows`` of weight × row, one sum per column."""
        cols, vals = [], []
        for r, w in zip(rows, row_weights, strict=True):
            c, v = self.row(int(r))
            cols.append(c)
            vals.append(v.astype(np.float64) * float(w))
        if not cols:
            return np.zeros(self.shape[1])
        return np.bincount(np.concatenate(cols), weights=np.concatenate(vals), minlength=self.shape[1])


@dataclass
class TextFeatures:
    """``matrix`` row ``i`` is paper ``ids[i]``; ``terms[j]`` names column ``j``."""

    fingerprint: str
    ids: np.ndarray  # int64, ascending
    matrix: Csr
    terms: list[str]

    def rows(self, paper_ids: list[int] | np.ndarray) -> np.ndarray:
        """Row numbers of ``paper_ids`` (-1 for a paper the matrix does not hold)."""
        wanted = np.asarray(paper_ids, dtype=np.int64)
        if not len(self.ids):
            return np.full(len(wanted), -1, dtype=np.int64)
        pos = np.minimum(np.searchsorted(self.ids, wanted), len(self.ids) - 1)
        return np.where(self.ids[pos] == wanted, pos, -1)


def fingerprint(store: Store) -> str:
    """A digest of which papers are live and how long their texts are (one aggregate query)."""
    p = t.paper.c
    live = p.deleted_at.is_(None)
    with store.read() as conn:
        row = conn.execute(select(
            func.count(), func.coalesce(func.max(p.id), 0),
            func.coalesce(func.sum(p.id * 7919 + func.length(p.abstract_text) * 31 + func.length(p.title)), 0),
        ).where(live)).one()
    return hashlib.sha1(repr(tuple(int(v) for v in row)).encode()).hexdigest()[:16]


def paper_texts(store: Store) -> tuple[np.ndarray, list[str]]:
    """(ids ascending, texts) of the live papers: a given or edited title, then the abstract."""
    p = t.paper.c
    ids: list[int] = []
    texts: list[str] = []
    with store.read() as conn:
        for pid, title, source, abstract in conn.execute(
            select(p.id, p.title, p.title_source, p.abstract_text)
            .where(p.deleted_at.is_(None)).order_by(p.id)
        ):
            ids.append(pid)
            head = "" if source == "derived" else (title or "")
            texts.append(f"{head}\n{abstract or ''}")
    return np.asarray(ids, dtype=np.int64), texts


def build(ids: np.ndarray, texts: list[str], fp: str = "") -> TextFeatures:
    """Fit the vectorizer to ``texts`` (scikit-learn's TfidfVectorizer)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    min_df = 2 if len(texts) >= 50 else 1
    vec = TfidfVectorizer(sublinear_tf=True, ngram_range=(1, 2), min_df=min_df, max_features=MAX_FEATURES,
                          stop_words="english", dtype=np.float32, token_pattern=r"(?u)\b\w\w+\b")
    try:
        matrix = Csr.of(vec.fit_transform(texts))
        terms = vec.get_feature_names_out().tolist()
    except ValueError:  # no terms at all (empty abstracts, a library of one word)
        empty = np.zeros(0)
        matrix = Csr(np.zeros(len(texts) + 1, dtype=np.int64), empty.astype(np.int32),
                     empty.astype(np.float32), (len(texts), 0))
        terms = []
    return TextFeatures(fp, ids, matrix, terms)


def features(store: Store, folder: Path | None) -> TextFeatures:
    """The library's features: from memory, else from ``folder/cache``, else built (and saved)."""
    fp = fingerprint(store)
    key = (str(folder), fp)
    with _lock:
        cached = _memory.get(key)
        if cached is not None:
            return cached
    feats = _load(folder, fp) if folder is not None else None
    if feats is None:
        ids, texts = paper_texts(store)
        feats = build(ids, texts, fp)
        if folder is not None:
            _save(folder, feats)
    with _lock:
        for old in [k for k in _memory if k[0] == str(folder)]:
            del _memory[old]
        _memory[key] = feats
    return feats


def cached(store: Store, folder: Path | None) -> bool:
    """Whether the current features are at hand without building them (memory or disk)."""
    fp = fingerprint(store)
    with _lock:
        if (str(folder), fp) in _memory:
            return True
    return folder is not None and all(p.exists() for p in _paths(folder, fp))


def build_in_child(folder: Path, timeout: float = 1800.0) -> bool:
    """Build and cache the features of the library in ``folder`` in a child process
    (``marginalia triage features``): tokenising 100,000 abstracts is Python work that would
    hold the window's interpreter lock for half a minute. True when the child succeeded."""
    from desktop_app.core.search.worker import run_child

    return run_child(folder, ["triage", "features"], timeout, "features")


def _paths(folder: Path, fp: str) -> tuple[Path, Path]:
    base = folder / CACHE_DIR
    return base / f"features-{fp}.npz", base / f"features-{fp}.terms"


def _load(folder: Path, fp: str) -> TextFeatures | None:
    matrix_path, terms_path = _paths(folder, fp)
    try:
        with np.load(matrix_path) as z:
            ids, indptr, indices, data, shape = z["ids"], z["indptr"], z["indices"], z["data"], z["shape"]
        text = terms_path.read_text(encoding="utf-8")
        terms = text.split("\n") if text else []
        n, m = int(shape[0]), int(shape[1])
        if len(ids) != n or len(terms) != m or len(indptr) != n + 1 or len(indices) != len(data):
            return None
        return TextFeatures(fp, ids.astype(np.int64), Csr(indptr, indices, data, (n, m)), terms)
    except (OSError, ValueError, KeyError):  # not there yet, or damaged: rebuilt
        return None


def _save(folder: Path, feats: TextFeatures) -> None:
    """Best effort (a read-only library folder just rebuilds next time); old generations go."""
    matrix_path, terms_path = _paths(folder, feats.fingerprint)
    try:
        matrix_path.parent.mkdir(exist_ok=True)
        for old in matrix_path.parent.glob("features-*"):
            if feats.fingerprint not in old.name:
                old.unlink(missing_ok=True)
        m = feats.matrix
        tmp = matrix_path.with_name(matrix_path.name + ".tmp.npz")
        np.savez(tmp, ids=feats.ids, indptr=m.indptr, indices=m.indices, data=m.data,
                 shape=np.asarray(m.shape, dtype=np.int64))
        tmp_terms = terms_path.with_name(terms_path.name + ".tmp")
        # a term never holds a newline: the tokenizer splits on whitespace
        tmp_terms.write_text("\n".join(feats.terms), encoding="utf-8")
        os.replace(tmp_terms, terms_path)
        os.replace(tmp, matrix_path)
    except OSError as exc:
        log.info("features not cached in %s: %s", matrix_path.parent, exc)
