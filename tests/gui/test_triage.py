"""Triage mode driven with real keys on the real view: decisions reach the database, the view
moves on, undo brings a decision back, the progress line counts, the next window resumes."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication

from desktop_app.gui import preferences
from desktop_app.gui.triage import screenshot_view


def _window(make_window, folder: Path, qtbot):
    win = make_window(folder)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=3000)
    return win


def _enter(win, qtbot):
    win.findChild(QAction, "triageAction").trigger()
    view = win.triage.view
    assert view is not None and win.stack.currentWidget() is view
    qtbot.waitUntil(view.hasFocus, timeout=3000)
    return view


def test_keys_decide_move_on_and_undo(make_window, seeded_dir: Path, qtbot) -> None:
    win = _window(make_window, seeded_dir, qtbot)
    lib = win.library
    view = _enter(win, qtbot)
    ids = list(win.model.ids)
    assert view.ids == ids and len(ids) == 76
    first = view.current_id()
    assert view.title.text() == lib.papers.get(first).title
    assert view.progress.text() == "0 of 76 triaged; 0 today"

    qtbot.keyClick(view, Qt.Key.Key_S)  # skimmed, and on to the next paper
    assert lib.papers.get(first).status == "skimmed"
    second = view.current_id()
    assert second == ids[ids.index(first) + 1]
    assert view.title.text() == lib.papers.get(second).title
    assert view.progress.text() == "1 of 76 triaged; 1 today"

    qtbot.keyClick(view, Qt.Key.Key_4)  # a rating is a decision too
    assert lib.papers.get(second).rating == 4
    third = view.current_id()
    assert third != second
    qtbot.keyClick(view, Qt.Key.Key_R)
    assert lib.papers.get(third).status == "read"
    assert view.progress.text() == "2 of 76 triaged; 2 today"

    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert view.current_id() == third
    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert view.current_id() == second
    qtbot.keyClick(view, Qt.Key.Key_Right)
    qtbot.keyClick(view, Qt.Key.Key_Space)
    assert view.current_id() == ids[ids.index(third) + 1]

    # Ctrl+Z in triage: the last decision is undone and its paper comes back on screen
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert lib.papers.get(third).status == "unread"
    assert view.current_id() == third
    assert view.status.status() == "unread"
    assert view.progress.text() == "1 of 76 triaged; 1 today"
    qtbot.keyClick(view, Qt.Key.Key_U)
    assert lib.papers.get(third).status == "unread"

    # Esc leaves: the table again, on the paper triaged last
    shown = view.current_id()
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert win.stack.currentWidget() is win.splitter
    assert win.current_id() == shown


def test_no_advance_when_turned_off_in_settings(make_window, seeded_dir: Path, qtbot, settings) -> None:
    from desktop_app.gui.settings_dialog import SettingsDialog

    win = _window(make_window, seeded_dir, qtbot)
    dlg = SettingsDialog(win)
    assert dlg.triage_advance.isChecked()  # the default: move on
    dlg.triage_advance.setChecked(False)
    dlg.apply()
    dlg.close()
    assert preferences.get_bool(settings, preferences.TRIAGE_ADVANCE) is False
    view = _enter(win, qtbot)
    first = view.current_id()
    qtbot.keyClick(view, Qt.Key.Key_R)
    assert view.current_id() == first and view.status.status() == "read"


def test_tag_note_and_quick_tag_keys(make_window, seeded_dir: Path, qtbot, settings) -> None:
    preferences.put(settings, preferences.TRIAGE_QUICK_TAGS, ["", "later"])
    win = _window(make_window, seeded_dir, qtbot)
    lib = win.library
    view = _enter(win, qtbot)
    pid = view.current_id()
    assert "Alt+2 later" in view.keys.text()

    qtbot.keyClick(view, Qt.Key.Key_T)
    assert view.tags.line.hasFocus()
    qtbot.keyClicks(view.tags.line, "rl/ppo")
    qtbot.keyClick(view.tags.line, Qt.Key.Key_Return)
    assert lib.papers.get(pid).tags == ["rl/ppo"]
    assert "rl/ppo" in view.tags.line.completer().model().stringList()  # completes from the library's tags
    assert view.hasFocus() and view.current_id() == pid  # a tag is not a decision: same paper

    qtbot.keyClick(view, Qt.Key.Key_2, Qt.KeyboardModifier.AltModifier)
    assert sorted(lib.papers.get(pid).tags) == ["later", "rl/ppo"]
    assert sorted(view.tags.tags()) == ["later", "rl/ppo"]

    qtbot.keyClick(view, Qt.Key.Key_N)
    assert view.notes.isVisible() and view.notes.edit.hasFocus()
    qtbot.keyClicks(view.notes.edit, "check the baselines")
    qtbot.keyClick(view.notes.edit, Qt.Key.Key_Escape)  # saved at once, keys back to the view
    assert lib.notes.text(pid) == "check the baselines"
    assert view.hasFocus()

    qtbot.keyClick(view, Qt.Key.Key_N)  # typed text survives moving on without Esc
    qtbot.keyClicks(view.notes.edit, " and the ablation")
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert lib.notes.text(pid) == "check the baselines and the ablation"

    # Ctrl+Z: one bout of writing on one paper is one undo step; the paper comes back with it
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert lib.notes.text(pid) == ""
    assert view.current_id() == pid and view.notes.edit.toPlainText() == ""


def test_resume_on_a_new_window(make_window, seeded_dir: Path, qtbot) -> None:
    win = _window(make_window, seeded_dir, qtbot)
    view = _enter(win, qtbot)
    for _ in range(5):
        qtbot.keyClick(view, Qt.Key.Key_Right)
    where = view.current_id()
    qtbot.keyClick(view, Qt.Key.Key_S)
    make_window.close(win)  # closed while in triage

    again = _window(make_window, seeded_dir, qtbot)
    qtbot.waitUntil(lambda: again.triage.view is not None and again.triage.view.active, timeout=5000)
    view2 = again.triage.view
    assert again.stack.currentWidget() is view2
    assert view2.current_id() == again.model.ids[again.model.row_of(where) + 1]  # after the decision
    assert view2.progress.text() == "1 of 76 triaged; 1 today" or view2.progress.text() == "1 of 76 triaged; 0 today"
    qtbot.keyClick(view2, Qt.Key.Key_Escape)
    make_window.close(again)

    third = _window(make_window, seeded_dir, qtbot)  # left with Esc: the table, but triage resumes there
    qtbot.wait(50)
    assert third.triage.view is None
    view3 = _enter(third, qtbot)
    assert view3.current_id() == view2.current_id()


def test_screenshot_triage(make_window, seeded_dir: Path, qtbot, tmp_path: Path) -> None:
    win = _window(make_window, seeded_dir, qtbot)
    shot = screenshot_view(win)
    assert win.triage.view.active
    assert not shot.grab().isNull()


def test_new_keys_are_free(make_window, seeded_dir: Path, qtbot) -> None:
    """Ctrl+Shift+T and Alt+Shift+1…5 belong to no other action of the window, and no two
    actions share a key."""
    from PySide6.QtGui import QKeySequence, QShortcut

    win = _window(make_window, seeded_dir, qtbot)
    keys: list[str] = []
    for action in win.findChildren(QAction):
        keys += [s.toString() for s in action.shortcuts() if not s.isEmpty()]
    assert len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)
    assert keys.count("Ctrl+Shift+T") == 1
    window_wide = [
        sc.key().toString() for sc in win.findChildren(QShortcut) if sc.context() == Qt.ShortcutContext.WindowShortcut
    ]
    for n in range(1, 6):
        seq = QKeySequence(f"Alt+Shift+{n}").toString()
        assert seq not in keys and window_wide.count(seq) == 1
