"""The command line's short way: a read command asks a running ``marginalia serve``.

A ``marginalia`` process pays about a second of CPU before it prints anything (SQLAlchemy,
SQLModel, numpy and Whoosh are imported, the index is opened and its postings read cold). A
``marginalia serve`` process (:mod:`desktop_app.serving`) keeps the library open; while it
runs, the read commands (:func:`servable`) send their command line to it over a Unix socket
private to the user and print its answer, so a script that calls ``marginalia search`` in a
loop pays Python's start and this module only. Nothing here imports more than the standard
library's socket and json.

A script that calls the command line in a loop need not start one: when a read command runs in
its own process within :data:`REPEAT_WINDOW_S` of the last one on the same library
(:func:`start_server_if_repeated`), it also starts ``marginalia serve`` in the background, which
answers the calls after it and ends itself after :data:`AUTO_IDLE_MINUTES` without a request.
A single call starts nothing. ``MARGINALIA_AUTO_SERVE=0`` turns this off; ``MARGINALIA_NO_SERVER``
turns off asking a server at all.

When no server answers (none started, a stale socket, a server that went away mid-answer, a
platform without Unix sockets) the command runs in this process as before: the answer is the
same either way, because the server runs the very same command code on a library it brings
up to date with the database and the index before each request.

The exchange: one JSON line ``{"v": 1, "library": KEY, "argv": [...]}`` from the client (KEY:
:func:`location_key` of the library the client means, so a relative ``--library`` or another
``$MARGINALIA_LIBRARY`` is never answered from the wrong library); one JSON line back,
``{"v": 1, "code": N, "out": "...", "err": "..."}``, or ``{"v": 1, "refused": "why"}`` for a
command the server does not run (the client then runs it itself).
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

PROTOCOL = 1
CONNECT_TIMEOUT_S = 0.5
ANSWER_TIMEOUT_S = 600.0  # a topics run over 100,000 papers takes a while; a dead server closes at once
MAX_REQUEST = 1 << 20
NO_SERVER_ENV = "MARGINALIA_NO_SERVER"  # set (to anything): always run in this process
AUTO_SERVE_ENV = "MARGINALIA_AUTO_SERVE"  # "0": a loop of commands never starts a server
REPEAT_WINDOW_S = 60.0  # a read command this soon after the last one on a library: a loop
START_GRACE_S = 20.0  # after starting a server: no second one while it opens the library
AUTO_IDLE_MINUTES = 5.0  # a server started by a loop ends itself this long after its last request

_READS = frozenset({"search", "list", "show", "related", "stats", "attachments", "imports"})


def servable(args: Any) -> bool:  # noqa: ANN401 - an argparse.Namespace of any command
    """Whether the parsed command only reads, so a server may answer it."""
    command = args.command
    if getattr(args, "read_only", False) or getattr(args, "smoke_test", False):
        return False
    if command in _READS:
        return True
    if command == "note":
        return args.set is None and args.append is None and args.file is None
    if command == "triage":
        return bool(args.triage_command == "queue")
    if command == "topics":
        return not (args.words and args.words[0] in ("decide", "tag"))
    if command == "trash":
        return bool(args.trash_command == "list")
    if command == "reading-list":
        return args.rl_command in ("ls", "show")
    return False


def location_key(location: Path | str) -> str:
    """What names a library's server: its folder, resolved, or its server URL as given."""
    if isinstance(location, Path):
        return str(location.expanduser().resolve())
    return str(location)


def socket_dir() -> Path | None:
    """A folder only this user can enter: ``$XDG_RUNTIME_DIR``, else ``marginalia-UID`` in the
    temporary folder (made 0700; refused when someone else owns it or may enter it)."""
    if not hasattr(socket, "AF_UNIX") or not hasattr(os, "getuid"):
        return None
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and Path(runtime).is_dir():
        return Path(runtime)
    folder = Path(tempfile.gettempdir()) / f"marginalia-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        st = folder.lstat()
    except OSError:
        return None
    if st.st_uid != os.getuid() or st.st_mode & 0o077 or not os.path.isdir(folder) or folder.is_symlink():
        return None
    return folder


def socket_path(location: Path | str) -> Path | None:
    folder = socket_dir()
    if folder is None:
        return None
    digest = hashlib.sha1(location_key(location).encode("utf-8")).hexdigest()[:16]
    return folder / f"marginalia-serve-{digest}.sock"


def connect(path: Path, timeout: float = CONNECT_TIMEOUT_S) -> socket.socket | None:
    """A connection to the server listening at *path*, or None (nothing there, a stale file)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(str(path))
    except OSError:
        sock.close()
        return None
    return sock


def read_line(sock: socket.socket, limit: int | None = None) -> bytes | None:
    """Bytes up to the first newline; None when the peer closed first or sent more than *limit*."""
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = sock.recv(1 << 16)
        if not chunk:
            return None
        end = chunk.find(b"\n")
        if end >= 0:
            chunks.append(chunk[:end])
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if limit is not None and size > limit:
            return None


def ask(location: Path | str, argv: Sequence[str]) -> dict[str, Any] | None:
    """The server's answer to this command line, or None when no server gave one."""
    if os.environ.get(NO_SERVER_ENV):
        return None
    path = socket_path(location)
    if path is None or not path.exists():
        return None
    return ask_at(path, location, argv)


def ask_at(path: Path, location: Path | str, argv: Sequence[str]) -> dict[str, Any] | None:
    """The answer of the server listening at *path* to this command line on *location*, or
    None when none came (nothing listens, it went away, it refused)."""
    sock = connect(path)
    if sock is None:
        return None
    try:
        sock.settimeout(ANSWER_TIMEOUT_S)
        request = {"v": PROTOCOL, "library": location_key(location), "argv": list(argv)}
        sock.sendall((json.dumps(request) + "\n").encode("utf-8"))
        line = read_line(sock)
    except OSError:
        return None
    finally:
        sock.close()
    if line is None:
        return None
    try:
        answer = json.loads(line)
    except ValueError:
        return None
    if not isinstance(answer, dict) or "refused" in answer or not isinstance(answer.get("code"), int):
        return None
    return answer


def run_remotely(location: Path | str, argv: Sequence[str]) -> int | None:
    """Print a server's answer as this process would have printed it, and return its exit
    status; None when no server answered (the caller runs the command itself)."""
    answer = ask(location, argv)
    if answer is None:
        return None
    from desktop_app.cli_support import write_out

    out, err = str(answer.get("out", "")), str(answer.get("err", ""))
    write_out(out)
    sys.stdout.flush()  # the table, then the count on stderr: the order a terminal shows
    if err:
        sys.stderr.write(err)
        sys.stderr.flush()
    return int(answer["code"])


def serve_command(location: Path | str) -> list[str]:
    """``marginalia --library LOCATION serve`` as this installation runs it: the bundle's own
    binary, else this interpreter on the package."""
    exe = [sys.executable] if getattr(sys, "frozen", False) else [sys.executable, "-m", "desktop_app"]
    return [*exe, "--library", str(location), "serve", "--idle", f"{AUTO_IDLE_MINUTES:g}"]


def start_server_if_repeated(location: Path | str, now: float | None = None) -> bool:
    """Called when a read command runs in this process (no server answered): start a server in
    the background when the last such command on this library was less than
    :data:`REPEAT_WINDOW_S` ago, so that the rest of a loop is answered by it. True when one was
    started. The time of the last command is the modification time of a stamp file beside the
    socket; after a start it is set :data:`START_GRACE_S` ahead, so the calls made while the
    server opens the library start no second one."""
    if os.environ.get(NO_SERVER_ENV) or os.environ.get(AUTO_SERVE_ENV, "1").strip() in ("0", "no", "false"):
        return False
    path = socket_path(location)
    if path is None:
        return False
    stamp = path.with_suffix(".last")
    now = time.time() if now is None else now
    try:
        previous: float | None = stamp.stat().st_mtime
    except OSError:
        previous = None
    repeated = previous is not None and 0 <= now - previous < REPEAT_WINDOW_S
    starting = previous is not None and previous > now
    if starting:
        return False
    try:
        stamp.touch(mode=0o600)
        stamp_time = now + START_GRACE_S if repeated else now
        os.utime(stamp, (stamp_time, stamp_time))
    except OSError:
        return False
    if not repeated:
        return False
    import subprocess  # only here: the client's usual path imports nothing it does not use

    try:
        subprocess.Popen(
            serve_command(location),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
        )
    except OSError:
        return False
    return True
