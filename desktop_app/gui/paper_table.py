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
    COL_RATING,
    COL_RELEVANCE,
    COL_STATUS,
    COL_TAGS,
    COL_TITLE,
    COL_VENUE,
    COL_YEAR,
    COLUMNS,
    PaperIdRole,
    PaperTableModel,
    column_title,
)
from desktop_app.gui.tag_delegate import TagChipDelegate

SORT_KEYS = [c[1] for c in COLUMNS]
TITLE_MIN = 200  # below this the Title stops stretching and the table scrolls sideways instead
# 1: Qt's own state of the eight columns before Authors, Modified, Relevance; 2: before Decision;
# 3: before Likely keep; 4: before the columns shown by what they hold (read still: its hidden
# columns become the user's choices); 5: the user's choices saved beside Qt's state
HEADER_STATE_VERSION = 5
_READABLE_VERSIONS = (4, 5)
_HEADER_MAGIC = b"MargHdr"
# the columns shown only when a paper shown has something in them, unless the user chose
# (core/papers.py FILLABLE names the fields)
FILLED_BY = {
    COL_AUTHORS: "authors",
    COL_VENUE: "venue",
    COL_YEAR: "year",
    COL_RATING: "rating",
    COL_DECISION: "decision",
    COL_TAGS: "tags",
    COL_MARKS: "marks",
}
HIDDEN_BY_DEFAULT = frozenset((COL_ADDED, COL_MODIFIED, COL_LIKELY))  # shown from the header's menu


class PaperHeader(QHeaderView):
    """The table's header. Which columns show: the user's choice for a column they chose in the
    column chooser; else a column of FILLED_BY shows when one of the papers shown has something
    in it (``set_filled``), and the HIDDEN_BY_DEFAULT ones stay hidden. The Relevance column is
    shown only while a text search is active, if the user wants it, and takes its width from
    the Title, never from another column. The choices are part of the saved state, which is
    versioned: a state saved with other columns is not restored, the defaults stay."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.relevance_wanted = True
        self.search_active = False
        self.chosen: dict[int, bool] = {}  # column -> shown, as the user chose
        self.filled: frozenset[str] | None = None  # the fields the shown papers have (None: not known yet)

    def saveState(self) -> QByteArray:  # noqa: N802
        choices = bytes(b for n, on in sorted(self.chosen.items()) for b in (n, int(on)))
        head = _HEADER_MAGIC + bytes([HEADER_STATE_VERSION, int(self.relevance_wanted), len(self.chosen)])
        return QByteArray(head + choices + bytes(super().saveState().data()))

    def restoreState(self, state: QByteArray | bytes | bytearray | memoryview) -> bool:  # noqa: N802
        data = bytes(state.data() if isinstance(state, QByteArray) else state)
        n = len(_HEADER_MAGIC)
        if len(data) < n + 2 or data[:n] != _HEADER_MAGIC or data[n] not in _READABLE_VERSIONS:
            return False  # another version's columns: the defaults stay
        version, wanted = data[n], bool(data[n + 1])
        chosen: dict[int, bool] = {}
        rest = data[n + 2 :]
        if version == 5:
            if not rest or len(rest) < 1 + 2 * rest[0]:
                return False
            k = rest[0]
            chosen = {rest[1 + 2 * i]: bool(rest[2 + 2 * i]) for i in range(k) if rest[1 + 2 * i] < len(COLUMNS)}
            rest = rest[1 + 2 * k :]
        if not super().restoreState(QByteArray(rest)):
            return False
        if version == 4:  # every column was the user's to show or hide: what differs from the defaults was chosen
            chosen = {
                c: not self.isSectionHidden(c)
                for c in range(len(COLUMNS))
                if c not in (COL_TITLE, COL_RELEVANCE) and self.isSectionHidden(c) != (c in HIDDEN_BY_DEFAULT)
            }
        self.relevance_wanted = wanted
        self.chosen = chosen
        self.apply_visibility()
        return True

    def shown_by_default(self, column: int) -> bool:
        """Whether ``column`` shows when the user has not chosen."""
        if column in FILLED_BY:
            return self.filled is None or FILLED_BY[column] in self.filled
        return column not in HIDDEN_BY_DEFAULT

    def wanted(self, column: int) -> bool:
        """Whether ``column`` shows now (Relevance: during a text search, if wanted)."""
        if column == COL_TITLE:
            return True
        if column == COL_RELEVANCE:
            return self.relevance_wanted and self.search_active
        return self.chosen.get(column, self.shown_by_default(column))

    def apply_visibility(self) -> None:
        for column in range(self.count()):
            hidden = not self.wanted(column)
            if self.isSectionHidden(column) != hidden:
                self.setSectionHidden(column, hidden)
        self.fit_title()

    def apply_relevance(self) -> None:
        self.apply_visibility()

    def set_filled(self, filled: frozenset[str]) -> None:
        """The fields the papers shown have: the columns without any follow, unless chosen."""
        if filled != self.filled:
            self.filled = filled
            self.apply_visibility()

    def fit_title(self) -> None:
        """The Title takes the width the other columns leave (Stretch), but never less than
        TITLE_MIN: when they leave less, it keeps TITLE_MIN and the table scrolls sideways. The
        Relevance column of a search is not counted: it takes its width from the Title's."""
        others = sum(
            self.sectionSize(n)
            for n in range(self.count())
            if n not in (COL_TITLE, COL_RELEVANCE) and not self.isSectionHidden(n)
        )
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
        """The column chooser's choice (Title cannot be hidden); remembered as the user's."""
        if column == COL_TITLE:
            return
        if column == COL_RELEVANCE:
            self.relevance_wanted = shown
        else:
            self.chosen[column] = shown
        self.apply_visibility()

    def column_shown(self, column: int) -> bool:
        """Whether the chooser shows this column as chosen (Relevance: wanted during searches)."""
        return self.relevance_wanted if column == COL_RELEVANCE else self.wanted(column)


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
        self.setTabKeyNavigation(False)  # Tab leaves the table for the reader; arrows move between cells
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

        def title_fits(n: int, _old: int, _new: int) -> None:
            if n != COL_TITLE:
                header.fit_title()

        header.sectionResized.connect(title_fits)
        header.apply_visibility()  # Added, Modified and Likely keep hidden: shown from the header's menu
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
            text = {
                COL_MARKS: self.tr("Highlights and note"),
                COL_RELEVANCE: self.tr("Relevance (while searching)"),
            }.get(n, label)
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
        pid: int | None = self.paper_model.data(idx, PaperIdRole)
        return pid

    def selected_ids(self) -> list[int]:
        """The selected papers in table order; the current paper when nothing is selected."""
        # the selection's row ranges, merged, as slices of the model's ids (not selectedRows():
        # 0.8 s at 10,000; not row by row: 125 ms at 100,000)
        selection = self.selectionModel().selection()
        # a list of ranges, which the stub does not say
        spans = sorted((rng.top(), rng.bottom()) for rng in selection)  # type: ignore[attr-defined]
        ids: list[int] = []
        shown = self.paper_model.ids
        end = -1  # the last row taken
        for top, bottom in spans:
            if bottom > end:
                ids.extend(shown[max(top, end + 1) : bottom + 1])
                end = bottom
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
            idx, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
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
