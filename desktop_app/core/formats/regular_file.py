"""Only regular files are opened for import.

A FIFO would block the reader (and a window's thread) until some other process writes to it; a
device may never end; a folder or a loop of symbolic links is no file at all. Each gets a
one-line message naming what it is, and the file is opened without blocking and checked again
once open (a FIFO put in its place after the check is still refused).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class NotAFile(OSError):
    """The path is not a regular file; the message says what it is."""


def _kind(mode: int) -> str | None:
    """What a non-regular file is ("a FIFO (named pipe)"), None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((what for test, what in _KINDS if test(mode)), "not a regular file")


def not_a_file(path: str | Path) -> str | None:
    """Why ``path`` cannot be imported, in one line ("x is a FIFO (named pipe), not a file";
    "cannot open x: No such file or directory"), or None for a regular file (through symbolic links). Never blocks."""
    name = Path(path).name or str(path)
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return f"{name} is a loop of symbolic links, not a file"
        if exc.errno == errno.ENOENT and os.path.islink(path):
            return f"{name} is a symbolic link to nothing, not a file"
        return f"cannot open {name}: {exc.strerror or exc}"
    what = _kind(mode)
    return f"{name} is {what}, not a file" if what else None


def open_regular(path: str | Path) -> BinaryIO:
    """Open a regular file for reading without ever blocking on it; NotAFile (an OSError)
    with the one-line reason for anything else."""
    reason = not_a_file(path)
    if reason:
        raise NotAFile(reason)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        what = _kind(os.fstat(fd).st_mode)
        if what:
            raise NotAFile(f"{Path(path).name} is {what}, not a file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
