"""The import preview: what an import will do, before anything is written.

It lists every record found to be a paper already there (or another record of the import),
with the reason, and lets the user keep any of them apart; it offers to file the files'
keywords as tags under ``keywords/``. Every text from the files is shown as plain text.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QRadioButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_app.core.records import ParseResult
from desktop_app.core.values import ImportReport
from desktop_app.gui import i18n

KEEP_COLUMN = 0
_MAX_ERRORS = 50


def _keyword_count(parsed: list[tuple[str, ParseResult]]) -> tuple[int, int]:
    """(records with keywords, distinct keywords) over the parsed files."""
    words: set[str] = set()
    records = 0
    for _, pr in parsed:
        for rec in pr.records:
            if rec.keywords:
                records += 1
                words.update(k.casefold() for k in rec.keywords)
    return records, len(words)


def _headline(report: ImportReport) -> str:
    added = i18n.plurals().new_papers(report.added)
    failed = i18n.plurals().unreadable(report.failed)
    if report.duplicates:
        reasons = "; ".join(f"{i18n.reason_label(r)}: {n}" for r, n in report.reasons().items())
        return QCoreApplication.translate("ImportPreview", "{0}, {1} already there ({2}), {3}.").format(
            added, report.duplicates, reasons, failed
        )
    return QCoreApplication.translate("ImportPreview", "{0}, {1}.").format(added, failed)


class ImportPreview(QDialog):
    """Shows a dry run's report; the user picks how duplicates are treated and what to keep apart."""

    def __init__(
        self, report: ImportReport, parsed: list[tuple[str, ParseResult]] | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("importPreview")
        self.setWindowTitle(self.tr("Import"))
        self.report = report
        lay = QVBoxLayout(self)
        head = QLabel(_headline(report), self)
        head.setTextFormat(Qt.TextFormat.PlainText)
        head.setWordWrap(True)
        head.setObjectName("importHeadline")
        lay.addWidget(head)

        self.matches = self._match_list(report)
        if self.matches.topLevelItemCount():
            hint = QLabel(
                self.tr(
                    "Each of these records was found to be a paper already there. Tick "
                    "“Keep apart” to import one as a paper of its own."
                ),
                self,
            )
            hint.setWordWrap(True)
            lay.addWidget(hint)
            lay.addWidget(self.matches)
        else:
            self.matches.hide()

        details = self._details(report)
        self.details = QPlainTextEdit("\n".join(details), self)
        self.details.setObjectName("importDetails")
        self.details.setReadOnly(True)
        self.details.setMinimumSize(620, 110)
        lay.addWidget(self.details)

        self.merge = QRadioButton(
            self.tr("Duplicates: fill in what the library lacks (your tags, notes and edits stay)"), self
        )
        self.skip = QRadioButton(self.tr("Duplicates: skip them"), self)
        self.merge.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.merge)
        group.addButton(self.skip)
        if report.duplicates:
            lay.addWidget(self.merge)
            lay.addWidget(self.skip)
        else:  # not in the layout: hidden, or Qt paints them at the top left, over the headline
            self.merge.hide()
            self.skip.hide()

        with_keywords, distinct = _keyword_count(parsed or [])
        self.keywords_as_tags = QCheckBox(
            self.tr(
                "Add the files' keywords as tags under keywords/ ({0} on {1}; they are kept as each paper's keywords either way)"
            ).format(self.tr("%n keyword(s)", "", distinct), self.tr("%n record(s)", "", with_keywords)),
            self,
        )
        self.keywords_as_tags.setObjectName("keywordsAsTags")
        self.offers_keywords = bool(with_keywords)
        if with_keywords:
            lay.addWidget(self.keywords_as_tags)
        else:
            self.keywords_as_tags.hide()

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        self.import_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.import_button.setText(self.tr("Import"))
        self.import_button.setEnabled(report.added > 0 or report.duplicates > 0)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.resize(760, 520 if self.matches.topLevelItemCount() else 320)

    def _match_list(self, report: ImportReport) -> QTreeWidget:
        tree = QTreeWidget(self)
        tree.setObjectName("importMatches")
        tree.setRootIsDecorated(False)
        tree.setUniformRowHeights(True)
        tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        tree.setHeaderLabels(
            [
                self.tr("Keep apart"),
                self.tr("Record in the file"),
                self.tr("Is the paper"),
                self.tr("Because"),
                self.tr("Where"),
            ]
        )
        several = len(report.files) > 1
        for file_no, fr in enumerate(report.files):
            for m in fr.matches:
                where = self.tr("line {0}").format(m.line) if m.line else ""
                if several:
                    where = f"{Path(fr.path).name} {where}".strip()
                item = QTreeWidgetItem(["", m.title, m.paper_title, i18n.reason_label(m.reason), where])
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(KEEP_COLUMN, Qt.CheckState.Unchecked)
                item.setData(KEEP_COLUMN, Qt.ItemDataRole.UserRole, (file_no, m.index))
                for col, text in ((1, m.title), (2, m.paper_title)):
                    item.setToolTip(col, f"<p>{escape(text)}</p>")  # Qt would guess a raw "<b>" to be rich text
                tree.addTopLevelItem(item)
        header = tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.ResizeToContents)
        tree.setMinimumHeight(160)
        return tree

    @staticmethod
    def _details(report: ImportReport) -> list[str]:
        details = []
        for fr in report.files:
            details.append(
                QCoreApplication.translate("ImportPreview", "{0} ({1}): {2} new, {3} already there, {4} failed").format(
                    Path(fr.path).name, fr.format, fr.added, fr.duplicates, fr.failed
                )
            )
            details += [QCoreApplication.translate("ImportPreview", "    warning: {0}").format(w) for w in fr.warnings]
            details += [
                QCoreApplication.translate("ImportPreview", "    failed: {0}").format(e)
                for e in fr.errors[:_MAX_ERRORS]
            ]
            if len(fr.errors) > _MAX_ERRORS:
                details.append(
                    QCoreApplication.translate("ImportPreview", "    … and {0} more").format(
                        len(fr.errors) - _MAX_ERRORS
                    )
                )
        return details

    def duplicates(self) -> str:
        return "skip" if self.skip.isChecked() else "merge"

    def keep_apart(self) -> frozenset[tuple[int, int]]:
        """The (file number, record number) pairs the user ticked."""
        kept: set[tuple[int, int]] = set()
        for i in range(self.matches.topLevelItemCount()):
            item = self.matches.topLevelItem(i)
            assert item is not None  # i is below the count
            if item.checkState(KEEP_COLUMN) == Qt.CheckState.Checked:
                kept.add(tuple(item.data(KEEP_COLUMN, Qt.ItemDataRole.UserRole)))
        return frozenset(kept)

    def add_keywords_as_tags(self) -> bool:
        return self.offers_keywords and self.keywords_as_tags.isChecked()
