"""An export onto a full disk or into a read-only folder: the old file stays, no temporary file
is left, the user reads one line saying why (CLI: exit 1), and nothing claims success.

A full disk is simulated portably by making the write fail as a full disk makes it fail: a short
write, then ``OSError(ENOSPC)``; or every write accepted and the fsync failing (delayed
allocation); or a file system that silently keeps fewer bytes than it accepted."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_app import cli
from desktop_app.core.errors import ExportFailed
from desktop_app.core.formats import atomic
from desktop_app.core.library import Library
from desktop_app.exporting import export_to_file
from tests.helpers.full_disk import OLD, full_disk_on_fsync, full_disk_on_write
from tests.helpers.shared import ROOT, SEEDS

TEXT_FORMATS = ("md", "html", "bib", "ris", "csljson", "csv", "json")


def silent_truncation(monkeypatch: pytest.MonkeyPatch) -> None:
    """The write claims every byte but only half reach the file (a broken network share)."""
    real_write = os.write

    def write(fd: int, data) -> int:
        real_write(fd, bytes(data[: len(data) // 2]))
        return len(data)

    monkeypatch.setattr(atomic.os, "write", write)


def _others(folder: Path, keep: str) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name != keep)


@pytest.fixture
def small_library(tmp_path: Path):
    lib = Library.open(tmp_path / "library")
    lib.imports.from_files(SEEDS[:1])
    yield lib
    lib.close()


@pytest.mark.shared
@pytest.mark.parametrize("fmt", TEXT_FORMATS)
@pytest.mark.parametrize("failure", [full_disk_on_write, full_disk_on_fsync])
def test_a_full_disk_keeps_the_old_export(small_library: Library, tmp_path: Path, monkeypatch, fmt, failure) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    out = folder / f"papers.{fmt}"
    out.write_bytes(OLD)
    failure(monkeypatch)
    with pytest.raises(ExportFailed) as caught:
        export_to_file(small_library, fmt, out)
    message = str(caught.value)
    assert f"no space left on {folder}" in message and "the old file is unchanged" in message, message
    assert "\n" not in message
    assert out.read_bytes() == OLD
    assert _others(folder, out.name) == []


@pytest.mark.shared
@pytest.mark.parametrize("fmt", TEXT_FORMATS)
def test_a_full_disk_leaves_no_partial_new_file(small_library: Library, tmp_path: Path, monkeypatch, fmt) -> None:
    full_disk_on_write(monkeypatch)
    out = tmp_path / f"new.{fmt}"
    with pytest.raises(ExportFailed, match="no file was written"):
        export_to_file(small_library, fmt, out)
    assert not out.exists()
    assert _others(tmp_path, "library") == []


@pytest.mark.shared
def test_a_silently_truncated_write_is_caught(small_library: Library, tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "papers.bib"
    out.write_bytes(OLD)
    silent_truncation(monkeypatch)
    with pytest.raises(ExportFailed, match="incomplete"):
        export_to_file(small_library, "bib", out)
    assert out.read_bytes() == OLD
    assert _others(tmp_path, "papers.bib") == ["library"]


@pytest.mark.shared
def test_after_the_disk_has_room_again_the_export_is_written(
    small_library: Library, tmp_path: Path, monkeypatch
) -> None:
    out = tmp_path / "papers.ris"
    out.write_bytes(OLD)
    with monkeypatch.context() as m:
        full_disk_on_fsync(m)
        with pytest.raises(ExportFailed):
            export_to_file(small_library, "ris", out)
    n = small_library.papers.count()
    assert n > 0 and export_to_file(small_library, "ris", out) == n
    assert out.read_bytes() != OLD and out.read_text("utf-8").count("ER  -") == n


def test_the_cli_says_one_line_and_exits_1(small_library: Library, tmp_path: Path, monkeypatch, capsys) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    out = folder / "papers.md"
    out.write_bytes(OLD)
    full_disk_on_write(monkeypatch)
    code = cli.main(["--library", str(tmp_path / "library"), "export", "--format", "md", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 1
    assert err.strip().splitlines() == [
        f"marginalia: could not write {out}: no space left on {folder}; the old file is unchanged"
    ], err
    assert "written" not in err
    assert out.read_bytes() == OLD and _others(folder, "papers.md") == []


def test_messages_for_other_failures(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "x.csv"
    assert atomic.write_failure_message(OSError(errno.EROFS, "ro"), target) == (
        f"could not write {target}: {target.parent} is on a read-only file system; no file was written"
    )
    assert "no permission to write in" in atomic.write_failure_message(PermissionError(errno.EACCES, "x"), target)
    assert "the folder" in atomic.write_failure_message(FileNotFoundError(errno.ENOENT, "x"), target)
    assert "Input/output error" in atomic.write_failure_message(OSError(errno.EIO, "Input/output error"), target)


@pytest.mark.skipif(os.name != "posix" or not hasattr(os, "geteuid"), reason="POSIX permission bits")
def test_a_real_read_only_folder(tmp_path: Path) -> None:
    """``marginalia export`` into a folder without write permission, as a real subprocess.
    Permission bits do not bind root's capabilities, so as root the command runs without any
    (``setpriv --bounding-set=-all``): still the owner of the files, so it reads the checkout
    wherever it is (a clone in a ``mktemp -d`` folder is 0700), but the folder's r-x binds it."""
    as_root = os.geteuid() == 0
    if as_root and shutil.which("setpriv") is None:
        if os.environ.get("CI"):
            pytest.fail("running as root needs setpriv (util-linux) to drop the capabilities")
        pytest.skip("running as root without setpriv (util-linux): permission bits would not apply")
    base = tmp_path
    try:
        base.chmod(0o755)
        lib_dir = base / "library"
        lib = Library.open(lib_dir)
        lib.imports.from_files(SEEDS[:2])
        lib.close()
        folder = base / "read-only"
        folder.mkdir()
        out = folder / "papers.bib"
        out.write_bytes(OLD)
        out.chmod(0o644)
        folder.chmod(0o555)
        demote = ["setpriv", "--bounding-set=-all", "--inh-caps=-all"] if as_root else []
        env = {
            **os.environ,
            "QT_QPA_PLATFORM": "offscreen",
            "PYTHONPATH": str(ROOT),
            "HOME": str(base),
            "XDG_CONFIG_HOME": str(base / "config"),
            "XDG_DATA_HOME": str(base / "data"),
        }
        res = subprocess.run(
            [
                *demote,
                sys.executable,
                "-m",
                "desktop_app",
                "--library",
                str(lib_dir),
                "export",
                "--format",
                "bib",
                "-o",
                str(out),
            ],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=120,
        )
        assert res.returncode == 1, res.stderr
        assert res.stderr.strip().splitlines() == [
            f"marginalia: could not write {out}: no permission to write in {folder}; the old file is unchanged"
        ]
        assert out.read_bytes() == OLD and sorted(p.name for p in folder.iterdir()) == ["papers.bib"]
    finally:
        if (base / "read-only").exists():
            (base / "read-only").chmod(0o755)
