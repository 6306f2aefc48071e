"""One builder at a time for a library's derived caches (``<library>/cache/``), across processes.

The semantic space and the tf-idf features of a large library are fitted by child processes
(``marginalia triage space`` / ``triage features``), and more than one process may want them
at once: the window's reader and the child computing a large list's topics. Each takes
:func:`held` for the cache it builds, then looks for the cache again before building: the
second finds what the first wrote, and the library's texts are fitted once.

The lock is the operating system's on an open file (``flock`` on POSIX, ``msvcrt.locking`` on
Windows): a builder that dies releases it with its process, so a killed child leaves no stale
lock. The small ``<name>.lock`` file itself stays.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

CACHE_DIR = "cache"


@contextlib.contextmanager
def held(folder: Path, name: str) -> Iterator[None]:
    """Hold the lock ``name`` of the library in ``folder`` (waiting for another holder), or go
    on without it when the cache folder cannot be written (a read-only library: nothing is
    saved there either)."""
    where = Path(folder) / CACHE_DIR
    try:
        where.mkdir(parents=True, exist_ok=True)
        fd = os.open(where / f"{name}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield
        return
    try:
        _lock(fd)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _lock(fd: int) -> None:
    if sys.platform == "win32":
        import msvcrt

        while True:  # LK_LOCK gives up after ten one-second tries: wait as long as it takes
            try:
                msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
                return
            except OSError:
                continue
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_EX)
