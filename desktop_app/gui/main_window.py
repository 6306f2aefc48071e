"""The main window: sidebar | search + paper table | reader. Layout, menus, the filter and
refresh live here; edits are the ``EditController``'s (``editing``), the File menu's work the
``FileController``'s (``import_export``).

Start-up paints first (rows on screen before the rest loads): the first page of rows comes from a ``LIMIT`` query; the whole
id list, the sidebar's counts and the search index check follow the first paint. On every
selection or search the GUI thread does the table's own work; the reader, the result count and
the filter chips follow one event-loop turn later (``deferred.Coalescer``).
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShortcut, QUndoStack
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop_app.appinfo import APP_NAME
from desktop_app.core.changelog.undo_data import PapersMoved
from desktop_app.core.errors import IndexDamaged, LibraryError, ServerUnreachable
from desktop_app.core.library import Library
from desktop_app.core.saved_filter import SavedFilter
from desktop_app.core.search.errors import QuerySyntaxError
from desktop_app.core.values import Change, ChangeKind
from desktop_app.gui import collation, did_you_mean, i18n, start_up_done
from desktop_app.gui.bulk_panel import install_bulk_panel
from desktop_app.gui.deferred import AfterFirstPaint, Coalescer
from desktop_app.gui.editing import EditController
from desktop_app.gui.filled_columns import FilledColumns
from desktop_app.gui.focus_order import TabChain
from desktop_app.gui.import_export import FileController, sample_count
from desktop_app.gui.jobs import Job, SerialJob, close_jobs_of, keep_while_running
from desktop_app.gui.key_bindings import unique_keys
from desktop_app.gui.likely_sort import SORT_KEY as LIKELY_SORT
from desktop_app.gui.likely_sort import LikelySort
from desktop_app.gui.paper_model import PAGE, PaperTableModel
from desktop_app.gui.paper_table import SORT_KEYS, PaperTable
from desktop_app.gui.reader import ReaderPane
from desktop_app.gui.relevance_sort import RelevanceSort
from desktop_app.gui.search_bar import FilterState, SearchBar
from desktop_app.gui.sidebar import Sidebar, SidebarPane
from desktop_app.gui.theme import add_theme_menu, apply_preference
from desktop_app.gui.trash_view import TRASH_KEY, TrashBar, TrashController
from desktop_app.gui.window_keys import FieldKeys
from desktop_app.gui.window_settings import WindowSettings
from desktop_app.gui.write_queue import WriteProgress

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtCore import QLockFile, QObject
    from PySide6.QtGui import QDragEnterEvent, QDropEvent
    from PySide6.QtWidgets import QMenu

    from desktop_app.core.errors import MetadataConflict
    from desktop_app.core.library_call import DescribedEdit
    from desktop_app.gui.cjk_fonts import CjkFontNotice
    from desktop_app.gui.index_status import IndexStatus
    from desktop_app.gui.metadata_editor import MetadataEditor
    from desktop_app.gui.offline import ServerState
    from desktop_app.gui.shared_desk import RemoteChanges
    from desktop_app.gui.welcome import WelcomePanel
    from desktop_app.serving import BackgroundServer

ELSEWHERE_POLL_MS = 2000  # how often the note on screen is compared with the library
FIRST_PAGE = PAGE  # rows painted at start-up before the whole list is fetched (a screen holds ~40)
FIRST_PAINT_FALLBACK_MS = 1000  # the rest of start-up runs anyway if the table is never painted


class MainWindow(QMainWindow):
    """Owns the widgets, the undo stack and two controllers: ``edits`` (an
    :class:`EditController`) and ``files`` (a :class:`FileController`)."""

    def __init__(self, library: Library, settings: QSettings | None = None) -> None:
        super().__init__()
        # Given by the helpers that attach to the window, through the setters below.
        self.library_lock: QLockFile | None = None  # libraries.hold
        self.instance_server: QObject | None = None  # the second-start server, libraries.hold
        self.library_opener: Callable[..., object] | None = None  # launch.switch_library
        self.restore_asked = False  # launch: the restore was asked once
        self.replaced_by: MainWindow | None = None  # launch: the window opened in this one's place
        self.remote_changes: RemoteChanges | None = None  # shared_desk.attach
        self.server_state: ServerState | None = None  # offline.attach
        self.index_status: IndexStatus | None = None  # index_status.attach
        self.command_answers: BackgroundServer | None = None  # command_answers.attach
        self.metadata_editor: MetadataEditor | None = None  # the last editor opened
        self.cjk_notice: CjkFontNotice | None = None  # cjk_fonts.attach
        self.library = library
        self.settings = settings or QSettings()
        self.window_settings = WindowSettings(self.settings, library.folder)
        self.state = FilterState()
        self.sort_key, self.sort_desc = "added", False
        self.terms: list[str] = []
        self.relevance = RelevanceSort()  # sort by relevance while a text search is active
        self.likely_sort = LikelySort(self.library, self)  # the table's "Likely keep" sort
        self.undo_stack = QUndoStack(self)
        self.setObjectName("mainWindow")
        self.setWindowTitle(
            (self.tr("{0} — {1} (read-only)") if library.read_only else "{0} — {1}").format(APP_NAME, library.folder)
        )
        self.setAcceptDrops(True)
        apply_preference(self.settings)  # light, dark or the system's, before the widgets are made
        self._build()
        self._build_controllers()
        self._build_menus()
        self._build_shortcuts()
        self.tab_chain = TabChain(self)  # focus_order: the Tab order of the window's parts
        self.field_keys = FieldKeys(self)  # window_keys: Esc out of the reader's fields
        self._restore_settings()
        self.apply_preferences()
        self._recover_drafts()
        self.files.index_check_pending()  # started after the first paint (_finish_start)
        self.follow.hold()  # the reader, count and chips wait for the table's first paint
        self._show_first_page()
        watched = self.table.viewport() if self.stack.currentWidget() is self.splitter else self.stack.currentWidget()
        self.start_stage = AfterFirstPaint(watched, self._finish_start, FIRST_PAINT_FALLBACK_MS, self)

    # ---- construction ----------------------------------------------------------------------
    def _build(self) -> None:
        self.sidebar = Sidebar(self)
        self.sidebar.filterChosen.connect(self.on_sidebar_filter)
        self.sidebar.filterAdded.connect(self.add_sidebar_filter)
        # a filter chosen with the mouse: its papers take the keys (a j typed next would go to
        # the sidebar's tag filter box, which nobody clicked)
        self.sidebar.itemClicked.connect(lambda _item: self.keys_to_table())

        self.search = SearchBar(self)
        self.search.queryChanged.connect(self.on_query_typed)
        self.search.box.textEdited.connect(self._warm_search)
        self._search_warmed = False
        self.search.chipRemoved.connect(self.on_chip_removed)
        self.search.chipNegated.connect(self.on_chip_negated)

        self.model = PaperTableModel(self.library, self)
        self.table = PaperTable(self.model, self)
        self.table.horizontalHeader().sortIndicatorChanged.connect(self.on_sort_changed)
        self.table.currentPaperChanged.connect(self._current_changed)
        self.table.doubleClicked.connect(lambda _i: self.focus_reader())

        # the note editor saves through the edit controller, built next
        # (reader, edits and trash are annotated: modules typed against MainWindow read them, and
        # mypy cannot infer them through the import cycle)
        self.reader: ReaderPane = ReaderPane(
            lambda pid, text, base: self.edits.save_note(pid, text, base), self, drafts=self.library.folder / "drafts"
        )

        center = QWidget(self)
        cl = QVBoxLayout(center)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.setSpacing(0)
        if self.library.read_only:
            banner = QLabel(
                self.tr(
                    "This library is read-only: you can read, search and export, but changes "
                    "cannot be saved (this user may not write its folder or database)."
                ),
                center,
            )
            banner.setObjectName("readOnlyBanner")
            banner.setWordWrap(True)
            banner.setMargin(6)
            cl.addWidget(banner)
            self.reader.set_read_only(True)
        from desktop_app.gui.offline import OfflineBanner, quiet

        self.offline_banner = OfflineBanner(center)  # a shared library's server gone (gui/offline.py)
        cl.addWidget(self.offline_banner)
        cl.addWidget(self.search)
        self.did_you_mean = did_you_mean.attach(self.library, self, cl, self._apply_correction)
        self.trash_bar = TrashBar(center)  # shown in the Trash view only (gui/trash_view.py)
        cl.addWidget(self.trash_bar)
        cl.addWidget(self.table, 1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("mainSplitter")
        self.sidebar_pane = SidebarPane(self.sidebar, self)  # the sidebar under its tag filter box
        for n, (pane, stretch) in enumerate(((self.sidebar_pane, 0), (center, 3), (self.reader, 2))):
            self.splitter.addWidget(pane)
            self.splitter.setStretchFactor(n, stretch)
        self.splitter.setSizes([200, 770, 440])
        self.splitter.setChildrenCollapsible(False)
        # the abstract takes the reader's height, the note its smallest (at 1400×900 at
        # least 20 lines of the abstract); a layout the user set is restored over these
        self.reader.splitter.setSizes([10_000, self.reader.notes.minimumSizeHint().height()])

        self.welcome: WelcomePanel | None = None  # built when the library is empty
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.splitter)
        self.setCentralWidget(self.stack)
        self.status_label = QLabel("", self)
        self.statusBar().addPermanentWidget(self.status_label)
        self._library_count: int | None = None  # papers in the library, read with the sidebar's counts
        # what follows the table's own work by one event-loop turn (run in this order)
        self.follow = Coalescer(
            {
                name: quiet(call)
                for name, call in {  # quiet: a lost server, said by the banner
                    "reader": lambda: self.show_current(reload_note=True),
                    "count": self._show_count,
                    "chips": lambda: self.search.set_chips(self.state.chips()),
                    "status counts": self._show_status_counts,  # the sidebar's Unread/Skimmed/Read: read in a worker
                }.items()
            },
            self,
        )
        self._counts_worker = SerialJob(self)  # asked while it reads: read once more when it is done

    def _build_controllers(self) -> None:
        def filters() -> FilterState:
            return self.state  # read at each use: the window replaces its FilterState on a new filter

        self.edits: EditController = EditController(
            self.library, self.undo_stack, self.table, self.reader.notes, self.search, filters, self
        )
        self.files: FileController = FileController(self.library, self.table, self.status_label, filters, self)
        ed, rd = self.edits, self.reader
        # "Applying “Mark read (10,000 papers)”…" while a large edit is written in the worker
        self.statusBar().addPermanentWidget(WriteProgress(ed.writes, self))
        ed.changed.connect(self.on_change)
        ed.changed.connect(self.likely_sort.changed)
        self.trash: TrashController = TrashController(self, self.trash_bar)  # restore, delete for good, empty
        ed.purgeRequested.connect(self.trash.purge_selected)  # Delete in the Trash view
        self.sidebar.trashMenuAction.connect(lambda _action: self.trash.empty_trash())

        def likely_ranked() -> None:  # a new ranking: the list again, when sorted by it
            if self.sort_key == LIKELY_SORT:
                self.refresh_query()

        self.likely_sort.ranked.connect(likely_ranked)
        ed.message.connect(self.status_message)
        ed.waitingConflict.connect(self._waiting_edit_conflicted)
        ed.filterRequested.connect(self.on_sidebar_filter)
        ed.tagExcluded.connect(self.exclude_tag)
        ed.listRenamed.connect(self._list_renamed)
        ed.listReordered.connect(lambda keep: self.refresh_query(keep=keep))
        ed.exportRequested.connect(lambda name: self.files.export_dialog(list_name=name))
        self.files.changed.connect(self.on_change)
        self.files.changed.connect(self.likely_sort.changed)
        self.files.message.connect(self.status_message)
        self.files.indexReady.connect(self.index_ready)
        self.files.imported.connect(self.keys_to_table)  # the papers just brought in, under j/k at once
        # another program (the CLI, a second window) may write the note on screen: look every
        # few seconds (one small query) so that its text is shown, or the conflict banner
        self.elsewhere_timer = QTimer(self)
        self.elsewhere_timer.setInterval(ELSEWHERE_POLL_MS)
        self.elsewhere_timer.timeout.connect(ed.check_note_elsewhere)
        self.elsewhere_timer.timeout.connect(self.check_wal_elsewhere)
        self.elsewhere_timer.start()
        from desktop_app.gui.attach_controller import AttachController

        self.attach = AttachController(self)  # open paper, attached files, drops on a paper

        rd.notes.historyRequested.connect(self._show_note_history)
        rd.notes.restoreRequested.connect(ed.restore_for_note)
        rd.notes.keepAsNewRequested.connect(ed.keep_note_as_new_paper)
        self.sidebar.tagMenuAction.connect(ed.on_tag_menu)
        self.sidebar.listMenuAction.connect(ed.on_list_menu)
        self.sidebar.searchMenuAction.connect(ed.on_search_menu)
        self.sidebar.papersDropped.connect(ed.on_papers_dropped)
        self.search.saveRequested.connect(self.save_search)
        self.model.reorderRequested.connect(ed.reorder_in_list)
        rd.titleEdited.connect(ed.edit_title)
        rd.tagsAdded.connect(lambda pid, names: ed.add_tags(self.table.edit_targets(pid), names))
        rd.tagRemoved.connect(lambda pid, name: ed.remove_tag(self.table.edit_targets(pid), name))
        rd.statusChosen.connect(ed.set_status)
        rd.ratingChosen.connect(ed.set_rating)
        rd.decisionChosen.connect(lambda d: ed.set_decision(d or None))
        rd.highlightRequested.connect(ed.add_highlight)
        rd.highlightDeleteRequested.connect(ed.delete_highlight)
        rd.highlightCommentRequested.connect(ed.edit_highlight_comment)
        self.bulk = install_bulk_panel(self)  # several papers selected: their edits in the reader's place
        # columns empty for every shown paper are hidden unless the user chose them (filled_columns.py)
        self.filled_columns = FilledColumns(self.library, self.model, self.table.header, self)
        from desktop_app.gui.related_panel import install as install_related

        self.similar = install_related(self)  # related papers, tag suggestions: in a worker (related_panel.py)

    def _build_menus(self) -> None:
        ed, fi = self.edits, self.files
        mb = self.menuBar()
        f = mb.addMenu(self.tr("&File"))
        self._action(f, self.tr("&Import…"), fi.import_dialog, QKeySequence.StandardKey.Open, "importAction")
        self._action(f, self.tr("Import the NeurIPS 2026 sample"), fi.import_sample)
        self._action(f, self.tr("&Export…"), fi.export_dialog, "Ctrl+E", "exportAction")
        self._action(f, self.tr("&Print…"), fi.print_dialog, QKeySequence.StandardKey.Print)
        f.addSeparator()
        self._action(f, self.tr("Undo last import…"), fi.undo_import_dialog)
        self._action(f, self.tr("Rebuild search index"), fi.rebuild_index)
        self._action(f, self.tr("Check library"), fi.check_library)
        f.addSeparator()
        from desktop_app.gui.libraries import add_library_menu

        self.recent_menu = add_library_menu(self, f)  # New library…, Switch library…, Open Recent ▸
        f.addSeparator()
        self._action(f, self.tr("&Quit"), self.close, QKeySequence.StandardKey.Quit)

        e = mb.addMenu(self.tr("&Edit"))
        undo = self.undo_stack.createUndoAction(self, self.tr("&Undo"))
        undo.setShortcuts(unique_keys(QKeySequence.StandardKey.Undo))
        redo = self.undo_stack.createRedoAction(self, self.tr("&Redo"))
        redo.setShortcuts(unique_keys("Ctrl+Shift+Z", QKeySequence.StandardKey.Redo))  # each key once
        for a in (undo, redo):
            a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            e.addAction(a)
        self.undo_action, self.redo_action = undo, redo
        e.addSeparator()
        self._action(e, self.tr("&Find"), self.focus_search, QKeySequence.StandardKey.Find)
        self._action(e, self.tr("Select &all papers"), self.table.selectAll, None)
        self._action(e, self.tr("&Move selected papers to the trash"), ed.delete_selected, None)
        self.trash.add_to_menu(e)
        self._action(e, self.tr("Find possible duplicates…"), self._show_duplicates, None, "findDuplicatesAction")
        e.addSeparator()
        prefs_action = self._action(e, self.tr("Se&ttings…"), self.show_settings, "Ctrl+,", "settingsAction")
        prefs_action.setMenuRole(QAction.MenuRole.PreferencesRole)  # macOS: Marginalia → Preferences…

        p = mb.addMenu(self.tr("&Paper"))
        for status, key in (("unread", "U"), ("skimmed", "S"), ("read", "R")):
            self._action(
                p, self.tr("Mark {0}\t{1}").format(i18n.status_word(status), key), lambda s=status: ed.set_status(s)
            )
        p.addSeparator()
        open_paper = self._action(p, self.tr("&Open paper"), self.open_paper, "Ctrl+Return", "openPaperAction")
        open_paper.setShortcuts([QKeySequence("Ctrl+Return"), QKeySequence("Ctrl+Enter")])
        self._action(p, self.tr("Attach &file…"), self.attach_file_dialog, None, "attachFileAction")
        p.addSeparator()
        self._action(p, self.tr("Add tag…\tT"), self.focus_tags)
        self._action(p, self.tr("Edit &metadata…"), self.edit_metadata, "Ctrl+I", "editMetadataAction")
        self._action(p, self.tr("Edit note\tN"), self.focus_note)
        self._action(p, self.tr("Note history…"), self._show_note_history, None, "noteHistoryAction")
        self._action(p, self.tr("Add to reading list…"), ed.add_to_list_dialog, "Ctrl+L")
        self._action(p, self.tr("Move up in list"), lambda: ed.move_in_list(-1), "Alt+Up")
        self._action(p, self.tr("Move down in list"), lambda: ed.move_in_list(1), "Alt+Down")
        self._action(p, self.tr("Edit list item note…"), ed.edit_item_note)
        self._action(p, self.tr("Remove from this list"), ed.remove_from_current_list)
        from desktop_app.gui.paper_menu import install as install_paper_menu

        install_paper_menu(self, p)  # the table's context menu; Copy citation, Copy BibTeX
        p.addSeparator()
        self._action(p, self.tr("Re-derive titles…"), self._retitle, None, "retitleAction")

        v = mb.addMenu(self.tr("&View"))
        self._action(v, self.tr("All papers"), lambda: self.on_sidebar_filter("all", ""), "Ctrl+1")
        self._action(v, self.tr("Unread"), lambda: self.on_sidebar_filter("status", "unread"), "Ctrl+2")
        self._action(v, self.tr("Trash"), lambda: self.on_sidebar_filter("trash", ""), TRASH_KEY, "trashViewAction")
        self._action(v, self.tr("New reading list…"), ed.new_list_dialog, "Ctrl+Shift+L")
        self._action(v, self.tr("Save search…"), self.save_search, "Ctrl+Shift+S")
        self._action(v, self.tr("Statistics…"), self._show_statistics, None, "statisticsAction")
        self._action(v, self.tr("Topics…"), self._show_topics, None, "topicsAction")
        self._action(v, self.tr("Map…"), self._show_map, None, "mapAction")
        from desktop_app.gui.triage import install as install_triage

        self.triage = install_triage(self, v)  # View → Triage (triage.py)
        v.addSeparator()
        add_theme_menu(v, self.settings)

        h = mb.addMenu(self.tr("&Help"))
        self._action(h, self.tr("&Keyboard shortcuts"), self._show_shortcuts, "F1")
        self._action(h, self.tr("&About Marginalia"), self._show_about)

    def open_paper(self) -> None:
        """Open the current paper: its attached file, else arXiv, DOI or URL (attach_controller.py)."""
        self.attach.open_paper()

    def attach_file_dialog(self) -> None:
        """Choose files to attach to the current paper."""
        self.attach.attach_file_dialog()

    # dialogs used from a menu are imported when first opened (a shorter start-up)
    def edit_metadata(self, paper_id: int | None = None) -> None:
        """Paper → Edit metadata… for ``paper_id`` (else the current paper); one undoable edit."""
        from desktop_app.gui.metadata_editor import open_metadata_editor

        open_metadata_editor(self, paper_id)

    def _waiting_edit_conflicted(self, edit: DescribedEdit | None, conflict: MetadataConflict) -> None:
        """A metadata edit sent when the server was back met fields changed elsewhere: the
        editor offers the choice of each (metadata_editor.py)."""
        from desktop_app.gui.metadata_editor import resolve_waiting_conflict

        resolve_waiting_conflict(self, edit, conflict)

    def _show_duplicates(self) -> None:
        from desktop_app.gui.duplicates_view import show_duplicates

        show_duplicates(self)

    def _show_topics(self) -> None:
        from desktop_app.gui.topics_view import show_topics

        show_topics(self)

    def _show_map(self) -> None:
        from desktop_app.gui.paper_map import show_map

        show_map(self)

    def _show_statistics(self) -> None:
        from desktop_app.gui.statistics_view import show_statistics

        show_statistics(self)

    def _retitle(self) -> None:
        from desktop_app.gui.retitle_dialog import show_retitle_dialog

        show_retitle_dialog(self)

    def _apply_correction(self, query: str) -> None:
        self.search.set_text(query)
        self.on_query_typed(query)

    def _show_note_history(self) -> None:
        from desktop_app.gui.note_history import show_note_history

        show_note_history(self)

    def show_settings(self) -> None:
        from desktop_app.gui.settings_dialog import show_settings

        show_settings(self)

    def apply_preferences(self) -> None:
        """Apply the Appearance preferences (font size, theme) from ``self.settings``."""
        from desktop_app.gui.appearance import apply_preferences

        apply_preferences(self)

    def _show_shortcuts(self) -> None:
        from desktop_app.gui.help_dialogs import show_shortcuts

        show_shortcuts(self)

    def _show_about(self) -> None:
        from desktop_app.gui.help_dialogs import show_about

        show_about(self, self.library)

    def _action(
        self,
        menu: QMenu,
        text: str,
        slot: Callable[..., object],  # called without arguments (`...`: mypy infers no lambda with defaults)
        shortcut: str | QKeySequence.StandardKey | None = None,
        name: str | None = None,
    ) -> QAction:
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
        ed = self.edits
        keys: dict[str, Callable[..., object]] = {  # slots without arguments, as _action's
            "J": self.table.next_paper,
            "K": self.table.prev_paper,
            "Return": self.focus_reader,
            "Space": self.focus_reader,
            "T": self.focus_tags,
            "N": self.focus_note,
            "U": lambda: ed.set_status("unread"),
            "S": lambda: ed.set_status("skimmed"),
            "R": lambda: ed.set_status("read"),
            "Delete": ed.delete_selected,
            "Escape": self.clear_search,
        }
        for n in range(6):
            keys[str(n)] = lambda n=n: ed.set_rating(n)
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

        recovered = recover_drafts(self.library.folder / "drafts", self.library.notes.set)
        if recovered:
            self.status_message(
                self.tr("Recovered unsaved note text for %n paper(s) after a crash", "", len(recovered)), 15000
            )

    # ---- state: settings -------------------------------------------------------------------
    def _restore_settings(self) -> None:
        s = self.window_settings
        s.restore_layout(self, (self.splitter, self.reader.splitter), self.table.horizontalHeader())
        self.sort_key, self.sort_desc = s.sort()
        self.state = s.filter_state()
        self.relevance.restored(self)
        self.search.set_text(self.state.query)
        if self.state.list_name and self.state.list_name not in {i.name for i in self.library.lists.all()}:
            self.state.list_name = None  # deleted since, or renamed from the command line
        self._restored_selection = s.selected_paper()
        if self.sort_key in SORT_KEYS:
            self.table.show_sort(self.sort_key, self.sort_desc)

    def save_settings(self) -> None:
        self.window_settings.save(
            self,
            (self.splitter, self.reader.splitter),
            self.table.horizontalHeader(),
            (self.sort_key, self.sort_desc),
            self.state,
            self.current_id(),
        )

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if not self.edits.may_close():  # edits only this window holds wait for the server
            event.ignore()
            return
        if not self.reader.notes.flush():
            # the library is busy: wait for it rather than lose the note
            pid, text = self.reader.notes.paper_id(), self.reader.notes.edit.toPlainText()
            if pid is not None:
                # a full disk: the draft written by the failed save stays, and is stored at the
                # next start (note_editor.recover_drafts)
                with contextlib.suppress(LibraryError):
                    self.library.notes.set(pid, text)
        self.edits.writes.drain()  # a large edit being written, and an undo asked for behind it
        # closed before its first paint (or the fallback timer): the rest of start-up never runs.
        # Run later, it read the closed library and started the index check on it, whose failure
        # opened a warning over this window; the window deleted under the warning's event loop
        # freed the box twice (Python aborted)
        self.start_stage.cancel()
        close_jobs_of(self)  # the dialogs' and views' workers too; and none starts after
        self.save_settings()
        self.edits.release_journal()  # the journaled edits wait for the next window on this library
        if self.command_answers is not None:  # the command line runs its commands itself again
            self.command_answers.stop()
            self.command_answers = None
        super().closeEvent(event)

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: N802
        return self.tab_chain.move(next) or super().focusNextPrevChild(next)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.files.import_paths(paths)

    # ---- query and refresh -----------------------------------------------------------------
    def refresh_query(self, keep: int | None = None) -> None:
        """Run the current filter; keep the current paper selected when it is still there."""
        keep = keep if keep is not None else self.current_id()
        self.relevance.before_query(self)
        sort = self.sort_key
        if self.state.list_name and sort == "position":
            sort = "position"
        try:
            res = self.library.query(
                self.state.query,
                tags=self.state.tags,
                not_tags=self.state.not_tags,
                status=self.state.status,
                list_name=self.state.list_name,
                sort=sort,
                descending=self.sort_desc,
                trash=self.state.trash,
            )
        except QuerySyntaxError as exc:
            from desktop_app.gui.query_messages import plain_query_error

            self.search.show_error(plain_query_error(str(exc), self.state.query))
            return
        except IndexDamaged as exc:
            self.search.show_error(self.tr("{0} — the results will come back in a moment").format(exc))
            self.files.ensure_index_async()
            return
        except ServerUnreachable:  # the list shown stays; the banner says why (gui/offline.py)
            self.search.show_error(
                self.tr("The library's server cannot be reached: the search runs again when it is back")
            )
            return
        self.search.show_error(None)
        self.trash.shown(self.state.trash)
        self._select_sidebar_for_state()  # whatever changed the filter, the sidebar follows
        self.terms = res.terms
        self.reader.hit_query = self.state.query
        self.model.reorderable = bool(self.state.list_name) and self.sort_key == "position" and not self.state.query
        ids = collation.order(self, res.ids)  # titles: QCollator
        if sort == LIKELY_SORT:  # the learned order, from a worker's last ranking (gui/likely_sort.py)
            self.likely_sort.refresh(res.ids)
            ids = self.likely_sort.order(ids, self.sort_desc)
        self.model.likely = self.likely_sort.scores
        self.model.set_ids(ids, res.total, scores=res.scores)
        self.did_you_mean.after_result(self.state.query, res.total)  # a worker, only for < 3 hits
        self.follow.later("count", "chips")
        row = self.model.row_of(keep) if keep is not None else -1
        if row < 0 and res.ids:
            row = 0
        if row >= 0:
            self.select_row(row)  # the reader follows (currentPaperChanged)
        else:
            self.follow.later("reader")

    def follow_pending(self) -> bool:
        """Whether the reader, the count or the chips have yet to catch up with the table."""
        return self.follow.pending()

    def _show_count(self) -> None:
        if self.model.partial:
            return  # said once the whole list is there
        if self.state.trash:
            self.search.show_count(self.model.total, self.library.trash.count())
            return
        if self._library_count is None:
            self._library_count = self.library.papers.count()
        self.search.show_count(self.model.total, self._library_count)

    # ---- start-up: the first page, then the rest after the first paint ----------------------
    def _show_first_page(self) -> None:
        """What the first paint shows. Without query text, tags or a list (the usual start) the
        first rows come from a ``LIMIT`` query; the whole list follows the paint. Otherwise the
        whole result, as any refresh."""
        st = self.state
        keep = self._restored_selection
        if st.query or st.tags or st.not_tags or st.list_name or st.trash:
            self.refresh_query(keep=keep)
            self.update_stack()
            return
        ids = collation.order(
            self,
            self.library.finder.list_ids(
                status=st.status, sort=self.sort_key, descending=self.sort_desc, limit=FIRST_PAGE
            ),
        )
        self.terms = []
        self.reader.hit_query = ""
        self.model.reorderable = False
        self.model.set_ids(ids, partial=len(ids) == FIRST_PAGE)
        self.follow.later("chips")
        row = self.model.row_of(keep) if keep is not None else -1
        if row < 0 and ids and (keep is None or not self.model.partial):
            row = 0  # else the remembered paper may be further down: chosen with the whole list
        if row >= 0:
            self.select_row(row)
        else:
            self.follow.later("reader")
        self.update_stack(empty=False if ids else None)
        self.keys_to_table()  # no current row yet: once the whole list is there (load_whole_list)

    def _finish_start(self) -> None:
        """After the first paint: the reader (the turn after), the index check (in a worker),
        the whole list, the sidebar and its counts, the result count."""
        start_up_done()  # the garbage collector's usual thresholds again
        self.follow.release()
        self.files.ensure_index_async()
        self.load_whole_list()
        self.refresh_sidebar()
        self.follow.later("count")

    def load_whole_list(self) -> None:
        """Replace the first page by the whole list, keeping the selection and the scroll
        position (rows are appended); select the remembered paper if nothing else was."""
        if not self.model.partial:
            return  # a refresh (a search, a filter, a sort) replaced the first page meanwhile
        st = self.state
        keep = self.current_id()
        ids = collation.order(
            self, self.library.finder.list_ids(status=st.status, sort=self.sort_key, descending=self.sort_desc)
        )
        appended = self.model.complete(ids)
        if keep is None:
            keep = self._restored_selection
        elif appended:
            return  # the user's selection stands, and stays where it was
        row = self.model.row_of(keep) if keep is not None else -1
        if row < 0 and ids:
            row = 0
        if row >= 0:
            self.select_row(row)
        if self.focusWidget() in (None, self.sidebar):  # the keys were nowhere, or Qt's first stop
            self.keys_to_table()

    def index_ready(self) -> None:
        if self.state.query:
            keep = self.current_id()
            self.refresh_query(keep=keep if keep is not None else self._restored_selection)

    def refresh_sidebar(self) -> None:
        try:
            self._refresh_sidebar()
        except ServerUnreachable:  # the sidebar keeps what it shows; the banner says why
            return

    def _refresh_sidebar(self) -> None:
        tags = self.library.tags.all()
        colors = {t.name: t.color for t in tags if t.color}
        if colors != self.model.tag_colors():
            self.model.set_tag_colors(colors)
            self.table.viewport().update()
        self.reader.tags.set_known_tags([t.name for t in tags], colors)
        self._library_count = self.library.papers.count()
        self.sidebar.populate(
            self._library_count, self._sidebar_counts(), tags, self.library.lists.all(), self.library.searches.all()
        )
        self._select_sidebar_for_state()

    def _show_status_counts(self) -> None:
        """The sidebar's status, decision and trash counts, read in a worker: at 100,000 papers
        the grouped queries take tens of milliseconds while an edit's worker writes, which the
        GUI thread would feel. A lost server leaves the counts as they are (the banner says why)."""
        self._counts_worker.start(
            lambda _progress, _cancelled: self._sidebar_counts(),
            self._counts_read,
            lambda _message: None,
            self._show_status_counts,
        )

    def _counts_read(self, counts: object) -> None:
        if isinstance(counts, dict):
            self.sidebar.show_status_counts(counts)

    def _sidebar_counts(self) -> dict[str, int]:
        """Papers per status and, as "decision:keep" …, per decision (two grouped queries); and
        "trash", the papers in the trash."""
        counts: dict[str, int] = dict(self.library.papers.status_counts())
        counts.update({f"decision:{k}": n for k, n in self.library.papers.decision_counts().items()})
        counts["trash"] = self.library.trash.count()
        return counts

    def _select_sidebar_for_state(self) -> None:
        self.sidebar.show_filter(
            self.state, (self.sort_key, self.sort_desc)
        )  # the entry standing for the filter, or none

    def update_stack(self, empty: bool | None = None) -> None:
        """The welcome panel for an empty library (nothing in the trash either: the sidebar must
        reach it), else the table. ``empty`` when known."""
        if empty is None:
            try:
                empty = self.library.papers.count() == 0 and self.library.trash.count() == 0
            except ServerUnreachable:
                return  # what is shown stays; the server's return refreshes the window (gui/offline.py)
        if empty:
            if self.welcome is None:
                from desktop_app.gui.welcome import WelcomePanel

                self.welcome = WelcomePanel(sample_count(), self)
                self.welcome.importRequested.connect(self.files.import_dialog)
                self.welcome.sampleRequested.connect(self.files.import_sample)
                self.stack.addWidget(self.welcome)
            self.stack.setCurrentWidget(self.welcome)
        else:
            self.stack.setCurrentWidget(self.splitter)

    def on_change(self, change: Change) -> None:
        """Refresh only what a change concerns."""
        err = self.library.index.last_error
        self.status_label.setText(
            self.tr("Search index update failed ({0}); it will be retried").format(err) if err else ""
        )
        kind = change.kind
        gone_or_back = isinstance(change.detail, PapersMoved)  # to the trash, back, or for good
        if kind not in (ChangeKind.PAPERS, ChangeKind.NOTE, ChangeKind.HIGHLIGHTS) or gone_or_back:
            self.bulk.panel.forget_shown()  # its tags and lists are read again (a status edit keeps them)
        if kind == ChangeKind.IMPORT or gone_or_back:
            self.refresh_sidebar()
            self.refresh_query()
            self.update_stack()
            return
        if kind in (ChangeKind.PAPERS, ChangeKind.TAGS, ChangeKind.NOTE, ChangeKind.HIGHLIGHTS):
            if change.paper_ids:
                self.model.refresh_papers(change.paper_ids)
            else:
                self.model.refresh_all()
        if kind == ChangeKind.PAPERS:  # a status may have changed: an edit, its undo or its redo
            self.follow.later("status counts")
        if kind in (ChangeKind.TAGS, ChangeKind.LISTS, ChangeKind.SEARCHES):
            self.refresh_sidebar()
        if kind == ChangeKind.LISTS and self.state.list_name:
            self.refresh_query()
        cur = self.current_id()
        if self.bulk.bulk_shown():
            return  # the reader is hidden: shown afresh when it comes back (refresh_reader)
        if cur is not None and (not change.paper_ids or cur in change.paper_ids or kind == ChangeKind.TAGS):
            self.show_current(reload_note=False)

    def refresh_reader(self) -> None:
        """The reader comes back after the bulk panel: the shown paper as it is now (the note
        typed in it stays)."""
        self.show_current(reload_note=False)

    # ---- selection -------------------------------------------------------------------------
    def current_id(self) -> int | None:
        return self.table.current_id()

    def select_row(self, row: int) -> None:
        self.table.select_row(row)  # the reader follows through currentPaperChanged

    def select_paper(self, pid: int) -> bool:
        return self.table.select_paper(pid)

    def _current_changed(self) -> None:
        self.reader.notes.flush()  # the note typed for the paper left is saved at once
        self.follow.later("reader")  # the table paints its new selection first

    def show_current(self, reload_note: bool) -> None:
        self.follow.cancel("reader")
        pid = self.current_id()
        if pid is None:
            self.reader.show_paper(None)
            self.similar.shown(None)
            return
        try:
            paper = self.library.papers.get(pid, trashed=self.state.trash)
        except ServerUnreachable:  # the reader keeps what it shows; the banner says why
            return
        except Exception:  # noqa: BLE001 - deleted meanwhile
            self.reader.show_paper(None)
            self.similar.shown(None)
            return
        if not reload_note and self.reader.notes.paper_id() == pid:
            paper.note = self.reader.notes.edit.toPlainText()
        list_note = None
        if self.state.list_name:
            try:
                note = next((n for p, _, n in self.library.lists.items(self.state.list_name) if p == pid), "")
            except ServerUnreachable:
                note = ""
            list_note = (self.state.list_name, note)
        self.reader.show_paper(paper, self.terms, list_note)
        self.similar.shown(None if self.state.trash else pid)  # related papers, tag suggestions: from a worker

    # ---- focus -----------------------------------------------------------------------------
    def keys_to_table(self) -> None:
        """The table takes the keys when it is shown with a current row (after the window opens
        and after an import): the first j moves in it, not into whatever Qt focused first."""
        if self.stack.currentWidget() is self.splitter and self.table.currentIndex().isValid():
            self.table.setFocus(Qt.FocusReason.OtherFocusReason)

    def focus_reader(self) -> None:
        self.follow.flush()  # the reader shows the current paper before it takes the keys
        self.reader.abstract.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_tags(self) -> None:
        if self.bulk.bulk_shown():
            self.bulk.panel.focus_tag()  # a tag for all the selected papers, said as such
            return
        self.follow.flush()
        self.reader.tags.line.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_note(self) -> None:
        self.follow.flush()
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
    def _warm_search(self, _text: str) -> None:
        """At the first keystroke in the search box, while its debounce runs: load the query
        parser, the executor and numpy, and read the ordered id list of what is shown, in a worker
        (Library.warm_search); the search itself then pays for none of it (at 100,000 papers,
        typing p95 381 -> 189 ms). Not before: nothing of it is loaded until a text search."""
        if self._search_warmed or not self.files.index_ready:
            return
        self._search_warmed = True
        st, lib = self.state, self.library
        shown = dict(
            tags=st.tags,
            not_tags=st.not_tags,
            status=st.status,
            list_name=st.list_name,
            **self.relevance.search_sort(self),
        )
        job = Job(lambda progress, cancelled: lib.warm_search(**shown), self)
        keep_while_running(self, job)
        job.start()

    def on_query_typed(self, text: str) -> None:
        self.state.query = text
        self.refresh_query()

    def on_sidebar_filter(self, kind: str, value: str) -> None:
        st = self.state
        if st.trash and kind in ("all", "status", "tag", "list"):
            self.search.set_text("")  # the trash's words are not a query of the library's
        if kind == "all":
            self.state = FilterState(query="" if st.trash else st.query)
        elif kind == "trash":  # the trash's own word search (core/finder.py), not the query language
            self.state = FilterState(trash=True)
            self.search.set_text("")
        elif kind == "status":
            self.state = FilterState(query="" if st.trash else st.query, status=value)
        elif kind == "tag":
            self.state = FilterState(query="" if st.trash else st.query, tags=[value])
        elif kind == "list":
            self.state = FilterState(query="" if st.trash else st.query, list_name=value)
            self.set_sort("position", False)
        elif kind == "decision":  # a query, so that it combines with what is typed after it
            query = f"decision:{value}"
            self.state = FilterState(query=query)
            self.search.set_text(query)
        elif kind == "search":
            self._open_saved_search(value)
        if not self.state.list_name and self.sort_key == "position":
            self.set_sort("added", False)
        self._select_sidebar_for_state()
        self.refresh_query()

    def save_search(self) -> None:
        """View → Save search…: the whole filter shown and its sort."""
        self.edits.save_search_dialog((self.sort_key, self.sort_desc))

    def add_sidebar_filter(self, kind: str, value: str) -> None:
        """Ctrl+click in the sidebar: this status, tag or list as well as the filter shown (a
        paper has one status and is shown from one list: those replace the one there)."""
        st = self.state
        if kind == "tag":
            if value.lower() not in {t.lower() for t in st.tags}:
                st.tags.append(value)
            st.not_tags = [t for t in st.not_tags if t.lower() != value.lower()]
        elif kind == "status":
            st.status = value
        elif kind == "list":
            st.list_name = value
            self.set_sort("position", False)
        self.refresh_query()

    def _open_saved_search(self, name: str) -> None:
        """The saved search's whole filter: its query, sidebar status, tags, list, and its sort."""
        saved = SavedFilter.from_text(dict(self.library.searches.all()).get(name, ""))
        self.state = FilterState.from_saved(saved)
        if self.state.list_name and self.state.list_name not in {i.name for i in self.library.lists.all()}:
            self.state.list_name = None  # deleted since: the rest of the filter still applies
            self.status_message(self.tr("The reading list of this search no longer exists"))
        self.search.set_text(saved.query)
        if saved.sort is not None:
            if saved.query.strip() and not self.relevance.searching:
                self.relevance.restored(self)  # its sort stands, not the relevance a new search takes
            self.set_sort(saved.sort, saved.descending)
        elif self.state.list_name and not saved.query.strip():
            self.set_sort(*self.state.first_sort())  # the list's own order

    def exclude_tag(self, name: str) -> None:
        """Hide the papers with this tag (the sidebar's “exclude”)."""
        if name not in self.state.not_tags:
            self.state.not_tags.append(name)
        self.refresh_query()

    def _list_renamed(self, old: str, new: str) -> None:
        if self.state.list_name == old:
            self.state.list_name = new
            self.refresh_query()

    def on_chip_removed(self, key: str) -> None:
        st = self.state
        if key == "trash":  # back to the library; the trash's words are not a query of it
            st.trash, st.query = False, ""
            self.search.set_text("")
        elif key == "status":
            st.status = None
        elif key == "list":
            st.list_name = None
            if self.sort_key == "position":
                self.set_sort("added", False)
        elif key.startswith("tag:"):
            st.tags = [t for t in st.tags if t != key[4:]]
        elif key.startswith("not:"):
            st.not_tags = [t for t in st.not_tags if t != key[4:]]
        self._select_sidebar_for_state()
        self.refresh_query()

    def on_chip_negated(self, key: str) -> None:
        """Alt+click on a tag chip: papers with the tag become papers without it, and back."""
        st, name = self.state, key[4:]
        if key.startswith("tag:"):
            st.tags = [t for t in st.tags if t != name]
            st.not_tags.append(name)
        else:
            st.not_tags = [t for t in st.not_tags if t != name]
            st.tags.append(name)
        self._select_sidebar_for_state()
        self.refresh_query()

    def set_sort(self, key: str, desc: bool) -> None:
        self.sort_key, self.sort_desc = key, desc
        self.table.show_sort(key, desc)

    def on_sort_changed(self, column: int, order: Qt.SortOrder) -> None:
        key = SORT_KEYS[column] if 0 <= column < len(SORT_KEYS) else None
        if key is None:
            self.set_sort(self.sort_key, self.sort_desc)
            return
        self.sort_key, self.sort_desc = key, order == Qt.SortOrder.DescendingOrder
        self.refresh_query()

    def check_wal_elsewhere(self) -> None:
        """Polled: was the library's -wal file deleted or replaced while the window holds it
        open? Then the window's copy (its own writes and those of other programs since the last
        checkpoint) is written back into the database, and the user is told."""
        try:
            pages = self.library.write_back_lost_wal()
        except Exception:  # noqa: BLE001 - a busy or closing library: try at the next tick
            return
        if pages is not None:
            self.status_message(
                self.tr(
                    "The library's -wal file was deleted while the window was open: the recent changes "
                    "the window still held were written back into the library. Nothing was lost."
                ),
                60000,
            )

    def status_message(self, text: str, ms: int = 5000) -> None:
        self.statusBar().showMessage(text, ms)

    # --- what the helpers give the window ---------------------------------------------------

    def hold_instance(self, lock: QLockFile | None, server: QObject | None) -> None:
        """Own the library's (locked) lock and the second-start server until libraries.release."""
        self.library_lock, self.instance_server = lock, server

    def set_library_opener(self, opener: Callable[..., object]) -> None:
        """How this window opens another library: ``opener(folder, new=False)`` (launch.switch_library)."""
        self.library_opener = opener

    def mark_restore_asked(self) -> None:
        """The restore of this window and its library has been asked (once is enough)."""
        self.restore_asked = True

    def set_replaced_by(self, other: MainWindow | None) -> None:
        """The window opened in this one's place (launch.current_window follows it)."""
        self.replaced_by = other

    def set_remote_changes(self, relay: RemoteChanges) -> None:
        """The relay of the other desks' changes (shared_desk.attach)."""
        self.remote_changes = relay

    def set_server_state(self, state: ServerState) -> None:
        """The shared library's server state (offline.attach)."""
        self.server_state = state

    def set_command_answers(self, answers: BackgroundServer) -> None:
        """The thread answering the command line's read commands on this library (command_answers.attach)."""
        self.command_answers = answers

    def set_index_status(self, status: IndexStatus) -> None:
        """The index catch-up in the status bar (index_status.attach)."""
        self.index_status = status

    def set_metadata_editor(self, dialog: MetadataEditor) -> None:
        """The metadata editor opened last."""
        self.metadata_editor = dialog

    def set_cjk_notice(self, notice: CjkFontNotice) -> None:
        """The CJK font notice (cjk_fonts.attach)."""
        self.cjk_notice = notice
