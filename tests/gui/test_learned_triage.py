"""Triage with decisions and the learned order, driven with real keys on the real view."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication

from desktop_app.gui import preferences


def _triage(make_window, folder: Path, qtbot):  # noqa: ANN001, ANN202
    win = make_window(folder)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=3000)
    win.findChild(QAction, "triageAction").trigger()
    view = win.triage.view
    assert view is not None
    qtbot.waitUntil(view.hasFocus, timeout=3000)
    qtbot.waitUntil(lambda: view.ranker.runs >= 1 and not view.ranker.busy(), timeout=20000)
    return win, view


def test_decision_keys_learned_order_and_undo(make_window, seeded_dir: Path, qtbot) -> None:  # noqa: ANN001
    win, view = _triage(make_window, seeded_dir, qtbot)
    lib = win.library
    listed = list(win.model.ids)
    assert view.ids == listed  # nothing learned yet: the list's own order
    assert "one keep and one skip" in view.queue_line.text()
    keys = view.decision_keys()
    assert keys == {"keep": "y", "maybe": "m", "skip": "x"}
    assert "Keep (y)" in view.decision.buttons["keep"].text()
    geometry = view.decision.mapTo(view, view.decision.rect().topLeft())

    rlvr = lib.query("RLVR").ids
    view.go_to(rlvr[0])
    qtbot.keyClick(view, Qt.Key.Key_Y)  # keep, and on to the next paper at once
    assert lib.papers.get(rlvr[0]).decision == "keep"
    assert lib.papers.get(rlvr[0]).status == "unread"  # a decision is not a status
    assert view.current_id() != rlvr[0]
    assert "Keep" in view.confirm.text()
    skipped = view.current_id()
    qtbot.keyClick(view, Qt.Key.Key_X)
    assert lib.papers.get(skipped).decision == "skip"
    # the re-rank runs in the background; the papers after the one on screen take its order
    qtbot.waitUntil(lambda: view.ranker.runs >= 3 and not view.ranker.busy(), timeout=20000)
    qtbot.waitUntil(lambda: "decided" in view.queue_line.text(), timeout=5000)
    assert view.queue_line.text().startswith("2 of 76 decided")
    rest = view.ids[view.pos + 1:]
    if rlvr[1] not in view.ids[: view.pos + 1]:
        assert rest.index(rlvr[1]) < 10, (rest.index(rlvr[1]), rest[:10])
    assert sorted(view.ids) == sorted(listed)  # reordered, nothing hidden
    # the buttons stay where they were, whatever paper is shown
    assert view.decision.mapTo(view, view.decision.rect().topLeft()) == geometry

    # undo brings the decision back
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert lib.papers.get(skipped).decision is None
    assert view.current_id() == skipped

    # o: back to the list's order (and remembered)
    qtbot.keyClick(view, Qt.Key.Key_O)
    assert not view.learned.isChecked()
    assert preferences.get_bool(win.settings, preferences.TRIAGE_LEARNED_ORDER) is False


def test_decision_column_reader_and_sidebar(make_window, seeded_dir: Path, qtbot) -> None:  # noqa: ANN001
    from desktop_app.gui.paper_model import COL_DECISION

    win = make_window(seeded_dir)
    win.show()
    qtbot.waitExposed(win)
    lib = win.library
    pid = win.model.ids[0]
    win.select_paper(pid)
    win.reader.decision.buttons["maybe"].click()
    assert lib.papers.get(pid).decision == "maybe"
    qtbot.waitUntil(lambda: win.model.data(win.model.index(0, COL_DECISION)) == "Maybe", timeout=3000)
    win.reader.decision.buttons["maybe"].click()  # again: cleared
    assert lib.papers.get(pid).decision is None
    win.undo_stack.undo()
    assert lib.papers.get(pid).decision == "maybe"
    win.sidebar.filterChosen.emit("decision", "maybe")
    qtbot.waitUntil(lambda: list(win.model.ids) == [pid], timeout=5000)
    assert win.search.box.text() == "decision:maybe"
