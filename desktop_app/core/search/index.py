"""The derived full-text index: open, build, update, search. All Whoosh writing lives here.

One writer at a time (a lock; no AsyncWriter or BufferedWriter, which lose errors). The searcher
is kept open and refreshed after each commit, not reopened per query.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import shutil
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # Whoosh (and numpy) are imported when an index is first opened (start-up time)
    import numpy as np
    from whoosh.index import Index
    from whoosh.query import Query
    from whoosh.searching import Searcher

    from desktop_app.core.search.fast_executor import FastExecutor, IndexView
    from desktop_app.core.search.postings_cache import PostingsCache
    from desktop_app.core.search.vocabulary import SegmentVocabulary, Vocabulary

from desktop_app import __version__
from desktop_app.core.search.schema import SCHEMA_VERSION, build_schema

STAMP = "marginalia-index.json"
log = logging.getLogger(__name__)
GENERATION_RETRIES = 5  # reads that found their generation's files gone, retried on the newest

R = TypeVar("R")


def follows_generation(method: Callable[..., R]) -> Callable[..., R]:
    """A read that another process's commit raced: Whoosh deletes the files of the generations
    no longer current (``_MAIN_1261.toc``, a segment) when it commits, so a searcher still on an
    old generation can find a file gone. The read is then retried on the newest generation
    instead of failing (a few times, a little later each time, while the writer finishes)."""

    @functools.wraps(method)
    def wrapper(self: SearchIndex, *args: object, **kwargs: object) -> R:
        for attempt in range(GENERATION_RETRIES):
            try:
                return method(self, *args, **kwargs)
            except FileNotFoundError as exc:
                if attempt == GENERATION_RETRIES - 1:
                    raise
                log.info("index generation changed under a read (%s); retrying on the newest", exc)
                time.sleep(0.01 * (attempt + 1))
                # the newest TOC may be being written: the next attempt opens it
                with self._lock, contextlib.suppress(FileNotFoundError):
                    self._refresh()
        raise AssertionError("unreachable")

    return wrapper


@dataclass
class IndexDoc:
    pid: int
    title: str
    abstract: str
    authors: str
    note: str
    highlight: str
    venue: str
    year: int | None
    uid: str
    keywords: str = ""


class SearchIndex:
    """A Whoosh index in one folder; ``rebuild`` builds a new folder and swaps it in."""

    def __init__(self, folder: Path, *, read_only: bool = False) -> None:
        self.folder = folder
        self.read_only = read_only  # open the Whoosh storage read-only (a read-only library)
        self._lock = threading.RLock()
        self._ix: Index | None = None
        self._searcher: Searcher | None = None
        self._view: IndexView | None = None  # the searcher's arrays (fast_executor.py)
        self._postings: PostingsCache | None = None  # term postings as arrays, kept across commits
        self._executor: FastExecutor | None = None  # the last query's: ranking reuses its leaves
        self._vocabularies: dict[str, SegmentVocabulary] = {}  # segment id -> its terms (vocabulary.py)

    # ---- lifecycle -------------------------------------------------------------------------
    def is_usable(self) -> tuple[bool, str]:
        """Whether the folder holds an index of the current schema and app version."""
        from whoosh import index as windex

        stamp = self.folder / STAMP
        try:
            # exists_in opens the TOC and only catches EmptyIndexError: a corrupt TOC raised
            exists = self.folder.exists() and windex.exists_in(str(self.folder))
        except Exception as exc:  # noqa: BLE001 - any failure means: rebuild
            return False, f"unreadable ({type(exc).__name__})"
        if not exists:
            return False, "missing"
        try:
            meta = json.loads(stamp.read_text("utf-8"))
        except (OSError, ValueError):
            return False, "unreadable stamp"
        if meta.get("schema") != SCHEMA_VERSION or meta.get("app") != __version__:
            return False, "outdated"
        try:
            ix = windex.open_dir(str(self.folder), readonly=self.read_only)
            with ix.searcher() as s:
                if s.doc_count_all():  # touch the term index, the postings and the pid column
                    reader = s.reader()
                    reader.column_reader("pid")[0]
                    field, text = next(iter(reader.all_terms()))
                    list(reader.postings(field, text).all_ids())[:1]
            ix.close()
        except Exception as exc:  # noqa: BLE001 - any failure means: rebuild
            return False, f"unreadable ({type(exc).__name__})"
        return True, "ok"

    def open(self) -> None:
        from whoosh import index as windex

        with self._lock:
            self._ix = windex.open_dir(str(self.folder), readonly=self.read_only)
            self._searcher = self._ix.searcher()
            self._view = None

    def close(self) -> None:
        with self._lock:
            if self._searcher is not None:
                self._searcher.close()
            if self._ix is not None:
                self._ix.close()
            self._searcher = None
            self._ix = None
            self._view = None

    def rebuild(
        self,
        docs: Iterable[IndexDoc],
        total: int,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> bool:
        """Build from scratch in a sibling folder, then swap it in. False if cancelled."""
        from whoosh import index as windex

        new = self.folder.with_name(self.folder.name + ".new")
        shutil.rmtree(new, ignore_errors=True)
        new.mkdir(parents=True)
        ix = windex.create_in(str(new), build_schema())
        # compound=False: a compound segment is copied into memory on open (467 MB at 100,000
        # papers, measured); separate files are memory-mapped instead. Two cores: two processes
        # each write a segment (worker.build_procs, bulk_writer.build)
        from desktop_app.core.search import bulk_writer
        from desktop_app.core.search.worker import build_procs

        try:
            done = bulk_writer.build(ix, (_fields(d) for d in docs), total, build_procs(total), progress, cancelled)
        except BaseException:
            ix.close()
            shutil.rmtree(new, ignore_errors=True)
            raise
        if not done:
            ix.close()
            shutil.rmtree(new, ignore_errors=True)
            return False
        _write_segment_arrays(new, ix)
        ix.close()
        (new / STAMP).write_text(json.dumps({"schema": SCHEMA_VERSION, "app": __version__}), "utf-8")
        with self._lock:
            self.close()
            old = self.folder.with_name(self.folder.name + ".old")
            shutil.rmtree(old, ignore_errors=True)
            if self.folder.exists():
                self.folder.rename(old)
            new.rename(self.folder)
            shutil.rmtree(old, ignore_errors=True)
            self.open()
        return True

    # ---- updates ---------------------------------------------------------------------------
    def update(self, docs: Iterable[IndexDoc], deleted: Iterable[int]) -> None:
        """Rewrite the documents of changed papers and drop deleted ones, in one commit."""
        with self._lock:
            assert self._ix is not None, "index not open"
            # timeout: another process (the CLI while the window is open) may hold the write lock
            writer = self._ix.writer(procs=1, compound=False, timeout=60, delay=0.1)
            try:
                for pid in deleted:
                    writer.delete_by_term("key", str(pid))
                for doc in docs:
                    writer.update_document(**_fields(doc))
                writer.commit()
            except BaseException:
                writer.cancel()
                raise
            _write_segment_arrays(self.folder, self._ix)
            self._refresh()

    def _refresh(self) -> None:
        """Open a new searcher after a commit. Whoosh's ``Searcher.refresh()`` is not used: it
        reuses segment readers whose deletions went stale (updated papers showed twice), and on
        an empty index it raises TypeError (whoosh-reloaded 2.7.5)."""
        if self._ix is None:
            return
        old = self._searcher
        self._searcher = self._ix.searcher()
        self._view = None
        if old is not None:
            old.close()

    # ---- reads -----------------------------------------------------------------------------
    @property
    def searcher(self) -> Searcher:
        assert self._searcher is not None, "index not open"
        return self._searcher

    def _current(self) -> None:
        """Pick up commits made by another process (the CLI while the window is open)."""
        try:
            if not self.searcher.up_to_date():
                self._refresh()
        except OSError:
            pass  # the TOC is being replaced; the next query looks again

    @follows_generation
    def doc_count(self) -> int:
        with self._lock:
            count: int = self.searcher.doc_count()
            return count

    def _empty(self) -> bool:
        # an index with no documents has an EmptyReader, whose column_reader() raises
        count: int = self.searcher.reader().doc_count_all()
        return count == 0

    def _arrays(self) -> IndexView:
        """The current searcher's arrays: docnum -> paper id, live documents, field lengths
        (loaded from the files saved beside the index at commit: no per-searcher rebuild)."""
        if self._view is None or self._view.searcher is not self.searcher:
            from desktop_app.core.search.fast_executor import IndexView
            from desktop_app.core.search.postings_cache import PostingsCache

            if self._postings is None:
                self._postings = PostingsCache()
            self._view = IndexView(self.searcher, self.folder, self._postings, writable=not self.read_only)
        return self._view

    def all_pids(self) -> set[int]:
        return set(self.all_pid_array().tolist())

    @follows_generation
    def all_pid_array(self) -> np.ndarray:
        """The paper ids of every live document, in docnum order."""
        import numpy as np

        with self._lock:
            if self._empty():
                return np.empty(0, dtype=np.int64)
            return self._arrays().live_pids()

    def matching_pids(self, q: Query) -> set[int]:
        """Every paper the query matches, unscored (fast)."""
        return set(self.matching_pid_array(q).tolist())

    @follows_generation
    def matching_pid_array(self, q: Query) -> np.ndarray:
        """Paper ids of every document the query matches, as an array (not sorted)."""
        import numpy as np

        from desktop_app.core.search.fast_executor import FastExecutor, Unsupported

        with self._lock:
            self._current()
            if self._empty():
                return np.empty(0, dtype=np.int64)
            view = self._arrays()
            self._executor = FastExecutor(view)
            try:
                docs = self._executor.match(q)
            except Unsupported as exc:
                log.debug("whoosh answers %r: %s", q, exc)
                docs = np.fromiter(self.searcher.docs_for_query(q), dtype=np.int64)
            return view.pids_of(docs)

    @follows_generation
    def matches_more_than(self, q: Query, n: int, within: Sequence[int] | None = None) -> bool:
        """Whether more than ``n`` documents match ``q`` (of the papers ``within``, when given),
        found by Whoosh's own matchers, which stop at the ``n + 1``-th: only the first blocks of
        each term's postings are read, where counting them all reads every block (60,000
        papers' worth of "networks" at 100,000). With ``within``, the matcher skips from one of
        those papers to the next (few of them: a tag's papers)."""
        import numpy as np

        with self._lock:
            self._current()
            if self._empty():
                return False
            matcher = q.matcher(self.searcher)
            found = 0
            if within is None:
                while matcher.is_active():  # (deleted documents are filtered out by the segments' readers)
                    found += 1
                    if found > n:
                        return True
                    matcher.next()
                return False
            for doc in self._arrays().docs_of(np.asarray(within, dtype=np.int64)).tolist():
                if not matcher.is_active():
                    return False
                if matcher.id() < doc:
                    matcher.skip_to(doc)
                    if not matcher.is_active():
                        return False
                if matcher.id() == doc:
                    found += 1
                    if found > n:
                        return True
            return False

    @follows_generation
    def ranked_pids(self, q: Query, limit: int, within: Iterable[int] | None = None) -> list[tuple[int, float]]:
        """The best ``limit`` papers by score, optionally only among ``within`` papers."""
        import numpy as np

        from desktop_app.core.search.fast_executor import FastExecutor, Unsupported

        with self._lock:
            if self._empty():
                return []
            view = self._arrays()
            mask = None
            if within is not None:
                mask = view.docs_of(within if isinstance(within, np.ndarray) else np.fromiter(within, dtype=np.int64))
            executor = self._executor
            if executor is None or executor.view is not view:
                executor = self._executor = FastExecutor(view)
            try:
                ranked = executor.top(q, limit, mask)
            except Unsupported as exc:
                log.debug("whoosh ranks %r: %s", q, exc)
                res = self.searcher.search(q, limit=limit, filter=None if mask is None else set(mask.tolist()))
                ranked = [(hit.docnum, float(hit.score)) for hit in res]
            pids = view.pids
            return [(int(pids[d]), score) for d, score in ranked]

    @follows_generation
    def doc_frequencies(self, field: str, terms: Iterable[str]) -> tuple[int, dict[str, int]]:
        """(live documents, how many of them hold each term in ``field``): for tf-idf weights."""
        with self._lock:
            self._current()
            searcher = self.searcher
            return searcher.doc_count(), {t: searcher.doc_frequency(field, t) for t in terms}

    def vocabulary(self) -> Vocabulary:
        """The current searcher's terms for spelling look-ups: each segment's read from the file
        saved beside the index at commit (vocabulary.py), kept while the segment lives."""
        from desktop_app.core.search.vocabulary import Vocabulary, load_or_compute

        with self._lock:
            segments = []
            for segreader, _offset in self.searcher.reader().leaf_readers():
                if segreader.segment() is None:  # an empty index
                    continue
                segment_id = segreader.segment().segment_id()
                vocab = self._vocabularies.get(segment_id)
                if vocab is None:
                    vocab = load_or_compute(self.folder, segreader, writable=not self.read_only)
                segments.append(vocab)
            self._vocabularies = {v.segment_id: v for v in segments}
            return Vocabulary(segments)

    def iter_terms(self, field: str, prefix: str) -> Iterator[str]:
        with self._lock:
            for t in self.searcher.reader().expand_prefix(field, prefix):
                yield t.decode("utf-8") if isinstance(t, bytes) else t


def _write_segment_arrays(folder: Path, ix: Index) -> None:
    """Save each new segment's paper ids and field lengths (segment_arrays.py) and its terms
    (vocabulary.py) beside the index."""
    from desktop_app.core.search import segment_arrays, vocabulary

    for part in (segment_arrays, vocabulary):
        try:
            part.write_for_index(folder, ix)
        except OSError as exc:  # readers compute what is missing
            log.warning("could not save the index's %s: %s", part.__name__.rsplit(".", 1)[-1], exc)


def _fields(doc: IndexDoc) -> dict[str, object]:
    out = {
        "key": str(doc.pid),
        "pid": doc.pid,
        "title": doc.title,
        "abstract": doc.abstract,
        "author": doc.authors,
        "note": doc.note,
        "highlight": doc.highlight,
        "venue": doc.venue,
        "keyword": doc.keywords,
        "uid": doc.uid,
    }
    if doc.year is not None:
        out["year"] = doc.year
    return out
