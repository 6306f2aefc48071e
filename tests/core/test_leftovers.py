"""Files a killed command left in the library folder are removed (by the window after its
first paint, by ``check``) and named by ``check``; a living process's files (touched lately) are left alone."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from desktop_app.core import leftovers
from desktop_app.core.library import Library


def _old(path: Path, age: float = leftovers.STALE_SECONDS + 60) -> Path:
    when = time.time() - age
    for p in [path, *(path.rglob("*") if path.is_dir() else [])]:
        os.utime(p, (when, when))
    return path


def _leave(folder: Path) -> dict[str, Path]:
    (folder / "files" / "7").mkdir(parents=True)
    part = folder / "files" / "7" / ".attach-0123456789ab.tmp"
    part.write_bytes(b"x" * 300_000)  # a partial copy of a big PDF
    new = folder / "index.new"
    new.mkdir()
    (new / "_MAIN_1.toc").write_bytes(b"half an index")
    (folder / "backups").mkdir(exist_ok=True)
    backup = folder / "backups" / "library-20261201-manual.sqlite.part"
    backup.write_bytes(b"half a backup")
    restoring = folder / "library.sqlite.restoring"
    restoring.write_bytes(b"half a restore")
    return {"part": part, "new": new, "backup": backup, "restoring": restoring}


def test_a_killed_commands_files_go_when_cleaned(library_dir: Path) -> None:
    Library.open(library_dir).close()
    left = _leave(library_dir)
    for p in left.values():
        _old(p)
    fresh = library_dir / "files" / "7" / ".attach-fresh0000000.tmp"  # another process copies now
    fresh.write_bytes(b"being written")
    with Library.open(library_dir) as lib:
        removed = {item.path for item in lib.clean_leftovers()}
        assert removed == set(left.values())
        assert not any(p.exists() for p in left.values())
        assert fresh.exists()  # touched lately: a living process's
        assert lib.integrity_check() == []
    assert (library_dir / "library.sqlite").exists()


def test_check_names_what_it_removed(library_dir: Path) -> None:
    Library.open(library_dir).close()
    left = _leave(library_dir)
    for p in left.values():
        _old(p)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run(
        [sys.executable, "-m", "desktop_app", "--library", str(library_dir), "check"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    lines = [ln for ln in out.stdout.splitlines() if ln.startswith("removed ")]
    assert len(lines) == 4, out.stdout
    assert any(".attach-0123456789ab.tmp: a partial attachment copy" in ln and "0.3 MB" in ln for ln in lines)
    assert any("index.new: an index rebuild" in ln for ln in lines)


def test_a_leftover_that_stays_is_reported_by_check(library_dir: Path) -> None:
    with Library.open(library_dir) as lib:
        stuck = library_dir / "index.new"  # left while this library is open (so not cleaned)
        stuck.mkdir()
        (stuck / "seg").write_bytes(b"x")
        assert lib.integrity_check() == []  # touched lately: maybe a living rebuild
        _old(stuck)
        assert lib.integrity_check() == [
            "left behind: index.new: an index rebuild left by a command that did not finish (1 bytes)"
        ]


def test_a_killed_vocabulary_write_goes_too(library_dir: Path) -> None:
    Library.open(library_dir).close()
    half = library_dir / "index" / ".voc-abc123.npz"  # the search vocabulary being saved
    half.write_bytes(b"half a vocabulary")
    _old(half)
    with Library.open(library_dir) as lib:
        assert {item.path for item in lib.clean_leftovers()} == {half}
        assert not half.exists()
