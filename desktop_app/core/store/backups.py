"""Backups of the library database, and putting one back over a damaged database.

A backup is a copy made with SQLite's online backup API (the library stays usable meanwhile),
written under a ``.part`` name, checked with ``PRAGMA integrity_check`` and only then renamed to
``backups/library-<stamp>-<reason>.sqlite``: a damaged database never replaces a good backup.

Reasons: ``auto`` (made when the newest backup is older than :func:`backup_every_hours`),
``manual`` (``marginalia backup``) and ``before-<revision>`` (before a migration). Automatic and
manual backups are rotated: the newest of each of the last 7 days, 4 weeks and 6 months are kept.
Migration backups are kept apart: the newest :data:`MIGRATION_BACKUPS_KEPT`.

A restore verifies the chosen backup, keeps the damaged database aside (renamed to
``library-damaged-<stamp>.sqlite``, with its ``-wal`` and ``-shm``; never deleted) and copies the
backup in with the backup API.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from desktop_app.core.errors import LibraryDamaged, LibraryError
from desktop_app.core.processes import process_running
from desktop_app.core.store.engine import connect
from desktop_app.core.store.failures import translate
from desktop_app.core.store.store import COMMITS_FILE

DB_NAME = "library.sqlite"
BACKUPS_DIR = "backups"
MIGRATION_BACKUPS_KEPT = 10
KEEP_DAILY, KEEP_WEEKLY, KEEP_MONTHLY = 7, 4, 6
DEFAULT_EVERY_HOURS = 24.0
EVERY_HOURS_ENV = "MARGINALIA_BACKUP_EVERY_HOURS"
_STAMP = "%Y%m%d-%H%M%S-%f"
_NAME = re.compile(r"^library-(\d{8}-\d{6}-\d{6})-([A-Za-z0-9_.-]+)\.sqlite$")
# what SQLite says when the file's pages are not what they should be
_DAMAGE_WORDS = ("malformed", "not a database", "disk image", "file is encrypted")


@dataclass(frozen=True)
class BackupInfo:
    """One backup file: when it was made, why, and what it holds (-1 when unreadable)."""

    path: Path
    made: datetime
    reason: str
    papers: int = -1
    notes: int = -1

    @property
    def periodic(self) -> bool:
        """Made automatically or on request (rotated), not before a migration."""
        return not self.reason.startswith("before-")

    def describe(self) -> str:
        return f"{self.made:%Y-%m-%d %H:%M} ({_count(self.papers, 'paper')}, {_count(self.notes, 'note')})"


def _count(n: int, word: str) -> str:
    return f"? {word}s" if n < 0 else f"{n} {word}" + ("" if n == 1 else "s")


# ---- damage --------------------------------------------------------------------------------
def is_damage(exc: BaseException) -> bool:
    """Whether an error (sqlite3's, or SQLAlchemy's wrapping it) says the database file is damaged."""
    orig = getattr(exc, "orig", None) or exc
    if not isinstance(orig, sqlite3.DatabaseError):
        return False
    text = str(orig).lower()
    if isinstance(orig, sqlite3.OperationalError):
        # garbage over a page that still parses: a text cell that is not UTF-8 (the app only
        # ever writes UTF-8, so this is damage, not data)
        return text.startswith("could not decode to utf-8")
    return any(w in text for w in _DAMAGE_WORDS)


def damaged_error(folder: Path, detail: str) -> LibraryDamaged:
    """The one-line message for a damaged library: what is wrong and the way out."""
    newest = list_backups(folder / BACKUPS_DIR)
    if newest:
        way_out = (
            f"run `marginalia restore 1` to put back the backup of {newest[0].describe()}; "
            "the damaged file is kept aside"
        )
    else:
        way_out = "there is no backup to restore; `marginalia export --format json` may still save what is readable"
    return LibraryDamaged(f"the library database {folder / DB_NAME} is damaged ({detail}); {way_out}")


def _read_only(path: Path) -> sqlite3.Connection:
    """A connection to a file nobody writes (a backup, a closed copy): no lock, no -wal or -shm
    left beside it."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)


def integrity_problem(db_path: Path) -> str | None:
    """``PRAGMA integrity_check`` of a closed database file: None when it is ok, else the first problem."""
    try:
        con = _read_only(db_path)
    except sqlite3.Error as exc:
        return str(exc)
    try:
        rows = con.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    finally:
        con.close()
    if rows == [("ok",)]:
        return None
    return str(rows[0][0]) if rows else "no answer from integrity_check"


def quick_problem(db_path: Path) -> str | None:
    """``PRAGMA quick_check`` of the live database (a normal connection: WAL readers welcome):
    None when it is ok, else the first problem."""
    try:
        con = connect(db_path, timeout=30)
        try:
            rows = con.execute("PRAGMA quick_check").fetchall()
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        if not is_damage(exc):
            return None  # busy or locked: not damage; the next open checks again
        return str(exc)
    return None if rows == [("ok",)] else str(rows[0][0]) if rows else "no answer from quick_check"


# ---- listing -------------------------------------------------------------------------------
def _contents(path: Path) -> tuple[int, int]:
    try:
        con = _read_only(path)
        try:
            papers = con.execute("SELECT count(*) FROM paper WHERE deleted_at IS NULL").fetchone()[0]
            notes = con.execute("SELECT count(*) FROM note WHERE text != ''").fetchone()[0]
            return int(papers), int(notes)
        finally:
            con.close()
    except sqlite3.Error:
        return -1, -1


def list_backups(backups_dir: Path, *, contents: bool = True) -> list[BackupInfo]:
    """The backups in ``backups_dir``, newest first (with their paper and note counts)."""
    out: list[BackupInfo] = []
    if not backups_dir.is_dir():
        return out
    for p in backups_dir.glob("library-*.sqlite"):
        m = _NAME.match(p.name)
        if not m:
            continue
        try:
            made = datetime.strptime(m.group(1), _STAMP)
        except ValueError:
            continue
        papers, notes = _contents(p) if contents else (-1, -1)
        out.append(BackupInfo(p, made, m.group(2), papers, notes))
    out.sort(key=lambda b: b.made, reverse=True)
    return out


def newest_backup_age(backups_dir: Path, now: datetime | None = None) -> timedelta | None:
    """How old the newest backup is; None when there is none."""
    found = list_backups(backups_dir, contents=False)
    if not found:
        return None
    return (now or datetime.now()) - found[0].made


def describe_age(age: timedelta | None) -> str:
    """``newest backup: 3 hours old`` (for ``marginalia check``)."""
    if age is None:
        return "no backup yet (run `marginalia backup`)"
    secs = max(0, int(age.total_seconds()))
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if secs >= size:
            n = secs // size
            return f"newest backup: {n} {unit}{'' if n == 1 else 's'} old"
    return "newest backup: less than a minute old"


# ---- making one ----------------------------------------------------------------------------
def make_backup(
    db_path: Path, backups_dir: Path, reason: str, *, now: datetime | None = None, keep_at_most: int | None = None
) -> Path:
    """Copy the database with the backup API, verify the copy, keep it; then rotate (``keep_at_most``:
    see :func:`to_keep`).

    Raises :class:`LibraryDamaged` (and keeps nothing) when the copy fails its integrity check.
    """
    backups_dir.mkdir(parents=True, exist_ok=True)
    stamp = (now or datetime.now()).strftime(_STAMP)
    target = backups_dir / f"library-{stamp}-{reason}.sqlite"
    part = target.with_name(target.name + ".part")
    part.unlink(missing_ok=True)
    try:
        src = connect(db_path)
        dst = connect(part)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")  # a backup is one self-contained file
        finally:
            dst.close()
            src.close()
        problem = integrity_problem(part)
    except sqlite3.DatabaseError as exc:
        part.unlink(missing_ok=True)  # never a half-written backup (a full disk, say)
        if not is_damage(exc):
            mapped = translate(exc, backups_dir.parent)
            raise (mapped or LibraryError(f"the backup could not be made: {exc}")) from exc
        problem = str(exc)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    if problem is not None:
        part.unlink(missing_ok=True)
        raise damaged_error(db_path.parent, f"{problem}; no backup was made from it")
    os.replace(part, target)
    rotate(backups_dir, now=now, keep_at_most=keep_at_most)
    return target


def backup_every_hours() -> float:
    """Hours between automatic backups: ``MARGINALIA_BACKUP_EVERY_HOURS`` (0 turns them off), else 24."""
    raw = os.environ.get(EVERY_HOURS_ENV, "").strip()
    try:
        value = float(raw) if raw else DEFAULT_EVERY_HOURS
    except ValueError:
        return DEFAULT_EVERY_HOURS
    return value if value == value else DEFAULT_EVERY_HOURS  # NaN: the default


def backup_if_due(
    db_path: Path,
    backups_dir: Path,
    *,
    every_hours: float | None = None,
    now: datetime | None = None,
    keep_at_most: int | None = None,
) -> Path | None:
    """Make an ``auto`` backup when the newest backup is older than ``every_hours``."""
    hours = backup_every_hours() if every_hours is None else every_hours
    if hours <= 0 or not db_path.exists():
        return None
    age = newest_backup_age(backups_dir, now)
    if age is not None and age < timedelta(hours=hours):
        return None
    return make_backup(db_path, backups_dir, "auto", now=now, keep_at_most=keep_at_most)


# ---- rotation ------------------------------------------------------------------------------
def _buckets() -> tuple[tuple[Callable[[datetime], object], int], ...]:
    return (
        (lambda d: d.date(), KEEP_DAILY),
        (lambda d: d.isocalendar()[:2], KEEP_WEEKLY),
        (lambda d: (d.year, d.month), KEEP_MONTHLY),
    )


def to_keep(backups: list[BackupInfo], keep_at_most: int | None = None) -> set[Path]:
    """Which backups rotation keeps: periodic ones, the newest of each of the last 7 days, 4
    weeks and 6 months that have one, and of those at most the newest ``keep_at_most`` (the
    user's "how many to keep", at least 1; None: no cap); migration ones, the newest
    MIGRATION_BACKUPS_KEPT."""
    periodic = sorted((b for b in backups if b.periodic), key=lambda b: b.made, reverse=True)
    keep: set[Path] = set()
    for bucket, count in _buckets():
        seen: set[object] = set()
        for b in periodic:
            key = bucket(b.made)
            if key in seen:
                continue
            if len(seen) == count:
                break
            seen.add(key)
            keep.add(b.path)
    if keep_at_most is not None:
        keep = set([b.path for b in periodic if b.path in keep][: max(1, keep_at_most)])
    migration = sorted((b for b in backups if not b.periodic), key=lambda b: b.made, reverse=True)
    keep.update(b.path for b in migration[:MIGRATION_BACKUPS_KEPT])
    return keep


def _sound(path: Path) -> bool:
    """Whether a backup passes ``PRAGMA quick_check`` (read-only: nothing written beside it)."""
    try:
        con = _read_only(path)
        try:
            return con.execute("PRAGMA quick_check").fetchall() == [("ok",)]
        finally:
            con.close()
    except sqlite3.Error:
        return False


def rotate(backups_dir: Path, *, now: datetime | None = None, keep_at_most: int | None = None) -> list[Path]:
    """Delete the backups that :func:`to_keep` does not keep; returns those deleted."""
    found = list_backups(backups_dir, contents=False)
    keep = to_keep(found, keep_at_most)
    # never the newest backup that holds papers and passes its check (a same-day backup of an
    # emptied or broken library must not push the last good one out of its bucket)
    newest_good = next(
        (
            b.path
            for b in sorted(found, key=lambda b: b.made, reverse=True)
            if _contents(b.path)[0] > 0 and _sound(b.path)
        ),
        None,
    )
    if newest_good is not None:
        keep.add(newest_good)
    gone = [b.path for b in found if b.path not in keep]
    for p in gone:
        for side in (p, p.with_name(p.name + "-wal"), p.with_name(p.name + "-shm")):
            side.unlink(missing_ok=True)
    return gone


# ---- restoring -----------------------------------------------------------------------------
def choose_backup(folder: Path, which: str) -> Path:
    """A backup named by path, by file name in ``backups/``, or by its number in the listing."""
    backups_dir = folder / BACKUPS_DIR
    candidates = [Path(which).expanduser(), backups_dir / which]
    for c in candidates:
        if c.is_file():
            return c
    if which.isdigit():
        found = list_backups(backups_dir, contents=False)
        if 1 <= int(which) <= len(found):
            return found[int(which) - 1].path
    raise LibraryError(f"no backup {which!r}: run `marginalia restore` to list them")


def library_in_use(folder: Path) -> bool:
    """Whether a live Marginalia window holds the library (its Qt lock file names a running
    process). Only asked on POSIX, where signal 0 tests a process without touching it."""
    lock = folder / ".marginalia.lock"
    if os.name != "posix" or not lock.is_file():
        return False
    try:
        pid = int(lock.read_text("utf-8", errors="replace").split()[0])
    except (OSError, ValueError, IndexError):
        return False
    return pid != os.getpid() and process_running(pid)


def restore(folder: Path, backup_path: Path, *, now: datetime | None = None) -> Path | None:
    """Put ``backup_path`` in place of the library's database. The library must be closed.

    Returns where the old database was kept (None when there was none).
    """
    problem = integrity_problem(backup_path)
    if problem is not None:
        raise LibraryError(f"the backup {backup_path} is damaged too ({problem}); choose another")
    if _contents(backup_path) == (-1, -1):
        raise LibraryError(f"{backup_path} is not a Marginalia library; choose another backup")
    db = folder / DB_NAME
    incoming = folder / (DB_NAME + ".restoring")
    incoming.unlink(missing_ok=True)
    src = _read_only(backup_path)
    dst = connect(incoming)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")  # checked closed below; the library turns WAL on
    finally:
        dst.close()
        src.close()
    problem = integrity_problem(incoming)
    if problem is not None:
        incoming.unlink(missing_ok=True)
        raise LibraryError(f"the copy of {backup_path} failed its check ({problem}); nothing was changed")
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    kept = folder / f"library-damaged-{stamp}.sqlite"
    n = 1
    while any(kept.with_name(kept.name + s).exists() for s in ("", "-wal", "-shm")):
        n += 1  # never over an earlier damaged file
        kept = folder / f"library-damaged-{stamp}-{n}.sqlite"
    # the old WAL must go first: left beside the new file, SQLite would replay it into the backup
    for suffix in ("-wal", "-shm"):
        side = folder / (DB_NAME + suffix)
        if side.exists():
            os.replace(side, kept.with_name(kept.name + suffix))
    kept_path: Path | None = None
    if db.exists():
        try:
            os.link(db, kept)  # the damaged file stays reachable at every moment
        except OSError:
            os.replace(db, kept)
        kept_path = kept
    os.replace(incoming, db)
    (folder / COMMITS_FILE).unlink(missing_ok=True)  # counted the writes of the file put aside
    from desktop_app.core.attachment_files import bring_back

    with contextlib.suppress(OSError):  # the database is back; a copy that cannot be is reported by check
        bring_back(folder, db)  # attached copies the restored database names and files/ lacks
    _spoil_index_stamp(folder)
    return kept_path


def _spoil_index_stamp(folder: Path) -> None:
    """The index describes the damaged database: make the next open rebuild it."""
    from desktop_app.core.search.index import STAMP

    with contextlib.suppress(OSError):
        (folder / "index" / STAMP).unlink(missing_ok=True)
