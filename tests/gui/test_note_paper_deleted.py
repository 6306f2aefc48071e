"""A paper deleted elsewhere while its note is being typed keeps the typing:
the editor says so, with "Restore it", "Keep as a new paper" and "Save note to a file…"; the
draft is never dropped."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QFileDialog

from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from tests.helpers.shared import ROOT


def delete_in_another_process(where: str, pid: int) -> None:
    """Another program deletes the paper (moves it to the trash) through its own Library."""
    code = (
        "import sys\nfrom desktop_app.core.library import Library\n"
        "with Library.open(sys.argv[1], ensure_index=False) as lib:\n    lib.papers.delete([int(sys.argv[2])])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, where, str(pid)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


def test_typing_over_a_paper_deleted_by_another_process_is_kept_and_restored(
    make_window, seeded_dir: Path, qtbot
) -> None:
    win = make_window(seeded_dir)
    win.elsewhere_timer.stop()
    notes = win.reader.notes
    pid = win.current_id()
    qtbot.keyClicks(notes.edit, "typed while the CLI deleted the paper")
    delete_in_another_process(str(seeded_dir), pid)
    assert not notes.flush()
    banner = notes.deleted_banner
    assert banner.isVisible() and banner.paper_id == pid
    assert banner.label.text() == "This paper was deleted elsewhere —"
    assert banner.restore_button.isEnabled()
    assert notes.edit.toPlainText() == "typed while the CLI deleted the paper"
    assert "not saved: this paper was deleted elsewhere" in notes.state.text()
    draft = seeded_dir / "drafts" / f"{pid}.md"
    assert draft.read_text("utf-8") == "typed while the CLI deleted the paper"
    qtbot.mouseClick(banner.restore_button, Qt.MouseButton.LeftButton)
    assert not banner.isVisible() and notes.state.text() == "saved"
    assert not draft.exists()
    with Library.open(seeded_dir, ensure_index=False) as other:
        assert other.papers.get(pid).note == "typed while the CLI deleted the paper"
        assert pid not in other.trash.ids()


def test_a_note_kept_as_a_new_paper_copies_the_deleted_one_and_undoes(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.elsewhere_timer.stop()
    notes = win.reader.notes
    pid = win.current_id()
    title = win.library.papers.get(pid).title
    qtbot.keyClicks(notes.edit, "my reading of it")
    delete_in_another_process(str(seeded_dir), pid)
    assert not notes.flush()
    banner = notes.deleted_banner
    assert banner.isVisible() and banner.new_paper_button.isEnabled()
    qtbot.mouseClick(banner.new_paper_button, Qt.MouseButton.LeftButton)
    assert not banner.isVisible() and notes.state.text() == "kept on a new paper"
    assert not (seeded_dir / "drafts" / f"{pid}.md").exists()
    assert "kept on a new paper" in win.statusBar().currentMessage()
    with Library.open(seeded_dir, ensure_index=False) as other:
        kept = [v for v in (other.papers.get(i) for i in other.query("").ids) if v.note == "my reading of it"]
        assert [v.title for v in kept] == [title] and kept[0].id != pid
        assert pid in other.trash.ids()  # the deleted paper stays deleted
    new_id = kept[0].id
    win.undo_stack.undo()  # the new paper goes to the trash, note and all
    with Library.open(seeded_dir, ensure_index=False) as other:
        assert new_id in other.trash.ids()
        assert other.papers.get(new_id, trashed=True).note == "my reading of it"


def test_a_note_left_for_another_paper_keeps_the_banner_and_saves_to_a_file(
    make_window, seeded_dir: Path, qtbot, tmp_path: Path, monkeypatch
) -> None:
    win = make_window(seeded_dir)
    win.elsewhere_timer.stop()
    notes = win.reader.notes
    pid = win.current_id()
    qtbot.keyClicks(notes.edit, "a thought worth keeping")
    with Library.open(seeded_dir, ensure_index=False) as other:  # another window's Library
        other.papers.delete([pid])
        other.trash.purge([pid])  # deleted for good: nothing to restore
    win.select_row(4)  # the window moves on: the typing stays, pending, with its draft
    qtbot.waitUntil(lambda: notes.paper_id() != pid, timeout=3000)
    banner = notes.deleted_banner
    assert banner.isVisible() and banner.paper_id == pid
    assert banner.label.text() == "The paper of a note you were writing was deleted elsewhere —"
    assert not banner.restore_button.isEnabled()
    assert notes.pending[pid][0] == "a thought worth keeping"
    assert (seeded_dir / "drafts" / f"{pid}.md").read_text("utf-8") == "a thought worth keeping"
    target = tmp_path / "kept.md"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    qtbot.mouseClick(banner.file_button, Qt.MouseButton.LeftButton)
    assert target.read_text("utf-8") == "a thought worth keeping"
    assert str(target) in notes.state.text()
    assert (seeded_dir / "drafts" / f"{pid}.md").exists()  # never dropped


@pytest.mark.postgresql
def test_another_desk_deleting_the_paper_keeps_the_typing(qtbot, settings: QSettings, pg_url: str) -> None:
    from desktop_app.gui.launch import close_window, open_shared_window

    with Library.open(pg_url) as lib:
        lib.imports.from_records(
            [
                (
                    "t.bib",
                    ParseResult(
                        "bibtex",
                        [
                            Record(
                                title="Scaling RL with Verifiable Rewards",
                                abstract="Reinforcement learning.",
                                year=2026,
                            ),
                            Record(title="Diffusion for Graphs", abstract="A diffusion model over graphs.", year=2025),
                        ],
                    ),
                )
            ]
        )
    win = open_shared_window(pg_url, settings)
    qtbot.addWidget(win)
    try:
        qtbot.waitUntil(lambda: win.files.index_ready, timeout=60000)
        win.elsewhere_timer.stop()
        notes = win.reader.notes
        pid = win.current_id()
        qtbot.keyClicks(notes.edit, "typed at this desk")
        delete_in_another_process(pg_url, pid)
        # the listener brings the delete: the list refreshes, the typing is kept with the banner
        qtbot.waitUntil(lambda: notes.deleted_banner.isVisible(), timeout=10000)
        assert notes.kept_text(pid) == "typed at this desk"
        assert (win.library.folder / "drafts" / f"{pid}.md").read_text("utf-8") == "typed at this desk"
        qtbot.mouseClick(notes.deleted_banner.restore_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not notes.deleted_banner.isVisible(), timeout=5000)
        assert win.library.notes.text(pid) == "typed at this desk"
        assert win.library.trash.holds(pid) is False
    finally:
        close_window(win)
