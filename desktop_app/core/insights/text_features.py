"""The tf-idf matrix of a library's papers, fitted to the library's own texts.

One row per live paper (title, unless it was derived from the abstract, then the plain abstract),
unigrams and bigrams, sublinear tf, L2-normalised: the features of the learned triage queue and
of near-duplicate detection. Nothing is downloaded; the vocabulary is the library's.

Building it costs about a second per 5,000 papers, so it is kept: in memory for the process, and
on disk under ``<library>/cache/`` for the next process (the CLI's ``triage queue``), keyed by a
fingerprint of the papers' texts (ids and text lengths). Decisions, tags and ratings do not change
the fingerprint; an edited abstract or a new paper does.
"""

from __future__ import annotations

import hashlib
import json
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
    from scipy.sparse import csr_matrix

    from desktop_app.core.store import Store

log = logging.getLogger(__name__)

CACHE_DIR = "cache"
MAX_FEATURES = 262_144  # the most frequent terms kept at 100,000 papers (memory: ~40 MB of floats)
_lock = threading.Lock()
_memory: dict[tuple[str, str], TextFeatures] = {}


@dataclass
class TextFeatures:
    """``matrix`` row ``i`` is paper ``ids[i]``; ``terms[j]`` names column ``j``."""

    fingerprint: str
    ids: np.ndarray  # int64, ascending
    matrix: csr_matrix
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
        matrix = vec.fit_transform(texts).tocsr()
        terms = vec.get_feature_names_out().tolist()
    except ValueError:  # no terms at all (empty abstracts, a library of one word)
        from scipy.sparse import csr_matrix

        matrix, terms = csr_matrix((len(texts), 0), dtype=np.float32), []
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


def _paths(folder: Path, fp: str) -> tuple[Path, Path]:
    base = folder / CACHE_DIR
    return base / f"features-{fp}.npz", base / f"features-{fp}.json"


def _load(folder: Path, fp: str) -> TextFeatures | None:
    from scipy.sparse import load_npz

    matrix_path, meta_path = _paths(folder, fp)
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        matrix = load_npz(matrix_path).tocsr()
        ids = np.asarray(meta["ids"], dtype=np.int64)
        if matrix.shape[0] != len(ids) or matrix.shape[1] != len(meta["terms"]):
            return None
        return TextFeatures(fp, ids, matrix, list(meta["terms"]))
    except (OSError, ValueError, KeyError):  # not there yet, or damaged: rebuilt
        return None


def _save(folder: Path, feats: TextFeatures) -> None:
    """Best effort (a read-only library folder just rebuilds next time); old generations go."""
    from scipy.sparse import save_npz

    matrix_path, meta_path = _paths(folder, feats.fingerprint)
    try:
        matrix_path.parent.mkdir(exist_ok=True)
        for old in matrix_path.parent.glob("features-*"):
            if feats.fingerprint not in old.name:
                old.unlink(missing_ok=True)
        tmp = matrix_path.with_suffix(".tmp.npz")
        save_npz(tmp, feats.matrix, compressed=False)
        os.replace(tmp, matrix_path)
        tmp_meta = meta_path.with_suffix(".tmp")
        tmp_meta.write_text(json.dumps({"ids": feats.ids.tolist(), "terms": feats.terms}), encoding="utf-8")
        os.replace(tmp_meta, meta_path)
    except OSError as exc:
        log.info("features not cached in %s: %s", matrix_path.parent, exc)
