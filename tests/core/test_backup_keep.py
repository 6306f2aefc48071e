"""The user's "how many backups to keep" (Settings → Backups) caps the rotation."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from desktop_app.core.library import Library
from desktop_app.core.store import backups
from tests.helpers.backups import fake_backup, make_library


def test_keep_at_most_keeps_the_newest_periodic_backups_and_every_migration_one(tmp_path: Path) -> None:
    d = tmp_path / "backups"
    d.mkdir()
    now = datetime(2026, 11, 30, 12, 0)
    for days in range(60):
        fake_backup(d, now - timedelta(days=days), "auto")
    migration = [fake_backup(d, now - timedelta(days=i, minutes=7), "before-0042") for i in range(3)]
    uncapped = backups.to_keep(backups.list_backups(d, contents=False))
    assert len([p for p in uncapped if "before-" not in p.name]) > 3  # days, weeks, months

    gone = backups.rotate(d, keep_at_most=3)
    left = backups.list_backups(d, contents=False)
    assert sorted(b.made for b in left if b.periodic) == [now - timedelta(days=i) for i in (2, 1, 0)]
    assert sorted(p for p in d.iterdir() if "before-" in p.name) == sorted(migration)
    assert len(gone) == 60 - 3
    backups.rotate(d, keep_at_most=0)  # at least the newest stays
    assert [b.made for b in backups.list_backups(d, contents=False) if b.periodic] == [now]


@pytest.mark.shared  # make_library imports the seeds
def test_a_library_backup_obeys_keep_at_most_and_check_then_backup_obeys_enabled(library_dir: Path) -> None:
    make_library(library_dir, notes=1)
    with Library.open(library_dir) as lib:
        assert lib.backups.check_then_make(enabled=False) == ("backup", None)
        assert not (library_dir / "backups").exists() or not list((library_dir / "backups").iterdir())
        older = [
            backups.make_backup(lib.db_path, library_dir / "backups", "auto", now=datetime.now() - timedelta(days=n))
            for n in (3, 2, 1)
        ]
        assert len(list((library_dir / "backups").iterdir())) == 3
        made = lib.backups.make(keep_at_most=2)
        assert sorted((library_dir / "backups").iterdir()) == sorted([older[-1], made])
