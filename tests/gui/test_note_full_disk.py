"""A note that cannot be stored (a full disk) is never lost and never called saved: the editor keeps the text and says why, its draft goes elsewhere when the library's
folder cannot take it, switching papers keeps it, and it is stored once there is room."""

from __future__ import annotations

import shutil
from pathlib import Path

from desktop_app.core.errors import DiskFull
from desktop_app.gui.note_editor import fallback_drafts, recover_drafts


def _full(win, monkeypatch) -> list[str]:
    """Every note write fails as the store fails on a full disk; returns the calls seen."""
    calls: list[str] = []

    def refuse(pid, text, **kw):
        calls.append(text)
        raise DiskFull(f"no space left on {win.library.folder}")

    monkeypatch.setattr(win.library.notes, "set", refuse)
    return calls


def test_a_note_on_a_full_disk_stays_and_is_stored_later(make_window, seeded_dir: Path, qtbot, monkeypatch) -> None:
    win = make_window(seeded_dir)
    win.elsewhere_timer.stop()
    notes = win.reader.notes
    first = win.current_id()
    real_set = win.library.notes.set
    calls = _full(win, monkeypatch)
    # the library's drafts folder cannot be written either (it is on the full disk)
    drafts = seeded_dir / "drafts"
    shutil.rmtree(drafts, ignore_errors=True)
    drafts.write_text("not a folder", "utf-8")
    qtbot.keyClicks(notes.edit, "typed while the disk was full")
    assert not notes.flush()
    assert calls and notes.state.text() != "saved"
    assert "not saved: no space left" in notes.state.text()
    fallback = fallback_drafts(drafts) / f"{first}.md"
    assert fallback.read_text("utf-8") == "typed while the disk was full"  # a draft elsewhere

    win.select_row(5)  # another paper: the text is kept, not dropped
    qtbot.waitUntil(lambda: notes.paper_id() != first, timeout=3000)
    assert first in notes.pending
    assert win.library.notes.text(first) == ""  # nothing was stored
    win.select_paper(first)  # back: the typed text is shown again, still to save
    qtbot.waitUntil(lambda: notes.paper_id() == first, timeout=3000)
    assert notes.edit.toPlainText() == "typed while the disk was full"
    assert "not saved" in notes.state.text()

    monkeypatch.setattr(win.library.notes, "set", real_set)  # room again
    assert notes.flush() and notes.state.text() == "saved"
    assert win.library.notes.text(first) == "typed while the disk was full"
    assert not fallback.exists()


def test_a_kept_note_is_retried_after_its_paper_was_left(make_window, seeded_dir: Path, qtbot, monkeypatch) -> None:
    win = make_window(seeded_dir)
    win.elsewhere_timer.stop()
    notes = win.reader.notes
    first = win.current_id()
    real_set = win.library.notes.set
    _full(win, monkeypatch)
    qtbot.keyClicks(notes.edit, "left behind on a full disk")
    win.select_row(7)
    qtbot.waitUntil(lambda: notes.paper_id() != first, timeout=3000)
    assert first in notes.pending and notes.retry_timer.isActive()
    monkeypatch.setattr(win.library.notes, "set", real_set)
    qtbot.waitUntil(lambda: not notes.pending, timeout=15000)  # the retry timer stores it
    assert win.library.notes.text(first) == "left behind on a full disk"


def test_drafts_in_the_fallback_folder_are_recovered(tmp_path: Path) -> None:
    folder = tmp_path / "drafts"
    spare = fallback_drafts(folder)
    spare.mkdir(parents=True, exist_ok=True)
    (spare / "12.md").write_text("from the spare folder", "utf-8")
    stored: dict[int, str] = {}
    assert recover_drafts(folder, lambda pid, text: stored.__setitem__(pid, text)) == [12]
    assert stored == {12: "from the spare folder"} and not (spare / "12.md").exists()

    (spare / "13.md").write_text("still no room", "utf-8")

    def full(pid: int, text: str) -> None:
        raise DiskFull("no space left")

    assert recover_drafts(folder, full) == []
    assert (spare / "13.md").exists()  # kept for the next start, not taken for an orphan
    shutil.rmtree(spare)
