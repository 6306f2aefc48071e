"""What a killed command leaves in a library folder (removed at the next open): a partial attachment
copy (``files/**/.attach-*.tmp``), an index being rebuilt (``index.new/``), a backup being
written (``backups/*.part``), a database being restored (``library.sqlite.restoring``) and the
small ``*.tmp`` files of atomic writes. Each is written under its temporary name and renamed into
place only when whole, so a leftover is never the only copy of anything.

A leftover counts once nothing has touched it for :data:`STALE_SECONDS` (a living process is
still writing one it just made: an index rebuild writes its folder for minutes, but every few
seconds). :func:`clean` removes them (``Library.clean_leftovers``: the window after its first
paint, ``marginalia check`` before it looks, which lists what it removed and what it could not).
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path

STALE_SECONDS = 15 * 60
_PATTERNS = (
    ("a partial attachment copy", "files/*/.attach-*.tmp"),
    ("a partial attachment copy", "backups/files/.attach-*.tmp"),
    ("a partial attachment copy", "outbox/attachments/*/.attach-*.tmp"),
    ("an index rebuild", "index.new"),
    ("a partial backup", "backups/*.part"),
    ("a partial restore", "library.sqlite.restoring"),
    ("an unfinished write", "*.tmp"),
    ("an unfinished write", "cache/*.tmp"),
    ("an unfinished index write", "index/.seg-*"),
    ("an unfinished index write", "index/.voc-*"),
)


@dataclass(frozen=True, slots=True)
class Leftover:
    path: Path
    what: str
    size: int  # bytes (a folder: all its files)

    def __str__(self) -> str:
        return f"{self.path.name}: {self.what} left by a command that did not finish ({_mb(self.size)})"


def _mb(size: int) -> str:
    return f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size:,} bytes"


def _newest_and_size(path: Path) -> tuple[float, int]:
    """The newest modification time under ``path`` and the bytes it holds."""
    st = path.lstat()
    if not path.is_dir():
        return st.st_mtime, st.st_size
    newest, size = st.st_mtime, 0
    for p in path.rglob("*"):
        try:
            s = p.lstat()
        except OSError:
            continue
        newest, size = max(newest, s.st_mtime), size + (s.st_size if p.is_file() else 0)
    return newest, size


def find(folder: Path, *, now: float | None = None, stale: float = STALE_SECONDS) -> list[Leftover]:
    """The leftovers in a library folder that nothing has touched for ``stale`` seconds."""
    now = time.time() if now is None else now
    out: list[Leftover] = []
    seen: set[Path] = set()
    for what, pattern in _PATTERNS:
        for path in sorted(folder.glob(pattern)):
            if path in seen or path.is_symlink():
                continue
            seen.add(path)
            try:
                newest, size = _newest_and_size(path)
            except OSError:
                continue
            if now - newest >= stale:
                out.append(Leftover(path, what, size))
    return out


def clean(folder: Path, *, now: float | None = None, stale: float = STALE_SECONDS) -> list[Leftover]:
    """Remove the stale leftovers of ``folder``; the ones removed (a file that cannot be
    removed stays, and ``check`` names it)."""
    removed = []
    for item in find(folder, now=now, stale=stale):
        try:
            if item.path.is_dir():
                shutil.rmtree(item.path)
            else:
                item.path.unlink()
        except OSError:
            continue
        removed.append(item)
    return removed
