"""The Trash in the window: "Trash (N)" in the sidebar follows delete, undo,
redo and restore; choosing it shows the trashed papers with Restore (one undo step), Delete for
good and Empty trash (both ask, naming the count; not undoable); the trash outlives a restart."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from desktop_app.core.library import Library

PDF = b"%PDF-1.4\n% in the trash\n%%EOF\n"


def _trash_text(win) -> str:
    item = win.sidebar.trash_item()
    assert item is not None
    return item.text(0)


def _open(make_window, folder: Path, qtbot):
    win = make_window(folder)
    qtbot.waitUntil(lambda: win.sidebar.trash_item() is not None and not win.follow_pending(), timeout=10000)
    # the active window, as on a desktop: the window's shortcuts (Delete, Ctrl+3) follow it (under
    # xcb in Xvfb, with no window manager, it is not active until asked)
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=5000)
    return win


def _answer(seen: list[str], confirm: bool, qtbot) -> None:
    """Answer the next "delete for good" question: the confirm button, or Enter (the default).
    Whatever goes wrong, the box is closed (a blocking exec() would wait for ever) and ``seen``
    says what was wrong."""

    def poll(left: int = 500) -> None:
        w = QApplication.activeModalWidget()
        if not isinstance(w, QMessageBox):
            if left:
                QTimer.singleShot(20, lambda: poll(left - 1))
            return
        if QApplication.activeWindow() is not w and left:  # as on a desktop: the question has the keyboard
            w.activateWindow()
            QTimer.singleShot(20, lambda: poll(left - 1))
            return
        seen.append(w.text())
        if w.objectName() != "trashPurgeBox" or w.defaultButton() is not w.button(QMessageBox.StandardButton.Cancel):
            seen.append("not the trash's question, or Cancel is not its default")
            w.reject()
        elif confirm:
            w.findChild(QPushButton, "trashPurgeConfirm").click()
        else:
            qtbot.keyClick(w, Qt.Key.Key_Return)  # Enter answers Cancel: nothing is deleted
            if w.isVisible():
                seen.append("Enter did not answer the question")
                w.reject()

    QTimer.singleShot(0, poll)


def _click_trash_entry(win, qtbot) -> None:
    item = win.sidebar.trash_item()
    rect = win.sidebar.visualItemRect(item)
    qtbot.mouseClick(win.sidebar.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_the_trash_count_follows_delete_undo_redo_and_restore(make_window, seeded_dir: Path, qtbot) -> None:
    win = _open(make_window, seeded_dir, qtbot)
    win.show()
    qtbot.waitExposed(win)
    assert _trash_text(win) == "Trash  (0)"
    win.select_row(0)
    pid = win.current_id()
    win.table.setFocus()
    qtbot.keyClick(win.table, Qt.Key.Key_Delete)
    assert _trash_text(win) == "Trash  (1)"
    assert win.statusBar().currentMessage() == "Moved 1 paper to the trash"
    win.undo_stack.undo()
    assert _trash_text(win) == "Trash  (0)" and win.model.row_of(pid) >= 0
    win.undo_stack.redo()
    assert _trash_text(win) == "Trash  (1)" and win.model.row_of(pid) == -1

    _click_trash_entry(win, qtbot)
    assert win.state.trash and win.model.ids == [pid]
    assert win.trash_bar.isVisible()
    qtbot.waitUntil(lambda: not win.follow_pending(), timeout=3000)
    assert win.search.chip_layout.itemAt(0).widget().text() == "in the trash  ✕"
    assert win.reader.paper is not None and win.reader.paper.id == pid  # shown, not editable
    assert win.reader.read_only and not win.reader.title_edit.isEnabled()
    assert win.search.count.text() == "1 paper"

    before = win.undo_stack.count()
    win.select_row(0)
    qtbot.mouseClick(win.trash_bar.restore, Qt.MouseButton.LeftButton)
    assert win.library.trash.count() == 0 and win.model.ids == []
    assert _trash_text(win) == "Trash  (0)" and win.undo_stack.count() == before + 1
    assert win.statusBar().currentMessage() == "Restored 1 paper from the trash"
    win.undo_stack.undo()  # one step: back in the trash
    assert win.model.ids == [pid] and _trash_text(win) == "Trash  (1)"
    win.on_sidebar_filter("all", "")
    assert not win.trash_bar.isVisible() and not win.reader.read_only
    assert win.model.row_of(pid) == -1 and win.model.rowCount() == 75


def test_delete_for_good_asks_naming_the_count_and_removes_rows_and_files(
    make_window, seeded_dir: Path, qtbot, tmp_path: Path
) -> None:
    src = tmp_path / "paper.pdf"
    src.write_bytes(PDF)
    with Library.open(seeded_dir) as lib:
        ids = lib.query("").ids[:2]
        copies = []
        for pid in ids:
            change = lib.attachments.add(pid, src)
            copies.append(seeded_dir / lib.attachments.get(change.detail.attachment_id).path)
            lib.notes.set(pid, "a note that goes too")
        lib.papers.delete(ids)
    win = _open(make_window, seeded_dir, qtbot)
    win.activateWindow()
    assert _trash_text(win) == "Trash  (2)"
    win.select_row(0)
    win.table.setFocus()
    qtbot.keyClick(win.table, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)  # View → Trash
    assert win.state.trash and sorted(win.model.ids) == sorted(ids)
    win.table.setFocus()
    win.table.selectAll()
    stack = win.undo_stack.count()
    seen: list[str] = []
    _answer(seen, confirm=False, qtbot=qtbot)
    qtbot.keyClick(win.table, Qt.Key.Key_Delete)  # in the Trash, Delete deletes for good: it asks
    assert seen[-1].startswith("Delete 2 papers for good?") and "cannot be undone" in seen[-1]
    assert win.library.trash.count() == 2 and all(c.is_file() for c in copies)

    _answer(seen, confirm=True, qtbot=qtbot)
    qtbot.mouseClick(win.trash_bar.purge, Qt.MouseButton.LeftButton)
    assert len(seen) == 2
    assert win.library.trash.count() == 0 and win.model.ids == [] and _trash_text(win) == "Trash  (0)"
    assert not any(c.exists() for c in copies)
    assert win.undo_stack.count() == stack  # not undoable: no step
    assert win.statusBar().currentMessage() == "Deleted 2 papers for good"
    win.library.flush_index()  # the index writer drops their documents
    assert win.library.papers.count() == 74 and win.library.integrity_check() == []


def test_the_trash_outlives_a_restart_and_empty_trash_asks(make_window, seeded_dir: Path, qtbot) -> None:
    win = _open(make_window, seeded_dir, qtbot)
    win.select_row(0)
    win.table.setFocus()
    gone = []
    for _ in range(3):
        gone.append(win.current_id())
        qtbot.keyClick(win.table, Qt.Key.Key_Delete)
    assert _trash_text(win) == "Trash  (3)"
    win.on_sidebar_filter("trash", "")
    make_window.close(win)

    again = _open(make_window, seeded_dir, qtbot)
    assert _trash_text(again) == "Trash  (3)"
    assert again.state.trash and sorted(again.model.ids) == sorted(gone)  # the view it was left in
    assert again.sidebar.current_filter() == ("trash", "")
    empty = next(a for a in again.findChildren(QAction) if a.objectName() == "emptyTrashAction")
    seen: list[str] = []
    _answer(seen, confirm=False, qtbot=qtbot)
    empty.trigger()
    assert seen == [
        "Delete all 3 papers in the trash for good? Their tags, notes, highlights and attached "
        "files go with them. This cannot be undone."
    ]
    assert again.library.trash.count() == 3
    _answer(seen, confirm=True, qtbot=qtbot)
    empty.trigger()
    assert again.library.trash.count() == 0 and _trash_text(again) == "Trash  (0)"
    assert again.library.papers.count() == 73


def test_trashed_papers_are_not_edited_and_an_old_undo_gives_up_after_a_purge(
    make_window, seeded_dir: Path, qtbot, monkeypatch
) -> None:
    win = _open(make_window, seeded_dir, qtbot)
    win.select_row(0)
    win.table.setFocus()
    ids = [win.current_id()]
    qtbot.keyClick(win.table, Qt.Key.Key_Delete)
    ids.append(win.current_id())
    qtbot.keyClick(win.table, Qt.Key.Key_Delete)
    win.on_sidebar_filter("trash", "")
    win.table.setFocus()
    win.table.selectAll()
    qtbot.waitUntil(lambda: not win.follow_pending(), timeout=3000)
    assert not win.bulk.bulk_shown()  # two selected, but no bulk edits for trashed papers
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text: warned.append(text))
    qtbot.keyClick(win.table, Qt.Key.Key_R)  # "mark read": not for papers in the trash
    assert win.statusBar().currentMessage().startswith("Papers in the trash are not edited")
    assert {r.status for r in win.library.papers.rows(ids).values()} == {"unread"} and warned == []

    seen: list[str] = []
    _answer(seen, confirm=True, qtbot=qtbot)
    win.trash.purge_selected()
    assert seen[0].startswith("Delete 2 papers for good?") and win.library.trash.count() == 0
    win.undo_stack.undo()  # "Move to the trash" of a paper deleted for good: said, and dropped
    assert len(warned) == 1 and "no paper with id" in warned[0] and "deleted for good" in warned[0]
    assert win.library.papers.count() == 74


def test_words_typed_in_the_trash_find_its_papers_and_its_chip_leads_back(make_window, seeded_dir: Path, qtbot) -> None:
    with Library.open(seeded_dir) as lib:
        ids = lib.query("").ids
        races = next(i for i in ids if "Recursive Automated Composition" in lib.papers.get(i).abstract_text)
        lib.papers.delete([races, next(i for i in ids if i != races)])
    win = _open(make_window, seeded_dir, qtbot)
    win.on_sidebar_filter("trash", "")
    assert win.model.rowCount() == 2
    win.search.box.setFocus()
    qtbot.keyClicks(win.search.box, "recursive automated")
    qtbot.waitUntil(lambda: win.model.ids == [races], timeout=3000)
    qtbot.waitUntil(lambda: not win.follow_pending(), timeout=3000)
    chip = win.search.chip_layout.itemAt(0).widget()
    qtbot.mouseClick(chip, Qt.MouseButton.LeftButton)
    assert not win.state.trash and win.search.box.text() == ""
    qtbot.waitUntil(lambda: win.model.rowCount() == 74, timeout=3000)
    assert win.sidebar.current_filter() == ("all", "")
