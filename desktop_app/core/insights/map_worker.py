"""A map computed in a child process, so that the window's interpreter stays free.

The semantic space's fit (scikit-learn's randomized SVD through SciPy, the vocabulary's sort)
holds the GIL in long calls: 0.1-0.4 s each at 100,000 papers, so a thread computing a large
map freezes the window that long, again and again. A child process (spawned: no fork of a
process with Qt's threads) opens the library itself (a folder or a server URL), computes the
map and its facets and sends back a few numpy arrays and one string of titles (``Titles``),
which unpickle in a few milliseconds. ``MARGINALIA_MAP_WORKER=thread`` computes in the calling
thread instead; so does a frozen (packaged) app, whose executable cannot be re-run as Python.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from desktop_app.core.errors import LibraryError

if TYPE_CHECKING:
    from desktop_app.core.insights.paper_map import Facets, PaperMap
    from desktop_app.core.insights.topics import TopicSet

PROCESS_ABOVE = 5_000  # lists larger than this are mapped in a child process (a thread's stalls grow with the list)


def in_child_process(papers: int) -> bool:
    """Whether a map of ``papers`` papers is computed in a child process."""
    if os.environ.get("MARGINALIA_MAP_WORKER") == "thread" or getattr(sys, "frozen", False):
        return False
    return papers > PROCESS_ABOVE


def map_of_library(location: str, paper_ids: Sequence[int] | None,
                   topics: TopicSet | None) -> tuple[PaperMap, Facets]:
    """The map and its facets of the library at ``location``, opened here (the child's work)."""
    from desktop_app.core.insights.paper_map import facets, paper_map
    from desktop_app.core.library import Library

    lib = Library.open(location, ensure_index=False)
    try:
        found = paper_map(lib.store, paper_ids, topics)
        return found, facets(lib.store, found.ids)
    finally:
        lib.close()


def map_in_child(location: str, paper_ids: Sequence[int] | None, topics: TopicSet | None,
                 cancelled: Callable[[], bool] = lambda: False) -> tuple[PaperMap, Facets]:
    """:func:`map_of_library` in a spawned child process; waits for it (polling ``cancelled``:
    a cancelled wait ends the child). LibraryError when the child could not do it."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures import TimeoutError as StillRunning
    from concurrent.futures.process import BrokenProcessPool

    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    try:
        future = pool.submit(map_of_library, location, list(paper_ids) if paper_ids is not None else None, topics)
        while True:
            try:
                return future.result(timeout=0.2)
            except StillRunning:
                if cancelled():
                    for process in list(getattr(pool, "_processes", {}).values()):
                        process.terminate()
                    raise LibraryError("the map was cancelled") from None
            except BrokenProcessPool as exc:
                raise LibraryError(f"the map's process ended early ({exc})") from exc
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
