"""Paper → Re-derive titles…: the derived titles the current algorithm would write differently,
each with a checkbox; the checked ones are written as one undoable command.

Only titles derived from the abstract are listed (``Library.rederive_titles``): a title the
user edited or one that came with the record is never offered. The list is computed in a worker
(deriving a title costs about a millisecond: seconds at 100,000 papers).

The write is told as data (``papers.set_derived_titles``) through ``window.edits.submit``: while
a shared library's server is away it waits in the journal with the window's other edits and is
sent when the server is back (the list itself is computed on the server: it needs it answering).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_app.core.errors import LibraryError
from desktop_app.core.library_call import DescribedEdit, LibraryCall
from desktop_app.core.values import Change
from desktop_app.gui import i18n
from desktop_app.gui.jobs import start_job

if TYPE_CHECKING:
    from desktop_app.gui.window_protocol import WindowLike

Retitle = tuple[int, str, str]


class RetitleDialog(QDialog):
    """The proposed titles, old and new, all checked at first."""

    def __init__(self, changes: list[Retitle], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("retitleDialog")
        self.setWindowTitle(self.tr("Re-derive titles"))
        self.resize(900, 480)
        layout = QVBoxLayout(self)
        intro = QLabel(
            i18n.number_in(
                self.tr(
                    "%n title(s) derived from their abstracts would read differently now. Titles you edited or that came with the paper are never changed.",
                    "",
                    len(changes),
                ),
                len(changes),
            ),
            self,
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("retitleList")
        self.tree.setHeaderLabels([self.tr("New title"), self.tr("Current title")])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        for pid, old, new in changes:  # item text is plain text: titles are never HTML here
            item = QTreeWidgetItem([new, old])
            item.setData(0, Qt.ItemDataRole.UserRole, pid)
            item.setCheckState(0, Qt.CheckState.Checked)
            item.setToolTip(0, new)
            item.setToolTip(1, old)
            self.tree.addTopLevelItem(item)
        self.tree.setColumnWidth(0, 440)
        layout.addWidget(self.tree, 1)
        row = QHBoxLayout()
        for text, state in (
            (self.tr("Check all"), Qt.CheckState.Checked),
            (self.tr("Check none"), Qt.CheckState.Unchecked),
        ):
            b = QPushButton(text, self)
            b.clicked.connect(lambda _=False, s=state: self._check_all(s))
            row.addWidget(b)
        row.addStretch(1)
        layout.addLayout(row)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, parent=self)
        self.apply_button = self.buttons.addButton(self.tr("Re-derive"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.apply_button.setObjectName("retitleApply")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.tree.itemChanged.connect(lambda *_: self._count())
        self._count()

    def _items(self) -> list[QTreeWidgetItem]:
        # each below the count: none is None
        return [cast(QTreeWidgetItem, self.tree.topLevelItem(i)) for i in range(self.tree.topLevelItemCount())]

    def _check_all(self, state: Qt.CheckState) -> None:
        for item in self._items():
            item.setCheckState(0, state)

    def _count(self) -> None:
        n = len(self.chosen())
        self.apply_button.setText(i18n.number_in(self.tr("Re-derive %n title(s)", "", n), n))
        self.apply_button.setEnabled(n > 0)

    def chosen(self) -> dict[int, str]:
        """{paper id: new title} of the checked rows."""
        return {
            int(item.data(0, Qt.ItemDataRole.UserRole)): item.text(0)
            for item in self._items()
            if item.checkState(0) == Qt.CheckState.Checked
        }


def apply_titles(window: WindowLike, titles: dict[int, str]) -> Change | None:
    """Write ``titles`` as one undoable command ("Re-derive titles"); Undo puts the old back.
    None when refused (said) or waiting for the server (said in the status bar)."""
    try:
        return window.edits.submit(
            DescribedEdit(
                QCoreApplication.translate("RetitleDialog", "Re-derive titles"),
                # the ids as text: a journaled edit's keys are (JSON)
                LibraryCall("papers", "set_derived_titles", ({str(pid): title for pid, title in titles.items()},)),
            )
        )
    except LibraryError as exc:
        QMessageBox.warning(window.window(), QCoreApplication.translate("RetitleDialog", "Marginalia"), str(exc))
        return None


def show_retitle_dialog(window: WindowLike) -> None:
    """Compute the proposals in a worker, then show them; nothing to do is said in the status bar."""
    lib = window.library
    if not lib.reachable:  # they are computed from the titles on the server
        window.status_message(
            QCoreApplication.translate(
                "RetitleDialog",
                "Re-derive titles compares the titles on the library's server: try again when it is back",
            ),
            10000,
        )
        return

    def done(changes: object) -> None:
        if not changes:
            window.status_message(
                QCoreApplication.translate(
                    "RetitleDialog", "Every derived title is already what the current rules derive"
                )
            )
            return
        dialog = RetitleDialog(list(cast("list[Retitle]", changes)), window.window())  # rederive_titles' list
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def accepted() -> None:
            change = apply_titles(window, dialog.chosen())
            if change is not None:
                n = len(change.paper_ids)
                window.status_message(i18n.number_in(i18n.plurals().titles_rederived(n), n))

        dialog.accepted.connect(accepted)
        dialog.open()  # window-modal, without a nested event loop

    start_job(
        window.window(),
        QCoreApplication.translate("RetitleDialog", "Comparing derived titles…"),
        lambda progress, cancelled: lib.rederive_titles(True, progress, cancelled),
        done,
        lambda message: QMessageBox.warning(
            window.window(), QCoreApplication.translate("RetitleDialog", "Marginalia"), message
        ),
    )


def screenshot_view(window: WindowLike) -> QWidget:
    """The dialog with the proposals of ``window``'s library (shown, not run)."""
    dialog = RetitleDialog(window.library.rederive_titles(dry_run=True), window.window())
    dialog.show()
    return dialog
