"""Import, export, print and maintenance from the window: all long work runs in a Job."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QRadioButton,
    QVBoxLayout,
)

from desktop_app.appinfo import APP_NAME, VERSION
from desktop_app.gui.jobs import start_job
from desktop_app.gui.shortcuts_help import SHORTCUTS

IMPORT_FILTER = ("Bibliographies (*.bib *.ris *.txt *.json *.xml *.atom *.csv *.tsv *.enw *.nbib);;"
                 "All files (*)")
EXPORT_FORMATS = [
    ("md", "Markdown (.md)"), ("html", "HTML page (.html)"), ("pdf", "PDF (.pdf)"), ("bib", "BibTeX (.bib)"),
    ("ris", "RIS (.ris)"), ("csljson", "CSL-JSON (.json)"), ("csv", "CSV spreadsheet (.csv)"),
    ("json", "Marginalia JSON — everything, for backups (.json)"),
]
EXTENSIONS = {"md": ".md", "html": ".html", "pdf": ".pdf", "bib": ".bib", "ris": ".ris",
              "csljson": ".json", "csv": ".csv", "json": ".json"}


def sample_files() -> list[Path]:
    folder = files("desktop_app.resources").joinpath("sample")
    return sorted(Path(str(p)) for p in folder.iterdir() if str(p).endswith(".txt"))


class ImportPreview(QDialog):
    """What an import will do, before anything is written."""

    def __init__(self, report, parent=None) -> None:  # noqa: ANN001
        super().__init__(parent)
        self.setObjectName("importPreview")
        self.setWindowTitle("Import")
        lay = QVBoxLayout(self)
        head = QLabel(f"<b>{report.added}</b> new papers, <b>{report.duplicates}</b> already in the library, "
                      f"<b>{report.failed}</b> could not be read.", self)
        lay.addWidget(head)
        details = []
        for fr in report.files:
            details.append(f"{Path(fr.path).name} ({fr.format}): {fr.added} new, {fr.duplicates} duplicates, "
                           f"{fr.failed} failed")
            details += [f"    warning: {w}" for w in fr.warnings]
            details += [f"    failed: {e}" for e in fr.errors[:50]]
            if len(fr.errors) > 50:
                details.append(f"    … and {len(fr.errors) - 50} more")
        box = QPlainTextEdit("\n".join(details), self)
        box.setReadOnly(True)
        box.setMinimumSize(560, 160)
        lay.addWidget(box)
        self.merge = QRadioButton("Duplicates: fill in what the library lacks (your tags, notes and edits stay)", self)
        self.skip = QRadioButton("Duplicates: skip them", self)
        self.merge.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.merge)
        group.addButton(self.skip)
        if report.duplicates:
            lay.addWidget(self.merge)
            lay.addWidget(self.skip)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Import")
        buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(report.added > 0 or report.duplicates > 0)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def duplicates(self) -> str:
        return "skip" if self.skip.isChecked() else "merge"


class ExportDialog(QDialog):
    def __init__(self, lists: list[str], has_selection: bool, list_name: str | None, parent=None) -> None:  # noqa: ANN001
        super().__init__(parent)
        self.setObjectName("exportDialog")
        self.setWindowTitle("Export")
        form = QFormLayout(self)
        self.format = QComboBox(self)
        for key, label in EXPORT_FORMATS:
            self.format.addItem(label, key)
        self.scope = QComboBox(self)
        if has_selection:
            self.scope.addItem("The selected papers", "selection:")
        self.scope.addItem("The papers shown (current filter)", "view:")
        for name in lists:
            self.scope.addItem(f"Reading list: {name}", f"list:{name}")
        if list_name:
            self.scope.setCurrentIndex(max(0, self.scope.findData(f"list:{list_name}")))
        form.addRow("Format:", self.format)
        form.addRow("Papers:", self.scope)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Export…")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)


class FileActions:
    """Mixin for MainWindow."""

    def sample_count(self) -> int:
        from desktop_app.core.formats.seeds import read_seeds

        return sum(len(read_seeds(p.read_text("utf-8")).records) for p in sample_files())

    # ---- import ----------------------------------------------------------------------------
    def import_dialog(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Import files", str(Path.home()), IMPORT_FILTER)
        if paths:
            self.import_paths(paths)

    def import_sample(self) -> None:
        self.import_paths([str(p) for p in sample_files()], preview=False)

    def import_paths(self, paths: list[str], preview: bool = True) -> None:
        lib = self.library
        from desktop_app.core.lib_import import _is_backup

        if any(_is_backup(p) for p in paths):  # backups restore everything; no preview needed
            start_job(self, "Restoring…", lambda progress, cancelled: lib.import_files(
                paths, progress=progress, cancelled=cancelled), self._import_done, self._job_failed)
            return

        def parse(progress, cancelled):  # noqa: ANN001, ANN202
            return lib.preview_files(paths)

        def parsed_ok(result) -> None:  # noqa: ANN001
            report, parsed = result
            duplicates = "merge"
            if preview:
                dlg = ImportPreview(report, self)
                if dlg.exec() != QDialog.DialogCode.Accepted:
                    return
                duplicates = dlg.duplicates()
            elif not report.added and not report.duplicates:
                self._import_done(report)
                return
            start_job(self, "Importing…",
                      lambda progress, cancelled: lib.import_records(parsed, duplicates=duplicates,
                                                                     progress=progress, cancelled=cancelled),
                      self._import_done, self._job_failed)

        start_job(self, "Reading files…", parse, parsed_ok, self._job_failed)

    def _import_done(self, report) -> None:  # noqa: ANN001
        from desktop_app.core.values import Change

        if report.cancelled:
            self.status_message("Import cancelled — nothing was added")
            return
        self.on_change(Change("import", tuple(report.paper_ids)))
        if report.paper_ids and self.state.query == "" and not self.state.list_name:
            self.select_paper(report.paper_ids[0])
        lines = [f"{report.summary()}."]
        for fr in report.files:
            for e in fr.errors[:20]:
                lines.append(f"{Path(fr.path).name}: {e}")
            for w in fr.warnings[:5]:
                lines.append(f"{Path(fr.path).name}: warning: {w}")
        self.status_message(f"Import: {report.summary()}", 10000)
        if report.failed or any(fr.warnings for fr in report.files):
            box = QMessageBox(QMessageBox.Icon.Information, "Import finished", lines[0], parent=self)
            box.setObjectName("importReport")
            box.setDetailedText("\n".join(lines[1:]))
            box.open()

    def _job_failed(self, message: str) -> None:
        QMessageBox.warning(self, APP_NAME, message)

    def dragEnterEvent(self, event) -> None:  # noqa: ANN001, N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: ANN001, N802
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.import_paths(paths)

    # ---- export ----------------------------------------------------------------------------
    def export_dialog(self, list_name: str | None = None) -> None:
        lists = [i.name for i in self.library.lists()]
        dlg = ExportDialog(lists, len(self.selected_ids()) > 0, list_name or self.state.list_name, self)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return
        fmt = dlg.format.currentData()
        scope, _, name = str(dlg.scope.currentData()).partition(":")
        default = (name or "marginalia-export") + EXTENSIONS[fmt]
        path, _ = QFileDialog.getSaveFileName(self, "Export to", str(Path.home() / default))
        if not path:
            return
        self.export_to(fmt, Path(path), scope, name)

    def export_to(self, fmt: str, path: Path, scope: str, name: str = "") -> None:
        from desktop_app.exporting import export_to_file

        lib = self.library
        kwargs: dict = {}
        if scope == "selection":
            kwargs["ids"] = self.selected_ids()
        elif scope == "list":
            kwargs["list_name"] = name
        else:
            kwargs["ids"] = list(self.model.ids)
            kwargs["title"] = f"Papers matching “{self.state.query}”" if self.state.query else "Papers"
        start_job(self, "Exporting…", lambda p, c: export_to_file(lib, fmt, path, **kwargs),
                  lambda n: self.status_message(f"Exported {n} papers to {path}", 10000), self._job_failed)

    def print_dialog(self) -> None:
        from PySide6.QtGui import QTextDocument
        from PySide6.QtPrintSupport import QPrintDialog, QPrinter

        from desktop_app.core.formats.writers import render_export

        ids = self.selected_ids()
        if not ids:
            return
        html = render_export("html", self.library.export_papers(ids), title="Papers")
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        dlg = QPrintDialog(printer, self)
        if dlg.exec() == QDialog.DialogCode.Accepted:
            doc = QTextDocument()
            doc.setHtml(html)
            doc.print_(printer)

    # ---- maintenance -----------------------------------------------------------------------
    def ensure_index_async(self) -> None:
        from desktop_app.gui.jobs import Job

        lib = self.library
        self.index_ready = False
        job = Job(lambda progress, cancelled: lib.ensure_index(progress, cancelled), self)
        self.status_label.setText("Preparing the search index…")
        job.progressed.connect(lambda n, t: self.status_label.setText(f"Indexing {n:,} of {t:,} papers…"))

        def done(why) -> None:  # noqa: ANN001
            self.index_ready = True
            self.status_label.setText("")
            if why not in ("ok", "cancelled") and lib.live_count():
                self.status_message(f"Search index rebuilt ({why})")
            if self.state.query:
                keep = self.current_id()
                self.refresh_query(keep=keep if keep is not None else self._restored_selection)

        job.succeeded.connect(done)
        job.failed.connect(lambda m: (setattr(self, "index_ready", True), self.status_label.setText(""),
                                      self._job_failed(m)))
        self._jobs = getattr(self, "_jobs", set())
        self._jobs.add(job)
        job.finished.connect(lambda: self._jobs.discard(job))
        self.index_job = job
        job.start()

    def rebuild_index(self) -> None:
        lib = self.library
        start_job(self, "Rebuilding the search index…", lambda p, c: lib.reindex(p, c),
                  lambda ok: self.status_message("Search index rebuilt" if ok else "Rebuild cancelled"),
                  self._job_failed)

    def check_library(self) -> None:
        problems = self.library.integrity_check()
        if problems:
            QMessageBox.warning(self, "Check library", "\n".join(problems))
        else:
            QMessageBox.information(self, "Check library",
                                    f"All is well: {self.library.live_count():,} papers; database and index agree.")

    def undo_import_dialog(self) -> None:
        batches = [b for b in self.library.imports() if not b["undone"] and b["added"]]
        if not batches:
            QMessageBox.information(self, "Undo import", "There is no import to undo.")
            return
        b = batches[0]
        answer = QMessageBox.question(
            self, "Undo import",
            f"Remove the {b['added']} papers imported on {str(b['started_at'])[:16]} from\n{b['source'][:300]}?\n"
            "Tags and notes you added to them go too.")
        if answer == QMessageBox.StandardButton.Yes:
            change = self.library.undo_import(b["id"])
            self.on_change(change)

    # ---- help ------------------------------------------------------------------------------
    def show_shortcuts(self) -> None:
        dlg = QDialog(self)
        dlg.setObjectName("shortcutsDialog")
        dlg.setWindowTitle("Keyboard shortcuts")
        lay = QVBoxLayout(dlg)
        rows = "".join(f"<tr><td style='padding-right:18px'><b>{k}</b></td><td>{v}</td></tr>" for k, v in SHORTCUTS)
        label = QLabel(f"<table>{rows}</table>", dlg)
        label.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(label)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dlg)
        buttons.rejected.connect(dlg.reject)
        lay.addWidget(buttons)
        dlg.open()

    def show_about(self) -> None:
        box = QMessageBox(self)
        box.setObjectName("aboutBox")
        box.setWindowTitle(f"About {APP_NAME}")
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(f"{APP_NAME} {VERSION}\n\nA reading room for paper abstracts.\n\n"
                    f"Library: {self.library.folder}\nPapers: {self.library.live_count():,}")
        box.open()
