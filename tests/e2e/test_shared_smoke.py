"""`gui --smoke-test` on a library on a PostgreSQL server ends with OK (it used to enter the
window's event loop and never return)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from desktop_app.core.library import Library


@pytest.mark.postgresql
def test_smoke_test_on_a_server_library(pg_url: str) -> None:
    from tests.helpers.shared import SEEDS

    with Library.open(pg_url) as lib:
        lib.imports.from_files(SEEDS[:1])
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run(
        [sys.executable, "-m", "desktop_app", "--library", pg_url, "gui", "--smoke-test"],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "OK"
