"""Topics and maps of a large list computed in a child process, so that the window stays free.

The semantic space's fit (scikit-learn's randomized SVD through SciPy, the vocabulary's sort)
holds the GIL in long calls: 0.1-0.4 s each at 100,000 papers, so a thread computing the topics
or the map of a large list freezes the window that long, again and again. A child process
(spawned: no fork of a process running Qt's threads) opens the library itself (a folder or a
server URL), does the work and sends back the result: a TopicSet, or a map's few numpy arrays
and one string of titles (``paper_map.Titles``), which unpickle in a few milliseconds.

Lists of at most :data:`PROCESS_ABOVE` papers are computed in the calling thread (a child's
start, about a second, would cost more than the short stalls it saves); so is everything when
``MARGINALIA_MAP_WORKER=thread`` or in a frozen (packaged) app, whose executable cannot be run
again as Python. The child re-imports the main module only when it is a file: the console
scripts guard theirs with ``if __name__ == "__main__"``, and ``python -m desktop_app`` is not
re-run (multiprocessing skips a package's ``__main__``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from desktop_app.core.errors import LibraryError

if TYPE_CHECKING:
    from desktop_app.core.insights.paper_map import Facets, PaperMap
    from desktop_app.core.insights.topics import TopicSet

PROCESS_ABOVE = 5_000  # lists larger than this are computed in a child process
Result = TypeVar("Result")


def in_child_process(papers: int) -> bool:
    """Whether the topics or the map of ``papers`` papers are computed in a child process."""
    if os.environ.get("MARGINALIA_MAP_WORKER") == "thread" or getattr(sys, "frozen", False):
        return False
    return papers > PROCESS_ABOVE


def location_of(library: object) -> str:
    """What opens ``library`` again in another process: its server URL, else its folder."""
    server = getattr(library, "server", None)
    return str(server.url if server is not None else library.folder)  # type: ignore[attr-defined]


def map_of_library(location: str, paper_ids: Sequence[int] | None, topics: TopicSet | None) -> tuple[PaperMap, Facets]:
    """The map and its facets of the library at ``location``, opened here (the child's work)."""
    from desktop_app.core.insights import semantic
    from desktop_app.core.insights.paper_map import facets, paper_map
    from desktop_app.core.library import Library

    semantic.fit_in_this_process()
    lib = Library.open(location, ensure_index=False)
    try:
        found = paper_map(lib.store, paper_ids, topics)
        return found, facets(lib.store, found.ids)
    finally:
        lib.close()


def topics_of_library(location: str, paper_ids: Sequence[int] | None, k: int | None) -> TopicSet:
    """The topics of ``paper_ids`` of the library at ``location``, opened here (the child's work)."""
    from desktop_app.core.insights import semantic
    from desktop_app.core.library import Library

    semantic.fit_in_this_process()
    lib = Library.open(location, ensure_index=False)
    try:
        return lib.topics.of(paper_ids, k)
    finally:
        lib.close()


def map_in_child(
    location: str,
    paper_ids: Sequence[int] | None,
    topics: TopicSet | None,
    cancelled: Callable[[], bool] = lambda: False,
) -> tuple[PaperMap, Facets]:
    """:func:`map_of_library` in a child process."""
    ids = list(paper_ids) if paper_ids is not None else None
    return run_in_child(map_of_library, (location, ids, topics), cancelled)


def topics_in_child(
    location: str, paper_ids: Sequence[int] | None, k: int | None, cancelled: Callable[[], bool] = lambda: False
) -> TopicSet:
    """:func:`topics_of_library` in a child process."""
    ids = list(paper_ids) if paper_ids is not None else None
    return run_in_child(topics_of_library, (location, ids, k), cancelled)


def run_in_child(work: Callable[..., Result], args: tuple[Any, ...], cancelled: Callable[[], bool]) -> Result:
    """``work(*args)`` in a spawned child process; waits for it, polling ``cancelled`` (a
    cancelled wait ends the child). LibraryError when the child could not finish; the child's
    own LibraryError as it is."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures import TimeoutError as StillRunning
    from concurrent.futures.process import BrokenProcessPool

    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    try:
        future = pool.submit(work, *args)
        while True:
            try:
                return future.result(timeout=0.2)
            except StillRunning:
                if cancelled():
                    for process in list(getattr(pool, "_processes", {}).values()):
                        process.terminate()
                    raise LibraryError("cancelled") from None
            except BrokenProcessPool as exc:
                raise LibraryError(f"the worker process ended early ({exc})") from exc
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
