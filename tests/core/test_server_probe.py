"""The window's thread on a shared library: a statement that waits on a server which answers
nothing is cut about a tenth of a second after it began (a probe on a connection of its own finds
the server silent), while a busy server's slow statement is waited for, not taken for a hang."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import text

from desktop_app.core.errors import ServerUnreachable
from desktop_app.core.library import Library
from desktop_app.core.store.server_watchdog import PATIENCE, QUICK, TICK
from tests.helpers.offline_server import Server
from tests.helpers.pg_fixtures import new_database

pytestmark = pytest.mark.postgresql
DEADLINE = 2.0  # the probe, not this, is what cuts a hung server's statement


def _timed_read(lib: Library, sql: str) -> float:
    started = time.monotonic()
    with lib.store.read() as conn:
        conn.execute(text(sql)).all()
    return time.monotonic() - started


def test_a_busy_server_is_waited_for_and_a_silent_one_cut_at_once(own_server: Server) -> None:
    url = new_database(own_server.url)
    with Library.open(url, ensure_index=False) as lib:
        lib.answer_within(DEADLINE)
        assert lib.store.watchdog is not None and lib.store.watchdog.prober is not None
        _timed_read(lib, "SELECT 1")  # the pool's first connection
        deadline = time.monotonic() + 10
        while lib.store.watchdog.prober.round_trip is None:  # the first probe, sent at once, answered
            assert time.monotonic() < deadline, "the first probe never came back"
            time.sleep(0.01)
        slow = _timed_read(lib, "SELECT pg_sleep(0.4)")
        assert 0.4 <= slow < DEADLINE, "a busy server's statement was cut"
        assert lib.store.watchdog.cuts == 0 and lib.store.watchdog.prober.probes >= 1

        stopped = own_server.hang()
        rescue = threading.Timer(20, Server.resume, [list(stopped)])  # a regression fails, never hangs
        rescue.daemon = True
        rescue.start()
        try:
            started = time.monotonic()
            with pytest.raises(ServerUnreachable):
                _timed_read(lib, "SELECT 1")
            held = time.monotonic() - started
        finally:
            Server.resume(stopped)
        print(f"held the thread {held * 1000:.0f} ms; the busy statement {slow * 1000:.0f} ms")
        assert held < QUICK + PATIENCE + 10 * TICK + 0.1, f"the hung server held the thread {held:.3f} s"
        assert lib.store.watchdog.cuts == 1
