"""The paper table's model: it holds only the ids of the current result and fetches rows on
demand, a page at a time, with a small cache. 100,000 papers open as fast as 100."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QDateTime,
    QLocale,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimeZone,
    Signal,
)
from PySide6.QtGui import QColor, QFont
from sqlalchemy.exc import DatabaseError

from desktop_app.core.errors import ServerUnreachable
from desktop_app.core.library import Library
from desktop_app.core.store.backups import is_damage
from desktop_app.core.values import PaperRow
from desktop_app.gui import i18n, theme
from desktop_app.gui.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from PySide6.QtCore import QMimeData

PAGE = 200
PAGES_CACHED = 40
COLUMNS = [
    # (header, sort key, width)
    (QT_TRANSLATE_NOOP("PaperModel", "Title"), "title", 300),
    (QT_TRANSLATE_NOOP("PaperModel", "Venue"), "venue", 70),
    (QT_TRANSLATE_NOOP("PaperModel", "Year"), "year", 48),
    (QT_TRANSLATE_NOOP("PaperModel", "Tags"), None, 110),
    (QT_TRANSLATE_NOOP("PaperModel", "Status"), "status", 68),
    (QT_TRANSLATE_NOOP("PaperModel", "Rating"), "rating", 74),
    ("✎", None, 34),
    (QT_TRANSLATE_NOOP("PaperModel", "Added"), "added", 120),
    # appended, so that the columns above keep their numbers; the table shows Authors after Title
    (QT_TRANSLATE_NOOP("PaperModel", "Authors"), "authors", 120),
    (QT_TRANSLATE_NOOP("PaperModel", "Modified"), "updated", 86),
    (
        QT_TRANSLATE_NOOP("PaperModel", "Relevance"),
        "relevance",
        88,
    ),  # the search's score: shown while a text search is active
    (QT_TRANSLATE_NOOP("PaperModel", "Decision"), "decision", 74),  # keep / maybe / skip; shown after Status
    (QT_TRANSLATE_NOOP("PaperModel", "Likely keep"), "likely", 84),  # the learned triage order (gui/likely_sort.py)
]
(
    COL_TITLE,
    COL_VENUE,
    COL_YEAR,
    COL_TAGS,
    COL_STATUS,
    COL_RATING,
    COL_MARKS,
    COL_ADDED,
    COL_AUTHORS,
    COL_MODIFIED,
    COL_RELEVANCE,
    COL_DECISION,
    COL_LIKELY,
) = range(len(COLUMNS))
STATUS_LABEL = {"unread": "Unread", "skimmed": "Skimmed", "read": "Read"}
PaperIdRole = Qt.ItemDataRole.UserRole + 1
TagsRole = Qt.ItemDataRole.UserRole + 2

Index = QModelIndex | QPersistentModelIndex

# data() is called for every role of every painted cell (~1,700 calls a screen): the roles it
# answers as a set of ints (Qt passes ints), and the item flags computed once
_ANSWERED_ROLES = frozenset(
    int(r)
    for r in (
        Qt.ItemDataRole.DisplayRole,
        Qt.ItemDataRole.ToolTipRole,
        Qt.ItemDataRole.FontRole,
        Qt.ItemDataRole.ForegroundRole,
        TagsRole,
        Qt.ItemDataRole.TextAlignmentRole,
        Qt.ItemDataRole.AccessibleTextRole,
        PaperIdRole,
    )
)
_FONT, _FOREGROUND, _ALIGNMENT, _TOOLTIP = (
    int(Qt.ItemDataRole.FontRole),
    int(Qt.ItemDataRole.ForegroundRole),
    int(Qt.ItemDataRole.TextAlignmentRole),
    int(Qt.ItemDataRole.ToolTipRole),
)
_CENTER = int(Qt.AlignmentFlag.AlignCenter)
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_ITEM_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled
_DROP_FLAGS = _ITEM_FLAGS | Qt.ItemFlag.ItemIsDropEnabled


# more changed papers than this: every cached page is dropped (the shown ones are read again when
# painted) instead of building the id -> row map and dropping pages one by one (0.1 s at 100,000)
MANY_CHANGED = 2000


class RowIndex:
    """Paper id -> row of a list of ids, as two numpy arrays: 1.6 MB at 100,000 rows, where a
    dict was 8 MB of the window's heap."""

    def __init__(self, ids: list[int]) -> None:
        import numpy as np  # not at start-up: the window opens without numpy

        self._np = np
        values = np.fromiter(ids, dtype=np.int64, count=len(ids))
        self._order = np.argsort(values, kind="stable")
        self._sorted = values[self._order]

    def rows(self, paper_ids: tuple[int, ...] | list[int]) -> list[int]:
        """The rows of those of ``paper_ids`` the list holds (the first, if one is there twice)."""
        np = self._np
        if not len(self._sorted) or not paper_ids:
            return []
        wanted = np.fromiter(paper_ids, dtype=np.int64, count=len(paper_ids))
        at = np.minimum(np.searchsorted(self._sorted, wanted), len(self._sorted) - 1)
        found = self._sorted[at] == wanted
        return [int(r) for r in self._order[at[found]].tolist()]

    def get(self, paper_id: int, default: int = -1) -> int:
        rows = self.rows([paper_id])
        return rows[0] if rows else default


class PaperTableModel(QAbstractTableModel):
    reorderRequested = Signal(list, int)  # noqa: N815  paper ids, target row (list view only)
    damaged = Signal(str)  # reading rows found the database damaged (emitted once)

    def __init__(self, library: Library, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.library = library
        self.ids: list[int] = []
        self.total = 0
        self.partial = False  # the first rows of a longer list, the rest follows (complete())
        self._pos_map: RowIndex | None = None  # paper id -> row, built when first needed
        self._scanned = False  # row_of answered once by a scan since set_ids
        self._pages: OrderedDict[int, dict[int, PaperRow]] = OrderedDict()
        self._newest = -1  # the page last read: the last of _pages when it is there
        self._tag_colors: dict[str, str] = {}
        self._damage_said = False
        self.reorderable = False  # True while a reading list is shown in its own order
        self._bold = QFont()
        self._bold.setBold(True)
        self._grey = (-1, QColor())  # (theme generation, the theme's muted text colour)
        self.scores: dict[int, float] = {}  # the text search's scores (BM25F) of its best papers
        self.likely: dict[int, float] = {}  # undecided papers' learned score (share of the library outranked)
        self._best = 0.0
        self._dates: dict[str, str] = {}  # stored UTC time -> the locale's short local date

    def _muted(self) -> QColor:
        gen = theme.generation()
        if self._grey[0] != gen:
            self._grey = (gen, QColor(theme.colors().muted))
        return self._grey[1]

    # ---- content ---------------------------------------------------------------------------
    def set_ids(
        self, ids: list[int], total: int | None = None, *, partial: bool = False, scores: dict[int, float] | None = None
    ) -> None:
        """Show these papers. ``partial``: they are only the first rows of the result, and
        :meth:`complete` brings the whole list later without disturbing the view. ``scores``:
        the text search's relevance scores (QueryResult.scores), shown in the Relevance column."""
        self.beginResetModel()
        self.set_scores(scores or {})
        self.ids = list(ids)
        self.total = total if total is not None else len(ids)
        self.partial = partial
        self._pages.clear()
        self._pos_map = None  # 70,000 ids of a search: ~10 ms a keystroke saved until a lookup needs it
        self._scanned = False
        self.endResetModel()

    def complete(self, ids: list[int]) -> bool:
        """The whole list of a partial result. When the rows shown are its beginning (the usual
        case) the rest is appended as inserted rows: the view keeps its selection and scroll
        position, and no row is read again. Otherwise (the library changed meanwhile) the model is
        reset; False then, and the caller selects again."""
        n = len(self.ids)
        self.partial = False
        if ids[:n] != self.ids:
            self.set_ids(ids)
            return False
        if len(ids) > n:
            self.beginInsertRows(QModelIndex(), n, len(ids) - 1)
            if n % PAGE:
                self._pages.pop(n // PAGE, None)  # read short: it is read again in full
            self.ids.extend(ids[n:])
            self._pos_map = None  # built again when a lookup needs it
            self.total = len(self.ids)
            self.endInsertRows()
        return True

    def set_scores(self, scores: dict[int, float]) -> None:
        """The relevance scores of the papers shown (empty when no text search ranks them)."""
        self.scores = scores
        self._best = max(scores.values(), default=0.0)

    def relevance(self, paper_id: int) -> str:
        """The score as a share of the best one ("100%", "62%"); empty when unranked."""
        score = self.scores.get(paper_id)
        if score is None or self._best <= 0:
            return ""
        return f"{max(1, round(100 * score / self._best))}%"

    def short_date(self, stored: str) -> str:
        """A stored UTC time ("2026-11-30 17:04:05") as the locale's short date, local time."""
        shown = self._dates.get(stored)
        if shown is None:
            if len(self._dates) > 20000:
                self._dates.clear()
            when = QDateTime.fromString(stored[:19], "yyyy-MM-dd HH:mm:ss")
            when.setTimeZone(QTimeZone.utc())
            shown = (
                QLocale().toString(when.toLocalTime().date(), QLocale.FormatType.ShortFormat)
                if when.isValid()
                else stored[:10]
            )
            self._dates[stored] = shown
        return shown

    def set_tag_colors(self, colors: dict[str, str]) -> None:
        self._tag_colors = colors

    def tag_colors(self) -> dict[str, str]:
        return dict(self._tag_colors)

    def tag_color(self, name: str) -> str:
        return self._tag_colors.get(name, "")

    @property
    def _pos(self) -> RowIndex:
        if self._pos_map is None:
            self._pos_map = RowIndex(self.ids)
        return self._pos_map

    def row_of(self, paper_id: int) -> int:
        if self._pos_map is None and not self._scanned:
            # the one lookup after a search (the selection kept): a C-speed scan, no dict
            self._scanned = True
            try:
                return self.ids.index(paper_id)
            except ValueError:
                return -1
        return self._pos.get(paper_id, -1)

    def paper_id(self, row: int) -> int:
        return self.ids[row]

    def refresh_papers(self, paper_ids: tuple[int, ...] | list[int]) -> None:
        """Forget cached rows of these papers and tell views to repaint them."""
        if len(paper_ids) > MANY_CHANGED:  # a bulk edit: forget every page rather than find each row
            self.refresh_all()
            return
        rows = self._pos.rows(paper_ids)
        if not rows:
            return
        for r in rows:
            self._pages.pop(r // PAGE, None)
        self.dataChanged.emit(self.index(min(rows), 0), self.index(max(rows), len(COLUMNS) - 1))

    def refresh_all(self) -> None:
        self._pages.clear()
        if self.ids:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.ids) - 1, len(COLUMNS) - 1))

    def _row(self, row: int) -> PaperRow | None:
        page = row // PAGE
        rows = self._pages.get(page)
        if rows is None:
            ids = self.ids[page * PAGE : (page + 1) * PAGE]
            try:
                rows = self.library.papers.rows(ids)
            except ServerUnreachable:  # a shared library's server is gone: an empty row, not a crash
                return None  # (the banner says why; the rows are read again when it is back)
            except DatabaseError as exc:  # bad pages: said once; the window offers the backup
                if not is_damage(exc):
                    raise
                if not self._damage_said:
                    self._damage_said = True
                    self.damaged.emit(str(exc.orig))
                return None
            self._pages[page] = rows
            while len(self._pages) > PAGES_CACHED:
                self._pages.popitem(last=False)
        elif page != self._newest:  # the newest page is already last: no reordering per cell
            self._pages.move_to_end(page)
        self._newest = page
        return rows.get(self.ids[row])

    # ---- Qt model API ----------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.ids)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: ANN401, N802 - Qt's signature
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            if 0 <= section < len(COLUMNS):
                return column_title(section)
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            if section == COL_MARKS:
                return self.tr("Highlights and note")
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.ItemIsDropEnabled if self.reorderable else Qt.ItemFlag.NoItemFlags
        return _DROP_FLAGS if self.reorderable else _ITEM_FLAGS

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: ANN401 - Qt's: each role its type
        if role not in _ANSWERED_ROLES:
            return None
        row = index.row()  # -1 for an invalid index
        if not 0 <= row < len(self.ids):
            return None
        if role == PaperIdRole:
            return self.ids[row]
        r = self._row(row)
        if r is None:
            return None
        col = index.column()
        if role == TagsRole:
            return r.tags
        if role == _FONT:
            return self._bold if col == COL_TITLE and r.status == "unread" else None
        if role == _FOREGROUND:
            return (
                self._muted()
                if col in (COL_ADDED, COL_VENUE, COL_YEAR, COL_MODIFIED, COL_RELEVANCE, COL_LIKELY)
                else None
            )
        if role == _ALIGNMENT:
            return _CENTER if col in (COL_YEAR, COL_MARKS) else _RIGHT if col in (COL_RELEVANCE, COL_LIKELY) else None
        if role == _TOOLTIP:
            if col == COL_TITLE:
                return r.title + (f"\n{r.authors}" if r.authors else "")
            if col == COL_MARKS:
                return (
                    self.tr("%n highlight(s), has a note", "", r.highlights)
                    if r.has_note
                    else self.tr("%n highlight(s)", "", r.highlights)
                )
            if col == COL_AUTHORS:
                return r.authors or None
            if col == COL_MODIFIED:
                return r.updated_at + " UTC" if r.updated_at else None
            if col == COL_LIKELY and r.id in self.likely:
                return self.tr("Learned from your keeps and skips: more likely a keep than {0}% of the library").format(
                    round(100 * self.likely[r.id])
                )
            if col == COL_RELEVANCE and r.id in self.scores:
                return self.tr("Search score {0:.2f} (BM25F; the best here: {1:.2f})").format(
                    self.scores[r.id], self._best
                )
            return None
        if col == COL_TITLE:
            return r.title
        if col == COL_VENUE:
            return r.venue or ""
        if col == COL_YEAR:
            return str(r.year) if r.year else ""
        if col == COL_TAGS:
            return ", ".join(r.tags)
        if col == COL_STATUS:
            return i18n.status_label(r.status)
        if col == COL_DECISION:
            return i18n.decision_label(r.decision) if r.decision else ""
        if col == COL_LIKELY:
            score = self.likely.get(r.id)
            return "" if score is None or r.decision else f"{round(100 * score)}%"
        if col == COL_RATING:
            return "★" * r.rating + "☆" * (5 - r.rating) if r.rating else ""
        if col == COL_MARKS:
            marks = (f"{r.highlights}" if r.highlights else "") + (" ✎" if r.has_note else "")
            return marks.strip()
        if col == COL_ADDED:
            return r.added_at
        if col == COL_AUTHORS:
            return r.authors_short
        if col == COL_MODIFIED:
            return self.short_date(r.updated_at) if r.updated_at else ""
        if col == COL_RELEVANCE:
            return self.relevance(r.id)
        return None

    def mimeTypes(self) -> list[str]:  # noqa: N802
        return ["application/x-marginalia-paper-ids"]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:  # noqa: N802
        from PySide6.QtCore import QMimeData

        ids = [self.ids[row] for row in sorted({i.row() for i in indexes if i.isValid()})]
        md = QMimeData()
        md.setData("application/x-marginalia-paper-ids", ",".join(map(str, ids)).encode())
        return md

    def supportedDragActions(self) -> Qt.DropAction:  # noqa: N802
        return Qt.DropAction.CopyAction | Qt.DropAction.MoveAction

    def supportedDropActions(self) -> Qt.DropAction:  # noqa: N802
        return Qt.DropAction.MoveAction if self.reorderable else Qt.DropAction.IgnoreAction

    def canDropMimeData(  # noqa: N802
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: Index
    ) -> bool:
        return self.reorderable and data.hasFormat("application/x-marginalia-paper-ids")

    def dropMimeData(  # noqa: N802
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: Index
    ) -> bool:
        """A drop inside a shown reading list asks to reorder it. Returns False so that the
        view removes nothing itself; the window reorders through the Library (undoable)."""
        if not self.canDropMimeData(data, action, row, column, parent):
            return False
        raw = data.data("application/x-marginalia-paper-ids")
        # a QByteArray has the buffer protocol, which its stub does not say
        ids = [int(x) for x in bytes(raw).decode().split(",") if x]  # type: ignore[call-overload]
        target = parent.row() if parent.isValid() else (row if row >= 0 else len(self.ids))
        self.reorderRequested.emit(ids, target)
        return False


def column_title(section: int) -> str:
    """The header of column ``section`` in the window's language."""
    return QCoreApplication.translate("PaperModel", COLUMNS[section][0])
