"""Atomic file writes: the target holds either its old content or the complete new content.

The data goes to a temporary file in the target's directory (same file system), is flushed
and fsynced, then moved over the target with :func:`os.replace`. On any error the temporary
file is removed and the target is left untouched.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from os import PathLike
from pathlib import Path

_OPEN_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
_ATTEMPTS = 100


def _create_temp(target: Path) -> tuple[int, Path]:
    """Create a new, empty temporary file next to *target*; return (fd, path).

    Created with mode 0o666 so that the process umask applies, as for a plain ``open``.
    """
    for _ in range(_ATTEMPTS):
        temp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
        try:
            return os.open(temp, _OPEN_FLAGS, 0o666), temp
        except FileExistsError:
            continue
    raise FileExistsError(f"could not create a temporary file next to {target}")


def _fsync_directory(directory: Path) -> None:
    """Make the rename durable (POSIX); a no-op where directories cannot be opened."""
    if os.name != "posix":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):  # some filesystems cannot fsync a directory
            os.fsync(fd)
    finally:
        os.close(fd)


def write_bytes_atomic(path: str | PathLike[str], data: bytes) -> Path:
    """Write *data* to *path* atomically and return the path.

    An existing file keeps its permission bits. Raises the underlying ``OSError`` on failure,
    after removing the temporary file; the old file, if any, is then unchanged.
    """
    target = Path(path)
    fd, temp = _create_temp(target)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(OSError):
            os.chmod(temp, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _fsync_directory(target.parent)
    return target


def write_text_atomic(path: str | PathLike[str], text: str, *, encoding: str = "utf-8") -> Path:
    """Write *text* to *path* atomically (see :func:`write_bytes_atomic`); return the path.

    Line endings are written exactly as they are in *text* (no platform translation).
    """
    return write_bytes_atomic(path, text.encode(encoding))
