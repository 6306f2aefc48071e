"""Storage failures the user can act on, turned into one-line LibraryErrors.

SQLite says "database or disk is full" (SQLITE_FULL: the disk, or ``PRAGMA max_page_count``)
and "attempt to write a readonly database" (SQLITE_READONLY); Python says ENOSPC; a PostgreSQL
server says "permission denied for table …" (SQLSTATE 42501) to a role without the GRANT. The
transaction that met them has been rolled back by the time the error reaches the user.
"""

from __future__ import annotations

import errno
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy.exc import DBAPIError

from desktop_app.core.errors import (
    DiskFull,
    LibraryError,
    LibraryReadOnly,
    PermissionDenied,
    ServerUnreachable,
)

READ_ONLY = "the library is read-only"
_DENIED = re.compile(r"permission denied for (table|relation|sequence|schema|database|function) (\S+)", re.I)


def disk_full(folder: Path | str) -> DiskFull:
    return DiskFull(f"no space left on {folder}; nothing was written")


def privilege_error(orig: BaseException | None, role: str, schema: str, *, writing: bool) -> LibraryError | None:
    """A server's "permission denied" (SQLSTATE 42501, psycopg's InsufficientPrivilege) as one
    line naming the GRANT a library owner runs; None for any other error."""
    if getattr(orig, "sqlstate", None) != "42501":
        return None
    first = (str(orig).strip().splitlines() or [""])[0]
    who = role or "your role"
    to = role or "ROLE"
    if "must be owner" in first:  # a schema upgrade (ALTER TABLE) by a member: only the owner may
        return PermissionDenied(
            f"the role '{who}' may not upgrade the shared library's tables ({first}): "
            "the library's owner opens it once with this version of Marginalia"
        )
    m = _DENIED.search(first)
    kind, name = (m.group(1).lower(), m.group(2).strip('"')) if m else ("", "")
    owner = "a library owner runs"
    if kind in ("table", "relation") and writing:
        return PermissionDenied(
            f"the role '{who}' may not write table {name}: {owner} GRANT SELECT, INSERT, "
            f"UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {to}"
        )
    if kind in ("table", "relation"):
        return PermissionDenied(
            f"the role '{who}' may not read table {name}: {owner} GRANT SELECT ON ALL TABLES IN SCHEMA {schema} TO {to}"
        )
    if kind == "sequence":
        return PermissionDenied(
            f"the role '{who}' may not use sequence {name}: {owner} GRANT USAGE, SELECT "
            f"ON ALL SEQUENCES IN SCHEMA {schema} TO {to}"
        )
    if kind == "schema":
        return PermissionDenied(
            f"the role '{who}' may not use schema {name}: {owner} GRANT USAGE ON SCHEMA {name} TO {to}"
        )
    return PermissionDenied(
        f"the role '{who}' lacks a privilege on the shared library ({first}): "
        "a library owner grants it (see docs/shared-library.md)"
    )


def unreachable(orig: BaseException | None, location: Path | str) -> ServerUnreachable | None:
    """psycopg's OperationalError (refused, lost, a statement timeout: QueryCanceled is one) or
    InterfaceError (a closed connection) as one line; None for any other error."""
    kinds = {c.__name__ for c in type(orig).__mro__ if c.__module__.partition(".")[0] == "psycopg"}
    if not kinds & {"OperationalError", "InterfaceError"}:
        return None
    first = (str(orig).strip().splitlines() or [""])[0]
    return ServerUnreachable(f"the library's server cannot be reached ({location}): {first}")


def translate(
    exc: BaseException, folder: Path | str, *, role: str = "", schema: str = "public", writing: bool = True
) -> LibraryError | None:
    """The LibraryError for a storage failure, or None for any other error. ``role`` and
    ``schema`` (a server library's) name the GRANT that a "permission denied" asks for."""
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        return disk_full(folder)
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    denied = privilege_error(orig, role, schema, writing=writing)
    if denied is not None:
        return denied
    lost = unreachable(orig, folder)
    if lost is not None:
        return lost
    if isinstance(orig, sqlite3.OperationalError):
        text = str(orig).lower()
        if "database or disk is full" in text:
            return disk_full(folder)
        if "readonly database" in text or "read-only" in text:
            return LibraryReadOnly(f"{READ_ONLY} ({folder})")
    return None


@contextmanager
def storage_errors(
    folder: Path | str, *, role: str = "", schema: str = "public", writing: bool = True
) -> Iterator[None]:
    """Re-raise a full disk, a read-only database or a missing privilege as a LibraryError with
    one line."""
    try:
        yield
    except (OSError, DBAPIError, sqlite3.OperationalError) as exc:
        mapped = translate(exc, folder, role=role, schema=schema, writing=writing)
        if mapped is None:
            raise
        raise mapped from exc
