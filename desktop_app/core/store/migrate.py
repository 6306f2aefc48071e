"""The migration runner: Alembic revisions shipped as ``desktop_app.migrations``.

Before an upgrade the database is copied with SQLite's backup API (``store/backups.py``); a
database whose revision this code does not know (written by a newer Marginalia) is refused untouched.
"""

from __future__ import annotations

import sqlite3
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine

from desktop_app.core.errors import DatabaseTooNew, LibraryError, LibraryReadOnly
from desktop_app.core.store.backups import (
    MIGRATION_BACKUPS_KEPT,
    damaged_error,
    is_damage,
    make_backup,
)
from desktop_app.core.store.engine import connect, make_migration_engine
from desktop_app.core.store.failures import READ_ONLY, storage_errors

if TYPE_CHECKING:
    from alembic.config import Config

BACKUPS_KEPT = MIGRATION_BACKUPS_KEPT  # migration backups; the others rotate
# The newest revision in migrations/versions. Opening a library that is already there needs no
# Alembic import (about 330 ms of start-up); tests/core/test_migrations.py checks it is current.
SCHEMA_HEAD = "0012"


def alembic_config() -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(files("desktop_app.migrations")))
    return cfg


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head() or ""


def current_revision(db_path: Path, *, immutable: bool | None = None) -> str | None:
    """The schema revision; ``immutable`` (True/False) reads read-only, as the engine will."""
    if not db_path.exists():
        return None
    con = connect(db_path, read_only=immutable is not None, immutable=bool(immutable))
    try:
        row = con.execute("SELECT name FROM sqlite_master WHERE type='table' AND name='alembic_version'").fetchone()
        if not row:
            return None
        rev = con.execute("SELECT version_num FROM alembic_version").fetchone()
        return rev[0] if rev else None
    finally:
        con.close()


def _has_tables(db_path: Path, immutable: bool | None) -> bool:
    con = connect(db_path, read_only=immutable is not None, immutable=bool(immutable))
    try:
        tables: int = con.execute("SELECT count(*) FROM sqlite_master WHERE type='table'").fetchone()[0]
        return tables > 0
    finally:
        con.close()


def backup(db_path: Path, backups_dir: Path, reason: str) -> Path:
    """A verified copy made with SQLite's online backup API (see :func:`backups.make_backup`); a
    backup the disk had no room for is removed, not left half-written."""
    if not db_path.is_file():
        raise LibraryError(f"there is no library database at {db_path} to back up")
    with storage_errors(backups_dir.parent):
        return make_backup(db_path, backups_dir, reason)


def migrate(db_path: Path, backups_dir: Path, target: str = "head", *, immutable: bool | None = None) -> str | None:
    """Bring the database to ``target``. Returns the backup path's name, if one was made.

    A database whose revision this code does not know (written by a newer Marginalia) is
    refused untouched. ``immutable`` not None: the library is read-only (see
    :func:`~desktop_app.core.store.engine.read_only_mode`); it is checked, never changed.
    """
    read_only = immutable is not None
    if read_only and not db_path.exists():
        raise LibraryReadOnly(
            f"{db_path.parent} holds no Marginalia library and is read-only, so none can be made there"
        )
    try:
        current = current_revision(db_path, immutable=immutable)
        foreign = current is None and db_path.exists() and _has_tables(db_path, immutable)
    except sqlite3.DatabaseError as exc:  # not SQLite at all, or damaged
        if is_damage(exc) and any(backups_dir.glob("library-*.sqlite")):
            raise damaged_error(db_path.parent, str(exc)) from exc
        from desktop_app.core.store.wal_witness import held_elsewhere_message

        held = held_elsewhere_message(db_path)
        if held:
            raise LibraryError(held) from exc
        raise LibraryError(f"{db_path} is not a readable Marginalia library ({exc}); it was left untouched") from exc
    if foreign:
        raise LibraryError(
            f"{db_path} is a database of another program, not a Marginalia library; it was left untouched"
        )
    if current == SCHEMA_HEAD and target == "head":
        return None
    from alembic import command
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())
    known = {rev.revision for rev in script.walk_revisions()}
    if current is not None and current not in known:
        raise DatabaseTooNew(
            f"{db_path} was written by a newer version of Marginalia (schema {current}). "
            "Install the newer version to open it; this one left it untouched."
        )
    wanted = script.get_current_head() if target == "head" else target
    if current == wanted:
        return None
    if read_only:
        raise LibraryReadOnly(
            f"{READ_ONLY}, and it was written by an older Marginalia: open it once "
            f"where it can be written, to upgrade it ({db_path.parent})"
        )
    made = None
    if current is not None:
        made = backup(db_path, backups_dir, f"before-{wanted}").name
    engine = make_migration_engine(db_path)
    cfg = alembic_config()
    try:
        with storage_errors(db_path.parent), engine.connect() as conn, conn.begin():
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, target)
            problems = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if problems:
                raise LibraryError(
                    f"migration would break {len(problems)} references "
                    f"(first: {problems[0]}); the database was left as it was"
                )
    finally:
        engine.dispose()
    return made


def revision_of(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()
