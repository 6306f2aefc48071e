"""A library whose database vanished is not silently made anew: a missing,
empty or replaced ``library.sqlite`` in a folder that held a library is refused with the way to
restore, nothing is written, and rotation never drops the newest sound backup."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from desktop_app.core.errors import LibraryDamaged
from desktop_app.core.library import Library
from desktop_app.core.store import backups, library_marker


def _cli(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, "-m", "desktop_app", "--library", str(folder), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def _gone(folder: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        (folder / f"library.sqlite{suffix}").unlink(missing_ok=True)


@pytest.fixture
def backed_up(library_dir: Path, seed_paths: list[Path]) -> Path:
    with Library.open(library_dir) as lib:
        lib.imports.from_files(seed_paths)
        lib.backups.make("manual")
    marker = json.loads((library_dir / library_marker.MARKER).read_text("utf-8"))
    con = sqlite3.connect(library_dir / "library.sqlite")
    assert con.execute("PRAGMA application_id").fetchone()[0] == marker["id"] != 0
    con.close()
    return library_dir


def test_a_deleted_database_is_refused_and_restored(backed_up: Path) -> None:
    _gone(backed_up)
    with pytest.raises(LibraryDamaged, match=r"is missing.*marginalia restore 1.*Nothing was changed"):
        Library.open(backed_up)
    assert not (backed_up / "library.sqlite").exists()  # no empty library in its place
    out = _cli(backed_up, "list")
    assert out.returncode != 0 and "is missing" in out.stderr and "Traceback" not in out.stderr
    assert not (backed_up / "library.sqlite").exists()
    assert _cli(backed_up, "restore", "1").returncode == 0
    with Library.open(backed_up) as lib:
        assert lib.papers.count() == 76


def test_an_empty_or_foreign_database_is_refused(backed_up: Path, tmp_path: Path) -> None:
    _gone(backed_up)
    (backed_up / "library.sqlite").write_bytes(b"")
    with pytest.raises(LibraryDamaged, match=r"is empty \(0 bytes\)"):
        Library.open(backed_up)
    assert (backed_up / "library.sqlite").stat().st_size == 0
    other = tmp_path / "other"
    Library.open(other).close()
    shutil.copy(other / "library.sqlite", backed_up / "library.sqlite")
    with pytest.raises(LibraryDamaged, match="another library's database"):
        Library.open(backed_up)


def test_a_new_folder_and_an_older_library_get_a_marker(library_dir: Path) -> None:
    Library.open(library_dir).close()
    assert (library_dir / library_marker.MARKER).exists()
    (library_dir / library_marker.MARKER).unlink()  # a library made before markers
    con = sqlite3.connect(library_dir / "library.sqlite")
    con.execute("PRAGMA application_id = 0")
    con.commit()
    con.close()
    with Library.open(library_dir) as lib:
        assert lib.papers.count() == 0
    assert json.loads((library_dir / library_marker.MARKER).read_text("utf-8"))["id"]
    # removing the marker is the way to start anew on purpose
    (library_dir / library_marker.MARKER).unlink()
    _gone(library_dir)
    Library.open(library_dir).close()
    assert (library_dir / "library.sqlite").exists()


def test_rotation_keeps_the_newest_sound_backup(backed_up: Path) -> None:
    bdir = backed_up / "backups"
    good = sorted(bdir.glob("library-*.sqlite"))[-1]
    # the same day, later: a backup of an emptied library; the day's bucket keeps only the newest
    empty_db = backed_up.parent / "empty"
    Library.open(empty_db).close()
    later = datetime.now() + timedelta(minutes=5)
    empty_backup = backups.make_backup(empty_db / "library.sqlite", bdir, "periodic", now=later)
    gone = backups.rotate(bdir, now=later, keep_at_most=1)
    assert good.exists() and good not in gone
    assert empty_backup.exists()
