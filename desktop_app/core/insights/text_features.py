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
On disk each array is a ``.npy`` file of its own, read back memory-mapped (``mapped_arrays.py``):
at 100,000 papers the matrix is some 130 MB, which the window never copies into its heap. A pass
over the whole matrix (scoring) goes a slice of rows at a time and gives each slice's pages back
after it, so it leaves neither a copy nor the file's pages resident.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import shutil
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, overload

import numpy as np
from sqlalchemy import Select, func, select

from desktop_app.core.insights import cache_lock
from desktop_app.core.insights.cache_lock import CACHE_DIR
from desktop_app.core.insights.mapped_arrays import MappedArray, position, trim_heap
from desktop_app.core.store import tables as t

if TYPE_CHECKING:
    from desktop_app.core.store import Store

log = logging.getLogger(__name__)

MAX_FEATURES = 262_144  # the most frequent terms kept at 100,000 papers (memory: ~40 MB of floats)
PASS_VALUES = 1 << 18  # stored values per slice of a pass over the matrix (~8 MB of temporaries)
FEATURES_PREFIX = "features-"
_ARRAYS = ("ids", "indptr", "indices", "data")
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
    mapped: tuple[MappedArray, ...] = ()  # the files behind ``indices`` and ``data``, when mapped

    @classmethod
    def of(cls, matrix: object) -> Csr:
        """From a SciPy CSR matrix."""
        m = matrix.tocsr()  # type: ignore[attr-defined]
        return cls(
            np.asarray(m.indptr, dtype=np.int64),
            np.asarray(m.indices, dtype=np.int32),
            np.asarray(m.data, dtype=np.float32),
            (int(m.shape[0]), int(m.shape[1])),
        )

    def give_back(self, start: int = 0, stop: int | None = None) -> None:
        """Drop the resident pages of stored values ``start:stop`` (all by default) of a mapped
        matrix; nothing for one in the heap."""
        for part in self.mapped:
            part.drop(start, stop)

    def slices(self, values: int = PASS_VALUES) -> list[tuple[int, int]]:
        """Row ranges ``(r0, r1)`` covering the matrix, each holding at most ``values`` stored
        values (or one row, when a row holds more)."""
        n, out, r0 = self.shape[0], [], 0
        while r0 < n:
            r1 = int(np.searchsorted(self.indptr, self.indptr[r0] + values, side="right")) - 1
            r1 = min(n, max(r1, r0 + 1))
            out.append((r0, r1))
            r0 = r1
        return out

    def dot(self, weights: np.ndarray) -> np.ndarray:
        """The matrix times a dense vector of one weight per column (float64, one per row), a
        slice of rows at a time: the temporaries stay at a slice's size, and a mapped matrix
        gives each slice's pages back after it."""
        out = np.zeros(self.shape[0])
        if not len(self.data):
            return out
        for r0, r1 in self.slices():
            lo, hi = int(self.indptr[r0]), int(self.indptr[r1])
            if hi > lo:
                products = self.data[lo:hi].astype(np.float64) * weights[self.indices[lo:hi]]
                local = np.repeat(np.arange(r1 - r0, dtype=np.int64), np.diff(self.indptr[r0 : r1 + 1]))
                out[r0:r1] = np.bincount(local, weights=products, minlength=r1 - r0)
            self.give_back(lo, hi)
        trim_heap()  # the slices' temporaries: freed, and now out of this thread's arena too
        return out

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
        columns, values = np.concatenate(cols), np.concatenate(vals)
        self.give_back()  # the labelled rows' pages: a few, but a long session labels many
        return np.bincount(columns, weights=values, minlength=self.shape[1])


class Terms(Sequence[str]):
    """The names of the columns, held as their UTF-8 text and one offset per term: 262,144 terms
    as a list of strings were 8.6 MB of the window's heap; as bytes and offsets, 3.7 MB. A term is
    made when it is read (the few that explain a queue entry)."""

    __slots__ = ("_data", "_ends")

    def __init__(self, joined: str = "") -> None:
        """From the terms joined by newlines (a term never holds one: the tokenizer splits on
        whitespace)."""
        self._data = joined.encode("utf-8")
        if not joined:
            self._ends = np.zeros(0, dtype=np.int64)
            return
        breaks = np.flatnonzero(np.frombuffer(self._data, dtype=np.uint8) == 10)
        self._ends = np.append(breaks, len(self._data)).astype(np.int64)

    @classmethod
    def of(cls, terms: Iterable[str]) -> Terms:
        return cls("\n".join(terms))

    def joined(self) -> str:
        return self._data.decode("utf-8")

    def __len__(self) -> int:
        return len(self._ends)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        i = position(index, len(self))
        start = int(self._ends[i - 1]) + 1 if i else 0
        return self._data[start : int(self._ends[i])].decode("utf-8")


@dataclass
class TextFeatures:
    """``matrix`` row ``i`` is paper ``ids[i]``; ``terms[j]`` names column ``j``."""

    fingerprint: str
    ids: np.ndarray  # int64, ascending
    matrix: Csr
    terms: Terms

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
        row = conn.execute(
            select(
                func.count(),
                func.coalesce(func.max(p.id), 0),
                func.coalesce(func.sum(p.id * 7919 + func.length(p.abstract_text) * 31 + func.length(p.title)), 0),
            ).where(live)
        ).one()
    return hashlib.sha1(repr(tuple(int(v) for v in row)).encode()).hexdigest()[:16]


def paper_texts(store: Store) -> tuple[np.ndarray, list[str]]:
    """(ids ascending, texts) of the live papers: a given or edited title, then the abstract."""
    p = t.paper.c
    ids: list[int] = []
    texts: list[str] = []
    live: Select[int, str, str, str] = (
        select(p.id, p.title, p.title_source, p.abstract_text).where(p.deleted_at.is_(None)).order_by(p.id)
    )
    with store.read() as conn:
        for pid, title, source, abstract in conn.execute(live):
            ids.append(pid)
            head = "" if source == "derived" else (title or "")
            texts.append(f"{head}\n{abstract or ''}")
    return np.asarray(ids, dtype=np.int64), texts


def build(ids: np.ndarray, texts: list[str], fp: str = "") -> TextFeatures:
    """Fit the vectorizer to ``texts`` (scikit-learn's TfidfVectorizer)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    min_df = 2 if len(texts) >= 50 else 1
    vec = TfidfVectorizer(
        sublinear_tf=True,
        ngram_range=(1, 2),
        min_df=min_df,
        max_features=MAX_FEATURES,
        stop_words="english",
        dtype=np.float32,
        token_pattern=r"(?u)\b\w\w+\b",
    )
    try:
        matrix = Csr.of(vec.fit_transform(texts))
        terms = Terms.of(vec.get_feature_names_out().tolist())
    except ValueError:  # no terms at all (empty abstracts, a library of one word)
        empty = np.zeros(0)
        matrix = Csr(
            np.zeros(len(texts) + 1, dtype=np.int64), empty.astype(np.int32), empty.astype(np.float32), (len(texts), 0)
        )
        terms = Terms()
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
    if feats is None and folder is not None:
        with cache_lock.held(folder, "features"):  # another process building them: wait, then read
            feats = _load(folder, fp) or _build_and_save(store, folder, fp)
    elif feats is None:
        feats = build(*paper_texts(store), fp)
    with _lock:
        for old in [k for k in _memory if k[0] == str(folder)]:
            del _memory[old]
        _memory[key] = feats
    return feats


def _build_and_save(store: Store, folder: Path, fp: str) -> TextFeatures:
    feats = build(*paper_texts(store), fp)
    if _save(folder, feats):
        feats = _load(folder, fp) or feats  # mapped: the built arrays leave the heap
    return feats


def cached(store: Store, folder: Path | None) -> bool:
    """Whether the current features are at hand without building them (memory or disk)."""
    fp = fingerprint(store)
    with _lock:
        if (str(folder), fp) in _memory:
            return True
    return folder is not None and _dir(folder, fp).is_dir()


def build_in_child(folder: Path, timeout: float = 1800.0) -> bool:
    """Build and cache the features of the library in ``folder`` in a child process
    (``marginalia triage features``): tokenising 100,000 abstracts is Python work that would
    hold the window's interpreter lock for half a minute. True when the child succeeded."""
    from desktop_app.core.search.worker import run_child

    return run_child(folder, ["triage", "features"], timeout, "features")


def _dir(folder: Path, fp: str) -> Path:
    return folder / CACHE_DIR / f"{FEATURES_PREFIX}{fp}"


def _load(folder: Path, fp: str) -> TextFeatures | None:
    """The features of ``fp`` from the folder's cache, their arrays memory-mapped; None when
    there are none (or they do not hold together: rebuilt)."""
    where = _dir(folder, fp)
    try:
        a = {name: MappedArray(where / f"{name}.npy") for name in _ARRAYS}
        text = (where / "terms.txt").read_text(encoding="utf-8")
    except (OSError, ValueError):
        return None
    terms = Terms(text)
    ids, indptr, indices, data = (a[name].array for name in _ARRAYS)
    n, m = len(ids), len(terms)
    if (
        len(indptr) != n + 1
        or len(indices) != len(data)
        or int(indptr[-1]) != len(data)
        or ids.dtype != np.int64
        or indptr.dtype != np.int64
        or indices.dtype != np.int32
        or data.dtype != np.float32
    ):
        return None
    matrix = Csr(indptr, indices, data, (n, m), mapped=(a["indices"], a["data"]))
    return TextFeatures(fp, ids, matrix, terms)


def _save(folder: Path, feats: TextFeatures) -> bool:
    """One ``.npy`` per array and the terms, renamed into place whole; earlier generations go.
    Best effort (a read-only library folder just rebuilds next time): False when not saved."""
    final = _dir(folder, feats.fingerprint)
    tmp = final.with_name(f"{final.name}.{os.getpid()}.tmp")  # a killed child's: core/leftovers.py
    try:
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        m = feats.matrix
        arrays = {
            "ids": (feats.ids, np.int64),
            "indptr": (m.indptr, np.int64),
            "indices": (m.indices, np.int32),
            "data": (m.data, np.float32),
        }
        for name, (value, dtype) in arrays.items():
            np.save(tmp / f"{name}.npy", np.ascontiguousarray(value, dtype=dtype), allow_pickle=False)
        # a term never holds a newline: the tokenizer splits on whitespace
        (tmp / "terms.txt").write_text(feats.terms.joined(), encoding="utf-8")
        for old in final.parent.glob(FEATURES_PREFIX + "*"):
            if old == final or old.name.endswith(".tmp"):
                continue
            # a process still mapping an old generation keeps reading it (POSIX); on Windows
            # the files in use stay until a later save
            if old.is_dir():
                shutil.rmtree(old, ignore_errors=True)
            else:  # the single-file layout of earlier versions
                with contextlib.suppress(OSError):
                    old.unlink()
        if final.exists():  # another process saved the same texts meanwhile
            shutil.rmtree(tmp, ignore_errors=True)
            return True
        tmp.rename(final)
    except OSError as exc:
        log.info("features not cached in %s: %s", final.parent, exc)
        shutil.rmtree(tmp, ignore_errors=True)
        return final.is_dir()
    return True
