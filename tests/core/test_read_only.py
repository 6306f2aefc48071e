"""A library that may not be written, and a disk that is full: reads work, writes fail with one
line (LibraryReadOnly, DiskFull), and nothing half-written is left behind.

The tests run as root on CI machines too, where ``chmod`` does not stop writes; read-only is
then simulated with SQLite's own read-only open (``Library.open(read_only=True)``, which is what
detection chooses), and the chmod test skips with the reason. The full disk is SQLite's own
"database or disk is full", caused with ``PRAGMA max_page_count``."""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import stat
from pathlib import Path

import pytest
from sqlalchemy import event

from desktop_app.core.errors import DiskFull, LibraryReadOnly
from desktop_app.core.library import Library
from desktop_app.core.search.errors import QuerySyntaxError
from tests.helpers.library import find_paper

NOTE_WORDS = "shrinkage issue of RLVR"


def _digest(folder: Path) -> str:
    return hashlib.sha256((folder / "library.sqlite").read_bytes()).hexdigest()


@pytest.fixture
def closed_library(seed_library: Library) -> Path:
    """The seed library, with a note, closed cleanly (no -wal, no -shm left)."""
    pid = find_paper(seed_library, NOTE_WORDS)
    seed_library.notes.set(pid, "kept while read-only")
    seed_library.close()
    folder = seed_library.folder
    assert not (folder / "library.sqlite-wal").exists()
    return folder


def _check_reads(lib: Library, tmp_path: Path) -> None:
    from desktop_app.exporting import export_to_file

    assert lib.read_only
    assert lib.papers.count() == 76
    assert lib.query("", sort="title").total == 76
    pid = find_paper(lib, NOTE_WORDS)
    assert lib.papers.get(pid).note == "kept while read-only"
    assert pid in lib.query("RLVR").ids  # the index is there: text search works
    out = tmp_path / "export.bib"
    assert export_to_file(lib, "bib", out) == 76
    assert out.read_text("utf-8").count("@") >= 76


def _check_writes_refused(lib: Library) -> None:
    pid = lib.query("").ids[0]
    for write in (
        lambda: lib.tags.add([pid], "x"),
        lambda: lib.notes.set(pid, "lost?"),
        lambda: lib.papers.set_status([pid], "read"),
        lambda: lib.lists.create("new", ""),
        lib.reindex,
    ):
        with pytest.raises(LibraryReadOnly, match="^the library is read-only"):
            write()


def test_read_only_open_reads_and_refuses_writes(closed_library: Path, tmp_path: Path) -> None:
    before = _digest(closed_library)
    with Library.open(closed_library, read_only=True) as lib:
        _check_reads(lib, tmp_path)
        _check_writes_refused(lib)
    assert _digest(closed_library) == before
    with Library.open(closed_library) as lib:  # writable again: everything as it was
        assert not lib.read_only
        assert lib.papers.count() == 76
        lib.tags.add(lib.query("").ids[:1], "x")


def test_not_writable_is_detected(closed_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Detection asks the OS whether the folder and the file may be written (os.access)."""
    real = os.access

    def access(path: object, mode: int, *a: object, **k: object) -> bool:
        if mode & os.W_OK and Path(str(path)) == closed_library / "library.sqlite":
            return False
        return real(path, mode, *a, **k)

    monkeypatch.setattr(os, "access", access)
    with Library.open(closed_library) as lib:
        _check_reads(lib, tmp_path)
        _check_writes_refused(lib)


def test_chmod_read_only_folder(closed_library: Path, tmp_path: Path) -> None:
    """A folder and file made read-only with chmod (skipped as root, where chmod stops nothing)."""
    ro = stat.S_IRUSR | stat.S_IXUSR
    probe = tmp_path / "probe"
    probe.mkdir()
    probe.chmod(ro)
    chmod_stops_writes = False
    try:
        (probe / "x").touch()
    except PermissionError:
        chmod_stops_writes = True
    if not chmod_stops_writes:  # root (CAP_DAC_OVERRIDE): chmod stops nothing
        probe.chmod(stat.S_IRWXU)
        print(
            "skipped: this user (root) may write to a read-only folder; "
            "test_read_only_open_reads_and_refuses_writes covers the read-only open"
        )
        pytest.skip("chmod does not stop this user (root) from writing")
    for p in (closed_library, closed_library / "index"):
        for child in p.iterdir():
            if child.is_file():
                child.chmod(stat.S_IRUSR)
    (closed_library / "index").chmod(ro)
    closed_library.chmod(ro)
    try:
        before = _digest(closed_library)
        with Library.open(closed_library) as lib:
            _check_reads(lib, tmp_path)
            _check_writes_refused(lib)
        assert _digest(closed_library) == before
        assert not (closed_library / "library.sqlite-shm").exists()  # opened immutable: nothing made
    finally:
        closed_library.chmod(stat.S_IRWXU)
        (closed_library / "index").chmod(stat.S_IRWXU)


def test_read_only_without_index(closed_library: Path) -> None:
    shutil.rmtree(closed_library / "index")
    with Library.open(closed_library, read_only=True) as lib:
        assert lib.query("", status="unread").total == 76  # listing needs no index
        with pytest.raises(QuerySyntaxError, match="read-only, so it cannot be rebuilt"):
            lib.query("RLVR")
    assert not (closed_library / "index").exists()


def test_read_only_folder_without_a_library(tmp_path: Path) -> None:
    with pytest.raises(LibraryReadOnly, match="holds no Marginalia library"):
        Library.open(tmp_path / "nothing", read_only=True)
    assert not (tmp_path / "nothing").exists()


def _limit_pages(lib: Library, extra_pages: int) -> None:
    """From now on, the database may grow by ``extra_pages`` pages only (SQLite's own limit)."""
    with lib.store.read() as conn:
        pages = conn.exec_driver_sql("PRAGMA page_count").scalar_one()
    lib.store.engine.dispose()  # pooled connections get the limit as they are made again

    @event.listens_for(lib.store.engine, "connect")
    def _limit(dbapi_conn, _record) -> None:
        dbapi_conn.execute(f"PRAGMA max_page_count = {pages + extra_pages}")


def test_full_disk_rolls_back_with_one_line(seed_library: Library, tmp_path: Path) -> None:
    lib = seed_library
    big = tmp_path / "big.bib"
    big.write_text(
        "".join(
            f"@article{{k{i},\n  title = {{Paper number {i}}},\n  author = {{Doe, Jane}},\n  year = {{2024}},\n"
            f"  abstract = {{{'words of an abstract ' * 100}{i}}}\n}}\n\n"
            for i in range(300)
        ),
        "utf-8",
    )
    count = lib.papers.count()
    pid = find_paper(lib, NOTE_WORDS)
    lib.notes.set(pid, "written before the disk filled")
    batches = len(lib.imports.batches())
    _limit_pages(lib, 2)
    with pytest.raises(DiskFull, match=f"^no space left on {lib.folder}"):
        lib.notes.set(pid, "x" * 200_000)  # needs about 50 pages
    with pytest.raises(DiskFull, match="^no space left on"):
        lib.imports.from_files([big])  # 300 papers, 600 KB
    with pytest.raises(DiskFull):
        lib.highlights.add_quote(pid, "RLVR", comment="y" * 100_000)
    # nothing half-written: the note, its revisions, the batches and the index queue as before
    assert lib.papers.get(pid).note == "written before the disk filled"
    assert len(lib.imports.batches()) == batches
    assert lib.index.pending() == 0
    assert lib.papers.count() == count
    assert lib.integrity_check() == []


def test_no_space_from_the_os_is_one_line(seed_library: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop_app.core.search.index import SearchIndex

    def full(*_a: object, **_k: object) -> bool:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(seed_library.folder / "index.new"))

    monkeypatch.setattr(SearchIndex, "rebuild", full)
    with pytest.raises(DiskFull, match=f"^no space left on {seed_library.folder}"):
        seed_library.reindex()


def test_read_only_library_of_an_older_schema_is_left_untouched(tmp_path: Path) -> None:
    from desktop_app.core.store import migrate as db

    folder = tmp_path / "old"
    folder.mkdir()
    db.migrate(folder / "library.sqlite", folder / "backups", "0001")
    before = _digest(folder)
    with pytest.raises(LibraryReadOnly, match="written by an older Marginalia"):
        Library.open(folder, read_only=True)
    assert _digest(folder) == before
    assert not (folder / "backups").exists()
    assert db.current_revision(folder / "library.sqlite") == "0001"
