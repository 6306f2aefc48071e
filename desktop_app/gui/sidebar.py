"""The sidebar: library views, the tag tree (by "/", with counts and colors), reading lists
and saved searches. Clicking an entry filters the table; Ctrl+click adds a status, a tag or a
list to the filter shown (all of them must hold); dropping papers on a list or a tag adds them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QIcon,
    QKeyEvent,
    QPainter,
    QPixmap,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QLineEdit,
    QMenu,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_app.core.saved_filter import SavedFilter
from desktop_app.core.values import ListInfo, TagInfo
from desktop_app.gui import collation, i18n, theme
from desktop_app.gui.search_bar import FilterState

if TYPE_CHECKING:

    class PaneWindow(Protocol):
        """The window whose sidebar :func:`screenshot_tag_filter` shows (``MainWindow`` is one)."""

        @property
        def sidebar_pane(self) -> SidebarPane: ...


KIND = Qt.ItemDataRole.UserRole + 10
VALUE = Qt.ItemDataRole.UserRole + 11
QUERY = Qt.ItemDataRole.UserRole + 12  # a saved search's query
MIME_IDS = "application/x-marginalia-paper-ids"
_SECTION = {
    "all": "library",
    "status": "library",
    "decision": "library",
    "trash": "library",
    "tag": "tags",
    "list": "lists",
    "search": "searches",
}


def color_icon(color: str) -> QIcon:
    pm = QPixmap(12, 12)
    pm.fill(QColor(0, 0, 0, 0))
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setBrush(QBrush(QColor(color or "#c4c7cc")))
    p.setPen(QColor(0, 0, 0, 0))
    p.drawEllipse(1, 1, 10, 10)
    p.end()
    return QIcon(pm)


class Sidebar(QTreeWidget):
    filterChosen = Signal(str, str)  # noqa: N815  kind, value
    filterAdded = Signal(str, str)  # noqa: N815  kind, value: Ctrl+click, on top of the filter shown
    tagMenuAction = Signal(str, str)  # noqa: N815  action, tag
    listMenuAction = Signal(str, str)  # noqa: N815  action, list
    searchMenuAction = Signal(str, str)  # noqa: N815  action, name
    trashMenuAction = Signal(str)  # noqa: N815  "empty"
    papersDropped = Signal(str, str, list)  # noqa: N815  kind, value, ids

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebar")
        self.setAccessibleName(self.tr("Sidebar"))
        self.setHeaderHidden(True)
        self.setColumnCount(1)
        self.setIndentation(14)
        self.setAcceptDrops(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DropOnly)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._menu)
        self.itemClicked.connect(self._clicked)
        self.itemActivated.connect(self._activated)
        self._sections: dict[str, QTreeWidgetItem] = {}
        self._tag_filter = ""
        self.filter_box: QLineEdit | None = None  # set by SidebarPane: typing in the tree goes there
        for key, label in (
            ("library", self.tr("Library")),
            ("tags", self.tr("Tags")),
            ("lists", self.tr("Reading lists")),
            ("searches", self.tr("Saved searches")),
        ):
            it = QTreeWidgetItem(self, [label])
            it.setFlags(Qt.ItemFlag.ItemIsEnabled)
            f = it.font(0)
            f.setBold(True)
            it.setFont(0, f)
            it.setExpanded(True)
            self._sections[key] = it
        self._recolor()
        theme.follow(self, self._recolor)

    def _recolor(self) -> None:
        """The section headings in the theme's heading colour (again when the theme changes)."""
        heading = QColor(theme.colors().sidebar_heading)
        for it in self._sections.values():
            it.setForeground(0, heading)

    # ---- filling ---------------------------------------------------------------------------
    def populate(
        self,
        total: int,
        counts: dict[str, int],
        tags: list[TagInfo],
        lists: list[ListInfo],
        searches: list[tuple[str, str]],
    ) -> None:
        current = self.current_filter()
        expanded = self._expanded_tags()
        self.setUpdatesEnabled(False)
        for sec in self._sections.values():
            sec.takeChildren()
        lib = self._sections["library"]
        self._add(lib, self.tr("All papers  ({0})").format(i18n.number(total)), "all", "")
        for status in ("unread", "skimmed", "read"):
            self._add(lib, self._status_text(status, counts), "status", status)
        for decision in ("keep", "maybe", "skip", "none"):
            self._add(lib, self._status_text(f"decision:{decision}", counts), "decision", decision)
        trash = self._add(lib, self._trash_text(counts), "trash", "")
        trash.setToolTip(0, self.tr("Deleted papers, until they are restored or deleted for good (Ctrl+3)"))
        self._fill_tags(tags, expanded)
        for info in lists:
            it = self._add(self._sections["lists"], f"{info.name}  ({i18n.number(info.count)})", "list", info.name)
            if info.description:
                it.setToolTip(0, info.description)
        if not lists:
            hint = QTreeWidgetItem(self._sections["lists"], [self.tr("No lists yet (Ctrl+Shift+L)")])
            hint.setFlags(Qt.ItemFlag.NoItemFlags)
        for name, text in searches:
            it = self._add(self._sections["searches"], name, "search", name)
            saved = SavedFilter.from_text(text)
            chips = [label for _key, label in FilterState.from_saved(saved).chips()]
            it.setToolTip(0, "  ·  ".join(p for p in (saved.query, *chips) if p))
            it.setData(0, QUERY, text)
        if not tags:
            hint = QTreeWidgetItem(self._sections["tags"], [self.tr("No tags yet (press t)")])
            hint.setFlags(Qt.ItemFlag.NoItemFlags)
        self.filter_tags(self._tag_filter)
        self.setUpdatesEnabled(True)
        if current:
            self.select_filter(*current)

    @staticmethod
    def _status_text(status: str, counts: dict[str, int]) -> str:
        """ "Unread  (9,995)", "Keep  (12)" (a decision entry's key is "decision:keep")."""
        if status.startswith("decision:"):
            label = i18n.decision_label(status.partition(":")[2])
        else:
            label = i18n.status_label(status)
        return f"{label}  ({i18n.number(counts.get(status, 0))})"

    def _trash_text(self, counts: dict[str, int]) -> str:
        return self.tr("Trash  ({0})").format(i18n.number(counts.get("trash", 0)))

    def trash_item(self) -> QTreeWidgetItem | None:
        """The Trash entry."""
        lib = self._sections["library"]
        return next((lib.child(i) for i in range(lib.childCount()) if lib.child(i).data(0, KIND) == "trash"), None)

    def show_status_counts(self, counts: dict[str, int]) -> None:
        """The Unread/Skimmed/Read entries and the Trash with these counts (the rest of the tree stays)."""
        lib = self._sections["library"]
        for i in range(lib.childCount()):
            item = lib.child(i)
            if item.data(0, KIND) == "status":
                item.setText(0, self._status_text(item.data(0, VALUE), counts))
            elif item.data(0, KIND) == "decision":
                item.setText(0, self._status_text(f"decision:{item.data(0, VALUE)}", counts))
            elif item.data(0, KIND) == "trash":
                item.setText(0, self._trash_text(counts))

    def _fill_tags(self, tags: list[TagInfo], expanded: set[str]) -> None:
        root = self._sections["tags"]
        nodes: dict[str, QTreeWidgetItem] = {}
        info = {t.name: t for t in tags}
        totals: dict[str, int] = {}
        for t in tags:
            parts = t.name.split("/")
            for n in range(1, len(parts) + 1):
                path = "/".join(parts[:n])
                totals[path] = totals.get(path, 0) + t.count
        for t in sorted(tags, key=lambda t: collation.key(t.name)):
            parts = t.name.split("/")
            parent = root
            for n in range(1, len(parts) + 1):
                path = "/".join(parts[:n])
                node = nodes.get(path.lower())
                if node is None:
                    known = info.get(path)
                    node = self._add(parent, f"{parts[n - 1]}  ({i18n.number(totals.get(path, 0))})", "tag", path)
                    node.setIcon(0, color_icon(known.color if known else ""))
                    node.setToolTip(0, self.tr("tag:{0} — includes its children").format(path))
                    nodes[path.lower()] = node
                    if path in expanded:
                        node.setExpanded(True)
                parent = node

    def _add(self, parent: QTreeWidgetItem, label: str, kind: str, value: str) -> QTreeWidgetItem:
        it = QTreeWidgetItem(parent, [label])
        it.setData(0, KIND, kind)
        it.setData(0, VALUE, value)
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if kind in ("list", "tag"):
            flags |= Qt.ItemFlag.ItemIsDropEnabled
        it.setFlags(flags)
        return it

    def _expanded_tags(self) -> set[str]:
        out: set[str] = set()

        def walk(item: QTreeWidgetItem) -> None:
            for i in range(item.childCount()):
                c = item.child(i)
                if c.isExpanded():
                    out.add(c.data(0, VALUE))
                walk(c)

        walk(self._sections["tags"])
        return out

    # ---- selection -------------------------------------------------------------------------
    def current_filter(self) -> tuple[str, str] | None:
        it = self.currentItem()
        if it is None or it.data(0, KIND) is None:
            return None
        return it.data(0, KIND), it.data(0, VALUE)

    def select_filter(self, kind: str, value: str) -> None:
        """Make this entry the current one (no filterChosen); none when there is no such entry."""
        if kind and self.current_filter() == (kind, value) and self.currentItem().isSelected():
            return  # already (the window asks at every refresh, e.g. each search typed)
        section = self._sections.get(_SECTION.get(kind, ""))
        found = (
            None
            if section is None
            else next(
                (it for it in self._iter(section) if it.data(0, KIND) == kind and it.data(0, VALUE) == value), None
            )
        )
        self.blockSignals(True)
        if found is not None:
            self.setCurrentItem(found)
        else:
            # no entry stands for the filter (Qt takes None; the stub does not say)
            self.setCurrentItem(None)  # type: ignore[call-overload]
            self.clearSelection()
        self.blockSignals(False)

    def show_filter(self, state: FilterState, sort: tuple[str, bool] | None = None) -> None:
        """Highlight the entry that stands for the window's filter, and none when none does (a
        status and a tag together, an excluded tag): the sidebar never shows a filter that is
        not the one applied. A filter that is a saved search's (its query, sidebar filters and
        sort) shows that search."""
        entry = state.sidebar_entry()
        if state.query.strip() or entry is None:
            saved = next(
                (
                    it
                    for it in self._iter(self._sections["searches"])
                    if it.data(0, KIND) == "search"
                    and _same_filter(SavedFilter.from_text(it.data(0, QUERY) or ""), state, sort)
                ),
                None,
            )
            if saved is not None:
                entry = ("search", saved.data(0, VALUE))
        if entry is None:
            self.select_filter("", "")
        else:
            self.select_filter(*entry)

    # ---- the tag filter --------------------------------------------------------------------
    def filter_tags(self, text: str) -> None:
        """Show only the tags whose path contains ``text`` (any case), with their parents,
        expanded so that the matches show; everything again for an empty text."""
        self._tag_filter = text
        needle = text.strip().lower()

        def walk(item: QTreeWidgetItem) -> bool:
            shown = False
            for i in range(item.childCount()):
                child = item.child(i)
                if child.data(0, KIND) != "tag":
                    child.setHidden(bool(needle))  # the "No tags yet" hint
                    continue
                below = walk(child)
                match = not needle or needle in str(child.data(0, VALUE)).lower()
                child.setHidden(not (match or below))
                if needle and below:
                    child.setExpanded(True)
                shown = shown or match or below
            return shown

        walk(self._sections["tags"])

    def visible_tags(self) -> list[str]:
        """The tag paths shown (not hidden by the filter), in tree order."""
        out: list[str] = []

        def walk(item: QTreeWidgetItem) -> None:
            for i in range(item.childCount()):
                child = item.child(i)
                if child.data(0, KIND) == "tag" and not child.isHidden():
                    out.append(child.data(0, VALUE))
                    walk(child)

        walk(self._sections["tags"])
        return out

    def keyboardSearch(self, search: str) -> None:  # noqa: N802
        """Typing in the tree filters the tags: the letters go to the filter box."""
        if self.filter_box is None or not search.strip():
            super().keyboardSearch(search)
            return
        self.filter_box.setFocus(Qt.FocusReason.OtherFocusReason)
        self.filter_box.setText(self.filter_box.text() + search)

    def _iter(self, top: QTreeWidgetItem | None = None) -> Iterator[QTreeWidgetItem]:
        stack = [top or self.invisibleRootItem()]
        while stack:
            it = stack.pop()
            yield it
            stack.extend(it.child(i) for i in range(it.childCount()))

    def _clicked(self, item: QTreeWidgetItem) -> None:
        kind = item.data(0, KIND)
        if not kind:
            return
        ctrl = QApplication.keyboardModifiers() & Qt.KeyboardModifier.ControlModifier
        if ctrl and kind in ("status", "tag", "list"):
            self.filterAdded.emit(kind, item.data(0, VALUE))
        else:
            self.filterChosen.emit(kind, item.data(0, VALUE))

    def _activated(self, item: QTreeWidgetItem) -> None:
        kind = item.data(0, KIND)
        if kind:
            self.filterChosen.emit(kind, item.data(0, VALUE))

    # ---- menus -----------------------------------------------------------------------------
    def _menu(self, pos: QPoint) -> None:
        item = self.itemAt(pos)
        kind = item.data(0, KIND) if item else None
        value = item.data(0, VALUE) if item else ""
        menu = QMenu(self)
        if kind == "tag":
            menu.addAction(self.tr("Show papers with this tag"), lambda: self.tagMenuAction.emit("include", value))
            menu.addAction(self.tr("Hide papers with this tag"), lambda: self.tagMenuAction.emit("exclude", value))
            menu.addSeparator()
            menu.addAction(self.tr("Rename…"), lambda: self.tagMenuAction.emit("rename", value))
            menu.addAction(self.tr("Set color…"), lambda: self.tagMenuAction.emit("color", value))
            menu.addAction(self.tr("Merge into…"), lambda: self.tagMenuAction.emit("merge", value))
            menu.addAction(self.tr("Delete tag"), lambda: self.tagMenuAction.emit("delete", value))
        elif kind == "list":
            menu.addAction(self.tr("Export…"), lambda: self.listMenuAction.emit("export", value))
            menu.addAction(self.tr("Rename…"), lambda: self.listMenuAction.emit("rename", value))
            menu.addAction(self.tr("Edit description…"), lambda: self.listMenuAction.emit("describe", value))
            menu.addAction(self.tr("Delete list"), lambda: self.listMenuAction.emit("delete", value))
        elif kind == "search":
            menu.addAction(
                self.tr("Save as reading list (snapshot)"), lambda: self.searchMenuAction.emit("snapshot", value)
            )
            menu.addAction(self.tr("Delete saved search"), lambda: self.searchMenuAction.emit("delete", value))
        elif kind == "trash":
            menu.addAction(self.tr("Show the trash"), lambda: self.filterChosen.emit("trash", ""))
            menu.addAction(self.tr("Empty trash…"), lambda: self.trashMenuAction.emit("empty"))
        elif item is self._sections["lists"]:
            menu.addAction(self.tr("New reading list…"), lambda: self.listMenuAction.emit("new", ""))
        else:
            return
        menu.exec(self.viewport().mapToGlobal(pos))

    # ---- drops -----------------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if event.mimeData().hasFormat(MIME_IDS):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:  # noqa: N802
        item = self.itemAt(event.position().toPoint())
        if event.mimeData().hasFormat(MIME_IDS) and item is not None and item.data(0, KIND) in ("list", "tag"):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        item = self.itemAt(event.position().toPoint())
        if item is None or item.data(0, KIND) not in ("list", "tag"):
            event.ignore()
            return
        # a QByteArray has the buffer protocol, which its stub does not say
        raw = bytes(event.mimeData().data(MIME_IDS)).decode()  # type: ignore[call-overload]
        ids = [int(x) for x in raw.split(",") if x]
        event.acceptProposedAction()
        self.papersDropped.emit(item.data(0, KIND), item.data(0, VALUE), ids)


def _same_filter(saved: SavedFilter, state: FilterState, sort: tuple[str, bool] | None) -> bool:
    same = (
        saved.query.strip() == state.query.strip()
        and saved.status == state.status
        and list(saved.tags) == state.tags
        and list(saved.not_tags) == state.not_tags
        and saved.list_name == state.list_name
    )
    if not same or saved.is_empty():
        return False
    return saved.sort is None or sort is None or (saved.sort, saved.descending) == sort


class SidebarPane(QWidget):
    """The sidebar with its tag filter box above it."""

    def __init__(self, sidebar: Sidebar, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebarPane")
        self.sidebar = sidebar
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        self.filter_box = QLineEdit(self)
        self.filter_box.setObjectName("tagFilter")
        self.filter_box.setAccessibleName(self.tr("Filter tags"))
        self.filter_box.setPlaceholderText(self.tr("Filter tags…"))
        self.filter_box.setToolTip(self.tr("Show only the tags containing this text (type in the sidebar to start)"))
        self.filter_box.setClearButtonEnabled(True)
        # reached by typing in the sidebar or a click, not by Tab (the Tab order is the window's)
        self.filter_box.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.filter_box.textChanged.connect(sidebar.filter_tags)
        self.filter_box.installEventFilter(self)
        lay.addWidget(self.filter_box)
        lay.addWidget(sidebar, 1)
        sidebar.filter_box = self.filter_box

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        """Esc in the filter box clears it and goes back to the tree; Down goes to the tree."""
        if obj is self.filter_box and isinstance(event, QKeyEvent) and event.type() == QKeyEvent.Type.KeyPress:
            if event.key() == Qt.Key.Key_Escape:
                self.filter_box.clear()
                self.sidebar.setFocus(Qt.FocusReason.OtherFocusReason)
                return True
            if event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.sidebar.setFocus(Qt.FocusReason.OtherFocusReason)
                return True
        return super().eventFilter(obj, event)


def screenshot_tag_filter(window: PaneWindow, text: str = "vis") -> QWidget:
    """The sidebar with its tag filter in use (``text`` typed), for the docs."""
    pane: SidebarPane = window.sidebar_pane
    pane.filter_box.setText(text)
    return pane
