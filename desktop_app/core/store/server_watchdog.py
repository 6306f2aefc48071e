"""A hung server never holds the window's thread for long.

A server that stops answering without closing its connections (a stopped process, a frozen
virtual machine) is not noticed by the statement timeout, which the server itself enforces, nor
by TCP keepalives, which the server's kernel still answers: a statement waits for ever. The
thread a :class:`Watchdog` guards (the window's) runs its statements under a deadline: past it,
a watching thread shuts down the sockets of the engine's connections, so that the statement
fails at once as a lost connection (``ServerUnreachable``: the window shows its offline banner
and keeps what it has). Other threads (the change listener, workers) wait as before.

A second or more is too long to freeze a window for, and too short for a busy server's slow
statement, so the deadline is not the only judge. When a guarded statement has waited
:data:`QUICK`, a :class:`Prober` asks the server ``SELECT 1`` on a connection of its own, from a
thread of its own: a server that answers it is busy, not hung, and the statement waits on (up
to the deadline); a probe unanswered for :data:`PATIENCE` means nothing is answering, and the
statement is cut then, about a tenth of a second after it began. On a slow link both waits
grow with the probes' round trip (2 and 4 of the slowest recent one); before any probe has
answered (its connection being made) only the deadline cuts.

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

TICK = 0.01  # how often the watching thread looks while a guarded statement runs
QUICK = 0.04  # a guarded statement this old: is the server there at all? (a probe is sent)
PATIENCE = 0.05  # a probe unanswered this long: the server hangs, the statement is cut
ABANDON = 5.0  # a probe unanswered this long: its connection is given up (made anew for the next)
_WATCHING: weakref.WeakSet[Watchdog] = weakref.WeakSet()  # the watchdogs of the open libraries


def check_connect() -> None:
    """Called before every new server connection: the guarded thread makes none after its
    statement was cut (a new connection to a hung server would wait out the connect timeout)."""
    for dog in list(_WATCHING):
        if dog.refuses_connect():
            import psycopg

            raise psycopg.OperationalError(f"the server did not answer within {dog.deadline:g} s")


def _shut_down(dbapi_connection: Any) -> None:  # noqa: ANN401 - psycopg's
    """Shut the connection's socket down: a statement waiting on it fails at once."""
    with contextlib.suppress(Exception):  # closed meanwhile: nothing to cut
        sock = socket.socket(fileno=os.dup(dbapi_connection.fileno()))
        try:
            sock.shutdown(socket.SHUT_RDWR)
        finally:
            sock.close()


class Prober:
    """``SELECT 1`` on a pooled connection held for it, from a thread of its own, when asked."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._conn: Any = None  # the pool's connection, checked out for good
        self._lock = threading.Lock()
        self._asked = threading.Event()
        self._stop = threading.Event()
        self.sent_at: float | None = None  # the probe on its way, unanswered
        self.finished_at = 0.0  # when the last probe came back (answered or failed)
        self.probes = 0
        # the slowest of the last answers' round trips: on a slow link (a VPN) a probe and a
        # statement take longer, and a few of those round trips are not a hang
        self._trips: list[float] = []
        self._thread: threading.Thread | None = None

    @property
    def round_trip(self) -> float | None:
        """The slowest recent answer (its connect left out); None before the first."""
        trips = self._trips
        return max(trips) if trips else None

    def ask(self, now: float) -> float:
        """The time of the probe that tells about *now*: one sent now, or the unanswered one
        sent earlier (a hung server has not answered it yet)."""
        with self._lock:
            if self.sent_at is not None:
                return self.sent_at
            self.sent_at = now
            self.probes += 1
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="marginalia-server-probe", daemon=True)
            self._thread.start()
        self._asked.set()
        return now

    def answered_since(self, sent: float) -> bool:
        return self.finished_at >= sent

    def abandon(self) -> None:
        """A probe stuck for long: its connection's socket is shut down, the next probe connects anew."""
        conn = self._conn
        if conn is not None:
            _shut_down(conn.dbapi_connection)

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self._asked.wait(1.0):
                continue
            self._asked.clear()
            self._probe()
            with self._lock:
                self.finished_at = time.monotonic()
                self.sent_at = None

    def _probe(self) -> None:
        try:
            if self._conn is None:
                self._conn = self._engine.raw_connection()
            began = time.monotonic()
            cursor = self._conn.cursor()
            cursor.execute("SELECT 1")
            cursor.fetchone()
            cursor.close()
            self._conn.rollback()
            self._trips = [*self._trips[-4:], time.monotonic() - began]
        except Exception:  # noqa: BLE001 - gone or cut: the next probe connects again; the guarded statement fails by itself
            conn, self._conn = self._conn, None
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.invalidate()

    def stop(self) -> None:
        self._stop.set()
        self._asked.set()
        with self._lock:
            in_flight = self.sent_at is not None
        if in_flight:  # the probe's thread uses the connection: cut it, the thread lets it go
            self.abandon()
            return
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):  # a server gone: nothing to return it to
                conn.close()


class Watchdog:
    """Cuts the engine's connections when the guarded thread's statement outlives ``deadline``,
    or sooner when a probe finds the server not answering at all (see the module)."""

    def __init__(
        self, engine: Engine, deadline: float, thread: threading.Thread | None = None, *, probe: bool = True
    ) -> None:
        self.deadline = deadline
        self.thread = thread or threading.current_thread()
        self.cuts = 0  # how many times a hung statement was cut
        self._connections: weakref.WeakSet[Any] = weakref.WeakSet()
        self._since: float | None = None
        self._cut_in_span = False  # the guarded thread's current statements were cut
        self._depth = 0
        self._stop = threading.Event()
        self._active = threading.Event()  # a guarded statement runs: the watcher ticks
        self._watcher: threading.Thread | None = None
        self.prober = Prober(engine) if probe else None
        if self.prober is not None:  # its connection made and a round trip known before it is needed
            self.prober.ask(time.monotonic())
        self._probe_for: float | None = None  # the span the current probe was sent for
        self._probe_sent = 0.0
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
            self._active.set()
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0:
                self._since = None
                self._cut_in_span = False
                self._active.clear()

    def _start(self) -> None:
        if self._watcher is None or not self._watcher.is_alive():
            self._watcher = threading.Thread(target=self._watch, name="marginalia-server-watchdog", daemon=True)
            self._watcher.start()

    def _watch(self) -> None:
        while not self._stop.is_set():
            if not self._active.wait(1.0):
                continue
            self._stop.wait(TICK)
            since = self._since
            if since is not None and self._hung(since, time.monotonic()):
                self._since = None  # once per statement
                self.cut()

    def _hung(self, since: float, now: float) -> bool:
        """Whether the guarded statement begun at *since* waits on a server that does not answer."""
        if now - since > self.deadline:
            return True
        prober = self.prober
        trip = prober.round_trip if prober is not None else None
        if prober is None or now - since < max(QUICK, 2 * (trip or 0.0)):
            return False
        if self._probe_for != since:  # the first look at this statement past QUICK
            self._probe_for, self._probe_sent = since, prober.ask(now)
        if prober.answered_since(self._probe_sent):
            return False  # the server answers: busy, not hung; the deadline judges
        if now - self._probe_sent > ABANDON:
            prober.abandon()
        if trip is None:  # no probe answered yet (its first connect): the deadline judges
            return False
        return now - self._probe_sent > max(PATIENCE, 4 * trip)

    def cut(self) -> None:
        """Shut down every connection's socket: a statement waiting on one fails at once."""
        self.cuts += 1
        self._cut_in_span = True
        for conn in list(self._connections):
            _shut_down(conn)

    def stop(self) -> None:
        self._stop.set()
        self._active.set()
        if self.prober is not None:
            self.prober.stop()
        _WATCHING.discard(self)
        with contextlib.suppress(Exception):
            event.remove(self._engine, "connect", self._connected)
