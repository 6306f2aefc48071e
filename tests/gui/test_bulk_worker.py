"""A bulk edit of many papers (and its undo) runs in a worker with a progress
line in the status bar, the window stays responsive, the edit stays one undo step; the bulk
panel's buttons fit at 1400×900, in English and in Chinese."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QToolButton, QWidget

from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from desktop_app.gui import i18n

MANY = 1200  # more than gui/write_queue.py's LARGE


@pytest.fixture
def many_dir(library_dir: Path) -> Path:
    records = [
        Record(
            title=f"Study {i} of sparse widgets",
            abstract=f"We examine widget family {i} and its sparsity pattern number {i} under load {i % 17}.",
            year=2020 + i % 6,
        )
        for i in range(MANY)
    ]
    with Library.open(library_dir) as lib:
        assert lib.imports.from_records([("many", ParseResult("csv", records))]).added == MANY
    return library_dir


def _all_selected(make_window, folder: Path, qtbot):
    win = make_window(folder)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    qtbot.waitUntil(lambda: not win.model.partial and win.model.rowCount() == MANY, timeout=10000)
    win.table.setFocus()
    win.table.selectAll()
    qtbot.waitUntil(win.bulk.bulk_shown, timeout=3000)
    return win


def test_marking_many_read_runs_in_the_worker_and_undoes_in_one_step(make_window, many_dir: Path, qtbot) -> None:
    win = _all_selected(make_window, many_dir, qtbot)
    lib, stack, edits = win.library, win.undo_stack, win.edits
    ids = win.table.selected_ids()
    assert len(ids) == MANY
    lib.papers.set_rating(ids[:5], 3)  # a few differ: the undo gives each its own value back
    panel = win.bulk.panel
    qtbot.mouseClick(panel.status_buttons["read"], Qt.MouseButton.LeftButton)
    assert edits.busy()  # the click returned before the write: it runs in the worker
    line = win.findChild(QWidget, "writeProgress")  # the status bar's progress line
    assert line is not None and line.isVisible()
    assert "Mark read" in line.findChild(QLabel, "writeProgressText").text()
    qtbot.waitUntil(lambda: not edits.busy(), timeout=30000)
    assert not line.isVisible()
    assert lib.papers.status_counts()["read"] == MANY
    assert stack.count() == 1 and stack.index() == 1  # one undo step
    assert edits.writes.runs == 1
    qtbot.waitUntil(lambda: win.model.data(win.model.index(0, 4)) == i18n.status_label("read"), timeout=3000)

    stack.undo()
    assert edits.busy()
    qtbot.waitUntil(lambda: not edits.busy(), timeout=30000)
    assert edits.writes.runs == 2
    assert lib.papers.status_counts()["unread"] == MANY
    assert [lib.papers.get(p).rating for p in ids[:6]] == [3, 3, 3, 3, 3, 0]
    stack.redo()
    qtbot.waitUntil(lambda: not edits.busy(), timeout=30000)
    assert lib.papers.status_counts()["read"] == MANY


def test_an_edit_while_a_large_one_is_written_is_queued_or_refused(make_window, many_dir: Path, qtbot) -> None:
    win = _all_selected(make_window, many_dir, qtbot)
    edits, lib = win.edits, win.library
    ids = win.table.selected_ids()
    edits.set_rating(2)
    assert edits.busy()
    edits.set_status("skimmed", ids[:1])  # a small one behind it: queued, in order
    edits.edit_title(ids[1], "A title typed meanwhile")  # refused (said in the status bar)
    qtbot.waitUntil(lambda: not edits.busy(), timeout=30000)
    assert lib.papers.get(ids[0]).status == "skimmed" and lib.papers.get(ids[0]).rating == 2
    assert lib.papers.get(ids[1]).title != "A title typed meanwhile"
    assert win.undo_stack.count() == 2
    win.undo_stack.undo()
    win.undo_stack.undo()
    qtbot.waitUntil(lambda: not edits.busy(), timeout=30000)
    assert lib.papers.get(ids[0]).status == "unread"
    assert {lib.papers.get(p).rating for p in ids[:50]} == {0}


def _clipped(panel) -> list[str]:
    """The panel's buttons whose text does not fit them, or that reach past the panel."""
    bad = []
    for b in panel.findChildren(QPushButton) + panel.findChildren(QToolButton):
        if not b.isVisible():
            continue
        need = b.fontMetrics().horizontalAdvance(b.text().replace("&", "")) + 8
        right = b.mapTo(panel.window(), b.rect().topRight()).x()
        edge = win_right(panel)
        if b.width() < need or right > edge:
            bad.append(f"{b.objectName()}: {b.text()!r} {b.width()} < {need} or {right} > {edge}")
    return bad


def win_right(panel) -> int:
    scroll = panel.parentWidget().parentWidget()  # the panel's scroll area's viewport, then the area
    return scroll.mapTo(panel.window(), scroll.rect().topRight()).x()


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_bulk_panel_buttons_fit_at_1400_by_900(make_window, seeded_dir: Path, qtbot, qapp, language: str) -> None:
    i18n.install(qapp, language)
    try:
        win = make_window(seeded_dir)
        win.resize(1400, 900)
        win.show()
        qtbot.waitExposed(win)
        win.table.setFocus()
        win.table.selectAll()
        qtbot.waitUntil(win.bulk.bulk_shown, timeout=3000)
        qtbot.wait(50)
        panel = win.bulk.panel
        assert win.bulk.scroll.horizontalScrollBar().maximum() == 0  # nothing to the right, out of sight
        assert _clipped(panel) == []
    finally:
        i18n.install(qapp, "en")


def test_selected_ids_follow_overlapping_and_separate_ranges_in_table_order(make_window, many_dir: Path, qtbot) -> None:
    from PySide6.QtCore import QItemSelection, QItemSelectionModel

    win = _all_selected(make_window, many_dir, qtbot)
    model, table = win.model, win.table
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    table.selectionModel().clearSelection()
    for top, bottom in ((40, 45), (10, 12), (11, 20), (44, 50), (700, 700)):  # overlaps, a gap, one row
        sel = QItemSelection(model.index(top, 0), model.index(bottom, 0))
        table.selectionModel().select(sel, flags)
    rows = [*range(10, 21), *range(40, 51), 700]
    assert table.selected_ids() == [model.paper_id(r) for r in rows]
