"""A damaged library from the real command line: one line on stderr, no traceback; restore works."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.backups import damaged_with_backup
from tests.helpers.cli import run_parallel


@pytest.mark.shared  # the damaged library is made from the seeds
def test_damaged_library_in_subprocesses(library_dir: Path) -> None:
    damaged_with_backup(library_dir)
    results = run_parallel(library_dir, ["check"], ["list"], ["backup"], ["restore"])
    for r in results[:3]:
        assert r.returncode == 1, (r.args, r.stderr)
        assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1, r.stderr
        assert "is damaged" in r.stderr and "marginalia restore 1" in r.stderr
    listing = results[3]
    assert listing.returncode == 0 and "(76 papers, 30 notes)" in listing.stdout
    (restored,) = run_parallel(library_dir, ["restore", "1"])
    assert restored.returncode == 0, restored.stderr
    (check,) = run_parallel(library_dir, ["check"])
    assert check.returncode == 0 and check.stdout.startswith("ok: 76 papers"), check.stdout + check.stderr
    assert len(list(library_dir.glob("library-damaged-*.sqlite"))) == 1
