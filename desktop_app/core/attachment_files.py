"""The files behind attachments: safe names, atomic copies with their SHA-256, the paths a
copy may have, and the copies kept with the backups.

A copy lives at ``files/<paper id>/<name>`` inside the library folder. It is written under a
temporary name in that folder, hashed while it is written, fsynced and renamed: a half-copied
file never bears an attachment's name. Backups (``backups/library-*.sqlite``) hold the database
only; the attached copies they name are kept once each in ``backups/files/<sha256>`` (a file is
stored once however many backups name it, and removed when no backup names it any more), so a
restored backup finds every copied file again. Nothing here knows the database's managers.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
import sqlite3
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

FILES_DIR = "files"
BLOBS_DIR = "files"  # inside backups/
CHUNK = 1 << 20
NAME_MAX = 120  # characters of a stored name (its suffix kept)
_UNSAFE = re.compile(r'[\x00-\x1f\x7f<>:"/\\|?*]')
_SHA = re.compile(r"^[0-9a-f]{64}$")
# what a system viewer would run rather than show: never opened from the window
PROGRAM_SUFFIXES = frozenset(
    {
        ".exe",
        ".com",
        ".bat",
        ".cmd",
        ".msi",
        ".msp",
        ".scr",
        ".pif",
        ".lnk",
        ".ps1",
        ".vbs",
        ".vbe",
        ".js",
        ".jse",
        ".wsf",
        ".wsh",
        ".hta",
        ".cpl",
        ".jar",
        ".reg",
        ".sh",
        ".bash",
        ".zsh",
        ".csh",
        ".command",
        ".app",
        ".desktop",
        ".appimage",
        ".run",
        ".bin",
        ".py",
        ".pyw",
        ".pl",
        ".rb",
        ".url",
        ".scf",
        ".inf",
        ".gadget",
        ".application",
        ".dll",
        ".so",
        ".dylib",
        ".apk",
        ".deb",
        ".rpm",
    }
)


def safe_name(name: str) -> str:
    """A file name fit for ``files/<id>/``: no folders, no control or reserved characters, no
    leading dot, at most NAME_MAX characters (the suffix kept); "attachment" when nothing is left."""
    base = _UNSAFE.sub("_", PurePosixPath(name.replace("\\", "/")).name).strip().lstrip(".").strip()
    if not base or base in (".", ".."):
        base = "attachment"
    if len(base) > NAME_MAX:
        stem, dot, suffix = base.rpartition(".")
        suffix = suffix[:16] if dot and stem else ""
        base = base[: NAME_MAX - len(suffix) - 1].rstrip() + ("." + suffix if suffix else "")
    return base


def numbered(name: str, n: int) -> str:
    """``paper.pdf`` → ``paper (2).pdf``."""
    if n <= 1:
        return name
    stem, dot, suffix = name.rpartition(".")
    return f"{stem} ({n}).{suffix}" if dot and stem else f"{name} ({n})"


def is_copy_path(path: str) -> bool:
    """Whether a stored copy path is one the library wrote: ``files/<digits>/<one name>``,
    relative, without ``..`` (paths from a JSON document are not trusted)."""
    parts = PurePosixPath(path).parts
    return (
        len(parts) == 3
        and parts[0] == FILES_DIR
        and parts[1].isdigit()
        and parts[2] == safe_name(parts[2])
        and "\\" not in path
    )


def sha256_of(path: Path) -> tuple[str, int]:
    """The SHA-256 (hex) and size of a file, read in chunks."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as fh:
        while chunk := fh.read(CHUNK):
            h.update(chunk)
            size += len(chunk)
    return h.hexdigest(), size


def copy_to_temp(source: Path, folder: Path) -> tuple[Path, str, int]:
    """Copy ``source`` to a new temporary file in ``folder`` (made if needed), fsynced; returns
    (temp path, sha256, size). The temporary file is removed on any error."""
    folder.mkdir(parents=True, exist_ok=True)
    temp = folder / f".attach-{secrets.token_hex(6)}.tmp"
    h = hashlib.sha256()
    size = 0
    try:
        with open(source, "rb") as src, open(temp, "xb") as dst:
            while chunk := src.read(CHUNK):
                h.update(chunk)
                dst.write(chunk)
                size += len(chunk)
            dst.flush()
            os.fsync(dst.fileno())
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return temp, h.hexdigest(), size


def place(temp: Path, folder: Path, name: str, taken: Iterable[str] = ()) -> Path:
    """Rename ``temp`` to ``folder/name``, or ``name (2)``… when that name is on disk or in
    ``taken``; never over an existing file. Returns the final path."""
    taken = set(taken)
    for n in range(1, 10_000):
        candidate = numbered(name, n)
        target = folder / candidate
        if candidate in taken or target.exists():
            continue
        try:
            os.link(temp, target)  # claims the name atomically, fails if it exists
        except FileExistsError:
            continue
        except OSError:  # a file system without hard links
            os.replace(temp, target)
            return target
        temp.unlink(missing_ok=True)
        return target
    raise FileExistsError(f"no free name for {name} in {folder}")


def copies_on_disk(folder: Path) -> list[str]:
    """The copies in ``folder/files/<paper id>/`` as stored paths (``files/12/paper.pdf``), sorted;
    copies being written (their temporary names) are not among them."""
    root = folder / FILES_DIR
    if not root.is_dir():
        return []
    found = []
    for sub in root.iterdir():
        if not (sub.is_dir() and sub.name.isdigit()):
            continue
        found += [
            f"{FILES_DIR}/{sub.name}/{f.name}"
            for f in sub.iterdir()
            if f.is_file() and not f.name.startswith(".attach-")
        ]
    return sorted(found)


def remove_file(path: Path) -> None:
    """Delete a copy and its paper's folder when that is left empty."""
    path.unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        path.parent.rmdir()


def looks_like_program(path: Path) -> bool:
    """Whether a system viewer would run this file instead of showing it: a program's suffix, a
    script's ``#!`` or an executable's magic bytes."""
    if path.suffix.lower() in PROGRAM_SUFFIXES:
        return True
    try:
        with open(path, "rb") as fh:
            head = fh.read(4)
    except OSError:
        return False
    return head.startswith((b"#!", b"\x7fELF", b"MZ", b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe"))


# ---- with the backups ----------------------------------------------------------------------
def _copies_named_by(db: Path) -> list[tuple[str, str]]:
    """(path, sha256) of every copied attachment a database file names (none before schema 0005)."""
    try:
        con = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error:
        return []
    try:
        return [(str(p), str(s)) for p, s in con.execute("SELECT path, sha256 FROM attachment WHERE kind = 'copy'")]
    except sqlite3.Error:
        return []
    finally:
        con.close()


def keep_with_backup(folder: Path, backup_db: Path) -> int:
    """Store in ``backups/files/`` each copied file the backup ``backup_db`` names and the store
    lacks (checked against its SHA-256: a file changed since it was attached is not stored under
    the old hash). Returns how many files were stored."""
    blobs = backup_db.parent / BLOBS_DIR
    stored = 0
    for rel, sha in _copies_named_by(backup_db):
        if not _SHA.match(sha) or not is_copy_path(rel) or (blobs / sha).exists():
            continue
        source = folder / rel
        if not source.is_file():
            continue
        temp, got, _size = copy_to_temp(source, blobs)
        if got != sha:
            temp.unlink(missing_ok=True)
            continue
        os.replace(temp, blobs / sha)
        stored += 1
    return stored


def prune_blobs(backups_dir: Path) -> int:
    """Remove the stored files that no backup in ``backups_dir`` names any more (rotation deleted
    them); returns how many."""
    blobs = backups_dir / BLOBS_DIR
    if not blobs.is_dir():
        return 0
    wanted = {sha for db in backups_dir.glob("library-*.sqlite") for _, sha in _copies_named_by(db)}
    gone = 0
    for blob in blobs.iterdir():
        if blob.is_file() and blob.name not in wanted:
            blob.unlink(missing_ok=True)
            gone += 1
    return gone


def bring_back(folder: Path, db: Path) -> int:
    """After a backup was put in place: each copied file the database names and ``files/``
    lacks comes back from ``backups/files/``. Files present are never overwritten (they may hold
    the user's later annotations). Returns how many came back."""
    blobs = folder / "backups" / BLOBS_DIR
    back = 0
    for rel, sha in _copies_named_by(db):
        if not is_copy_path(rel) or not _SHA.match(sha):
            continue
        target = folder / rel
        blob = blobs / sha
        if target.exists() or not blob.is_file():
            continue
        temp, got, _size = copy_to_temp(blob, target.parent)
        if got != sha:
            temp.unlink(missing_ok=True)
            continue
        os.replace(temp, target)
        back += 1
    return back
