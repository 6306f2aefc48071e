"""The window and backups: a damaged library is offered its newest backup at open (Restore /
Quit); the automatic backup runs in a worker thread after the window is shown."""

from __future__ import annotations

import shutil
import threading
from datetime import datetime
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from desktop_app.core.errors import LibraryDamaged
from desktop_app.core.library import Library
from desktop_app.core.store import backups
from tests.helpers.backups import damage


def _notes(folder: Path, n: int) -> None:
    with Library.open(folder) as lib:
        for pid in lib.query("").ids[:n]:
            lib.notes.set(pid, f"note {pid} " * 60)


def _answer(monkeypatch: pytest.MonkeyPatch, button: QMessageBox.StandardButton) -> list[str]:
    asked: list[str] = []

    def exec_(box: QMessageBox) -> int:
        asked.append(box.text())
        return button.value

    monkeypatch.setattr(QMessageBox, "exec", exec_)
    for name in ("critical", "warning"):
        monkeypatch.setattr(QMessageBox, name, lambda *a, **k: asked.append(a[2]))
    return asked


def _damaged(seeded_dir: Path) -> Path:
    _notes(seeded_dir, 25)
    good = backups.make_backup(
        seeded_dir / "library.sqlite", seeded_dir / "backups", "auto", now=datetime(2026, 11, 2, 9, 15)
    )
    damage(seeded_dir / "library.sqlite", pages=8)
    return good


@pytest.mark.parametrize("index_lost", [False, True])
def test_a_damaged_library_is_offered_its_backup_and_opens_restored(
    seeded_dir: Path, monkeypatch: pytest.MonkeyPatch, qtbot, index_lost: bool
) -> None:
    """Building the window may read the bad pages (then the question comes before any window),
    or not (then the table, the index rebuild or the check after the first paint finds them and
    the window is replaced). Either way: one question, no traceback dialog."""
    from desktop_app.gui.launch import close_window, current_window, open_main_window

    good = _damaged(seeded_dir)
    if index_lost:  # the index rebuild reads every paper: it meets the bad pages
        shutil.rmtree(seeded_dir / "index")
    damaged_bytes = (seeded_dir / "library.sqlite").read_bytes()
    asked = _answer(monkeypatch, QMessageBox.StandardButton.Ok)  # "Restore"

    first = open_main_window(seeded_dir)
    qtbot.waitUntil(lambda: len(list(seeded_dir.glob("library-damaged-*.sqlite"))) == 1, timeout=30000)
    qtbot.waitUntil(
        lambda: current_window(first).isVisible() and current_window(first).files.index_ready, timeout=60000
    )
    win = current_window(first)
    try:
        assert asked == ["The library is damaged. Restore the backup of 2026-11-02 09:15 (76 papers, 25 notes)?"]
        assert win.library.papers.count() == 76
        win.refresh_query()
        assert win.model.rowCount() == 76
        assert sum(bool(win.library.papers.get(p).note) for p in win.library.query("").ids) == 25
        assert win.library.integrity_check() == []
        [kept] = seeded_dir.glob("library-damaged-*.sqlite")
        assert backups.integrity_problem(kept) is not None  # the damaged file, kept aside
        if not index_lost:  # (the rebuild's first write empties index_queue: a WAL frame, checkpointed at close)
            assert kept.read_bytes() == damaged_bytes
        assert good.is_file()
    finally:
        close_window(win)


def test_the_check_after_the_first_paint_finds_damage_the_window_did_not_read(
    make_window, seeded_dir: Path, monkeypatch: pytest.MonkeyPatch, qtbot
) -> None:
    from desktop_app.gui.launch import close_window, current_window

    _notes(seeded_dir, 25)
    good = backups.make_backup(
        seeded_dir / "library.sqlite", seeded_dir / "backups", "auto", now=datetime(2026, 11, 2, 9, 15)
    )
    asked = _answer(monkeypatch, QMessageBox.StandardButton.Ok)
    win = make_window(seeded_dir)
    qtbot.waitUntil(lambda: win.files.backup_job is not None and win.files.backup_job.isFinished(), timeout=30000)
    assert asked == []  # sound: nothing asked, and the due automatic backup was made
    newest = backups.list_backups(seeded_dir / "backups")[0]
    assert newest.reason == "auto" and newest.path != good
    win.files.damaged.emit("database disk image is malformed")  # as the worker does on damage
    new = current_window(win)
    assert new is not win and new.isVisible() and not win.isVisible()
    assert asked == [f"The library is damaged. Restore the backup of {newest.describe()}?"]
    assert len(list(seeded_dir.glob("library-damaged-*.sqlite"))) == 1 and good.is_file()
    qtbot.waitUntil(lambda: new.files.index_ready, timeout=60000)
    assert new.library.papers.count() == 76
    close_window(new)


def test_quit_leaves_the_damaged_library_as_it_is(seeded_dir: Path, monkeypatch: pytest.MonkeyPatch, qtbot) -> None:
    from desktop_app.gui.launch import close_window, open_main_window

    good = _damaged(seeded_dir)
    asked = _answer(monkeypatch, QMessageBox.StandardButton.Cancel)  # "Quit"
    try:
        win = open_main_window(seeded_dir)
    except LibraryDamaged as exc:  # found while building the window
        assert "marginalia restore" in str(exc)
    else:  # found after the first paint: the window closes
        qtbot.waitUntil(lambda: bool(asked) and not win.isVisible(), timeout=30000)
        close_window(win)
    assert len(asked) == 1 and asked[0].startswith("The library is damaged. Restore the backup of")
    assert backups.integrity_problem(seeded_dir / "library.sqlite") is not None  # left as it was
    assert not list(seeded_dir.glob("library-damaged-*"))
    assert [b.path for b in backups.list_backups(seeded_dir / "backups")] == [good]  # no damaged backup


def test_the_automatic_backup_runs_in_a_worker_after_the_window_shows(
    make_window, seeded_dir: Path, monkeypatch: pytest.MonkeyPatch, qtbot
) -> None:
    threads: list[threading.Thread] = []
    real = backups.make_backup

    def recording(*args, **kwargs):
        threads.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(backups, "make_backup", recording)
    win = make_window(seeded_dir)
    assert win.isVisible()
    qtbot.waitUntil(lambda: any((seeded_dir / "backups").glob("library-*-auto.sqlite")), timeout=30000)
    qtbot.waitUntil(lambda: win.files.backup_job is not None and win.files.backup_job.isFinished(), timeout=30000)
    assert threads and all(t is not threading.main_thread() for t in threads)
    [made] = backups.list_backups(seeded_dir / "backups")
    assert (made.papers, made.reason) == (76, "auto") and backups.integrity_problem(made.path) is None

    # opened again within the day: no second backup
    make_window.close(win)
    win = make_window(seeded_dir)
    qtbot.wait(1500)
    assert len(backups.list_backups(seeded_dir / "backups")) == 1
