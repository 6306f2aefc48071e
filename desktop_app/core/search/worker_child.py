"""The child's side of ``index_worker``: ``marginalia --library DIR index-worker`` reads commands
on stdin and answers in JSON lines on stdout (the protocol is described in ``index_worker``)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import sys
import threading
from pathlib import Path
from typing import IO, TYPE_CHECKING, Protocol

from desktop_app.core.library import Library
from desktop_app.core.search.sync import BATCH_ENV, CHILD_DRAIN_BATCH

if TYPE_CHECKING:
    from desktop_app.core.search.sync import IndexSync

log = logging.getLogger(__name__)
NICE = 5  # niceness added to the child's (and its rebuild helpers') scheduling priority


class _Commands:
    """Reads the parent's commands in a thread: ``cancel`` at once, the rest in order; the end
    of input sets ``eof`` (the parent is gone)."""

    def __init__(self, stdin: IO[str]) -> None:
        self.queue: queue.Queue[tuple[int, str] | None] = queue.Queue()
        self.cancel = threading.Event()
        self.eof = threading.Event()
        self._stdin = stdin
        threading.Thread(target=self._read, name="commands", daemon=True).start()

    def _read(self) -> None:
        with contextlib.suppress(OSError, ValueError):  # the pipe broke: as at its end
            for line in self._stdin:
                seq, _, cmd = line.strip().partition(" ")
                if not seq:
                    continue
                if cmd == "cancel":
                    self.cancel.set()
                    continue
                self.queue.put((int(seq), cmd))
        self.eof.set()
        self.queue.put(None)


def serve(folder: Path | str, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """The child's main loop (``marginalia --library DIR index-worker``)."""
    if stdin is None:
        # our own handle on the pipe, and sys.stdin pointed at the null device: a full rebuild
        # forks helpers (build_procs) that close sys.stdin, which must not be the object the
        # command thread is blocked reading (its lock would never be released in the fork)
        stdin = open(os.dup(sys.stdin.fileno()), encoding="utf-8")  # noqa: SIM115 - lives with the process
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115
    out = stdout or sys.stdout
    out_lock = threading.Lock()

    def emit(**event: object) -> None:
        with out_lock:
            out.write(json.dumps(event) + "\n")
            out.flush()

    if hasattr(os, "nice"):  # background work: the window (and an import in it) first
        with contextlib.suppress(OSError):
            os.nice(NICE)
    commands = _Commands(stdin)
    lib = Library.open(folder, ensure_index=False, read_only=False)
    sync = lib.index
    sync.batch = int(os.environ.get(BATCH_ENV, "") or CHILD_DRAIN_BATCH)
    try:
        while True:
            item = commands.queue.get()
            if item is None:
                return 0
            seq, cmd = item
            try:
                result = _run(cmd, lib, sync, commands, emit)
            except Exception as exc:
                from desktop_app.core.errors import IndexDamaged

                log.exception("index writer: %s failed", cmd)
                emit(
                    event="error",
                    seq=seq,
                    cmd=cmd,
                    message=str(exc) or type(exc).__name__,
                    damaged=isinstance(exc, IndexDamaged),
                )
                continue
            emit(event="done", seq=seq, cmd=cmd, result=result, pending=_pending(sync))
            if cmd == "quit":
                return 0
    except BrokenPipeError:
        return 0
    finally:
        sync.close(drain=False)  # on the end of input what is still queued waits for the next start
        lib.store.engine.dispose()


class _Emit(Protocol):
    """Writes one event to the parent as a line of JSON (serve's ``emit``)."""

    def __call__(self, **event: object) -> None: ...


def _pending(sync: IndexSync) -> int:
    try:
        return sync.pending()
    except Exception:  # noqa: BLE001 - only a hint for the status bar
        return -1


def _run(cmd: str, lib: Library, sync: IndexSync, commands: _Commands, emit: _Emit) -> object:
    def drain_progress(done: int, total: int) -> None:
        emit(event="progress", phase="drain", done=done, total=total)

    def build_progress(done: int, total: int) -> None:
        emit(event="progress", phase="rebuild", done=done, total=total)

    def cancelled() -> bool:
        return commands.cancel.is_set() or commands.eof.is_set()

    if cmd in ("drain", "quit"):
        if not sync.is_open and sync.index.is_usable()[0]:  # a drain before any ensure
            sync.index.open()
            sync.is_open = True
        stop = None if cmd == "quit" else commands.eof.is_set
        return sync.drain(progress=drain_progress, stop=stop) if sync.is_open else 0
    commands.cancel.clear()
    if cmd == "ensure":
        why = lib.ensure_index(build_progress, cancelled)
        if why != "cancelled":
            sync.drain(progress=drain_progress, stop=commands.eof.is_set)
        return why
    if cmd == "rebuild":
        ok = lib.reindex(build_progress, cancelled)
        if ok:
            sync.drain(progress=drain_progress, stop=commands.eof.is_set)
        return ok
    raise ValueError(f"unknown command {cmd!r}")
