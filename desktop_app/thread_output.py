"""What one thread prints, captured without touching what the others print.

``contextlib.redirect_stdout`` swaps ``sys.stdout`` for the whole process: fine in a process that
does one thing (``marginalia serve``), wrong in the window, whose command-line answers run in a
thread while the GUI thread and the workers go on printing to the real streams. :func:`captured`
puts a router in place of ``sys.stdout`` and ``sys.stderr`` while any thread captures: a write
from a capturing thread goes to that thread's buffers, every other write to the stream the
router stands in for (nowhere, when there was none: a window started without a console).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

_local = threading.local()
_lock = threading.Lock()
_capturing = 0  # threads inside captured(); the routers go when it is back to 0


class _Router:
    """Stands in for one of the process's streams (``name``: "out" or "err")."""

    def __init__(self, name: str, original: TextIO | None) -> None:
        self.name = name
        self.original = original

    def _target(self) -> TextIO | None:
        own: TextIO | None = getattr(_local, self.name, None)
        return own if own is not None else self.original

    def write(self, text: str) -> int:
        target = self._target()
        return target.write(text) if target is not None else len(text)

    def flush(self) -> None:
        target = self._target()
        if target is not None:
            target.flush()

    def __getattr__(self, attr: str) -> Any:  # noqa: ANN401 - whatever the real stream has (encoding, fileno...)
        return getattr(self.original, attr)


def _install() -> None:
    if not isinstance(sys.stdout, _Router):
        sys.stdout = _Router("out", sys.stdout)
    if not isinstance(sys.stderr, _Router):
        sys.stderr = _Router("err", sys.stderr)


def _uninstall() -> None:
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if isinstance(stream, _Router):
            setattr(sys, name, stream.original)


@contextmanager
def captured(out: TextIO, err: TextIO) -> Iterator[None]:
    """Within the block, this thread's prints to stdout go to *out* and to stderr to *err*."""
    global _capturing
    with _lock:
        _install()
        _capturing += 1
    _local.out, _local.err = out, err
    try:
        yield
    finally:
        _local.out = _local.err = None
        with _lock:
            _capturing -= 1
            if _capturing == 0:
                _uninstall()
