"""The Trash in the window: the sidebar's "Trash (N)" shows the deleted papers in the table,
with a bar of its own above it (Restore, Delete for good…, Empty trash…), the same entries in
the table's context menu and the Edit menu, and keys (View → Trash Ctrl+3, Restore Ctrl+Shift+R,
Delete there: delete for good).

Restoring is one undo step (its undo moves the papers back to the trash). Deleting for good
cannot be undone (core/trash.py): it asks first, naming how many papers go, with Cancel the
default. Every write goes through ``lib.trash`` / ``lib.papers``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMenu,
    QMessageBox,
    QPushButton,
    QWidget,
)

from desktop_app.core.errors import LibraryError
from desktop_app.core.values import Change

if TYPE_CHECKING:
    from desktop_app.gui.window_protocol import WindowLike

TRASH_KEY = "Ctrl+3"
RESTORE_KEY = "Ctrl+Shift+R"
MESSAGE_MS = 5000


class TrashBar(QWidget):
    """What the Trash view shows above the table: what it is, and its three buttons."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("trashBar")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(8, 4, 8, 4)
        self.label = QLabel(
            self.tr("Deleted papers wait here, also after a restart, until you restore them or delete them for good."),
            self,
        )
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setWordWrap(True)
        self.restore = QPushButton(self.tr("&Restore"), self)
        self.restore.setObjectName("trashRestore")
        self.restore.setToolTip(self.tr("Put the selected papers back in the library (Ctrl+Shift+R; undoable)"))
        self.purge = QPushButton(self.tr("&Delete for good…"), self)
        self.purge.setObjectName("trashPurge")
        self.purge.setToolTip(self.tr("Delete the selected papers and their files for good (Delete; asks first)"))
        self.empty = QPushButton(self.tr("E&mpty trash…"), self)
        self.empty.setObjectName("trashEmpty")
        lay.addWidget(self.label, 1)
        for b in (self.restore, self.purge, self.empty):
            lay.addWidget(b)


class TrashController(QObject):
    """Built by the main window (gui/main_window.py, which imports this module: the window is
    typed against ``window_protocol.WindowLike``); acts on the window's table selection and reports through ``on_change``."""

    def __init__(self, window: WindowLike, bar: TrashBar) -> None:
        super().__init__(window.window())
        self._win = window
        self.bar = bar
        bar.restore.clicked.connect(lambda _=False: self.restore_selected())
        bar.purge.clicked.connect(lambda _=False: self.purge_selected())
        bar.empty.clicked.connect(lambda _=False: self.empty_trash())
        bar.setVisible(False)
        writable = not window.library.read_only
        for b in (bar.restore, bar.purge, bar.empty):
            b.setEnabled(writable)
        self.restore_action = QAction(self.tr("&Restore from trash"), window.window())
        self.restore_action.setObjectName("restoreFromTrashAction")
        self.restore_action.setShortcut(RESTORE_KEY)
        self.restore_action.triggered.connect(lambda _=False: self.restore_selected())
        self.purge_action = QAction(self.tr("Delete for &good…"), window.window())
        self.purge_action.setObjectName("deleteForGoodAction")
        self.purge_action.triggered.connect(lambda _=False: self.purge_selected())
        self.empty_action = QAction(self.tr("Empty &trash…"), window.window())
        self.empty_action.setObjectName("emptyTrashAction")
        self.empty_action.triggered.connect(lambda _=False: self.empty_trash())

    def add_to_menu(self, menu: QMenu) -> None:
        """The Edit menu's entries."""
        for a in (self.restore_action, self.purge_action, self.empty_action):
            menu.addAction(a)

    def shown(self, in_trash: bool) -> None:
        """The window's filter changed: the bar and the actions follow whether it is the Trash,
        and the reader shows a trashed paper without offering to edit it."""
        self.bar.setVisible(in_trash)
        writable = not self._win.library.read_only
        reader = self._win.reader
        if reader.read_only != (in_trash or not writable):
            reader.set_read_only(in_trash or not writable)
            if in_trash and writable:
                reader.notes.edit.setPlaceholderText(self.tr("A paper in the trash: restore it to edit it."))
        self.restore_action.setEnabled(in_trash and writable)
        self.purge_action.setEnabled(in_trash and writable)
        self.empty_action.setEnabled(writable)

    def _say(self, text: str) -> None:
        self._win.status_message(text, MESSAGE_MS)

    def _in_trash(self) -> list[int]:
        """The selected papers, when the Trash is shown (else none: Restore acts there only)."""
        return self._win.table.selected_ids() if self._win.state.trash else []

    def _warn(self, why: str) -> None:
        QMessageBox.warning(self._win.window(), self.tr("Marginalia"), why)

    # ---- the user's intents ----------------------------------------------------------------
    def restore_selected(self) -> None:
        """Put the selected trashed papers back: one undo step."""
        ids = self._in_trash()
        if not ids:
            return
        if self._win.edits.restore_from_trash(ids) is None:
            return  # refused (said), or waiting for the library's server (said)
        self._say(self.tr("Restored %n paper(s) from the trash", "", len(ids)))

    def purge_selected(self) -> None:
        """Delete the selected trashed papers for good, after asking."""
        ids = self._in_trash()
        if not ids:
            return
        n = len(ids)
        if not self._ask(
            self.tr("Delete for good"),
            self.tr(
                "Delete %n paper(s) for good? Their tags, notes, highlights and attached "
                "files go with them. This cannot be undone.",
                "",
                n,
            ),
        ):
            return
        self._purge(lambda: self._win.library.trash.purge(ids))

    def empty_trash(self) -> None:
        """Delete every paper in the trash for good, after asking."""
        lib = self._win.library
        n = lib.trash.count()
        if not n:
            self._say(self.tr("The trash is empty"))
            return
        if not self._ask(
            self.tr("Empty trash"),
            self.tr(
                "Delete all %n paper(s) in the trash for good? Their tags, notes, highlights "
                "and attached files go with them. This cannot be undone.",
                "",
                n,
            ),
        ):
            return
        self._purge(lib.trash.empty)

    def _purge(self, do: Callable[[], Change]) -> None:
        try:
            change = do()
        except LibraryError as exc:
            self._warn(str(exc))
            return
        self._win.on_change(change)
        n = len(change.paper_ids)
        self._say(self.tr("Deleted %n paper(s) for good", "", n))

    def _ask(self, title: str, text: str) -> bool:
        """A warning with "Delete for good" and Cancel, Cancel the default (Enter deletes nothing)."""
        box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Cancel, self._win.window())
        box.setObjectName("trashPurgeBox")
        box.setTextFormat(Qt.TextFormat.PlainText)
        go = box.addButton(self.tr("Delete for good"), QMessageBox.ButtonRole.DestructiveRole)
        go.setObjectName("trashPurgeConfirm")
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.setEscapeButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is go


def add_trash_entries(window: WindowLike, menu: QMenu, n: int) -> None:
    """The table's context menu in the Trash view (gui/paper_menu.py), for ``n`` selected papers."""
    trash = window.trash
    writable = not window.library.read_only
    restore = (
        QCoreApplication.translate("TrashController", "Restore")
        if n == 1
        else QCoreApplication.translate("TrashController", "Restore {0} papers").format(n)
    )
    purge = (
        QCoreApplication.translate("TrashController", "Delete for good…")
        if n == 1
        else QCoreApplication.translate("TrashController", "Delete {0} papers for good…").format(n)
    )
    for text, slot in (
        (restore, trash.restore_selected),
        (purge, trash.purge_selected),
        (QCoreApplication.translate("TrashController", "Empty trash…"), trash.empty_trash),
    ):
        act = menu.addAction(text)
        act.triggered.connect(lambda _=False, slot=slot: slot())
        act.setEnabled(writable)


def screenshot_view(window: WindowLike) -> QWidget:
    """The Trash view, for the docs: when the trash is empty, the first three papers go there."""
    if not window.library.trash.count():
        window.library.papers.delete(window.library.query("").ids[:3])
        window.refresh_sidebar()
    window.on_sidebar_filter("trash", "")
    return window.window()
