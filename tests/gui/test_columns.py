"""The table's columns: Authors, Modified, Relevance (the default sort while searching), the
stretching Title, the column chooser, and a saved header state across versions."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import QByteArray, QLocale, Qt
from PySide6.QtWidgets import QHeaderView, QTableView
from sqlalchemy import event

from desktop_app.core.library import Library
from desktop_app.gui.paper_model import (
    COL_ADDED,
    COL_AUTHORS,
    COL_MODIFIED,
    COL_RELEVANCE,
    COL_TITLE,
    COL_VENUE,
    COL_YEAR,
    COLUMNS,
    PAGE,
    PaperTableModel,
)
from desktop_app.gui.paper_table import SORT_KEYS, TITLE_MIN


def _cell(win, row: int, col: int) -> str:
    return win.model.data(win.model.index(row, col))


def _shown_wide(win, qtbot) -> None:
    win.resize(1800, 900)
    win.show()
    qtbot.waitExposed(win)


def _search(win, qtbot, text: str) -> None:
    win.search.box.setFocus()
    win.search.box.clear()
    qtbot.keyClicks(win.search.box, text)
    win.search.apply_now()


def test_authors_column_two_surnames_then_et_al(make_window, seeded_dir: Path) -> None:
    with Library.open(seeded_dir) as lib:
        a, b, c = lib.query("").ids[:3]
        lib.papers.update_metadata(a, {"authors": ["Vaswani, Ashish", "Shazeer, Noam", "Parmar, Niki"]})
        lib.papers.update_metadata(b, {"authors": ["Bengio, Yoshua"]})
        lib.papers.update_metadata(c, {"authors": ["Hinton, Geoffrey", "LeCun, Yann"]})
        none = lib.query("").ids[3]
        assert lib.papers.get(none).authors == []
    win = make_window(seeded_dir)
    row = win.model.row_of
    assert _cell(win, row(a), COL_AUTHORS) == "Vaswani, Shazeer et al."
    assert _cell(win, row(b), COL_AUTHORS) == "Bengio"
    assert _cell(win, row(c), COL_AUTHORS) == "Hinton, LeCun"
    assert _cell(win, row(none), COL_AUTHORS) == ""
    tip = win.model.data(win.model.index(row(a), COL_AUTHORS), Qt.ItemDataRole.ToolTipRole)
    assert "Parmar, Niki" in tip
    # shown right after the Title by default, and sortable by the first author
    header = win.table.horizontalHeader()
    assert header.visualIndex(COL_AUTHORS) == 2 and not header.isSectionHidden(COL_AUTHORS)
    win.on_sort_changed(COL_AUTHORS, Qt.SortOrder.AscendingOrder)
    assert win.sort_key == "authors"
    firsts = [_cell(win, r, COL_AUTHORS) for r in range(3)]
    assert firsts == ["Bengio", "Hinton, LeCun", "Vaswani, Shazeer et al."]


def test_the_authors_come_from_the_page_query(tmp_path: Path, seeded_dir: Path, qtbot) -> None:
    """A page of rows is one query, Authors and Modified cells included (no query per row)."""
    with Library.open(seeded_dir) as lib:
        model = PaperTableModel(lib)
        model.set_ids(lib.query("").ids)
        statements: list[str] = []
        listener = lambda *args: statements.append(args[2])  # noqa: E731
        event.listen(lib.store.engine, "before_cursor_execute", listener)
        try:
            cells = [
                model.data(model.index(r, c))
                for r in range(model.rowCount())
                for c in (COL_TITLE, COL_AUTHORS, COL_MODIFIED, COL_RELEVANCE)
            ]
        finally:
            event.remove(lib.store.engine, "before_cursor_execute", listener)
        assert model.rowCount() == 76 <= PAGE
        assert len([s for s in statements if "authors_json" in s]) == 1, statements
        assert all(isinstance(c, str) for c in cells)


def test_modified_shows_the_locale_short_date(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    header = win.table.horizontalHeader()
    assert header.isSectionHidden(COL_MODIFIED)  # offered by the column chooser
    menu = win.table.column_menu()
    act = next(a for a in menu.actions() if a.data() == COL_MODIFIED)
    act.trigger()
    assert not header.isSectionHidden(COL_MODIFIED)
    pid = win.model.paper_id(5)
    today = QLocale().toString(datetime.now(UTC).astimezone().date(), QLocale.FormatType.ShortFormat)
    assert _cell(win, 5, COL_MODIFIED) == today
    # sorted by Modified (ascending), the paper just edited comes last
    win.on_sort_changed(COL_MODIFIED, Qt.SortOrder.AscendingOrder)
    assert win.sort_key == "updated"
    win.library.papers.update_metadata(pid, {"venue": "Edited just now"})
    win.refresh_query()
    assert win.model.paper_id(win.model.rowCount() - 1) == pid


def fill_every_column(folder: Path) -> None:
    """One paper with authors, a tag, a rating, a decision and a note: no column is empty."""
    with Library.open(folder) as lib:
        pid = lib.query("").ids[0]
        lib.papers.update_metadata(pid, {"authors": ["Vaswani, Ashish", "Shazeer, Noam"]})
        lib.tags.add([pid], ["to-cite"])
        lib.papers.set_rating([pid], 4)
        lib.papers.set_decision([pid], "keep")
        lib.notes.set(pid, "read again")


def test_title_stretches_and_the_rest_are_interactive(make_window, seeded_dir: Path, qtbot) -> None:
    fill_every_column(seeded_dir)
    win = make_window(seeded_dir)
    _shown_wide(win, qtbot)
    header = win.table.horizontalHeader()
    assert header.sectionResizeMode(COL_TITLE) == QHeaderView.ResizeMode.Stretch
    assert header.sectionResizeMode(COL_VENUE) == QHeaderView.ResizeMode.Interactive
    shown = [n for n in range(len(COLUMNS)) if not header.isSectionHidden(n)]
    qtbot.waitUntil(
        lambda: abs(sum(header.sectionSize(n) for n in shown) - header.viewport().width()) <= 2, timeout=3000
    )
    assert header.sectionSize(COL_TITLE) > 300  # no empty space beside a 300 px title any more
    wide = header.sectionSize(COL_TITLE)
    win.resize(1300, 900)
    qtbot.waitUntil(lambda: header.sectionSize(COL_TITLE) < wide, timeout=3000)
    # too narrow for the columns: the Title keeps TITLE_MIN and the table scrolls sideways
    win.splitter.setSizes([200, 500, 600])
    qtbot.waitUntil(lambda: header.sectionResizeMode(COL_TITLE) == QHeaderView.ResizeMode.Interactive, timeout=3000)
    assert header.sectionSize(COL_TITLE) == TITLE_MIN
    assert win.table.horizontalScrollBar().maximum() > 0
    win.resize(1800, 900)
    win.splitter.setSizes([200, 1100, 500])
    qtbot.waitUntil(lambda: header.sectionResizeMode(COL_TITLE) == QHeaderView.ResizeMode.Stretch, timeout=3000)


def test_relevance_is_the_sort_while_searching(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    header = win.table.horizontalHeader()
    win.on_sort_changed(COL_TITLE, Qt.SortOrder.AscendingOrder)
    assert (win.sort_key, win.sort_desc) == ("title", False)
    assert header.isSectionHidden(COL_RELEVANCE)  # nothing to score without search text

    _search(win, qtbot, "in-context learning")
    assert win.sort_key == "relevance" and header.sortIndicatorSection() == COL_RELEVANCE
    assert not header.isSectionHidden(COL_RELEVANCE)
    n = win.model.rowCount()
    assert n > 2
    scores = [win.model.scores[win.model.paper_id(r)] for r in range(n) if win.model.paper_id(r) in win.model.scores]
    assert scores and scores == sorted(scores, reverse=True)  # the best first
    assert _cell(win, 0, COL_RELEVANCE) == "100%"
    assert "BM25F" in win.model.data(win.model.index(0, COL_RELEVANCE), Qt.ItemDataRole.ToolTipRole)

    # the search cleared: the sort from before it comes back, the column goes
    qtbot.keyClick(win.search.box, Qt.Key.Key_Escape)
    assert (win.sort_key, win.sort_desc) == ("title", False)
    assert header.sortIndicatorSection() == COL_TITLE
    assert header.isSectionHidden(COL_RELEVANCE)
    assert win.model.scores == {} and _cell(win, 0, COL_RELEVANCE) == ""

    # a sort the user picks during a search stands for that search (and after it)
    _search(win, qtbot, "transformer")
    assert win.sort_key == "relevance"
    win.on_sort_changed(COL_YEAR, Qt.SortOrder.DescendingOrder)
    _search(win, qtbot, "transformers")  # typing on: still the user's sort
    assert (win.sort_key, win.sort_desc) == ("year", True)
    qtbot.keyClick(win.search.box, Qt.Key.Key_Escape)
    assert (win.sort_key, win.sort_desc) == ("year", True)


def test_column_chooser_is_saved_and_title_cannot_be_hidden(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    menu = win.table.column_menu()
    by_col = {a.data(): a for a in menu.actions()}
    assert set(by_col) == set(range(len(COLUMNS)))
    assert by_col[COL_TITLE].isChecked() and not by_col[COL_TITLE].isEnabled()
    assert by_col[COL_RELEVANCE].text() == "Relevance (while searching)"
    assert [a.data() for a in menu.actions()][:3] == [COL_TITLE, COL_RELEVANCE, COL_AUTHORS]  # the order shown
    by_col[COL_VENUE].trigger()  # hide Venue
    by_col[COL_ADDED].trigger()  # show Added
    by_col[COL_RELEVANCE].trigger()  # no Relevance, even while searching
    header = win.table.horizontalHeader()
    assert header.isSectionHidden(COL_VENUE) and not header.isSectionHidden(COL_ADDED)
    win.table.header.set_column_shown(COL_TITLE, False)
    assert not header.isSectionHidden(COL_TITLE)
    make_window.close(win)

    again = make_window(seeded_dir)
    _shown_wide(again, qtbot)
    header = again.table.horizontalHeader()
    assert header.isSectionHidden(COL_VENUE) and not header.isSectionHidden(COL_ADDED)
    assert header.visualIndex(COL_AUTHORS) == 2
    assert header.sectionResizeMode(COL_TITLE) == QHeaderView.ResizeMode.Stretch
    again.search.set_text("transformer")
    again.search.apply_now()
    assert again.sort_key == "relevance" and header.isSectionHidden(COL_RELEVANCE)


def test_an_old_saved_header_state_does_not_break_the_new_columns(
    make_window, seeded_dir: Path, settings, qtbot
) -> None:
    # the state an earlier version saved: Qt's own, of a header with the eight old columns
    old_view = QTableView()
    from PySide6.QtGui import QStandardItemModel

    old_model = QStandardItemModel(1, 8)
    old_view.setModel(old_model)
    old_header = old_view.horizontalHeader()
    old_header.resizeSection(0, 300)
    old_header.hideSection(1)
    old_header.moveSection(5, 0)
    settings.setValue("table/header", old_header.saveState())
    settings.sync()
    win = make_window(seeded_dir)
    _shown_wide(win, qtbot)
    header = win.table.horizontalHeader()
    # the defaults, not a shuffle of the new columns
    assert header.visualIndex(COL_TITLE) == 0 and header.visualIndex(COL_AUTHORS) == 2
    assert not header.isSectionHidden(COL_VENUE)
    assert header.isSectionHidden(COL_AUTHORS)  # the default for a column no seed paper fills
    assert header.sectionResizeMode(COL_TITLE) == QHeaderView.ResizeMode.Stretch
    assert not win.table.header.restoreState(QByteArray(b"garbage"))
    assert header.count() == len(COLUMNS) == len(SORT_KEYS)
