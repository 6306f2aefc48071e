"""The File menu: import, export, print and library upkeep (the search index, checks, undoing an
import). All long work runs in a Job."""

from __future__ import annotations

from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QMessageBox,
    QWidget,
)

from desktop_app.appinfo import APP_NAME
from desktop_app.core.library import Library
from desktop_app.core.values import Change, ChangeKind, ImportReport
from desktop_app.gui import i18n
from desktop_app.gui.i18n import QT_TRANSLATE_NOOP
from desktop_app.gui.jobs import Job, keep_while_running, start_job
from desktop_app.gui.paper_table import PaperTable
from desktop_app.gui.search_bar import FilterState

if TYPE_CHECKING:
    from desktop_app.core.importing.imports import Parsed
    from desktop_app.gui.window_protocol import WindowLike

IMPORT_FILTER = QT_TRANSLATE_NOOP(
    "FileController", "Bibliographies (*.bib *.ris *.txt *.json *.xml *.atom *.csv *.tsv *.enw *.nbib);;All files (*)"
)
EXPORT_FORMATS = [
    ("md", QT_TRANSLATE_NOOP("ExportDialog", "Markdown (.md)")),
    ("html", QT_TRANSLATE_NOOP("ExportDialog", "HTML page (.html)")),
    ("pdf", QT_TRANSLATE_NOOP("ExportDialog", "PDF (.pdf)")),
    ("bib", QT_TRANSLATE_NOOP("ExportDialog", "BibTeX (.bib)")),
    ("ris", QT_TRANSLATE_NOOP("ExportDialog", "RIS (.ris)")),
    ("csljson", QT_TRANSLATE_NOOP("ExportDialog", "CSL-JSON (.json)")),
    ("csv", QT_TRANSLATE_NOOP("ExportDialog", "CSV spreadsheet (.csv)")),
    ("json", QT_TRANSLATE_NOOP("ExportDialog", "Marginalia JSON — everything, for backups (.json)")),
    ("bibliography-html", QT_TRANSLATE_NOOP("ExportDialog", "Bibliography in the citation style, HTML (.html)")),
    ("bibliography-txt", QT_TRANSLATE_NOOP("ExportDialog", "Bibliography in the citation style, plain text (.txt)")),
]
EXTENSIONS = {
    "md": ".md",
    "html": ".html",
    "pdf": ".pdf",
    "bib": ".bib",
    "ris": ".ris",
    "csljson": ".json",
    "csv": ".csv",
    "json": ".json",
    "bibliography-html": ".html",
    "bibliography-txt": ".txt",
}


def sample_files() -> list[Path]:
    folder = files("desktop_app.resources").joinpath("sample")
    return sorted(Path(str(p)) for p in folder.iterdir() if str(p).endswith(".txt"))


class ExportDialog(QDialog):
    def __init__(
        self, lists: list[str], has_selection: bool, list_name: str | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("exportDialog")
        self.setWindowTitle(self.tr("Export"))
        form = QFormLayout(self)
        self.format = QComboBox(self)
        for key, label in EXPORT_FORMATS:
            self.format.addItem(self.tr(label), key)
        self.scope = QComboBox(self)
        if has_selection:
            self.scope.addItem(self.tr("The selected papers"), "selection:")
        self.scope.addItem(self.tr("The papers shown (current filter)"), "view:")
        for name in lists:
            self.scope.addItem(self.tr("Reading list: {0}").format(name), f"list:{name}")
        if list_name:
            self.scope.setCurrentIndex(max(0, self.scope.findData(f"list:{list_name}")))
        form.addRow(self.tr("Format:"), self.format)
        form.addRow(self.tr("Papers:"), self.scope)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Export…"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)


def sample_count() -> int:
    """How many papers the bundled sample holds."""
    from desktop_app.core.formats.seeds import read_seeds

    return sum(len(read_seeds(p.read_text("utf-8")).records) for p in sample_files())


class FileController(QObject):
    """Import, export, print and upkeep of ``library`` for a window.

    Jobs and dialogs are parented to ``parent`` (the window, which waits for running jobs when
    it closes). ``table`` gives the papers shown and selected; ``filters`` the window's filter,
    read only. ``status_label`` shows the progress of the search index.
    """

    changed = Signal(object)  # a Change: after an import or undoing one
    message = Signal(str, int)  # status-bar text, milliseconds
    indexReady = Signal()  # noqa: N815  the search index was prepared (ensure_index_async)
    damaged = Signal(str)  # the database failed its check (backup_if_due_async): what is wrong
    imported = Signal()  # an import finished and its papers are shown (the table takes the keys)

    def __init__(
        self,
        library: Library,
        table: PaperTable,
        status_label: QLabel,
        filters: Callable[[], FilterState],
        parent: WindowLike,
    ) -> None:
        super().__init__(parent.window())
        self.library = library
        self._table = table
        self._status_label = status_label
        self._filters = filters
        self._window = parent
        self.index_ready = True  # False while ensure_index_async runs
        self.index_job: Job | None = None
        self.backup_job: Job | None = None

    # ---- import ----------------------------------------------------------------------------
    def import_dialog(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(
            self._window.window(), self.tr("Import files"), str(Path.home()), self.tr(IMPORT_FILTER)
        )
        if paths:
            self.import_paths(paths)

    def import_sample(self) -> None:
        self.import_paths([str(p) for p in sample_files()], preview=False)

    def _restored(self, report: ImportReport, paths: list[str]) -> None:
        """A backup restored: its file links outside the library folder were left out (a backup
        from elsewhere can name any file); the user may accept them, and the restore runs again
        with them (papers and notes already there are recognised, not doubled)."""
        self.import_done(report)
        refused = sum(getattr(f, "refused_links", 0) for f in report.files)
        if not refused:
            return
        from PySide6.QtWidgets import QMessageBox

        answer = QMessageBox.question(
            self._window.window(),
            self.tr("Link files outside the library?"),
            self.tr(
                "The backup links %n file(s) outside this library's folder. They were not linked: a backup "
                "from elsewhere can name any file on this computer. Link them now? Only if you trust the "
                "backup.",
                "",
                refused,
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer == QMessageBox.StandardButton.Yes:
            lib = self.library
            start_job(
                self._window.window(),
                self.tr("Restoring…"),
                lambda progress, cancelled: lib.imports.from_files(
                    paths, progress=progress, cancelled=cancelled, accept_links=True
                ),
                self.import_done,
                self._job_failed,
            )

    def import_paths(self, paths: list[str], preview: bool = True) -> None:
        lib = self.library
        win = self._window
        from desktop_app.core.formats.regular_file import not_a_file
        from desktop_app.core.importing.library_json import is_library_json_file

        # only regular files are opened here (a FIFO would block this thread); the rest are
        # reported by the reading job, in one line each
        if any(
            not_a_file(p) is None and is_library_json_file(p) for p in paths
        ):  # backups restore everything; no preview needed
            start_job(
                win.window(),
                self.tr("Restoring…"),
                lambda progress, cancelled: lib.imports.from_files(paths, progress=progress, cancelled=cancelled),
                lambda r: self._restored(r, paths),
                self._job_failed,
            )
            return

        def parse(progress: Callable[[int, int], None], cancelled: Callable[[], bool]) -> tuple[ImportReport, Parsed]:
            return lib.imports.preview(paths)

        def parsed_ok(result: tuple[ImportReport, Parsed]) -> None:
            report, parsed = result
            defaults = self.import_defaults()  # Settings → Import
            options: dict[str, Any] = {"duplicates": "merge", "tag_categories": defaults["tag_categories"]}
            if preview:
                from desktop_app.gui.import_preview import ImportPreview

                dlg = ImportPreview(report, parsed, win.window())
                dlg.skip.setChecked(defaults["duplicates"] == "skip")  # the user's defaults, changeable here
                dlg.keywords_as_tags.setChecked(defaults["keywords_as_tags"])
                if dlg.exec() != QDialog.DialogCode.Accepted:
                    return
                options = {
                    "duplicates": dlg.duplicates(),
                    "keep_apart": dlg.keep_apart(),
                    "keywords_as_tags": dlg.add_keywords_as_tags(),
                    "tag_categories": defaults["tag_categories"],
                }
            elif not report.added and not report.duplicates:
                self.import_done(report)
                return
            start_job(
                win.window(),
                self.tr("Importing…"),
                lambda progress, cancelled: lib.imports.from_records(
                    parsed, progress=progress, cancelled=cancelled, **options
                ),
                self.import_done,
                self._job_failed,
            )

        start_job(win.window(), self.tr("Reading files…"), parse, parsed_ok, self._job_failed)

    def import_defaults(self) -> dict[str, Any]:
        """The import options the user chose in Settings → Import (the preview starts from them)."""
        from desktop_app.gui import preferences as prefs

        settings = self._window.settings
        return {
            "duplicates": "skip" if prefs.get_bool(settings, prefs.IMPORT_SKIP_DUPLICATES) else "merge",
            "keywords_as_tags": prefs.get_bool(settings, prefs.IMPORT_KEYWORDS_AS_TAGS),
            "tag_categories": prefs.get_bool(settings, prefs.IMPORT_ARXIV_CATEGORIES_AS_TAGS),
        }

    def import_done(self, report: ImportReport) -> None:
        """Show an import's result: refresh, select its first paper, report problems."""
        if report.cancelled:
            self.message.emit(self.tr("Import cancelled — nothing was added"), 5000)
            return
        self.changed.emit(Change(ChangeKind.IMPORT, tuple(report.paper_ids)))
        state = self._filters()
        if report.paper_ids and state.query == "" and not state.list_name:
            self._table.select_paper(report.paper_ids[0])
        self.imported.emit()
        lines = [f"{report.summary()}."]
        for fr in report.files:
            for e in fr.errors[:20]:
                lines.append(f"{Path(fr.path).name}: {e}")
            for w in fr.warnings[:5]:
                lines.append(f"{Path(fr.path).name}: warning: {w}")
        self.message.emit(f"Import: {report.summary()}", 10000)
        if report.failed or any(fr.warnings for fr in report.files):
            box = QMessageBox(
                QMessageBox.Icon.Information, self.tr("Import finished"), lines[0], parent=self._window.window()
            )
            box.setObjectName("importReport")
            box.setDetailedText("\n".join(lines[1:]))
            box.open()

    def _job_failed(self, message: str) -> None:
        QMessageBox.warning(self._window.window(), APP_NAME, message)

    # ---- export ----------------------------------------------------------------------------
    def export_dialog(self, list_name: str | None = None) -> None:
        lists = [i.name for i in self.library.lists.all()]
        dlg = ExportDialog(
            lists, len(self._table.selected_ids()) > 0, list_name or self._filters().list_name, self._window.window()
        )
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return
        fmt = dlg.format.currentData()
        scope, _, name = str(dlg.scope.currentData()).partition(":")
        default = (name or "marginalia-export") + EXTENSIONS[fmt]
        path, _ = QFileDialog.getSaveFileName(self._window.window(), self.tr("Export to"), str(Path.home() / default))
        if not path:
            return
        self.export_to(fmt, Path(path), scope, name)

    def export_to(self, fmt: str, path: Path, scope: str, name: str = "") -> None:
        from desktop_app.exporting import export_to_file

        lib = self.library
        kwargs: dict[str, Any] = {}
        if scope == "selection":
            kwargs["ids"] = self._table.selected_ids()
        elif scope == "list":
            kwargs["list_name"] = name
        else:
            query = self._filters().query
            kwargs["ids"] = list(self._table.paper_model.ids)
            kwargs["title"] = self.tr("Papers matching “{0}”").format(query) if query else self.tr("Papers")
        if fmt.startswith("bibliography-"):  # in the style chosen in Settings (Copy citation's)
            from desktop_app.gui.paper_menu import citation_style

            kwargs["style"] = citation_style(self._window)
        start_job(
            self._window.window(),
            self.tr("Exporting…"),
            lambda p, c: export_to_file(lib, fmt, path, **kwargs),
            lambda n: self.message.emit(self.tr("Exported %n paper(s) to {0}", "", n).format(path), 10000),
            self._job_failed,
        )

    def print_dialog(self) -> None:
        from PySide6.QtGui import QTextDocument
        from PySide6.QtPrintSupport import QPrintDialog, QPrinter

        from desktop_app.core.formats.writers import render_export

        ids = self._table.selected_ids()
        if not ids:
            return
        html = render_export("html", self.library.exports.papers(ids), title=self.tr("Papers"))
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        dlg = QPrintDialog(printer, self._window.window())
        if dlg.exec() == QDialog.DialogCode.Accepted:
            doc = QTextDocument()
            doc.setHtml(html)
            doc.print_(printer)

    # ---- upkeep ----------------------------------------------------------------------------
    def index_check_pending(self) -> None:
        """The index check will start soon (the window starts it after its first paint): until
        it has run, ``index_ready`` is False and the status bar says so."""
        self.index_ready = False
        self._status_label.setText(self.tr("Preparing the search index…"))

    def ensure_index_async(self) -> None:
        """Check (and if need be rebuild) the search index in a Job; ``indexReady`` follows."""
        lib = self.library
        label = self._status_label
        self.index_ready = False
        job = Job(lambda progress, cancelled: lib.ensure_index(progress, cancelled), self._window.window())
        label.setText(self.tr("Preparing the search index…"))
        job.progressed.connect(
            lambda n, t: label.setText(
                self.tr("Indexing {0} of %n paper(s)…", "", t).format(i18n.number(n)).replace(str(t), i18n.number(t))
            )
        )

        def done(why: str) -> None:  # ensure_index's answer
            self.index_ready = True
            label.setText("")
            if why not in ("ok", "cancelled") and lib.papers.count():
                self.message.emit(self.tr("Search index rebuilt ({0})").format(why), 5000)
            self.indexReady.emit()

        def failed(message: str) -> None:
            self.index_ready = True
            label.setText("")
            if job.damaged_found:
                self.damaged.emit(message)  # the window asks whether to restore the backup
            else:
                self._job_failed(message)

        job.succeeded.connect(done)
        job.failed.connect(failed)
        keep_while_running(self._window.window(), job)
        self.index_job = job
        job.start()

    def backup_if_due_async(self) -> Job | None:
        """Off the GUI thread (the window starts it after its first paint): check the database
        (``PRAGMA quick_check``), then make the automatic backup when one is due. A damaged
        database emits ``damaged`` (the window offers the newest backup) and is never backed up."""
        if not self._window.window().isVisible():
            return None
        lib = self.library
        enabled, keep = self.backup_preferences()
        job = Job(
            lambda progress, cancelled: lib.backups.check_then_make(enabled=enabled, keep_at_most=keep),
            self._window.window(),
        )
        job.succeeded.connect(self._backup_done)
        job.failed.connect(self._backup_failed)
        keep_while_running(self._window.window(), job)
        self.backup_job = job
        job.start()
        return job

    def backup_preferences(self) -> tuple[bool, int]:
        """Settings → Backups: (automatic backups on, how many to keep)."""
        from desktop_app.gui import preferences as prefs

        settings = self._window.settings
        return prefs.get_bool(settings, prefs.BACKUPS_ENABLED), max(1, prefs.get_int(settings, prefs.BACKUPS_KEEP))

    def _backup_done(self, result: tuple[str, object]) -> None:
        kind, value = result
        if kind == "damaged":
            self.damaged.emit(str(value))
        elif value is not None:
            self.message.emit(self.tr("Library backed up to {0}").format(value), 5000)

    def _backup_failed(self, message: str) -> None:
        self.message.emit(self.tr("Backup failed: {0}").format(message), 15000)

    def rebuild_index(self) -> None:
        lib = self.library
        start_job(
            self._window.window(),
            self.tr("Rebuilding the search index…"),
            lambda p, c: lib.reindex(p, c),
            lambda ok: self.message.emit(self.tr("Search index rebuilt") if ok else self.tr("Rebuild cancelled"), 5000),
            self._job_failed,
        )

    def check_library(self) -> None:
        problems = self.library.integrity_check()
        age = i18n.plurals().backup_age(self.library.backups.newest_age())
        if problems:
            # plain text: a problem names attached files, whose names come from imported files
            box = QMessageBox(
                QMessageBox.Icon.Warning,
                self.tr("Check library"),
                "\n".join([*problems, age]),
                QMessageBox.StandardButton.Ok,
                self._window.window(),
            )
            box.setTextFormat(Qt.TextFormat.PlainText)
            box.exec()
        else:
            QMessageBox.information(
                self._window.window(),
                self.tr("Check library"),
                self.tr("All is well: %n paper(s); database and index agree.\n", "", self.library.papers.count()) + age,
            )

    def undo_import_dialog(self) -> None:
        batches = [b for b in self.library.imports.batches() if not b["undone"] and b["added"]]
        if not batches:
            QMessageBox.information(
                self._window.window(), self.tr("Undo import"), self.tr("There is no import to undo.")
            )
            return
        from desktop_app.gui.undo_import import ask_undo_import

        b = batches[0]
        if ask_undo_import(self._window.window(), b, self.library.imports.undo_cost(b["id"])):
            self.changed.emit(self.library.imports.undo(b["id"]))


def __getattr__(name: str) -> object:
    """``ImportPreview`` is imported with the first import's preview, not at start-up (it costs start-up time);
    ``import_export.ImportPreview`` still names it."""
    if name == "ImportPreview":
        from desktop_app.gui.import_preview import ImportPreview

        return ImportPreview
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
