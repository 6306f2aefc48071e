"""The main window: sidebar | search + paper table | reader. Layout, menus, state and refresh
live here; edit and file actions live in the mixins of ``edit_actions`` and ``file_actions``."""

from __future__ import annotations

import json
import logging

from PySide6.QtCore import QByteArray, QItemSelectionModel, QSettings, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShortcut, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QMainWindow,
    QSplitter,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop_app.appinfo import APP_NAME
from desktop_app.core.db import IndexDamaged
from desktop_app.core.library import Library
from desktop_app.core.search.errors import QuerySyntaxError
from desktop_app.core.values import Change
from desktop_app.gui.edit_actions import EditActions
from desktop_app.gui.file_actions import FileActions
from desktop_app.gui.paper_model import COL_ADDED, COL_TAGS, COLUMNS, PaperIdRole, PaperTableModel
from desktop_app.gui.reader import ReaderPane
from desktop_app.gui.search_bar import FilterState, SearchBar
from desktop_app.gui.sidebar import Sidebar
from desktop_app.gui.tag_delegate import TagChipDelegate
from desktop_app.gui.welcome import WelcomePanel

log = logging.getLogger(__name__)
SORT_KEYS = [c[1] for c in COLUMNS]


class MainWindow(EditActions, FileActions, QMainWindow):
    def __init__(self, library: Library, settings: QSettings | None = None) -> None:
        super().__init__()
        self.library = library
        self.settings = settings or QSettings()
        self.state = FilterState()
        self.sort_key, self.sort_desc = "added", False
        self.terms: list[str] = []
        self.undo_stack = QUndoStack(self)
        self.setObjectName("mainWindow")
        self.setWindowTitle(f"{APP_NAME} — {library.folder}")
        self.setAcceptDrops(True)
        self._build()
        self._build_menus()
        self._build_shortcuts()
        self._restore_settings()
        self._recover_drafts()
        self.refresh_sidebar()
        self.refresh_query(keep=self._restored_selection)
        self._update_stack()

    # ---- construction ----------------------------------------------------------------------
    def _build(self) -> None:
        self.sidebar = Sidebar(self)
        self.sidebar.filterChosen.connect(self.on_sidebar_filter)
        self.sidebar.tagMenuAction.connect(self.on_tag_menu)
        self.sidebar.listMenuAction.connect(self.on_list_menu)
        self.sidebar.searchMenuAction.connect(self.on_search_menu)
        self.sidebar.papersDropped.connect(self.on_papers_dropped)

        self.search = SearchBar(self)
        self.search.queryChanged.connect(self.on_query_typed)
        self.search.chipRemoved.connect(self.on_chip_removed)
        self.search.saveRequested.connect(self.save_search_dialog)

        self.model = PaperTableModel(self.library, self)
        self.table = QTableView(self)
        self.table.setObjectName("paperTable")
        self.table.setAccessibleName("Papers")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.setDragEnabled(True)
        self.table.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        self.table.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.table.setDropIndicatorShown(True)
        self.model.reorderRequested.connect(self.reorder_in_list)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(26)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.table.setItemDelegateForColumn(COL_TAGS, TagChipDelegate(self.model.tag_color, self.table))
        header = self.table.horizontalHeader()
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
        header.sortIndicatorChanged.connect(self.on_sort_changed)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._current_changed())
        self.table.doubleClicked.connect(lambda _i: self.focus_reader())

        self.reader = ReaderPane(self.save_note, self, drafts=self.library.folder / "drafts")
        self.reader.titleEdited.connect(self.edit_title)
        self.reader.tagsAdded.connect(lambda pid, names: self.add_tags(self._targets(pid), names))
        self.reader.tagRemoved.connect(lambda pid, name: self.remove_tag(self._targets(pid), name))
        self.reader.statusChosen.connect(self.set_status)
        self.reader.ratingChosen.connect(self.set_rating)
        self.reader.highlightRequested.connect(self.add_highlight)
        self.reader.highlightDeleteRequested.connect(self.delete_highlight)
        self.reader.highlightCommentRequested.connect(self.edit_highlight_comment)

        center = QWidget(self)
        cl = QVBoxLayout(center)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.setSpacing(0)
        cl.addWidget(self.search)
        cl.addWidget(self.table, 1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("mainSplitter")
        self.splitter.addWidget(self.sidebar)
        self.splitter.addWidget(center)
        self.splitter.addWidget(self.reader)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setStretchFactor(2, 2)
        self.splitter.setSizes([200, 770, 440])
        self.splitter.setChildrenCollapsible(False)

        self.welcome: WelcomePanel | None = None  # built when the library is empty
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.splitter)
        self.setCentralWidget(self.stack)
        self.status_label = QLabel("", self)
        self.statusBar().addPermanentWidget(self.status_label)

    def _header_menu(self, pos) -> None:  # noqa: ANN001
        """Right-click on the header: show or hide columns."""
        from PySide6.QtWidgets import QMenu

        header = self.table.horizontalHeader()
        menu = QMenu(self)
        for n, (label, _, _) in enumerate(COLUMNS):
            if n == 0:
                continue
            act = menu.addAction("Highlights and note" if label == "✎" else label)
            act.setCheckable(True)
            act.setChecked(not header.isSectionHidden(n))
            act.toggled.connect(lambda on, n=n: header.setSectionHidden(n, not on))
        menu.exec(header.mapToGlobal(pos))

    def _build_menus(self) -> None:
        mb = self.menuBar()
        f = mb.addMenu("&File")
        self._action(f, "&Import…", self.import_dialog, QKeySequence.StandardKey.Open, "importAction")
        self._action(f, "Import the NeurIPS 2026 sample", self.import_sample)
        self._action(f, "&Export…", self.export_dialog, "Ctrl+E", "exportAction")
        self._action(f, "&Print…", self.print_dialog, QKeySequence.StandardKey.Print)
        f.addSeparator()
        self._action(f, "Undo last import…", self.undo_import_dialog)
        self._action(f, "Rebuild search index", self.rebuild_index)
        self._action(f, "Check library", self.check_library)
        f.addSeparator()
        self._action(f, "&Quit", self.close, QKeySequence.StandardKey.Quit)

        e = mb.addMenu("&Edit")
        undo = self.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcuts([QKeySequence.StandardKey.Undo])
        redo = self.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence.StandardKey.Redo])
        for a in (undo, redo):
            a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            e.addAction(a)
        self.undo_action, self.redo_action = undo, redo
        e.addSeparator()
        self._action(e, "&Find", self.focus_search, QKeySequence.StandardKey.Find)
        self._action(e, "Select &all papers", self.table.selectAll, None)
        self._action(e, "&Delete selected papers…", self.delete_selected, None)

        p = mb.addMenu("&Paper")
        for status, key in (("unread", "U"), ("skimmed", "S"), ("read", "R")):
            self._action(p, f"Mark {status}\t{key}", lambda s=status: self.set_status(s))
        p.addSeparator()
        self._action(p, "Add tag…\tT", self.focus_tags)
        self._action(p, "Edit note\tN", self.focus_note)
        self._action(p, "Add to reading list…", self.add_to_list_dialog, "Ctrl+L")
        self._action(p, "Move up in list", lambda: self.move_in_list(-1), "Alt+Up")
        self._action(p, "Move down in list", lambda: self.move_in_list(1), "Alt+Down")
        self._action(p, "Edit list item note…", self.edit_item_note)
        self._action(p, "Remove from this list", self.remove_from_current_list)

        v = mb.addMenu("&View")
        self._action(v, "All papers", lambda: self.on_sidebar_filter("all", ""), "Ctrl+1")
        self._action(v, "Unread", lambda: self.on_sidebar_filter("status", "unread"), "Ctrl+2")
        self._action(v, "New reading list…", self.new_list_dialog, "Ctrl+Shift+L")
        self._action(v, "Save search…", self.save_search_dialog, "Ctrl+Shift+S")

        h = mb.addMenu("&Help")
        self._action(h, "&Keyboard shortcuts", self.show_shortcuts, "F1")
        self._action(h, "&About Marginalia", self.show_about)

    def _action(self, menu, text: str, slot, shortcut=None, name: str | None = None) -> QAction:  # noqa: ANN001
        a = QAction(text, self)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        a.triggered.connect(lambda _=False: slot())
        if name:
            a.setObjectName(name)
        menu.addAction(a)
        return a

    def _build_shortcuts(self) -> None:
        """Single-key shortcuts work where the reader's keys make sense: the table and the
        abstract, never while typing in a text field."""
        keys = {
            "J": self.next_paper, "K": self.prev_paper, "Return": self.focus_reader,
            "Space": self.focus_reader, "T": self.focus_tags, "N": self.focus_note,
            "U": lambda: self.set_status("unread"), "S": lambda: self.set_status("skimmed"),
            "R": lambda: self.set_status("read"), "Delete": self.delete_selected,
            "Escape": self.clear_search,
        }
        for n in range(6):
            keys[str(n)] = lambda n=n: self.set_rating(n)
        for widget in (self.table, self.reader.abstract):
            for key, slot in keys.items():
                if widget is self.reader.abstract and key in ("Space", "Return", "Escape"):
                    continue
                sc = QShortcut(QKeySequence(key), widget)
                sc.setContext(Qt.ShortcutContext.WidgetShortcut)
                sc.activated.connect(slot)
        esc = QShortcut(QKeySequence("Escape"), self.search.box)
        esc.setContext(Qt.ShortcutContext.WidgetShortcut)
        esc.activated.connect(self.clear_search)
        down = QShortcut(QKeySequence("Down"), self.search.box)
        down.setContext(Qt.ShortcutContext.WidgetShortcut)
        down.activated.connect(lambda: self.table.setFocus())

    def _recover_drafts(self) -> None:
        from desktop_app.gui.note_editor import recover_drafts

        recovered = recover_drafts(self.library.folder / "drafts", self.library.set_note)
        if recovered:
            self.status_message(f"Recovered unsaved note text for {len(recovered)} paper(s) after a crash", 15000)

    # ---- state: settings -------------------------------------------------------------------
    def _restore_settings(self) -> None:
        s = self.settings
        self._restored_selection = None
        geo = s.value("window/geometry")
        if isinstance(geo, QByteArray | bytes):
            self.restoreGeometry(geo)
        else:
            self.resize(1400, 880)
        for key, splitter in (("window/splitter", self.splitter), ("window/readerSplitter", self.reader.splitter)):
            val = s.value(key)
            if isinstance(val, QByteArray | bytes):
                splitter.restoreState(val)
        hdr = s.value("table/header")
        if isinstance(hdr, QByteArray | bytes):
            header = self.table.horizontalHeader()
            header.blockSignals(True)  # restoring emits sortIndicatorChanged
            header.restoreState(hdr)
            header.blockSignals(False)
        self.sort_key = str(s.value("table/sort", "added"))
        self.sort_desc = str(s.value("table/desc", "false")) == "true"
        try:
            self.state = FilterState.from_dict(json.loads(str(s.value(self._key("filter"), "{}"))))
        except ValueError:
            self.state = FilterState()
        self.search.set_text(self.state.query)
        if self.state.list_name and self.state.list_name not in {i.name for i in self.library.lists()}:
            self.state.list_name = None  # deleted since, or renamed from the command line
        sel = s.value(self._key("selected"))
        self._restored_selection = int(sel) if sel not in (None, "") and str(sel).isdigit() else None
        if self.sort_key in SORT_KEYS:
            self.table.horizontalHeader().blockSignals(True)
            self.table.horizontalHeader().setSortIndicator(
                SORT_KEYS.index(self.sort_key),
                Qt.SortOrder.DescendingOrder if self.sort_desc else Qt.SortOrder.AscendingOrder)
            self.table.horizontalHeader().blockSignals(False)

    def _key(self, name: str) -> str:
        """Settings that belong to one library (filter, selected paper) are kept per library."""
        import hashlib

        folder = str(self.library.folder.resolve())
        return f"library-{hashlib.sha1(folder.encode()).hexdigest()[:12]}/{name}"

    def save_settings(self) -> None:
        s = self.settings
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/splitter", self.splitter.saveState())
        s.setValue("window/readerSplitter", self.reader.splitter.saveState())
        s.setValue("table/header", self.table.horizontalHeader().saveState())
        s.setValue("table/sort", self.sort_key)
        s.setValue("table/desc", "true" if self.sort_desc else "false")
        s.setValue(self._key("filter"), json.dumps(self.state.as_dict()))
        pid = self.current_id()
        s.setValue(self._key("selected"), "" if pid is None else str(pid))
        s.sync()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if not self.reader.notes.flush():
            # the library is busy: wait for it rather than lose the note
            pid, text = self.reader.notes.paper_id(), self.reader.notes.edit.toPlainText()
            if pid is not None:
                self.library.set_note(pid, text)
        for job in list(getattr(self, "_jobs", set())):
            job.cancel()
            job.wait(30000)
        self.save_settings()
        super().closeEvent(event)

    # ---- query and refresh -----------------------------------------------------------------
    def refresh_query(self, keep: int | None = None) -> None:
        """Run the current filter; keep the current paper selected when it is still there."""
        keep = keep if keep is not None else self.current_id()
        sort = self.sort_key
        if self.state.list_name and sort == "position":
            sort = "position"
        try:
            res = self.library.query(
                self.state.query, tags=self.state.tags, not_tags=self.state.not_tags, status=self.state.status,
                list_name=self.state.list_name, sort=sort, descending=self.sort_desc,
            )
        except QuerySyntaxError as exc:
            self.search.show_error(str(exc))
            return
        except IndexDamaged as exc:
            self.search.show_error(f"{exc} — the results will come back in a moment")
            self.ensure_index_async()
            return
        self.search.show_error(None)
        self.terms = res.terms
        self.model.reorderable = bool(self.state.list_name) and self.sort_key == "position" and not self.state.query
        self.model.set_ids(res.ids, res.total)
        self.search.show_count(res.total, self.library.live_count())
        self.search.set_chips(self.state.chips())
        row = self.model.row_of(keep) if keep is not None else -1
        if row < 0 and res.ids:
            row = 0
        if row >= 0:
            self.select_row(row)
        else:
            self.reader.show_paper(None)

    def refresh_sidebar(self) -> None:
        tags = self.library.tags()
        self.model.set_tag_colors({t.name: t.color for t in tags if t.color})
        self.reader.tags.set_known_tags([t.name for t in tags], {t.name: t.color for t in tags if t.color})
        self.sidebar.populate(self.library.live_count(), self.library.status_counts(), tags,
                              self.library.lists(), self.library.saved_searches())
        self._select_sidebar_for_state()

    def _select_sidebar_for_state(self) -> None:
        st = self.state
        if st.list_name:
            self.sidebar.select_filter("list", st.list_name)
        elif st.status and not st.tags:
            self.sidebar.select_filter("status", st.status)
        elif len(st.tags) == 1 and not st.status:
            self.sidebar.select_filter("tag", st.tags[0])
        elif not (st.status or st.tags or st.not_tags or st.list_name):
            self.sidebar.select_filter("all", "")

    def _update_stack(self) -> None:
        if self.library.live_count() == 0:
            if self.welcome is None:
                self.welcome = WelcomePanel(self.sample_count(), self)
                self.welcome.importRequested.connect(self.import_dialog)
                self.welcome.sampleRequested.connect(self.import_sample)
                self.stack.addWidget(self.welcome)
            self.stack.setCurrentWidget(self.welcome)
        else:
            self.stack.setCurrentWidget(self.splitter)

    def on_change(self, change: Change) -> None:
        """Refresh only what a change concerns."""
        err = self.library.index.last_error
        self.status_label.setText(f"Search index update failed ({err}); it will be retried" if err else "")
        kind = change.kind
        if kind == "import" or change.detail.get("deleted") or change.detail.get("restored"):
            self.refresh_sidebar()
            self.refresh_query()
            self._update_stack()
            return
        if kind in ("papers", "tags", "note", "highlights"):
            if change.paper_ids:
                self.model.refresh_papers(change.paper_ids)
            else:
                self.model.refresh_all()
        if kind in ("tags", "lists", "searches") or "status" in change.detail:
            self.refresh_sidebar()
        if kind == "lists" and self.state.list_name:
            self.refresh_query()
        cur = self.current_id()
        if cur is not None and (not change.paper_ids or cur in change.paper_ids or kind == "tags"):
            self._show_current(reload_note=False)

    # ---- selection -------------------------------------------------------------------------
    def current_id(self) -> int | None:
        idx = self.table.currentIndex()
        if not idx.isValid():
            return None
        return self.model.data(idx, PaperIdRole)

    def selected_ids(self) -> list[int]:
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        ids = [self.model.paper_id(r) for r in rows]
        cur = self.current_id()
        if not ids and cur is not None:
            ids = [cur]
        return ids

    def _targets(self, pid: int) -> list[int]:
        """The papers an edit in the reader applies to: the selection when it includes the
        shown paper, else just that paper."""
        sel = self.selected_ids()
        return sel if pid in sel else [pid]

    def select_row(self, row: int) -> None:
        idx = self.model.index(row, 0)
        self.table.selectionModel().setCurrentIndex(
            idx, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(idx)
        self._current_changed()

    def select_paper(self, pid: int) -> bool:
        row = self.model.row_of(pid)
        if row >= 0:
            self.select_row(row)
        return row >= 0

    def _current_changed(self) -> None:
        self._show_current(reload_note=True)

    def _show_current(self, reload_note: bool) -> None:
        pid = self.current_id()
        if pid is None:
            self.reader.show_paper(None)
            return
        try:
            paper = self.library.paper(pid)
        except Exception:  # noqa: BLE001 - deleted meanwhile
            self.reader.show_paper(None)
            return
        if not reload_note and self.reader.notes.paper_id() == pid:
            paper.note = self.reader.notes.edit.toPlainText()
        list_note = None
        if self.state.list_name:
            note = next((n for p, _, n in self.library.list_items(self.state.list_name) if p == pid), "")
            list_note = (self.state.list_name, note)
        self.reader.show_paper(paper, self.terms, list_note)

    def next_paper(self) -> None:
        row = self.table.currentIndex().row()
        if row + 1 < self.model.rowCount():
            self.select_row(row + 1)

    def prev_paper(self) -> None:
        row = self.table.currentIndex().row()
        if row > 0:
            self.select_row(row - 1)

    # ---- focus -----------------------------------------------------------------------------
    def focus_reader(self) -> None:
        self.reader.abstract.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_tags(self) -> None:
        self.reader.tags.line.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_note(self) -> None:
        self.reader.notes.focus_editor()

    def focus_search(self) -> None:
        self.search.box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.box.selectAll()

    def clear_search(self) -> None:
        if self.search.box.text():
            self.search.box.clear()
            self.on_query_typed("")
        self.table.setFocus()

    # ---- filter events ---------------------------------------------------------------------
    def on_query_typed(self, text: str) -> None:
        self.state.query = text
        self.refresh_query()

    def on_sidebar_filter(self, kind: str, value: str) -> None:
        st = self.state
        if kind == "all":
            self.state = FilterState(query=st.query)
        elif kind == "status":
            self.state = FilterState(query=st.query, status=value)
        elif kind == "tag":
            self.state = FilterState(query=st.query, tags=[value])
        elif kind == "list":
            self.state = FilterState(query=st.query, list_name=value)
            self._set_sort("position", False)
        elif kind == "search":
            query = dict(self.library.saved_searches()).get(value, "")
            self.state = FilterState(query=query)
            self.search.set_text(query)
        if kind != "list" and self.sort_key == "position":
            self._set_sort("added", False)
        self._select_sidebar_for_state()
        self.refresh_query()

    def on_chip_removed(self, key: str) -> None:
        st = self.state
        if key == "status":
            st.status = None
        elif key == "list":
            st.list_name = None
            if self.sort_key == "position":
                self._set_sort("added", False)
        elif key.startswith("tag:"):
            st.tags = [t for t in st.tags if t != key[4:]]
        elif key.startswith("not:"):
            st.not_tags = [t for t in st.not_tags if t != key[4:]]
        self._select_sidebar_for_state()
        self.refresh_query()

    def _set_sort(self, key: str, desc: bool) -> None:
        self.sort_key, self.sort_desc = key, desc
        header = self.table.horizontalHeader()
        header.blockSignals(True)
        if key in SORT_KEYS:
            header.setSortIndicator(SORT_KEYS.index(key), Qt.SortOrder.DescendingOrder if desc else Qt.SortOrder.AscendingOrder)
        else:
            header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        header.blockSignals(False)

    def on_sort_changed(self, column: int, order: Qt.SortOrder) -> None:
        key = SORT_KEYS[column] if 0 <= column < len(SORT_KEYS) else None
        if key is None:
            self._set_sort(self.sort_key, self.sort_desc)
            return
        self.sort_key, self.sort_desc = key, order == Qt.SortOrder.DescendingOrder
        self.refresh_query()

    def status_message(self, text: str, ms: int = 5000) -> None:
        self.statusBar().showMessage(text, ms)
