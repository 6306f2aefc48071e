"""A hung server never holds the window's thread for long.

A server that stops answering without closing its connections (a stopped process, a frozen
virtual machine) is not noticed by the statement timeout, which the server itself enforces, nor
by TCP keepalives, which the server's kernel still answers: a statement waits for ever. The
thread a :class:`Watchdog` guards (the window's) runs its statements under a deadline: past it,
a watching thread shuts down the sockets of the engine's connections, so that the statement
fails at once as a lost connection (``ServerUnreachable``: the window shows its offline banner
and keeps what it has). Other threads (the change listener, workers) wait as before.

Only the guarded thread is watched, and only a server library has one: the command line and a
folder library never do.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
import weakref
from collections.abc import Iterator
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

TICK = 0.05  # how often the watching thread looks
_WATCHING: weakref.WeakSet[Watchdog] = weakref.WeakSet()  # the watchdogs of the open libraries


def check_connect() -> None:
    """Called before every new server connection: the guarded thread makes none after its
    statement was cut (a new connection to a hung server would wait out the connect timeout)."""
    for dog in list(_WATCHING):
        if dog.refuses_connect():
            import psycopg

            raise psycopg.OperationalError(f"the server did not answer within {dog.deadline:g} s")


class Watchdog:
    """Cuts the engine's connections when the guarded thread's statement outlives ``deadline``."""

    def __init__(self, engine: Engine, deadline: float, thread: threading.Thread | None = None) -> None:
        self.deadline = deadline
        self.thread = thread or threading.current_thread()
        self.cuts = 0  # how many times a hung statement was cut
        self._connections: weakref.WeakSet[Any] = weakref.WeakSet()
        self._since: float | None = None
        self._cut_in_span = False  # the guarded thread's current statements were cut
        self._depth = 0
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        event.listen(engine, "connect", self._connected)
        self._engine = engine
        _WATCHING.add(self)

    def refuses_connect(self) -> bool:
        return self._cut_in_span and threading.current_thread() is self.thread

    def _connected(self, dbapi_connection: Any, _record: object) -> None:  # noqa: ANN401 - psycopg's
        with contextlib.suppress(TypeError):
            self._connections.add(dbapi_connection)

    @contextlib.contextmanager
    def guarding(self) -> Iterator[None]:
        """The block's statements run under the deadline when this is the guarded thread."""
        if threading.current_thread() is not self.thread:
            yield
            return
        if self._depth == 0:
            self._since = time.monotonic()
            self._cut_in_span = False
            self._start()
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0:
                self._since = None
                self._cut_in_span = False

    def _start(self) -> None:
        if self._watcher is None or not self._watcher.is_alive():
            self._watcher = threading.Thread(target=self._watch, name="marginalia-server-watchdog", daemon=True)
            self._watcher.start()

    def _watch(self) -> None:
        while not self._stop.wait(TICK):
            since = self._since
            if since is not None and time.monotonic() - since > self.deadline:
                self._since = None  # once per statement
                self.cut()

    def cut(self) -> None:
        """Shut down every connection's socket: a statement waiting on one fails at once."""
        self.cuts += 1
        self._cut_in_span = True
        for conn in list(self._connections):
            with contextlib.suppress(Exception):  # closed meanwhile: nothing to cut
                fd = conn.fileno()
                sock = socket.socket(fileno=os.dup(fd))
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                finally:
                    sock.close()

    def stop(self) -> None:
        self._stop.set()
        _WATCHING.discard(self)
        with contextlib.suppress(Exception):
            event.remove(self._engine, "connect", self._connected)
