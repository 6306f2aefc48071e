"""The "did you mean" line under the search box, and Paper → Re-derive titles…, on real widgets."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction

from desktop_app.gui.did_you_mean import DidYouMeanLine
from desktop_app.gui.jobs import running_jobs
from desktop_app.gui.retitle_dialog import RetitleDialog
from tests.helpers.library import find_paper

RACES_TITLE = "RACES: Recursive Automated Composition for Environment Scaling"


def _search(qtbot, win, text: str) -> None:
    win.search.box.clear()
    qtbot.keyClicks(win.search.box, text)
    qtbot.keyClick(win.search.box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: win.state.query == text)
    qtbot.waitUntil(lambda: not running_jobs(win), timeout=10000)


def test_a_misspelt_query_offers_a_correction_that_one_click_applies(qtbot, make_window, seeded_dir: Path) -> None:
    win = make_window(seeded_dir)
    line = win.findChild(DidYouMeanLine, "didYouMean")
    assert line is win.did_you_mean and line.isHidden()

    _search(qtbot, win, "reinforcment lerning")
    assert win.model.total == 0
    qtbot.waitUntil(lambda: not line.isHidden(), timeout=10000)
    assert line.button.text() == "reinforcement learning?"

    qtbot.mouseClick(line.button, Qt.MouseButton.LeftButton)
    assert win.search.box.text() == "reinforcement learning"
    assert win.state.query == "reinforcement learning"
    assert win.model.total >= 3
    assert line.isHidden()

    _search(qtbot, win, "title:transformr")  # the field prefix stays
    qtbot.waitUntil(lambda: not line.isHidden(), timeout=10000)
    assert line.button.text() == "title:transformer?"
    _search(qtbot, win, "learning")  # many hits: no worker, no line
    assert line.isHidden() and line._query == "learning"


def test_rederive_titles_lists_checks_applies_and_undoes(qtbot, make_window, seeded_dir: Path) -> None:
    win = make_window(seeded_dir)
    lib = win.library
    races = find_paper(lib, "Recursive Automated Composition")
    rlvr = find_paper(lib, "shrinkage issue of RLVR")
    fprm = find_paper(lib, "Fixed-Point Reasoning Model")
    lib.set_derived_titles({races: "Old races title", rlvr: "Old rlvr title"})
    lib.papers.set_title(fprm, "My own title")

    win.findChild(QAction, "retitleAction").trigger()
    qtbot.waitUntil(lambda: win.findChild(RetitleDialog) is not None, timeout=10000)
    dialog = win.findChild(RetitleDialog)
    rows = {
        dialog.tree.topLevelItem(i).data(0, Qt.ItemDataRole.UserRole): dialog.tree.topLevelItem(i)
        for i in range(dialog.tree.topLevelItemCount())
    }
    assert set(rows) == {races, rlvr}  # the edited title is not offered
    assert (rows[races].text(0), rows[races].text(1)) == (RACES_TITLE, "Old races title")
    assert dialog.apply_button.text() == "Re-derive 2 titles"
    rows[rlvr].setCheckState(0, Qt.CheckState.Unchecked)
    assert dialog.apply_button.text() == "Re-derive 1 title"
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)

    assert lib.papers.get(races).title == RACES_TITLE
    assert lib.papers.get(rlvr).title == "Old rlvr title"  # unchecked: kept
    assert lib.papers.get(fprm).title == "My own title"
    assert win.model.data(win.model.index(win.model.row_of(races), 0)) == RACES_TITLE
    assert win.undo_stack.undoText() == "Re-derive titles"
    win.undo_stack.undo()
    assert lib.papers.get(races).title == "Old races title"
    win.undo_stack.redo()
    assert lib.papers.get(races).title == RACES_TITLE
