"""A throwaway PostgreSQL server for the tests: initdb in a temporary folder, a Unix socket there.

Needs PostgreSQL's server programs (Debian: ``postgresql``). Without them the tests that use it
skip with the reason, unless ``CI`` is set (then they fail: ``.ci/run`` installs the package).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

HINT = "apt-get install -y postgresql (.ci/run installs it)"


def _bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    for version in sorted(Path("/usr/lib/postgresql").glob("*"), reverse=True):
        candidate = version / "bin" / name
        if candidate.is_file():
            return str(candidate)
    return None


def _require(name: str) -> str:
    path = _bin(name)
    if path is None:
        message = f"PostgreSQL's {name} is not installed: {HINT}"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def postgres_server() -> Iterator[str]:
    """Start a server with its data and socket in a new temporary folder; yield a SQLAlchemy URL.

    The folder is made directly in the system's temporary folder: pytest's own folders are
    private to the user running the tests, which the postgres user could not enter."""
    initdb, pg_ctl = _require("initdb"), _require("pg_ctl")
    folder = Path(tempfile.mkdtemp(prefix="marginalia-pg-"))
    data = folder / "data"
    prefix: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: run it as the postgres user
        runuser = shutil.which("runuser")
        if runuser is None:
            pytest.skip("running as root without runuser: cannot start PostgreSQL")
        shutil.chown(folder, "postgres", "postgres")
        os.chmod(folder, 0o755)
        prefix = [runuser, "-u", "postgres", "--"]
    port = _free_port()
    run = dict(check=True, capture_output=True, text=True, timeout=120)
    subprocess.run([*prefix, initdb, "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8"], **run)
    subprocess.run(
        [
            *prefix,
            pg_ctl,
            "-D",
            str(data),
            "-w",
            "-l",
            str(folder / "log"),
            "-o",
            f"-k {folder} -p {port} -c listen_addresses=''",
            "start",
        ],
        **run,
    )
    try:
        yield f"postgresql+psycopg://postgres@/postgres?host={folder}&port={port}"
    finally:
        subprocess.run([*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)
