"""Backups: verified copies, rotation by day/week/month, automatic ones when due, and restoring
one over a damaged database (which is kept aside, never deleted)."""

from __future__ import annotations

import os
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from desktop_app.cli import main
from desktop_app.core.errors import LibraryDamaged, LibraryError
from desktop_app.core.library import Library
from desktop_app.core.store import backups
from tests.helpers.backups import damage, damaged_with_backup, fake_backup, make_library


@pytest.mark.shared
def test_damage_helper_breaks_queries(library_dir: Path) -> None:
    make_library(library_dir)
    damage(library_dir / "library.sqlite")
    con = sqlite3.connect(library_dir / "library.sqlite")
    with pytest.raises(sqlite3.DatabaseError, match="malformed"):
        con.execute("PRAGMA integrity_check").fetchall()
        con.execute("SELECT * FROM paper").fetchall()
        con.execute("SELECT * FROM note").fetchall()
    con.close()


@pytest.mark.shared
def test_backup_is_verified_and_self_contained(library_dir: Path) -> None:
    papers, notes = make_library(library_dir)
    with Library.open(library_dir) as lib:
        path = lib.backups.make("manual")
    assert path.parent == library_dir / "backups" and path.name.endswith("-manual.sqlite")
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]  # no .part, -wal or -shm
    assert backups.integrity_problem(path) is None
    [info] = backups.list_backups(path.parent)
    assert (info.papers, info.notes, info.reason) == (papers, notes, "manual")


@pytest.mark.shared
def test_a_damaged_database_is_never_kept_as_a_backup(library_dir: Path) -> None:
    make_library(library_dir)
    good = backups.make_backup(
        library_dir / "library.sqlite", library_dir / "backups", "auto", now=datetime.now() - timedelta(days=2)
    )
    damage(library_dir / "library.sqlite")
    with pytest.raises(LibraryDamaged) as info:
        backups.make_backup(library_dir / "library.sqlite", library_dir / "backups", "manual")
    msg = str(info.value)
    assert "damaged" in msg and "marginalia restore" in msg and "\n" not in msg
    assert list((library_dir / "backups").iterdir()) == [good]  # nothing new, the good one kept
    # nor an automatic one, although one is due
    with pytest.raises(LibraryDamaged):
        backups.backup_if_due(library_dir / "library.sqlite", library_dir / "backups")
    assert list((library_dir / "backups").iterdir()) == [good]


def test_rotation_keeps_7_daily_4_weekly_6_monthly_and_migration_ones(tmp_path: Path) -> None:
    d = tmp_path / "backups"
    d.mkdir()
    now = datetime(2026, 11, 30, 12, 0)  # a Monday
    made = {}
    for days in range(400):  # two a day for 400 days
        for hour in (9, 18):
            when = (now - timedelta(days=days)).replace(hour=hour)
            if when <= now:
                made[when] = fake_backup(d, when, "auto")
    migration = [fake_backup(d, now - timedelta(days=i, minutes=7), f"before-00{i % 10}") for i in range(12)]
    backups.rotate(d)
    kept = {b.made for b in backups.list_backups(d, contents=False) if b.periodic}

    daily = {(now - timedelta(days=i)).replace(hour=18) for i in range(1, 7)} | {now.replace(hour=9)}
    # newest of each ISO week: Sun 29 Nov is covered by the days; then Sun 22, 15, 8 Nov
    weekly = {datetime(2026, 11, d, 18) for d in (22, 15)}
    monthly = {datetime(2026, m, 31 if m in (10, 8, 7) else 30, 18) for m in (10, 9, 8, 7, 6)}
    assert kept == daily | weekly | monthly, sorted(kept ^ (daily | weekly | monthly))
    assert len(kept) == 7 + 2 + 5  # this week and month are already among the days
    left = sorted(p for p in d.iterdir() if "before-" in p.name)
    assert left == sorted(migration[:10])  # the newest 10 migration backups


@pytest.mark.shared
def test_backup_if_due_follows_the_interval(library_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_library(library_dir, notes=1)
    db, d = library_dir / "library.sqlite", library_dir / "backups"
    now = datetime.now()
    first = backups.backup_if_due(db, d, now=now)  # none yet: due
    assert first is not None and first.name.endswith("-auto.sqlite")
    assert backups.backup_if_due(db, d, now=now + timedelta(hours=23)) is None
    second = backups.backup_if_due(db, d, now=now + timedelta(hours=25))
    assert second is not None and second != first
    monkeypatch.setenv("MARGINALIA_BACKUP_EVERY_HOURS", "2")
    assert backups.backup_if_due(db, d, now=now + timedelta(hours=26)) is None
    assert backups.backup_if_due(db, d, now=now + timedelta(hours=27, minutes=1)) is not None
    monkeypatch.setenv("MARGINALIA_BACKUP_EVERY_HOURS", "0")  # off
    assert backups.backup_if_due(db, d, now=now + timedelta(days=30)) is None
    assert backups.describe_age(timedelta(hours=3, minutes=5)) == "newest backup: 3 hours old"
    assert backups.describe_age(None).startswith("no backup yet")


@pytest.mark.shared
def test_the_command_line_does_not_back_up_on_every_command(library_dir: Path, capsys) -> None:
    make_library(library_dir, notes=1)
    assert main(["--library", str(library_dir), "list"]) == 0
    assert not (library_dir / "backups").exists()
    assert main(["--library", str(library_dir), "check"]) == 0
    out = capsys.readouterr().out
    assert "no backup yet" in out
    assert main(["--library", str(library_dir), "backup"]) == 0
    assert main(["--library", str(library_dir), "check"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2:] == ["ok: 76 papers, database and index agree", "newest backup: less than a minute old"]


@pytest.mark.shared
@pytest.mark.parametrize("command", [["list"], ["check"], ["backup"], ["export", "--format", "json", "-o"]])
def test_every_command_on_a_damaged_library_says_one_line(library_dir: Path, capsys, command: list[str]) -> None:
    """Commands that read the damaged pages (a command that does not, like ``show`` of a sound
    paper, still works)."""
    damaged_with_backup(library_dir)
    before = sorted((library_dir / "backups").iterdir())
    if command[-1] == "-o":
        command = [*command, str(library_dir.parent / "out.json")]
    code = main(["--library", str(library_dir), *command])
    err = capsys.readouterr().err
    assert code == 1, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "library.sqlite is damaged" in err
    assert "run `marginalia restore 1` to put back the backup of 2026-11-01 08:30 (76 papers, 30 notes)" in err
    assert sorted((library_dir / "backups").iterdir()) == before


@pytest.mark.shared
def test_restore_lists_then_swaps_the_backup_in_and_keeps_the_damaged_file(library_dir: Path, capsys) -> None:
    good, papers, notes = damaged_with_backup(library_dir)
    db = library_dir / "library.sqlite"
    (library_dir / "library.sqlite-wal").write_bytes(b"wal of the damaged file")
    (library_dir / "library.sqlite-shm").write_bytes(b"shm of the damaged file")
    damaged_bytes = db.read_bytes()

    assert main(["--library", str(library_dir), "restore"]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert listing == [f"  1  2026-11-01 08:30 (76 papers, 30 notes)  {good.name}"]

    assert main(["--library", str(library_dir), "restore", "1"]) == 0
    out = capsys.readouterr().out
    assert "restored the backup of 2026-11-01 08:30 (76 papers, 30 notes)" in out
    [kept] = library_dir.glob("library-damaged-*.sqlite")
    assert kept.read_bytes() == damaged_bytes
    assert Path(f"{kept}-wal").read_bytes() == b"wal of the damaged file"
    assert Path(f"{kept}-shm").read_bytes() == b"shm of the damaged file"
    assert good.is_file()  # the backup itself stays
    with Library.open(library_dir) as lib:
        assert lib.papers.count() == papers
        assert sum(bool(lib.papers.get(p).note) for p in lib.query("").ids) == notes
        assert lib.integrity_check() == []  # the index was rebuilt from the restored database
        assert lib.query("note:after").ids == []

    # a second restore never overwrites the first damaged file
    assert main(["--library", str(library_dir), "restore", good.name]) == 0
    assert len(list(library_dir.glob("library-damaged-*.sqlite"))) == 2
    assert kept.read_bytes() == damaged_bytes


@pytest.mark.shared
def test_restore_refuses_a_damaged_backup_and_changes_nothing(library_dir: Path, capsys) -> None:
    good, _, _ = damaged_with_backup(library_dir)
    damage(good)
    db = library_dir / "library.sqlite"
    before = db.read_bytes()
    assert main(["--library", str(library_dir), "restore", "1"]) == 1
    err = capsys.readouterr().err
    assert "is damaged too" in err and err.count("\n") == 1
    assert db.read_bytes() == before
    assert not list(library_dir.glob("library-damaged-*")) and not list(library_dir.glob("*.restoring*"))
    with pytest.raises(LibraryError, match="no backup"):
        backups.choose_backup(library_dir, "7")


@pytest.mark.shared
def test_restore_refuses_while_a_window_holds_the_library(library_dir: Path, capsys) -> None:
    damaged_with_backup(library_dir)
    (library_dir / ".marginalia.lock").write_text(f"{os.getppid()}\nmarginalia\nhost\n")
    assert main(["--library", str(library_dir), "restore", "1"]) == 1
    assert "open in a Marginalia window" in capsys.readouterr().err
    assert not list(library_dir.glob("library-damaged-*"))


def test_restore_on_a_server_library_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # the location is a URL, not a folder: `restore` once divided it by "backups" (TypeError);
    # refused before any connection, so no server is needed
    assert main(["--library", "postgresql://someone@127.0.0.1:1/papers", "restore"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("marginalia: ") and err.count("\n") == 1
    assert "pg_dump" in err
