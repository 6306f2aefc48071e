"""A PostgreSQL connection that drops after a COMMIT reached the server and before its answer came
back: a proxy on a Unix socket of its own, between the desk and a test's server, which passes
every byte through until :meth:`LossyProxy.lose_next_commit_answer` is called; then the next
COMMIT a client sends is passed on, the server commits it and answers, and the proxy closes that
client's connection instead of passing the answer. The client sees the connection lost (psycopg's
OperationalError) for a transaction the server did commit."""

from __future__ import annotations

import contextlib
import socket
import struct
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlparse, urlunparse


class LossyProxy:
    """Listens in a folder of its own as ``.s.PGSQL.<port>`` (the server's port); :attr:`url`
    is the server's URL with that folder as its host."""

    def __init__(self, server_url: str) -> None:
        parts = urlparse(server_url)
        query = parse_qs(parts.query)
        self.port = query["port"][0]
        self.target = str(Path(query["host"][0]) / f".s.PGSQL.{self.port}")
        self.folder = tempfile.mkdtemp(prefix="lossy-")
        query["host"] = [self.folder]
        self._parts = parts._replace(query=urlencode({k: v[0] for k, v in query.items()}))
        self.lost: list[bytes] = []  # the COMMITs whose answer was dropped
        self._armed = threading.Event()
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(str(Path(self.folder) / f".s.PGSQL.{self.port}"))
        self._listener.listen(16)
        self._open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True, name="lossy-proxy").start()

    def url_of(self, database_url: str) -> str:
        """``database_url`` (a database on the proxied server) reached through the proxy."""
        parts = urlparse(database_url)
        return urlunparse(parts._replace(query=self._parts.query))

    def lose_next_commit_answer(self) -> None:
        self._armed.set()

    def close(self) -> None:
        for s in [self._listener, *self._open]:
            with contextlib.suppress(OSError):
                s.close()

    # ---- the pumps -----------------------------------------------------------------------
    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            server.connect(self.target)
            self._open += [client, server]
            dropping = threading.Event()  # this connection's COMMIT went on: drop the answer
            threading.Thread(target=self._frontend, args=(client, server, dropping), daemon=True).start()
            threading.Thread(target=self._backend, args=(server, client, dropping), daemon=True).start()

    def _frontend(self, client: socket.socket, server: socket.socket, dropping: threading.Event) -> None:
        """Client to server, message by message (the startup message has no type byte)."""
        try:
            length = struct.unpack("!i", _exactly(client, 4))[0]
            server.sendall(struct.pack("!i", length) + _exactly(client, length - 4))
            while True:
                kind = _exactly(client, 1)
                length = struct.unpack("!i", _exactly(client, 4))[0]
                body = _exactly(client, length - 4)
                if kind == b"Q" and body.upper().startswith(b"COMMIT") and self._armed.is_set():
                    self._armed.clear()
                    self.lost.append(body)
                    dropping.set()
                server.sendall(kind + struct.pack("!i", length) + body)
        except OSError:
            return  # a side closed (or was shut by the other pump): this pump ends
        finally:
            _shut(client, server)

    @staticmethod
    def _backend(server: socket.socket, client: socket.socket, dropping: threading.Event) -> None:
        try:
            while True:
                data = server.recv(65536)
                if not data:
                    return
                if dropping.is_set():  # the server's answer to the COMMIT: it committed; never told
                    return
                client.sendall(data)
        except OSError:
            return  # a side closed (or was shut by the other pump): this pump ends
        finally:
            _shut(client, server)


def _exactly(sock: socket.socket, n: int) -> bytes:
    out = b""
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        if not chunk:
            raise OSError("closed")
        out += chunk
    return out


def _shut(*socks: socket.socket) -> None:
    for s in socks:
        with contextlib.suppress(OSError):
            s.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            s.close()


@contextlib.contextmanager
def lossy_proxy(server_url: str) -> Iterator[LossyProxy]:
    proxy = LossyProxy(server_url)
    try:
        yield proxy
    finally:
        proxy.close()
