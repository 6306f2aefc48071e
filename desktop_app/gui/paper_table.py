"""The paper table: the view of a PaperTableModel, with its header menu and selection helpers."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QPoint, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTableView, QWidget

from desktop_app.gui.paper_model import COL_ADDED, COL_TAGS, COLUMNS, PaperIdRole, PaperTableModel
from desktop_app.gui.tag_delegate import TagChipDelegate

SORT_KEYS = [c[1] for c in COLUMNS]


class PaperTable(QTableView):
    """Rows of papers. ``currentPaperChanged`` fires when the current row changes and whenever
    :meth:`select_row` is called (so that the reader shows the paper afresh)."""

    currentPaperChanged = Signal()  # noqa: N815

    def __init__(self, model: PaperTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.paper_model = model
        self.setObjectName("paperTable")
        self.setAccessibleName("Papers")
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
        header = self.horizontalHeader()
        header.setSectionsMovable(True)
        header.setSortIndicatorShown(True)
        header.setSectionsClickable(True)
        header.setStretchLastSection(False)
        header.setHighlightSections(False)
        for n, (_, _, width) in enumerate(COLUMNS):
            header.resizeSection(n, width)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._header_menu)
        header.hideSection(COL_ADDED)  # shown again from the header's menu
        header.setSortIndicator(SORT_KEYS.index("added"), Qt.SortOrder.AscendingOrder)
        self.selectionModel().currentRowChanged.connect(lambda *_: self.currentPaperChanged.emit())

    def _header_menu(self, pos: QPoint) -> None:
        """Right-click on the header: show or hide columns."""
        header = self.horizontalHeader()
        menu = QMenu(self)
        for n, (label, _, _) in enumerate(COLUMNS):
            if n == 0:
                continue
            act = menu.addAction("Highlights and note" if label == "✎" else label)
            act.setCheckable(True)
            act.setChecked(not header.isSectionHidden(n))
            act.toggled.connect(lambda on, n=n: header.setSectionHidden(n, not on))
        menu.exec(header.mapToGlobal(pos))

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

    def select_paper(self, pid: int) -> bool:
        row = self.paper_model.row_of(pid)
        if row >= 0:
            self.select_row(row)
        return row >= 0
