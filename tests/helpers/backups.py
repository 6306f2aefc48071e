"""Libraries for the backup tests: the seeds with notes, damaged pages, backups with chosen
dates."""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from datetime import datetime
from pathlib import Path

from desktop_app.core.library import Library
from desktop_app.core.store import backups
from tests.helpers.shared import SEEDS

PAGE = 4096


def damage(db: Path, pages: int = 4) -> None:
    """Write garbage over a few pages in the middle of a closed, checkpointed database."""
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    n = db.stat().st_size // page_size
    assert n > 2 * pages, n
    with open(db, "r+b") as f:
        for p in range(n // 2 - pages // 2, n // 2 - pages // 2 + pages):
            f.seek(p * page_size)
            f.write(bytes((i * 151 + p) % 256 for i in range(page_size)))
    assert backups.integrity_problem(db) is not None  # really damaged


_TEMPLATE: dict[int, Path] = {}


def make_library(folder: Path, notes: int = 30) -> tuple[int, int]:
    """The 76 seed papers with ``notes`` notes (built once per note count, then copied)."""
    if notes not in _TEMPLATE:
        template = Path(tempfile.mkdtemp(prefix="marginalia-backup-template-")) / "library"
        with Library.open(template) as lib:
            assert lib.imports.from_files(SEEDS).added == 76
            for pid in lib.query("").ids[:notes]:
                lib.notes.set(pid, f"my note on {pid} " * 40)
        _TEMPLATE[notes] = template
    shutil.copytree(_TEMPLATE[notes], folder)
    return 76, notes


def fake_backup(backups_dir: Path, when: datetime, reason: str) -> Path:
    p = backups_dir / f"library-{when:%Y%m%d-%H%M%S-%f}-{reason}.sqlite"
    p.write_bytes(b"")
    return p


def damaged_with_backup(library_dir: Path) -> tuple[Path, int, int]:
    papers, notes = make_library(library_dir)
    good = backups.make_backup(
        library_dir / "library.sqlite", library_dir / "backups", "auto", now=datetime(2026, 11, 1, 8, 30)
    )
    with Library.open(library_dir) as lib:  # written after the backup: lost with the damage
        lib.notes.set(lib.query("").ids[-1], "after the backup")
    damage(library_dir / "library.sqlite")
    return good, papers, notes
