"""Merge tags from the sidebar: nothing chosen for the user, a preview of what changes, and
Ctrl+Z / Ctrl+Shift+Z undo and redo it exactly."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from desktop_app.core.library import Library
from desktop_app.gui.merge_tags import MergeTagsDialog, preview_text
from tests.helpers.keyboard import press_sequence


def _tagged(folder: Path) -> list[int]:
    with Library.open(folder) as lib:
        ids = lib.query("").ids
        lib.tags.add(ids[:12], ["rl"])
        lib.tags.add(ids[9:15], ["reinforcement-learning"])  # 9, 10, 11 get both
        lib.tags.add(ids[20:22], ["vision"])
        return ids


def test_preview_text() -> None:
    text = preview_text("rl", "reinforcement-learning", {"gaining": 9, "both": 3, "target_exists": True})
    assert text.startswith(
        "9 papers tagged 'rl' will be tagged 'reinforcement-learning'; 3 already have both; the tag 'rl' is removed."
    )
    new = preview_text("rl", "rlx", {"gaining": 1, "both": 0, "target_exists": False})
    assert "1 paper tagged 'rl' will be tagged 'rlx'" in new and "'rlx' is a new tag" in new


def test_the_dialog_chooses_nothing_and_previews(make_window, seeded_dir: Path, qtbot) -> None:
    _tagged(seeded_dir)
    win = make_window(seeded_dir)
    dlg = MergeTagsDialog(win.library, "rl", win)
    qtbot.addWidget(dlg)
    assert dlg.target() is None and not dlg.list.selectedItems()
    assert not dlg.merge_button.isEnabled()
    names = [dlg.list.item(r).text() for r in range(dlg.list.count())]
    assert not any(n.startswith("rl ") for n in names)  # not into itself
    qtbot.keyClicks(dlg.filter, "VIS")
    shown = [dlg.list.item(r).text() for r in range(dlg.list.count()) if not dlg.list.item(r).isHidden()]
    assert shown == ["vision  (2)"]
    dlg.filter.clear()
    dlg.choose("reinforcement-learning")
    assert dlg.merge_button.isEnabled()
    assert dlg.preview.text().startswith(
        "9 papers tagged 'rl' will be tagged 'reinforcement-learning'; 3 already have both; the tag 'rl' is removed."
    )
    assert [t.name for t in win.library.tags.all()].count("rl") == 1  # the preview changed nothing


def test_merge_from_the_sidebar_then_undo_and_redo_by_keyboard(make_window, seeded_dir: Path, qtbot) -> None:
    ids = _tagged(seeded_dir)
    win = make_window(seeded_dir)
    lib = win.library
    before = {pid: sorted(lib.papers.get(pid).tags) for pid in ids[:22]}

    def pick() -> None:
        dlg = QApplication.activeModalWidget()
        if not isinstance(dlg, MergeTagsDialog):
            QTimer.singleShot(20, pick)
            return
        assert dlg.target() is None
        dlg.choose("reinforcement-learning")
        dlg.merge_button.click()

    QTimer.singleShot(0, pick)
    win.sidebar.tagMenuAction.emit("merge", "rl")  # the sidebar's "Merge into…"
    merged = {pid: sorted(lib.papers.get(pid).tags) for pid in ids[:22]}
    assert all("rl" not in tags for tags in merged.values())
    assert all("reinforcement-learning" in merged[pid] for pid in ids[:15])
    assert win.undo_stack.undoText() == "Merge tag rl into reinforcement-learning"

    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=3000)
    win.table.setFocus()
    press_sequence(qtbot, win.table, "Ctrl+Z")
    assert {pid: sorted(lib.papers.get(pid).tags) for pid in ids[:22]} == before
    assert win.undo_stack.redoText() == "Merge tag rl into reinforcement-learning"
    assert "rl" in [t.name for t in lib.tags.all()]
    press_sequence(qtbot, win.table, "Ctrl+Shift+Z")
    assert {pid: sorted(lib.papers.get(pid).tags) for pid in ids[:22]} == merged
    assert win.undo_stack.canUndo() and not win.undo_stack.canRedo()


def test_cancel_changes_nothing(make_window, seeded_dir: Path) -> None:
    _tagged(seeded_dir)
    win = make_window(seeded_dir)

    def cancel() -> None:
        dlg = QApplication.activeModalWidget()
        if not isinstance(dlg, MergeTagsDialog):
            QTimer.singleShot(20, cancel)
            return
        dlg.reject()

    QTimer.singleShot(0, cancel)
    win.sidebar.tagMenuAction.emit("merge", "rl")
    assert "rl" in [t.name for t in win.library.tags.all()]
    assert win.undo_stack.count() == 0


def _merge_rl(win) -> None:
    def pick() -> None:
        dlg = QApplication.activeModalWidget()
        if not isinstance(dlg, MergeTagsDialog):
            QTimer.singleShot(20, pick)
            return
        dlg.choose("reinforcement-learning")
        dlg.merge_button.click()

    QTimer.singleShot(0, pick)
    win.sidebar.tagMenuAction.emit("merge", "rl")


def _answer_warning(seen: list[str]) -> None:
    from PySide6.QtWidgets import QMessageBox

    w = QApplication.activeModalWidget()
    if not isinstance(w, QMessageBox):
        QTimer.singleShot(20, lambda: _answer_warning(seen))
        return
    seen.append(w.text())
    w.accept()


def test_an_undo_the_library_refuses_is_said_and_leaves_no_redo(make_window, seeded_dir: Path, qtbot) -> None:
    """Ctrl+Z used to fail silently and leave "Redo Merge tags" on the stack."""
    ids = _tagged(seeded_dir)
    win = make_window(seeded_dir)
    _merge_rl(win)
    win.library.tags.add(ids[30:31], ["rl"])  # a new "rl" since (another window, the CLI)
    seen: list[str] = []
    QTimer.singleShot(0, lambda: _answer_warning(seen))
    win.undo_stack.undo()
    assert len(seen) == 1 and seen[0].startswith("Undo “Merge tag rl into reinforcement-learning” is not possible")
    assert not win.undo_stack.canRedo() and win.undo_stack.count() == 0

    # and a redo the library refuses
    _merge_rl(win)  # the new "rl"
    assert win.undo_stack.count() == 1
    win.undo_stack.undo()
    win.library.tags.delete("rl")
    QTimer.singleShot(0, lambda: _answer_warning(seen))
    win.undo_stack.redo()
    assert len(seen) == 2 and seen[1].startswith("Redo “Merge tag rl into reinforcement-learning” is not possible")
    assert not win.undo_stack.canRedo() and win.undo_stack.count() == 0
