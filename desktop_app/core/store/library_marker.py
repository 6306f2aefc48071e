"""Telling a vanished library from a new one (so a lost database is never silently replaced by an empty library).

A library folder keeps ``library.marker`` (JSON) naming its database by a random id that the
database holds in SQLite's ``application_id`` header field (a backup copies the header, so a
restored backup matches). When the marker is there but ``library.sqlite`` is missing, empty or a
different database, the folder held a library that is gone: opening refuses (LibraryDamaged,
whose message and the window offer the newest backup) instead of making an empty library in its
place, which ``check`` would call ok and the next backup would rotate the good ones away for.

A database with no id (made before this marker, or a backup of one) takes the marker's id.
To start a new library in the folder on purpose, the user removes the marker (the message says so).
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
from pathlib import Path

from desktop_app.core.errors import LibraryDamaged

MARKER = "library.marker"


def _read_id(db_path: Path) -> int:
    """The database's application_id (0: none), read from its header without writing."""
    con = sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return int(con.execute("PRAGMA application_id").fetchone()[0] or 0)
    finally:
        con.close()


def _marker_id(folder: Path) -> int | None:
    try:
        value = json.loads((folder / MARKER).read_text("utf-8")).get("id")
    except (OSError, ValueError, AttributeError):
        return None
    return int(value) if isinstance(value, int) and value else None


def vanished(folder: Path, db_path: Path, what: str) -> LibraryDamaged:
    from desktop_app.core.store.backups import BACKUPS_DIR, list_backups

    newest = list_backups(folder / BACKUPS_DIR)
    way_out = (
        f"run `marginalia restore 1` to put back the backup of {newest[0].describe()}"
        if newest
        else "there is no backup in this folder to put back"
    )
    return LibraryDamaged(
        f"the library database {db_path} {what}, though this folder held a library ({MARKER}); {way_out}. "
        f"Nothing was changed. To start a new, empty library here instead, remove {folder / MARKER}"
    )


def check(folder: Path, db_path: Path) -> None:
    """Before a writable open: LibraryDamaged when the marker names a database that is not there."""
    expected = _marker_id(folder)
    if expected is None:
        return
    if not db_path.exists():
        raise vanished(folder, db_path, "is missing")
    if db_path.stat().st_size == 0:
        raise vanished(folder, db_path, "is empty (0 bytes)")
    try:
        found = _read_id(db_path)
    except sqlite3.DatabaseError:
        return  # not readable as SQLite: the damage checks of the open say so
    if found not in (0, expected):
        raise vanished(folder, db_path, "is another library's database")


def ensure(folder: Path, db_path: Path) -> None:
    """After a writable open: the database has an id and the folder's marker names it."""
    con = sqlite3.connect(str(db_path.absolute()))
    try:
        found = int(con.execute("PRAGMA application_id").fetchone()[0] or 0)
        wanted = _marker_id(folder) or found or secrets.randbelow(2**31 - 2) + 1
        if found != wanted:
            con.execute(f"PRAGMA application_id = {int(wanted)}")
            con.commit()
    finally:
        con.close()
    if _marker_id(folder) != wanted:
        tmp = folder / (MARKER + ".tmp")
        tmp.write_text(json.dumps({"id": wanted, "database": db_path.name}) + "\n", "utf-8")
        os.replace(tmp, folder / MARKER)
