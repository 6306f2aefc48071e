"""A representation of the papers fitted to the library's own texts (latent semantic analysis).

Each paper's title and abstract (the plain text the reader sees; the title counts twice) become a
sublinear tf-idf vector over the library's vocabulary, then a point in a low-rank space found by
truncated SVD, L2-normalised: two papers that use related words (not only the same words) end up
close, and the cosine of two points is their dot product. Chinese text is split into single
characters, other scripts into words of two letters or more.

:func:`library_space` fits the whole library once per state of its texts (the count of live
papers, their largest id and the total length of their titles and abstracts: a note, a tag or a
decision leaves it as it is) and keeps the result in memory; every later
call on the same state answers at once. :func:`ready_space` answers without waiting for a large
library's fit (it starts one in a thread and gives the last space meanwhile). A process fits a
store's space once at a time: a second caller waits for the fit under way, and the child that
fits a folder library's space waits for another process fitting the same texts (the window's
reader and a topics child at once) and keeps what it saved (``cache_lock.py``). Nothing is
downloaded: scikit-learn fits it from the library's texts.
"""

from __future__ import annotations

import logging
import threading
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix

    from desktop_app.core.insights.mapped_arrays import MappedArray
    from desktop_app.core.store import Store

# a Chinese (CJK ideograph) character alone, or a run of two or more letters of any other script
TOKEN_PATTERN = r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W\d_\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}"
log = logging.getLogger(__name__)
_lock = threading.Lock()
# store -> (its data stamp, the library state read then)
_stamps: dict[int, tuple[tuple[object, ...], tuple[int, ...]]] = {}
WAIT_PAPERS = 3_000  # up to this many papers a fit takes about a second: a search may wait for it
# above this many papers a folder library's window has the space fitted by a child process (the
# fit's tf-idf and SVD take some 600 MB at 100,000); up to it the fit runs where it is asked for
# (at 5,000 papers a child's start-up and reading the library again were 5 of its 6.4 s)
CHILD_PAPERS = 10_000
MAX_DIMENSIONS = 100  # rank of the projection: on the labelled sets 50-150 measure alike, 100 best overall
MAX_FEATURES = 60_000  # vocabulary cap: keeps 100,000 abstracts fast to fit
EXPANSION = 10  # a related-papers query adds the mean of its paper's nearest neighbours in the space
SPACE_SHARE = 0.6  # related papers: the expanded space cosine's share; the rest is the tf-idf cosine
EXACT_PAIRS_UP_TO = 20_000  # close_pairs compares every pair up to this many papers (~1 s at 20,000)
PAIR_BLOCK = 256  # rows compared at once: 256 x 20,000 cosines is 20 MB
PAIR_PROBES = 2  # close_pairs above EXACT_PAIRS_UP_TO: each paper joins its two nearest centres' groups
PASS_ROWS = 8_192  # rows of a mapped space read at once by a pass over it, their pages given back after
MIN_DOCS_FOR_MIN_DF = 50  # below this a word seen in one paper is kept (a tiny library has few repeats)


@dataclass(frozen=True)
class SemanticSpace:
    """The fitted representation of some papers: ``vectors[i]`` is paper ``ids[i]``."""

    ids: np.ndarray  # int64, ascending
    vectors: np.ndarray  # float32, (papers, dimensions), rows of norm 1 (0 for a paper without words)
    weights: csr_matrix  # the tf-idf rows the projection was fitted to (papers, words)
    words: np.ndarray  # the vocabulary, in the column order of ``weights``
    # the files behind ``vectors`` and ``weights``' data and indices, when read from the cache
    mapped: tuple[MappedArray, ...] = ()

    def give_back(self, r0: int = 0, r1: int | None = None) -> None:
        """Drop the resident pages of rows ``r0:r1`` (all by default) of a mapped space after a
        pass over them (``related`` reads every vector and every tf-idf row: some 90 MB at
        100,000 papers, which would otherwise stay in the window's resident set); nothing for a
        space in the heap."""
        if not self.mapped:
            return
        r1 = len(self.ids) if r1 is None else r1
        vectors, data, indices = self.mapped
        width = self.vectors.shape[1] if self.vectors.ndim == 2 else 0
        vectors.drop(r0 * width, r1 * width)
        lo, hi = int(self.weights.indptr[r0]), int(self.weights.indptr[r1])
        data.drop(lo, hi)
        indices.drop(lo, hi)

    def _cosines(self, query: np.ndarray) -> np.ndarray:
        """``vectors @ query``; over a mapped space :data:`PASS_ROWS` rows at a time, each
        block's pages given back after it (the pass never holds the whole space resident)."""
        if not self.mapped:
            cosines: np.ndarray = self.vectors @ query
            return cosines
        out = np.empty(len(self.vectors), dtype=np.result_type(self.vectors, query))
        for r0 in range(0, len(out), PASS_ROWS):
            r1 = min(len(out), r0 + PASS_ROWS)
            out[r0:r1] = self.vectors[r0:r1] @ query
            self.give_back(r0, r1)
        return out

    def _word_cosines(self, row: int) -> np.ndarray:
        """The tf-idf cosine of every paper with row ``row``, a block of rows at a time over a
        mapped space (as :meth:`_cosines`)."""
        probe = self.weights[row].T
        if not self.mapped:
            return np.asarray((self.weights @ probe).todense()).ravel()
        n = self.weights.shape[0]
        out = np.empty(n, dtype=self.weights.dtype)
        for r0 in range(0, n, PASS_ROWS):
            r1 = min(n, r0 + PASS_ROWS)
            out[r0:r1] = np.asarray((self.weights[r0:r1] @ probe).todense()).ravel()
            self.give_back(r0, r1)
        return out

    def rows(self, paper_ids: Sequence[int]) -> np.ndarray:
        """Row numbers of ``paper_ids`` (papers not in the space are left out)."""
        wanted = np.asarray(list(paper_ids), dtype=np.int64)
        pos = np.searchsorted(self.ids, wanted)
        pos = np.clip(pos, 0, max(len(self.ids) - 1, 0))
        if len(self.ids) == 0:
            return np.empty(0, dtype=np.int64)
        found: np.ndarray = pos[self.ids[pos] == wanted]
        return found

    def has_words(self) -> np.ndarray:
        """True for each paper whose text shares at least one word with the vocabulary."""
        return np.asarray(self.weights.getnnz(axis=1) > 0)

    def similar(self, paper_id: int, n: int = 10) -> list[tuple[int, float]]:
        """The ``n`` papers nearest ``paper_id`` by cosine in the space, (id, cosine) best first,
        itself left out."""
        row = self._row(paper_id)
        if row is None:
            return []
        return self._best(self._cosines(np.array(self.vectors[row])), row, n)

    def related(self, paper_id: int, n: int = 10) -> list[tuple[int, float]]:
        """The ``n`` papers most related to ``paper_id``, (id, score) best first, itself left out:
        :data:`SPACE_SHARE` × the cosine to the paper's point moved towards the mean of its
        :data:`EXPANSION` nearest (pseudo-relevance feedback), plus the rest × the tf-idf cosine
        (the exact words). Measured on the shared screening sets (benchmarks/bench_related_quality.py)."""
        row = self._row(paper_id)
        if row is None:
            return []
        sims = self._cosines(np.array(self.vectors[row]))
        sims[row] = -np.inf
        m = min(EXPANSION, len(sims) - 1)
        if m > 0:
            near = np.argpartition(-sims, m - 1)[:m]
            query = self.vectors[row] + self.vectors[near].mean(axis=0)
            query /= max(float(np.linalg.norm(query)), 1e-12)
            sims = self._cosines(query)
        exact = self._word_cosines(row)
        self.give_back()  # the rows read since (the neighbours' vectors)
        try:
            return self._best(SPACE_SHARE * sims + (1 - SPACE_SHARE) * exact, row, n)
        finally:
            if self.mapped:  # the window's space: its worker's temporaries leave the heap
                from desktop_app.core.insights.mapped_arrays import trim_heap

                trim_heap()

    def nearest_among(self, paper_id: int, among: Sequence[int], n: int = 10) -> list[tuple[int, float]]:
        """The ``n`` papers of ``among`` nearest ``paper_id`` by cosine in the space, (id, cosine)
        best first, itself and papers outside the space left out."""
        row = self._row(paper_id)
        if row is None or n <= 0:
            return []
        rows = self.rows(among)
        rows = rows[rows != row]
        if len(rows) == 0:
            return []
        sims = self.vectors[rows] @ self.vectors[row]
        self.give_back()
        m = min(n, len(rows))
        top = np.argpartition(-sims, m - 1)[:m]
        top = top[np.lexsort((self.ids[rows[top]], -sims[top]))]
        return [(int(self.ids[rows[i]]), float(sims[i])) for i in top if sims[i] > 0]

    def close_pairs(self, threshold: float, exact_up_to: int | None = None) -> list[tuple[int, int, float]]:
        """Every pair of papers whose cosine is at least ``threshold``, (low id, high id, cosine),
        without an all-pairs matrix: up to :data:`EXACT_PAIRS_UP_TO` papers every paper is
        compared with every other, :data:`PAIR_BLOCK` rows at a time; above, the papers are
        grouped around k-means centres (about √n of them) and each is compared only with the
        papers of its :data:`PAIR_PROBES` nearest centres (pairs that close share one)."""
        usable = np.flatnonzero(self.vectors.any(axis=1)) if len(self.vectors) else np.empty(0, np.int64)
        if len(usable) < 2:
            return []
        limit = EXACT_PAIRS_UP_TO if exact_up_to is None else exact_up_to
        groups = [usable] if len(usable) <= limit else self._cells(usable)
        found: list[np.ndarray] = []
        for group in groups:
            points = self.vectors[group]
            for start in range(0, len(group), PAIR_BLOCK):  # the upper triangle only: half the work
                sims = points[start : start + PAIR_BLOCK] @ points[start:].T
                i, j = np.nonzero(sims >= threshold)
                i_rows, j_rows = group[i + start], group[j + start]
                keep = i_rows < j_rows
                found.append(np.stack([i_rows[keep], j_rows[keep], sims[i[keep], j[keep]]], axis=1))
        self.give_back()
        if not found:
            return []
        rows = np.concatenate(found)
        _, first = np.unique(rows[:, :2], axis=0, return_index=True)
        return sorted((int(self.ids[int(a)]), int(self.ids[int(b)]), float(c)) for a, b, c in rows[first])

    def _cells(self, usable: np.ndarray) -> list[np.ndarray]:
        """``usable`` rows grouped by their :data:`PAIR_PROBES` nearest k-means centres."""
        points = self.vectors[usable]
        k = max(2, int(np.sqrt(len(usable))))
        centres = _spherical_centres(points, k)
        nearest = np.empty((len(points), PAIR_PROBES), dtype=np.int64)
        for start in range(0, len(points), 4096):
            sims = points[start : start + 4096] @ centres.T
            nearest[start : start + 4096] = np.argsort(-sims, axis=1)[:, :PAIR_PROBES]
        members = np.repeat(np.arange(len(points)), PAIR_PROBES)
        cell = nearest.ravel()
        order = np.argsort(cell, kind="stable")
        bounds = np.searchsorted(cell[order], np.arange(k + 1))
        return [usable[members[order[bounds[c] : bounds[c + 1]]]] for c in range(k) if bounds[c + 1] - bounds[c] > 1]

    def _row(self, paper_id: int) -> int | None:
        rows = self.rows([paper_id])
        if len(rows) == 0 or not self.vectors[int(rows[0])].any():
            return None
        return int(rows[0])

    def _best(self, scores: np.ndarray, row: int, n: int) -> list[tuple[int, float]]:
        scores = np.asarray(scores, dtype=np.float64)
        scores[row] = -np.inf
        n = min(n, len(scores) - 1)
        if n <= 0:
            return []
        top = np.argpartition(-scores, n - 1)[:n]
        top = top[np.lexsort((self.ids[top], -scores[top]))]
        return [(int(self.ids[i]), float(scores[i])) for i in top if scores[i] > 0]


def _spherical_centres(points: np.ndarray, k: int, *, sample: int = 20_000, rounds: int = 6) -> np.ndarray:
    """``k`` unit centres for grouping ``points`` (unit rows): spherical k-means on a sample of
    at most ``sample`` rows, started from ``k`` of them, ``rounds`` rounds; deterministic.
    Sampled starts sit where the papers are dense, so the groups come out of even size; a few
    rounds on a sample cost a fraction of a second at 100,000 papers where scikit-learn's
    MiniBatchKMeans took 20 s, and pairs as close as a near duplicate share a centre either way."""
    rng = np.random.default_rng(0)
    pool = points if len(points) <= sample else points[np.sort(rng.choice(len(points), sample, replace=False))]
    centres = pool[np.sort(rng.choice(len(pool), min(k, len(pool)), replace=False))].astype(np.float32)
    for _ in range(rounds):
        nearest = np.argmax(pool @ centres.T, axis=1)
        sums = np.zeros_like(centres)
        np.add.at(sums, nearest, pool)
        counts = np.bincount(nearest, minlength=len(centres))
        kept = counts > 0  # an empty centre keeps its place
        centres[kept] = sums[kept]
        centres /= np.maximum(np.linalg.norm(centres, axis=1, keepdims=True), 1e-12)
    return centres


def paper_texts(store: Store, paper_ids: Sequence[int] | None = None) -> tuple[np.ndarray, list[str]]:
    """(ids ascending, "title. title. abstract" for each) of the live papers, or of those of ``paper_ids``."""
    from sqlalchemy import select

    from desktop_app.core.store import tables as t

    p = t.paper.c
    stmt = select(p.id, p.title, p.abstract_text).where(p.deleted_at.is_(None)).order_by(p.id)
    if paper_ids is not None:
        stmt = stmt.where(store.dialect.in_ids(p.id, paper_ids))
    with store.read() as conn:
        rows = conn.execute(stmt).all()
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    return ids, [f"{r[1] or ''}. {r[1] or ''}. {r[2] or ''}" for r in rows]


def fit_space(ids: np.ndarray, texts: Sequence[str], dimensions: int = MAX_DIMENSIONS) -> SemanticSpace:
    """Fit tf-idf and its truncated SVD to ``texts`` (one per id); deterministic for the same input."""
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.preprocessing import normalize

    n = len(texts)
    vectorizer = TfidfVectorizer(
        token_pattern=TOKEN_PATTERN,
        lowercase=True,
        stop_words="english",
        sublinear_tf=True,
        min_df=2 if n >= MIN_DOCS_FOR_MIN_DF else 1,
        max_df=0.5 if n >= MIN_DOCS_FOR_MIN_DF else 1.0,
        max_features=MAX_FEATURES,
        dtype=np.float32,
    )
    try:
        weights = vectorizer.fit_transform(texts)
        words = vectorizer.get_feature_names_out()
    except ValueError:  # no words at all (empty texts, only stop words)
        from scipy.sparse import csr_matrix

        return SemanticSpace(
            ids,
            np.zeros((n, 0), np.float32),
            # scipy-stubs type a bare (rows, columns) shape only with a float64 dtype; SciPy takes any
            csr_matrix((n, 0), dtype=np.float32),  # type: ignore[arg-type]  # a gap in the stubs
            np.empty(0, dtype=object),
        )
    rank = min(dimensions, n - 1, weights.shape[1] - 1)
    if rank < 1:  # one paper, or one word: the tf-idf rows are the space
        vectors = weights.toarray()
    else:
        svd = TruncatedSVD(n_components=rank, algorithm="randomized", n_iter=4, random_state=0)
        with warnings.catch_warnings():  # identical texts: no variance to explain (0 / 0), harmless
            warnings.simplefilter("ignore", RuntimeWarning)
            vectors = svd.fit_transform(weights)
    vectors = normalize(np.asarray(vectors, dtype=np.float32))
    return SemanticSpace(ids, vectors.astype(np.float32, copy=False), weights.tocsr(), words)


def library_state(store: Store) -> tuple[int, ...]:
    """What changes when the live papers' texts change: (count, largest id, total title length,
    total abstract length). An edit that keeps a text's length is missed until the next one.
    Read again only after a write (the store's ``data_stamp``; always on a server)."""
    stamp = store.data_stamp()
    with _lock:
        seen = _stamps.get(id(store))
    if stamp is not None and seen is not None and seen[0] == stamp:
        return seen[1]
    from sqlalchemy import func, select

    from desktop_app.core.store import tables as t

    p = t.paper.c
    with store.read() as conn:
        row = conn.execute(
            select(
                func.count(), func.max(p.id), func.sum(func.length(p.title)), func.sum(func.length(p.abstract_text))
            ).where(p.deleted_at.is_(None))
        ).one()
    state = tuple(int(v or 0) for v in row)
    if stamp is not None:
        with _lock:
            _stamps[id(store)] = (stamp, state)
    return state


@dataclass
class _Kept:
    state: tuple[int, ...] = ()
    space: SemanticSpace | None = None
    fitting: threading.Thread | None = None  # ready_space's background fit
    # held while this process fits (or maps) the store's space: one fit at a time, the other
    # callers wait for it (each worker fitting its own would hold a fit's memory, a child each)
    fit_lock: threading.Lock = field(default_factory=threading.Lock)


_kept: dict[int, _Kept] = {}


def library_space(store: Store) -> SemanticSpace:
    """The space of all live papers, fitted once per state of their texts (the last one is kept
    for each store); waits for a fit under way in another thread (:func:`ready_space`'s or
    another caller's) instead of starting its own. A folder library of more than
    :data:`WAIT_PAPERS` papers has it fitted by a child process into its cache and mapped from
    there (see :func:`_fit_in_background`)."""
    state = library_state(store)
    with _lock:
        kept = _kept.setdefault(id(store), _Kept())
        if kept.space is not None and kept.state == state:
            return kept.space
    with kept.fit_lock:
        with _lock:
            if kept.space is not None and kept.state == state:
                return kept.space
        return _current(store, state, kept)


def ready_space(store: Store) -> SemanticSpace | None:
    """The space kept for ``store`` without waiting long: the current one (fitted here when the
    library has at most :data:`WAIT_PAPERS` papers), or else the last one while a thread fits
    the current (None before the first fit is done). A paper added since is not in the last
    one, a paper deleted since still is: callers check."""
    state = library_state(store)
    if state[0] <= WAIT_PAPERS:
        return library_space(store)
    with _lock:
        kept = _kept.setdefault(id(store), _Kept())
        if kept.state == state or kept.fitting is not None or kept.fit_lock.locked():
            return kept.space  # current, or a fit under way: never wait for it
        kept.fitting = threading.Thread(
            target=_fit_in_background, args=(store, state, kept), name="semantic-space", daemon=True
        )
        kept.fitting.start()
        return kept.space


_fits_here = False  # this process is itself a child doing the window's long work: no grandchild


def fit_in_this_process() -> None:
    """Said by a child process doing the window's long work (topics, the map): a space it needs
    is fitted in it, not in yet another child, and left in the folder's cache for the window."""
    global _fits_here
    _fits_here = True


def _current(store: Store, state: tuple[int, ...], kept: _Kept) -> SemanticSpace:
    """The space of ``state``, kept for ``store``. A folder library of more than
    :data:`WAIT_PAPERS` papers keeps it in its cache, so that the next process (a command, the
    window's next start) maps it instead of fitting it again: above :data:`CHILD_PAPERS` fitted
    there by a child, up to it here. ``kept.fit_lock`` is held."""
    folder = _folder_of(store) if state[0] > WAIT_PAPERS else None
    if folder is None:
        return _fit_and_keep(store, state, kept)
    if state[0] > CHILD_PAPERS and not _fits_here:
        space = _mapped(store, folder, state, kept)  # on disk, fitted before or now by a child
        if space is not None:
            return space
        log.info("semantic space fitted in this process: the child could not")
        space = _fit_and_keep(store, state, kept)
        save_space(folder, state, space)
        return space
    from desktop_app.core.insights import cache_lock

    space = _loaded(folder, state, kept)
    if space is not None:
        return space
    with cache_lock.held(folder, "space"):  # another process fitting it: wait, then map its space
        space = _loaded(folder, state, kept)
        if space is not None:
            return space
        space = _fit_and_keep(store, state, kept)
        # best effort (a read-only folder keeps none); kept mapped, as the next process maps it
        if save_space(folder, state, space) is not None:
            space = _loaded(folder, state, kept) or space
    return space


def _loaded(folder: Path, state: tuple[int, ...], kept: _Kept) -> SemanticSpace | None:
    space = load_space(folder, state)
    if space is not None:
        with _lock:
            kept.state, kept.space = state, space
    return space


def _fit_and_keep(store: Store, state: tuple[int, ...], kept: _Kept) -> SemanticSpace:
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):  # BLAS threads spinning on a busy machine cost more than they give
        space = fit_space(*paper_texts(store))
    with _lock:
        kept.state, kept.space = state, space
    return space


def _fit_in_background(store: Store, state: tuple[int, ...], kept: _Kept) -> None:
    """A large library's fit, started by :func:`ready_space`: for a folder library in a child
    process that leaves the space in the folder's cache, then mapped here (the fit's tf-idf
    and SVD take about 600 MB at 100,000 papers, which the window never holds; the mapped space
    is read from the page cache as it is used); else, or when the child fails, in this thread.
    Waits for a fit another thread has under way, then keeps its space."""
    try:
        with kept.fit_lock:
            with _lock:
                done = kept.space is not None and kept.state == state
            if not done:
                _current(store, state, kept)
    except Exception:
        log.debug("fitting the semantic space failed", exc_info=True)
    finally:
        with _lock:
            if kept.fitting is threading.current_thread():
                kept.fitting = None


def _mapped(store: Store, folder: Path, state: tuple[int, ...], kept: _Kept) -> SemanticSpace | None:
    """The space of ``state`` from the folder's cache, else fitted there by a child (then of the
    texts as they are now), kept for ``store``; None when neither works."""
    space = load_space(folder, state)
    if space is None and fit_in_child(folder):
        state = library_state(store)  # what the child fitted: the texts as they are now
        space = load_space(folder, state)
    if space is not None:
        with _lock:
            kept.state, kept.space = state, space
    return space


# ---- the space on disk: a folder library's cache, written by a child process ---------------
SPACE_PREFIX = "space-"
_ARRAYS = ("ids", "vectors", "data", "indices", "indptr", "words")


def _folder_of(store: Store) -> Path | None:
    """A folder library's folder (where its cache lives); None for a shared library."""
    commits = getattr(store, "commits_file", None)
    return Path(commits).parent if commits is not None else None


def _space_dir(folder: Path, state: tuple[int, ...]) -> Path:
    from desktop_app.core.insights.cache_lock import CACHE_DIR

    return Path(folder) / CACHE_DIR / (SPACE_PREFIX + "-".join(str(int(v)) for v in state))


def save_space(folder: Path, state: tuple[int, ...], space: SemanticSpace) -> Path | None:
    """Write ``space`` for ``state`` into the folder's cache (one .npy per array, renamed into
    place whole), dropping the spaces of earlier states (not another process's space being
    written). Best effort: None when it cannot."""
    import json
    import os
    import shutil

    final = _space_dir(folder, state)
    tmp = final.with_name(
        f"{final.name}.{os.getpid()}-{threading.get_ident()}.tmp"
    )  # a killed child's: core/leftovers.py
    try:
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        w = space.weights
        arrays = {
            "ids": space.ids,
            "vectors": space.vectors,
            "data": w.data,
            "indices": w.indices,
            "indptr": w.indptr,
            "words": np.asarray(space.words, dtype=str),
        }
        for name, value in arrays.items():
            np.save(tmp / f"{name}.npy", np.ascontiguousarray(value), allow_pickle=False)
        (tmp / "shape.json").write_text(json.dumps(list(w.shape)), "utf-8")
        for old in final.parent.glob(SPACE_PREFIX + "*"):
            if old != final and not old.name.endswith(".tmp"):
                shutil.rmtree(old, ignore_errors=True)
        if final.exists():  # another process saved the same state meanwhile
            shutil.rmtree(tmp, ignore_errors=True)
            return final
        tmp.rename(final)
    except OSError as exc:
        log.info("semantic space not cached in %s: %s", final.parent, exc)
        shutil.rmtree(tmp, ignore_errors=True)
        return None
    return final


def load_space(folder: Path, state: tuple[int, ...]) -> SemanticSpace | None:
    """The space of ``state`` from the folder's cache, its arrays memory-mapped (read-only);
    None when there is none, or it does not hold together."""
    import json

    from scipy.sparse import csr_matrix

    from desktop_app.core.insights.mapped_arrays import MappedArray

    where = _space_dir(folder, state)
    try:
        files = {name: MappedArray(where / f"{name}.npy") for name in _ARRAYS}
        a = {name: m.array for name, m in files.items()}
        shape = tuple(json.loads((where / "shape.json").read_text("utf-8")))
        n = len(a["ids"])
        if (
            len(shape) != 2
            or shape[0] != n
            or len(a["vectors"]) != n
            or len(a["indptr"]) != n + 1
            or len(a["words"]) != shape[1]
            or len(a["indices"]) != len(a["data"])
        ):
            return None
        weights = csr_matrix((a["data"], a["indices"], a["indptr"]), shape=shape, copy=False)
        return SemanticSpace(
            a["ids"], a["vectors"], weights, a["words"], mapped=(files["vectors"], files["data"], files["indices"])
        )
    except (OSError, ValueError, TypeError):
        return None


def fit_and_save(store: Store, folder: Path) -> Path | None:
    """The child's work (``marginalia triage space``): fit the whole library, save it; when
    another process is fitting it, wait for that one and keep its space (fitted once)."""
    from threadpoolctl import threadpool_limits

    from desktop_app.core.insights import cache_lock

    with cache_lock.held(folder, "space"):
        state = library_state(store)
        if load_space(folder, state) is not None:
            return _space_dir(folder, state)
        with threadpool_limits(1):
            space = fit_space(*paper_texts(store))
        return save_space(folder, state, space)


def fit_in_child(folder: Path, timeout: float = 1800.0) -> bool:
    """Fit and cache the space of the library in ``folder`` in a child process
    (``marginalia triage space``); True when the child succeeded."""
    from desktop_app.core.search.worker import run_child

    return run_child(folder, ["triage", "space"], timeout, "semantic space")


def forget(store: Store) -> None:
    """Drop the space kept for ``store`` (its library closed)."""
    with _lock:
        _kept.pop(id(store), None)
        _stamps.pop(id(store), None)
