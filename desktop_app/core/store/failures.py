"""Storage failures the user can act on, turned into one-line LibraryErrors.

SQLite says "database or disk is full" (SQLITE_FULL: the disk, or ``PRAGMA max_page_count``)
and "attempt to write a readonly database" (SQLITE_READONLY); Python says ENOSPC. The
transaction that met them has been rolled back by the time the error reaches the user.
"""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy.exc import DBAPIError

from desktop_app.core.errors import DiskFull, LibraryError, LibraryReadOnly

READ_ONLY = "the library is read-only"


def disk_full(folder: Path | str) -> DiskFull:
    return DiskFull(f"no space left on {folder}; nothing was written")


def translate(exc: BaseException, folder: Path | str) -> LibraryError | None:
    """The LibraryError for a storage failure, or None for any other error."""
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        return disk_full(folder)
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    if isinstance(orig, sqlite3.OperationalError):
        text = str(orig).lower()
        if "database or disk is full" in text:
            return disk_full(folder)
        if "readonly database" in text or "read-only" in text:
            return LibraryReadOnly(f"{READ_ONLY} ({folder})")
    return None


@contextmanager
def storage_errors(folder: Path | str) -> Iterator[None]:
    """Re-raise a full disk or a read-only database as a LibraryError with one line."""
    try:
        yield
    except (OSError, DBAPIError, sqlite3.OperationalError) as exc:
        mapped = translate(exc, folder)
        if mapped is None:
            raise
        raise mapped from exc
