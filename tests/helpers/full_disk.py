"""A disk that fills up under an export: writes and fsyncs failing with ENOSPC (monkeypatched
into ``core/formats/atomic.py``, the one writer every export goes through)."""

from __future__ import annotations

import errno
import os

import pytest

from desktop_app.core.formats import atomic

OLD = b"the export from last week, which must survive\n"


def _enospc() -> OSError:
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def full_disk_on_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first write takes half its bytes, every later write fails with ENOSPC."""
    real_write = os.write
    calls: list[int] = []

    def write(fd: int, data) -> int:
        calls.append(fd)
        if len(calls) == 1:
            return real_write(fd, bytes(data[: max(1, len(data) // 2)]))
        raise _enospc()

    monkeypatch.setattr(atomic.os, "write", write)


def full_disk_on_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write is accepted; the fsync finds no room for the blocks (delayed allocation)."""

    def fsync(fd: int) -> None:
        raise _enospc()

    monkeypatch.setattr(atomic.os, "fsync", fsync)
