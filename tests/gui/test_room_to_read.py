"""Room to read at 1400×900. The Title takes the width the other columns do
not need; columns empty for every shown paper are hidden unless the user chose them; the
Relevance column of a search takes its width from the Title, never pushing a column off screen;
the reader shows at least 20 lines of a long abstract; what the user sets is remembered."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QHeaderView

from desktop_app.core.library import Library
from desktop_app.gui.paper_model import (
    COL_AUTHORS,
    COL_DECISION,
    COL_MARKS,
    COL_RATING,
    COL_RELEVANCE,
    COL_STATUS,
    COL_TAGS,
    COL_TITLE,
    COL_VENUE,
    COL_YEAR,
    COLUMNS,
)


def _shown(make_window, folder: Path, qtbot):
    win = make_window(folder)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    qtbot.waitUntil(lambda: not win.model.partial and win.table.header.filled is not None, timeout=5000)
    return win


def _visible(header: QHeaderView) -> set[int]:
    return {n for n in range(len(COLUMNS)) if not header.isSectionHidden(n)}


def test_the_title_takes_the_room_empty_columns_hide(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    header = win.table.horizontalHeader()
    # the seeds have no authors, tags, ratings, decisions or notes: those columns are not shown
    assert _visible(header) == {COL_TITLE, COL_VENUE, COL_YEAR, COL_STATUS}
    width = header.viewport().width()
    qtbot.waitUntil(lambda: header.sectionSize(COL_TITLE) >= 0.6 * width, timeout=3000)
    assert header.sectionResizeMode(COL_TITLE) == QHeaderView.ResizeMode.Stretch
    sample = "A transductive generalization of in-context learning for tabular"  # 64 characters
    assert header.sectionSize(COL_TITLE) > win.table.fontMetrics().horizontalAdvance(sample)

    # a tag on one paper: the Tags column comes; its undo: it goes again
    pid = win.current_id()
    win.edits.add_tags([pid], ["to-cite"])
    qtbot.waitUntil(lambda: not header.isSectionHidden(COL_TAGS), timeout=3000)
    win.undo_stack.undo()
    qtbot.waitUntil(lambda: header.isSectionHidden(COL_TAGS), timeout=3000)


def test_relevance_takes_its_width_from_the_title(make_window, seeded_dir: Path, qtbot) -> None:
    with Library.open(seeded_dir) as lib:
        ids = lib.query("").ids
        lib.papers.set_rating(ids[:2], 4)
        lib.tags.add(ids[:1], ["to-cite"])
        lib.papers.set_decision(ids[:1], "keep")
        lib.notes.set(ids[0], "see the appendix")
    win = _shown(make_window, seeded_dir, qtbot)
    header = win.table.horizontalHeader()
    chosen = {COL_TITLE, COL_VENUE, COL_YEAR, COL_STATUS, COL_RATING, COL_TAGS, COL_DECISION, COL_MARKS}
    assert _visible(header) == chosen
    qtbot.waitUntil(lambda: win.table.horizontalScrollBar().maximum() == 0, timeout=3000)
    before = header.sectionSize(COL_TITLE)

    win.search.box.setFocus()
    qtbot.keyClicks(win.search.box, "learning")
    win.search.apply_now()
    assert win.sort_key == "relevance" and not header.isSectionHidden(COL_RELEVANCE)
    qtbot.waitUntil(lambda: header.filled is not None and _visible(header) == chosen | {COL_RELEVANCE}, timeout=3000)
    qtbot.waitUntil(lambda: header.sectionSize(COL_TITLE) < before, timeout=3000)
    viewport = header.viewport().width()
    assert win.table.horizontalScrollBar().maximum() == 0  # nothing pushed off screen
    for col in _visible(header):
        assert header.sectionViewportPosition(col) + header.sectionSize(col) <= viewport, col
    assert abs(before - header.sectionSize(COL_TITLE) - header.sectionSize(COL_RELEVANCE)) <= 2


def _abstract_lines_shown(win) -> int:
    """Lines of the abstract's document laid out inside the reader's visible viewport."""
    view = win.reader.abstract
    doc, height = view.document(), view.viewport().height()
    top = view.verticalScrollBar().value()
    layout = doc.documentLayout()
    shown = 0
    block = doc.begin()
    while block.isValid():
        y = layout.blockBoundingRect(block).y()
        lines = block.layout()
        for n in range(lines.lineCount()):
            line = lines.lineAt(n)
            if top <= y + line.y() and y + line.y() + line.height() <= top + height:
                shown += 1
        block = block.next()
    return shown


def test_the_reader_shows_twenty_lines_of_a_long_abstract(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    longest = max(win.model.ids, key=lambda pid: len(win.library.papers.get(pid).abstract))
    assert len(win.library.papers.get(longest).abstract) > 1500
    win.select_paper(longest)
    win.follow.flush()
    # the related papers below the abstract take their room too
    qtbot.waitUntil(lambda: bool(win.similar.panel.buttons), timeout=30000)
    qtbot.wait(50)
    assert win.reader.abstract.verticalScrollBar().maximum() > 0  # longer than the view: the view is the limit
    assert _abstract_lines_shown(win) >= 20


def test_the_layout_the_user_sets_is_remembered(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    header = win.table.horizontalHeader()
    menu = win.table.column_menu()
    by_col = {a.data(): a for a in menu.actions()}
    assert not by_col[COL_AUTHORS].isChecked()  # empty here: not shown
    by_col[COL_AUTHORS].trigger()  # shown all the same: the user's choice
    by_col[COL_VENUE].trigger()  # and Venue hidden
    assert not header.isSectionHidden(COL_AUTHORS) and header.isSectionHidden(COL_VENUE)
    header.resizeSection(COL_AUTHORS, 150)
    win.reader.splitter.setSizes([300, 300])
    split = win.reader.splitter.sizes()
    make_window.close(win)

    again = _shown(make_window, seeded_dir, qtbot)
    header = again.table.horizontalHeader()
    assert not header.isSectionHidden(COL_AUTHORS) and header.isSectionHidden(COL_VENUE)
    assert header.sectionSize(COL_AUTHORS) == 150
    assert header.isSectionHidden(COL_TAGS)  # not chosen: still follows what the papers hold
    assert again.reader.splitter.sizes() == split
    again.edits.add_tags([again.current_id()], ["to-cite"])
    qtbot.waitUntil(lambda: not header.isSectionHidden(COL_TAGS), timeout=3000)
