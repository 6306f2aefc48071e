"""Several papers selected: the reader's place says "N papers selected" and offers the bulk edits;
each edit leaves a status-bar message whose Undo button undoes it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from desktop_app.core.library import Library
from desktop_app.gui.bulk_panel import screenshot_bulk_panel
from desktop_app.gui.paper_model import COL_TITLE


def _click_row(win, qtbot, row: int, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    rect = win.table.visualRect(win.model.index(row, COL_TITLE))
    qtbot.mouseClick(win.table.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())


def _select_three(win, qtbot) -> list[int]:
    """Rows 1 to 3 as a user selects them: a click, then Shift+click."""
    _click_row(win, qtbot, 1)
    _click_row(win, qtbot, 3, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(win.bulk.bulk_shown, timeout=3000)
    return [win.model.paper_id(r) for r in (1, 2, 3)]


def _window(make_window, folder: Path, qtbot):
    win = make_window(folder)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=3000)
    return win


def test_three_selected_add_a_tag_and_undo_from_the_message(make_window, seeded_dir: Path, qtbot) -> None:
    win = _window(make_window, seeded_dir, qtbot)
    assert not win.bulk.bulk_shown()  # one paper: the reader
    ids = _select_three(win, qtbot)
    panel = win.bulk.panel
    assert panel.isVisible() and not win.reader.isVisible()
    assert panel.heading.text() == "3 papers selected"
    assert panel.delete_button.text() == "Delete 3 papers…"

    qtbot.mouseClick(panel.tag_line, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(panel.tag_line, "to-cite")
    qtbot.mouseClick(panel.add_tag_button, Qt.MouseButton.LeftButton)
    for pid in ids:
        assert win.library.papers.get(pid).tags == ["to-cite"]
    others = [p for p in win.model.ids if p not in ids]
    assert all("to-cite" not in win.library.papers.get(p).tags for p in others[:5])
    toast = panel.toast
    assert toast.isVisible() and toast.label.text() == "Tagged 3 papers “to-cite”"
    assert win.undo_stack.count() == 1  # one command for the three

    qtbot.mouseClick(toast.button, Qt.MouseButton.LeftButton)
    for pid in ids:
        assert win.library.papers.get(pid).tags == []
    assert not toast.isVisible() and win.undo_stack.index() == 0
    make_window.close(win)
    with Library.open(seeded_dir) as lib:
        assert all(lib.papers.get(pid).tags == [] for pid in ids)


def test_remove_a_tag_some_carry_status_rating_list(make_window, seeded_dir: Path, qtbot) -> None:
    with Library.open(seeded_dir) as lib:
        order = lib.query("").ids
        lib.tags.add([order[2]], ["ml/theory"])
        lib.lists.create("Week 49")
    win = _window(make_window, seeded_dir, qtbot)
    ids = _select_three(win, qtbot)
    panel = win.bulk.panel
    carrying = [p for p in ids if "ml/theory" in win.library.papers.get(p).tags]
    assert len(carrying) == 1
    assert [panel.remove_combo.itemText(i) for i in range(panel.remove_combo.count())] == ["ml/theory — on 1 of 3"]
    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    assert win.library.papers.get(carrying[0]).tags == []
    assert panel.toast.label.text() == "Removed the tag “ml/theory” from 3 papers"
    assert not panel.remove_button.isEnabled()  # no tag left on them

    qtbot.mouseClick(panel.status_buttons["read"], Qt.MouseButton.LeftButton)
    assert {win.library.papers.get(p).status for p in ids} == {"read"}
    assert panel.toast.label.text() == "Marked 3 papers read"
    qtbot.mouseClick(panel.rating_buttons[4], Qt.MouseButton.LeftButton)
    assert {win.library.papers.get(p).rating for p in ids} == {4}
    # the status message is about the last edit: its Undo takes back the rating only
    qtbot.mouseClick(panel.toast.button, Qt.MouseButton.LeftButton)
    assert {win.library.papers.get(p).rating for p in ids} == {0}
    assert {win.library.papers.get(p).status for p in ids} == {"read"}

    panel.list_combo.setCurrentIndex(panel.list_combo.findData("Week 49"))
    qtbot.mouseClick(panel.list_button, Qt.MouseButton.LeftButton)
    assert sorted(p for p, _, _ in win.library.lists.items("Week 49")) == sorted(ids)
    assert panel.toast.label.text() == "Added 3 papers to “Week 49”"
    # another edit moves the stack: the message (and its Undo) goes
    win.undo_stack.undo()
    assert not panel.toast.isVisible()
    assert win.library.lists.items("Week 49") == []


def test_keys_and_one_paper_again(make_window, seeded_dir: Path, qtbot) -> None:
    win = _window(make_window, seeded_dir, qtbot)
    _select_three(win, qtbot)
    win.table.setFocus()
    qtbot.keyClick(win.table, Qt.Key.Key_T)  # t: the panel's tag field, not the hidden reader's
    assert win.bulk.panel.tag_line.hasFocus()
    assert not win.reader.tags.line.hasFocus()
    # a key edit of the selection is a bulk edit too: said, with Undo
    win.table.setFocus()
    qtbot.keyClick(win.table, Qt.Key.Key_R)
    ids = win.bulk.panel.ids
    assert {win.library.papers.get(p).status for p in ids} == {"read"}
    toast = win.bulk.panel.toast
    assert toast.isVisible() and toast.label.text() == "Mark read (3 papers)"
    qtbot.mouseClick(toast.button, Qt.MouseButton.LeftButton)
    assert {win.library.papers.get(p).status for p in ids} == {"unread"}
    win.undo_stack.redo()  # a redo is no new edit: no message
    assert not toast.isVisible()
    _click_row(win, qtbot, 5)  # one paper again: the reader
    qtbot.waitUntil(lambda: not win.bulk.bulk_shown(), timeout=3000)
    assert win.reader.isVisible()
    qtbot.keyClick(win.table, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)  # select all
    qtbot.waitUntil(win.bulk.bulk_shown, timeout=3000)
    assert win.bulk.panel.heading.text() == f"{win.model.rowCount()} papers selected"


def test_screenshot_bulk_panel(make_window, seeded_dir: Path, qtbot, tmp_path: Path) -> None:
    win = _window(make_window, seeded_dir, qtbot)
    widget = screenshot_bulk_panel(win)
    assert widget.currentWidget() is win.bulk.scroll
    assert win.bulk.panel.heading.text() == "3 papers selected"
    assert widget.grab().save(str(tmp_path / "bulk.png"))


def test_a_status_edit_keeps_the_tag_choices_a_tag_edit_reads_them_again(make_window, seeded_dir: Path, qtbot) -> None:
    """The panel reads the tags and lists again only when they may have changed: marking 100,000
    papers read must not re-count their tags on the GUI thread, but a tag added (here, or by a
    change from elsewhere) shows in "Remove a tag"."""
    win = _window(make_window, seeded_dir, qtbot)
    ids = _select_three(win, qtbot)
    panel = win.bulk.panel
    reads: list[int] = []
    real_all = win.library.tags.all
    win.library.tags.all = lambda: (reads.append(1), real_all())[1]  # type: ignore[method-assign]

    qtbot.mouseClick(panel.status_buttons["read"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: {win.library.papers.get(p).status for p in ids} == {"read"}, timeout=3000)
    qtbot.wait(50)  # the panel's own refresh after the edit (one event-loop turn)
    assert reads == []
    assert panel.heading.text() == "3 papers selected"

    qtbot.mouseClick(panel.tag_line, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(panel.tag_line, "to-cite")
    qtbot.mouseClick(panel.add_tag_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: [panel.remove_combo.itemText(i) for i in range(panel.remove_combo.count())] == ["to-cite — on 3 of 3"],
        timeout=3000,
    )
    assert reads and panel.remove_button.isEnabled()


def test_the_sidebar_counts_follow_a_bulk_edit_read_off_the_gui_thread(make_window, seeded_dir: Path, qtbot) -> None:
    import threading

    win = _window(make_window, seeded_dir, qtbot)
    ids = _select_three(win, qtbot)
    threads: list[bool] = []
    real_counts = win.library.papers.status_counts

    def counts() -> dict[str, int]:
        threads.append(threading.current_thread() is threading.main_thread())
        return real_counts()

    win.library.papers.status_counts = counts  # type: ignore[method-assign]
    read_before = real_counts()["read"]
    qtbot.mouseClick(win.bulk.panel.status_buttons["read"], Qt.MouseButton.LeftButton)

    def read_entry() -> str:
        library = win.sidebar.topLevelItem(0)
        texts = [library.child(i).text(0) for i in range(library.childCount())]
        return next(t for t in texts if t.startswith("Read"))

    qtbot.waitUntil(lambda: read_entry() == f"Read  ({read_before + len(ids)})", timeout=3000)
    assert threads and not any(threads)  # read in a worker, never on the GUI thread
