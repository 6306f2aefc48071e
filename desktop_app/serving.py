"""``marginalia serve``: keep a library open and answer the command line's read commands.

The client side is :mod:`desktop_app.cli_remote` (which read commands, the socket, the
exchange). Each request is run by the same code a ``marginalia`` process runs
(:func:`desktop_app.commands.run_open`, inside :func:`desktop_app.cli_support.guarded`), with its
stdout and stderr captured and sent back, so the answer is the one the command would have
printed itself.

Never stale: before each request the library is brought up to date. A database file or index
folder that was replaced (``restore``, another process's ``reindex``) reopens the library;
otherwise papers queued for the index are written and index commits made by other processes
picked up (:meth:`IndexSync.catch_up`), the same check a new process makes on opening. The
database itself is read afresh by every query. Requests are answered one at a time.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import socket
import sys
import threading
import time
from argparse import Namespace
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

from desktop_app import cli_remote
from desktop_app.cli_support import guarded
from desktop_app.core.library import Library
from desktop_app.thread_output import captured

DEFAULT_IDLE_MINUTES = 30.0
POLL_S = 1.0  # how often the accept loop looks at the idle clock and the stop flag


class _Stop(Exception):
    """SIGTERM or SIGHUP: leave the loop and clean up."""


def _identity(lib: Library) -> tuple[object, ...]:
    """What a replacement of the database file or the index folder changes."""
    out: list[object] = []
    paths = [lib.index.index.folder]
    if lib.server is None:
        paths.insert(0, Path(lib.folder) / "library.sqlite")
    for p in paths:
        try:
            st = os.stat(p)
            out.append((st.st_dev, st.st_ino))
        except OSError:
            out.append(None)
    return tuple(out)


class Server:
    """One library, one socket, one request at a time."""

    def __init__(
        self,
        location: Path | str,
        path: Path,
        parse: Callable[[list[str]], Namespace],
        ready: Callable[[], bool] = lambda: True,
    ) -> None:
        self.location = location
        self.parse = parse  # the command line's own (desktop_app.cli.parse_command_line)
        # False: refuse (the client runs the command itself), e.g. while the window builds the index
        self.ready = ready
        self.path = path
        self.lib: Library | None = None
        self._identity: tuple[object, ...] = ()
        self.requests = 0

    # ---- the library -----------------------------------------------------------------------
    def open(self) -> Library:
        self.lib = Library.open(self.location, ensure_index=True)
        self._identity = _identity(self.lib)
        return self.lib

    def close(self) -> None:
        if self.lib is not None:
            self.lib.close()
            self.lib = None

    def current(self, needs_index: bool) -> Library:
        """The library, brought up to date with the database and the index (see the module)."""
        if self.lib is None or _identity(self.lib) != self._identity:
            self.close()
            return self.open()
        if needs_index:
            self.lib.index.catch_up(self.lib.papers.count())
        return self.lib

    # ---- one request -----------------------------------------------------------------------
    def answer(self, line: bytes) -> dict[str, object]:
        from desktop_app import commands

        try:
            request = json.loads(line.decode("utf-8"))
            argv, library = request["argv"], request["library"]
            if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
                raise ValueError("argv")
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            return {"v": cli_remote.PROTOCOL, "refused": "not understood"}
        out, err = io.StringIO(), io.StringIO()
        try:
            with captured(out, err):  # argparse's own messages
                args = self.parse(argv)
        except SystemExit:
            return {"v": cli_remote.PROTOCOL, "refused": "not a command line this server parses"}
        if not cli_remote.servable(args) or library != cli_remote.location_key(self.location):
            return {"v": cli_remote.PROTOCOL, "refused": "not a read command on this library"}
        if not self.ready():
            return {"v": cli_remote.PROTOCOL, "refused": "the library is not ready to answer yet"}

        def run() -> int:
            lib = self.current(commands.needs_index(args))
            return commands.translating_damage(lib.folder, lambda: commands.run_open(lib, args))

        with captured(out, err):
            code = guarded(run)
        self.requests += 1
        return {"v": cli_remote.PROTOCOL, "code": code, "out": out.getvalue(), "err": err.getvalue()}

    def handle(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(5.0)  # a client that connects and says nothing is let go
            try:
                line = cli_remote.read_line(conn, cli_remote.MAX_REQUEST)
            except OSError:
                return
            if line is None:
                return
            reply = self.answer(line)
            with contextlib.suppress(OSError):  # the client went away (Ctrl+C, `| head`)
                conn.settimeout(60.0)
                conn.sendall((json.dumps(reply, ensure_ascii=False) + "\n").encode("utf-8"))


@contextlib.contextmanager
def _listening(path: Path) -> Iterator[socket.socket]:
    """A socket bound at *path* (a stale file from a killed server removed first), removed
    again at the end unless another server has taken the name meanwhile."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old_mask = os.umask(0o177)  # the socket file: this user only
    try:
        sock.bind(str(path))
    finally:
        os.umask(old_mask)
    ino = path.stat().st_ino
    sock.listen(16)
    try:
        yield sock
    finally:
        sock.close()
        with contextlib.suppress(OSError):
            if path.stat().st_ino == ino:
                path.unlink()


def _raise_stop(signum: int, frame: FrameType | None) -> None:
    raise _Stop(signum)


def serve(
    location: Path | str, parse: Callable[[list[str]], Namespace], *, idle_minutes: float = DEFAULT_IDLE_MINUTES
) -> int:
    """Answer read commands for *location* (command lines parsed by *parse*) until Ctrl+C, SIGTERM, or *idle_minutes* without a
    request (0: never idle out). Exit 0; 1 when the library does not open or another server
    already answers for it."""
    path = cli_remote.socket_path(location)
    if path is None:
        print(
            "marginalia: serve needs Unix sockets and a private folder for them "
            "($XDG_RUNTIME_DIR); read commands run in their own process here",
            file=sys.stderr,
        )
        return 1
    other = cli_remote.connect(path)
    if other is not None:
        other.close()
        print(f"marginalia: a server already answers for this library ({path})", file=sys.stderr)
        return 1
    server = Server(location, path, parse)
    server.open()
    previous = {s: signal.signal(s, _raise_stop) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        with _listening(path) as sock:
            sock.settimeout(POLL_S)
            idle = f"; {idle_minutes:g} min without a request ends it" if idle_minutes > 0 else ""
            print(
                f"marginalia: serving read commands for {cli_remote.location_key(location)} (Ctrl+C stops{idle})",
                file=sys.stderr,
                flush=True,
            )
            last = time.monotonic()
            while idle_minutes <= 0 or time.monotonic() - last < idle_minutes * 60:
                try:
                    conn, _ = sock.accept()
                except TimeoutError:
                    continue
                server.handle(conn)
                last = time.monotonic()
    except (_Stop, KeyboardInterrupt):
        print("marginalia: server stopped", file=sys.stderr)
    finally:
        for s, h in previous.items():
            signal.signal(s, h)
        server.close()
    return 0


class BackgroundServer:
    """The same answers from a thread of another program: the window answers the read commands
    run on its library while it is open (``gui/command_answers.py``).

    The thread opens its own Library on the first request (a window that is never asked pays
    nothing but the socket) and closes it after :data:`cli_remote.AUTO_IDLE_MINUTES` without a
    request; every use of that Library is in the thread. A ``marginalia serve`` already
    answering for the library is left to answer: :meth:`start` then returns False.
    """

    def __init__(
        self,
        location: Path | str,
        parse: Callable[[list[str]], Namespace],
        ready: Callable[[], bool] = lambda: True,
        *,
        idle_close_s: float = cli_remote.AUTO_IDLE_MINUTES * 60,
    ) -> None:
        self.location = location
        self.parse = parse
        self.ready = ready
        self.idle_close_s = idle_close_s
        self.server: Server | None = None
        self._listening: contextlib.ExitStack | None = None
        self._socket: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> bool:
        """Listen and answer in a thread; False when there is no private folder for the socket,
        another server answers for this library, or the socket cannot be made."""
        path = cli_remote.socket_path(self.location)
        if path is None or self.running:
            return False
        other = cli_remote.connect(path)
        if other is not None:
            other.close()
            return False
        stack = contextlib.ExitStack()
        try:
            sock = stack.enter_context(_listening(path))
        except OSError:
            stack.close()
            return False
        sock.settimeout(POLL_S)
        self._listening, self._socket = stack, sock
        self.server = Server(self.location, path, self.parse, self.ready)
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, name="marginalia-command-answers", daemon=True)
        self._thread.start()
        return True

    def stop(self, wait_s: float = 10.0) -> None:
        """Stop listening (the socket file goes); a request being answered is finished first,
        for at most *wait_s*."""
        self._stop.set()
        if self._socket is not None:
            with contextlib.suppress(OSError):  # wakes the accept() waiting in the thread
                self._socket.shutdown(socket.SHUT_RDWR)
        if self._thread is not None:
            self._thread.join(wait_s)
        if self._listening is not None:
            self._listening.close()
        self._listening = self._socket = self._thread = None

    def _loop(self) -> None:
        server, sock = self.server, self._socket
        assert server is not None and sock is not None  # set by start() before the thread runs
        last = time.monotonic()
        try:
            while not self._stop.is_set():
                try:
                    conn, _ = sock.accept()
                except TimeoutError:
                    if server.lib is not None and time.monotonic() - last > self.idle_close_s:
                        server.close()  # memory back while nobody asks
                    continue
                except OSError:  # stop() shut the socket down
                    break
                server.handle(conn)
                last = time.monotonic()
        finally:
            server.close()
