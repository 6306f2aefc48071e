"""One window per library: a second start hands its files to the running window and exits.

The running instance listens on a local socket named after the library folder (in
``$XDG_RUNTIME_DIR`` when set, else Qt's temporary folder). A second start sends one JSON line,
``{"v": 1, "open": ["/abs/file.ris", ...]}``, and waits for ``{"v": 1, "ok": true}``; without that
answer within :data:`ANSWER_TIMEOUT_MS` it reports that the files were not handed over. Paths are
made absolute against the second process's working folder before they are sent. The line of
the first version of this exchange, ``raise``, is still understood (raise the window).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import cast

from PySide6.QtCore import QObject, QTimer
from PySide6.QtNetwork import QLocalServer, QLocalSocket

PROTOCOL = 1
CONNECT_TIMEOUT_MS = 1000
ANSWER_TIMEOUT_MS = 3000
MAX_MESSAGE = 1 << 20  # a request longer than this is dropped: no one sends a megabyte of paths


def server_name(folder: Path) -> str:
    """The socket for this library: a full path in ``$XDG_RUNTIME_DIR`` (private to the user)
    when that folder exists, else a name Qt puts in its temporary folder."""
    name = "marginalia-" + hashlib.sha1(str(Path(folder).resolve()).encode()).hexdigest()[:16]
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if os.name == "posix" and runtime and Path(runtime).is_dir():
        return str(Path(runtime) / name)
    return name


def request(files: list[str]) -> bytes:
    """The line a second start sends: absolute paths, resolved against this process's cwd."""
    return (json.dumps({"v": PROTOCOL, "open": [str(Path(f).absolute()) for f in files]}) + "\n").encode()


def parse_request(line: bytes) -> list[str] | None:
    """The files a request asks to open (``[]``: just raise the window); None when it is not a
    request this version understands."""
    text = line.decode("utf-8", "replace").strip()
    if text == "raise":  # the first version's message
        return []
    try:
        msg = json.loads(text)
    except ValueError:
        return None
    if not isinstance(msg, dict) or not isinstance(msg.get("v"), int) or msg["v"] < 1:
        return None
    files = msg.get("open", [])
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        return None
    return files


def hand_over(
    folder: Path, files: list[str], *, connect_ms: int = CONNECT_TIMEOUT_MS, answer_ms: int = ANSWER_TIMEOUT_MS
) -> bool:
    """Ask the instance running on *folder* to raise its window and open *files*. True once it
    acknowledged; False when nothing listens (a stale socket file counts) or no answer came."""
    sock = QLocalSocket()
    sock.connectToServer(server_name(folder))
    if not sock.waitForConnected(connect_ms):
        return False
    try:
        sock.write(request(files))
        if not sock.waitForBytesWritten(answer_ms):
            return False
        answer = b""
        while not answer.endswith(b"\n"):
            if not sock.waitForReadyRead(answer_ms):
                return False
            answer += bytes(sock.readAll().data())
            if len(answer) > MAX_MESSAGE:
                return False
        try:
            reply = json.loads(answer)
        except ValueError:
            return False
        return isinstance(reply, dict) and reply.get("ok") is True
    finally:
        sock.abort()


class InstanceServer(QObject):
    """Listens for second starts on the library's socket.

    Requests that arrive before :meth:`set_handler` (while the window is still being built) are
    acknowledged and kept, then handed over in order. The handler gets the list of paths
    (empty: just raise the window).
    """

    def __init__(self, folder: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = server_name(folder)
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self.server.newConnection.connect(self._accept)
        self._handler: Callable[[list[str]], None] | None = None
        self._pending: list[list[str]] = []

    def listen(self) -> bool:
        """Start listening. Call it only while holding the library's lock: a socket file left by
        a crashed instance is then stale for sure, and is removed first."""
        QLocalServer.removeServer(self.name)
        return self.server.listen(self.name)

    def close(self) -> None:
        self.server.close()

    def set_handler(self, handler: Callable[[list[str]], None]) -> None:
        self._handler = handler
        pending, self._pending = self._pending, []
        for files in pending:
            handler(files)

    def _accept(self) -> None:
        while self.server.hasPendingConnections():
            sock = self.server.nextPendingConnection()
            buffer = bytearray()
            sock.readyRead.connect(lambda s=sock, b=buffer: self._read(s, b))
            sock.disconnected.connect(sock.deleteLater)
            QTimer.singleShot(ANSWER_TIMEOUT_MS * 2, sock, sock.abort)  # a client that never finishes
            if sock.bytesAvailable():
                self._read(sock, buffer)

    def _read(self, sock: QLocalSocket, buffer: bytearray) -> None:
        buffer += bytes(sock.readAll().data())
        if len(buffer) > MAX_MESSAGE:
            sock.abort()
            return
        if b"\n" not in buffer:
            return
        line = bytes(buffer[: buffer.index(b"\n")])
        del buffer[:]
        files = parse_request(line)
        if files is None:
            sock.write((json.dumps({"v": PROTOCOL, "ok": False, "error": "not understood"}) + "\n").encode())
            sock.disconnectFromServer()
            return
        sock.write((json.dumps({"v": PROTOCOL, "ok": True}) + "\n").encode())
        sock.flush()
        sock.disconnectFromServer()
        if self._handler is None:
            self._pending.append(files)
        else:
            # after the answer is on its way; the handler is read when the timer fires (a library
            # switch sets another). The cast: mypy checks the lambda once for each overload of
            # singleShot and loses the narrowing to not-None in one of them
            QTimer.singleShot(0, self, lambda: cast("Callable[..., None]", self._handler)(files))
