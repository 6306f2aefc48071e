"""The paper table: the view of a PaperTableModel, with its header menu and selection helpers."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QItemSelectionModel, QPoint, Qt, Signal
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTableView, QWidget

from desktop_app.gui.paper_model import (
    COL_ADDED,
    COL_AUTHORS,
    COL_DECISION,
    COL_LIKELY,
    COL_MARKS,
    COL_MODIFIED,
    COL_RELEVANCE,
    COL_STATUS,
    COL_TAGS,
    COL_TITLE,
    COLUMNS,
    PaperIdRole,
    PaperTableModel,
    column_title,
)
from desktop_app.gui.tag_delegate import TagChipDelegate

SORT_KEYS = [c[1] for c in COLUMNS]
TITLE_MIN = 200  # below this the Title stops stretching and the table scrolls sideways instead
# 1: Qt's own state of the eight columns before Authors, Modified, Relevance; 2: before Decision;
# 3: before Likely keep
HEADER_STATE_VERSION = 4
_HEADER_MAGIC = b"MargHdr"


class PaperHeader(QHeaderView):
    """The table's header. Its saved state is versioned: a state saved with other columns (an
    older version, or Qt's bare state of version 1) is not restored, the defaults stay. The
    Relevance column is shown only while a text search is active, if the user wants it; that
    wish is part of the saved state."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.relevance_wanted = True
        self.search_active = False

    def saveState(self) -> QByteArray:  # noqa: N802
        head = _HEADER_MAGIC + bytes([HEADER_STATE_VERSION, int(self.relevance_wanted)])
        return QByteArray(head + bytes(super().saveState().data()))

    def restoreState(self, state: QByteArray | bytes) -> bool:  # noqa: N802
        data = bytes(state.data() if isinstance(state, QByteArray) else state)
        n = len(_HEADER_MAGIC)
        if len(data) < n + 2 or data[:n] != _HEADER_MAGIC or data[n] != HEADER_STATE_VERSION:
            return False  # another version's columns: the defaults stay
        if not super().restoreState(QByteArray(data[n + 2:])):
            return False
        self.relevance_wanted = bool(data[n + 1])
        self.showSection(COL_TITLE)  # never hidden
        self.apply_relevance()
        return True

    def apply_relevance(self) -> None:
        self.setSectionHidden(COL_RELEVANCE, not (self.relevance_wanted and self.search_active))
        self.fit_title()

    def fit_title(self) -> None:
        """The Title takes the width the other columns leave (Stretch), but never less than
        TITLE_MIN: when they leave less, it keeps TITLE_MIN and the table scrolls sideways."""
        others = sum(self.sectionSize(n) for n in range(self.count())
                     if n != COL_TITLE and not self.isSectionHidden(n))
        free = self.viewport().width() - others
        mode = QHeaderView.ResizeMode.Stretch if free >= TITLE_MIN else QHeaderView.ResizeMode.Interactive
        if self.sectionResizeMode(COL_TITLE) != mode:
            self.setSectionResizeMode(COL_TITLE, mode)
            if mode == QHeaderView.ResizeMode.Interactive:
                self.resizeSection(COL_TITLE, TITLE_MIN)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self.fit_title()

    def set_column_shown(self, column: int, shown: bool) -> None:
        """The column chooser's choice (Title cannot be hidden)."""
        if column == COL_TITLE:
            return
        if column == COL_RELEVANCE:
            self.relevance_wanted = shown
            self.apply_relevance()
        else:
            self.setSectionHidden(column, not shown)
            self.fit_title()

    def column_shown(self, column: int) -> bool:
        """Whether the chooser shows this column as chosen (Relevance: wanted during searches)."""
        return self.relevance_wanted if column == COL_RELEVANCE else not self.isSectionHidden(column)


class PaperTable(QTableView):
    """Rows of papers. ``currentPaperChanged`` fires when the current row changes and whenever
    :meth:`select_row` is called (so that the reader shows the paper afresh)."""

    currentPaperChanged = Signal()  # noqa: N815

    def __init__(self, model: PaperTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.paper_model = model
        self.setObjectName("paperTable")
        self.setAccessibleName(self.tr("Papers"))
        self.setModel(model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setTabKeyNavigation(False)  # Tab leaves the table (issue 15); arrows move between cells
        self.setAlternatingRowColors(True)
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        self.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.setDropIndicatorShown(True)
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(26)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setItemDelegateForColumn(COL_TAGS, TagChipDelegate(model.tag_color, self))
        header = PaperHeader(self)
        self.setHorizontalHeader(header)
        self.header = header
        header.setSectionsMovable(True)
        header.setSortIndicatorShown(True)
        header.setSectionsClickable(True)
        header.setStretchLastSection(False)
        header.setHighlightSections(False)
        for n, (_, _, width) in enumerate(COLUMNS):
            header.resizeSection(n, width)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # the Title takes the width the other columns leave
        header.setSectionResizeMode(COL_TITLE, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(30)
        header.moveSection(header.visualIndex(COL_AUTHORS), 1)  # Title, Authors, Venue, …
        header.moveSection(header.visualIndex(COL_RELEVANCE), 1)  # while searching: Title, Relevance, …
        header.moveSection(header.visualIndex(COL_DECISION), header.visualIndex(COL_STATUS) + 1)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._header_menu)
        header.hideSection(COL_ADDED)  # shown again from the header's menu
        header.hideSection(COL_MODIFIED)
        header.hideSection(COL_LIKELY)  # the learned order's score: from the header's menu
        header.sectionResized.connect(lambda n, _old, _new: n != COL_TITLE and header.fit_title())
        header.apply_relevance()
        header.setSortIndicator(SORT_KEYS.index("added"), Qt.SortOrder.AscendingOrder)
        self.selectionModel().currentRowChanged.connect(lambda *_: self.currentPaperChanged.emit())

    def column_menu(self) -> QMenu:
        """The column chooser: a checkable entry per column, in the order shown; Title is always
        shown (its entry is checked and disabled); Relevance shows during text searches."""
        header = self.header
        menu = QMenu(self)
        menu.setObjectName("columnChooser")
        for n in sorted(range(len(COLUMNS)), key=header.visualIndex):
            label = column_title(n)
            text = {COL_MARKS: self.tr("Highlights and note"), COL_RELEVANCE: self.tr("Relevance (while searching)")}.get(n, label)
            act = menu.addAction(text)
            act.setCheckable(True)
            act.setChecked(header.column_shown(n))
            act.setData(n)
            if n == COL_TITLE:
                act.setEnabled(False)
            act.toggled.connect(lambda on, n=n: header.set_column_shown(n, on))
        return menu

    def _header_menu(self, pos: QPoint) -> None:
        """Right-click on the header: choose the columns."""
        self.column_menu().exec(self.header.mapToGlobal(pos))

    def set_search_active(self, active: bool) -> None:
        """A text search is shown (or not): the Relevance column follows."""
        if active != self.header.search_active:
            self.header.search_active = active
            self.header.apply_relevance()

    def show_sort(self, key: str, desc: bool) -> None:
        """Show the sort indicator for ``key`` without emitting ``sortIndicatorChanged``."""
        header = self.horizontalHeader()
        header.blockSignals(True)
        if key in SORT_KEYS:
            order = Qt.SortOrder.DescendingOrder if desc else Qt.SortOrder.AscendingOrder
            header.setSortIndicator(SORT_KEYS.index(key), order)
        else:
            header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        header.blockSignals(False)

    # ---- selection -------------------------------------------------------------------------
    def current_id(self) -> int | None:
        idx = self.currentIndex()
        if not idx.isValid():
            return None
        return self.paper_model.data(idx, PaperIdRole)

    def selected_ids(self) -> list[int]:
        """The selected papers in table order; the current paper when nothing is selected."""
        rows = sorted({i.row() for i in self.selectionModel().selectedRows()})
        ids = [self.paper_model.paper_id(r) for r in rows]
        cur = self.current_id()
        if not ids and cur is not None:
            ids = [cur]
        return ids

    def select_ids(self, ids: list[int]) -> int:
        """Select these papers (those the table shows), the first of them current; how many."""
        from PySide6.QtCore import QItemSelection, QItemSelectionModel

        rows = sorted(r for r in (self.paper_model.row_of(pid) for pid in ids) if r >= 0)
        if not rows:
            return 0
        selection = QItemSelection()
        last = self.paper_model.columnCount() - 1
        start = prev = rows[0]
        for r in [*rows[1:], None]:  # contiguous runs, one range each
            if r is not None and r == prev + 1:
                prev = r
                continue
            selection.select(self.paper_model.index(start, 0), self.paper_model.index(prev, last))
            if r is not None:
                start = prev = r
        sm = self.selectionModel()
        sm.setCurrentIndex(self.paper_model.index(rows[0], 0), QItemSelectionModel.SelectionFlag.NoUpdate)
        sm.select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        self.scrollTo(self.paper_model.index(rows[0], 0))
        return len(rows)

    def edit_targets(self, pid: int) -> list[int]:
        """The papers an edit in the reader applies to: the selection when it includes the
        shown paper, else just that paper."""
        sel = self.selected_ids()
        return sel if pid in sel else [pid]

    def select_row(self, row: int) -> None:
        idx = self.paper_model.index(row, 0)
        self.selectionModel().setCurrentIndex(
            idx, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        self.scrollTo(idx)
        self.currentPaperChanged.emit()

    def next_paper(self) -> None:
        row = self.currentIndex().row()
        if row + 1 < self.paper_model.rowCount():
            self.select_row(row + 1)

    def prev_paper(self) -> None:
        row = self.currentIndex().row()
        if row > 0:
            self.select_row(row - 1)

    def first_paper(self) -> None:
        if self.paper_model.rowCount():
            self.select_row(0)

    def last_paper(self) -> None:
        if self.paper_model.rowCount():
            self.select_row(self.paper_model.rowCount() - 1)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        """Home and End go to the first and last paper (a table's own go to the row's first and
        last cell); with Shift or Ctrl they keep the view's usual meaning."""
        plain = not (event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier)
        if plain and event.key() == Qt.Key.Key_Home:
            self.first_paper()
        elif plain and event.key() == Qt.Key.Key_End:
            self.last_paper()
        else:
            super().keyPressEvent(event)

    def select_paper(self, pid: int) -> bool:
        row = self.paper_model.row_of(pid)
        if row >= 0:
            self.select_row(row)
        return row >= 0
