"""Atomic file writes: the target holds either its old content or the complete new content.

The data goes to a temporary file in the target's directory (same file system), is written
with :func:`os.write` until every byte is taken, fsynced, checked (its size, and an optional
format check such as a PDF trailer), then moved over the target with :func:`os.replace`. On any
error the temporary file is removed and the target is left untouched.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Callable
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


class IncompleteWrite(OSError):
    """The temporary file does not hold what was written (short, or failing its format check)."""

    def __init__(self, message: str) -> None:
        super().__init__(errno.EIO, message)


#: A check of the written temporary file; raises :class:`IncompleteWrite` when it is not right.
FileCheck = Callable[[Path], None]


def _write_all(fd: int, data: bytes) -> None:
    """Write every byte of *data* to *fd*; a short write continues, an error raises."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:  # pragma: no cover - os.write raises rather than returning 0 on a file
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]


def _check_size(temp: Path, size: int) -> None:
    actual = os.stat(temp).st_size
    if actual != size:
        raise IncompleteWrite(f"{actual} of {size} bytes reached the disk")


def write_bytes_atomic(path: str | PathLike[str], data: bytes, *, check: FileCheck | None = None) -> Path:
    """Write *data* to *path* atomically and return the path.

    After the fsync the temporary file must have ``len(data)`` bytes and pass *check*, if
    given, before it replaces the target. An existing file keeps its permission bits. Raises
    ``OSError`` on failure (:class:`IncompleteWrite` for a failed check), after removing the
    temporary file; the old file, if any, is then unchanged.
    """
    target = Path(path)
    fd, temp = _create_temp(target)
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        _check_size(temp, len(data))
        if check is not None:
            check(temp)
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


# errno -> the reason shown; EDQUOT is missing on Windows, where it falls back to ENOSPC.
_REASONS: dict[int, str] = {
    getattr(errno, "EDQUOT", errno.ENOSPC): "no space left on {folder} (disk quota)",
    errno.ENOSPC: "no space left on {folder}",  # after EDQUOT: wins where that falls back to it
    errno.EROFS: "{folder} is on a read-only file system",
    errno.EACCES: "no permission to write in {folder}",
    errno.EPERM: "no permission to write in {folder}",
    errno.ENOENT: "the folder {folder} does not exist",
    errno.ENOTDIR: "{folder} is not a folder",
}


def write_failure_message(exc: OSError, path: str | PathLike[str]) -> str:
    """One line for the user on why writing *path* failed and what became of the old file."""
    target = Path(path).absolute()
    folder = target.parent
    if isinstance(exc, IncompleteWrite):
        reason = f"the written file was incomplete ({exc.strerror})"
    elif exc.errno in _REASONS:
        reason = _REASONS[exc.errno].format(folder=folder)
    else:
        reason = exc.strerror or str(exc)
    outcome = "the old file is unchanged" if target.exists() else "no file was written"
    return f"could not write {target}: {reason}; {outcome}"
