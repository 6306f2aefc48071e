"""The reader's strip of attached files: one flat button per file (its name and size), a click
opens it with the system's viewer, a right-click offers Open, Show in folder and Remove.

The strip asks ``source(paper_id)`` (the window sets it to ``lib.attachments.for_paper``) each
time a paper is shown; it writes nothing itself: its signals go to the window's
:class:`~desktop_app.gui.attach_controller.AttachController`.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QPoint, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMenu, QStyle, QToolButton, QWidget

from desktop_app.core.attachments import AttachmentView
from desktop_app.core.values import PaperView

Source = Callable[[int], list[AttachmentView]]


def human_size(size: int) -> str:
    """``812 bytes``, ``34 KB``, ``1.2 MB``."""
    if size < 1000:
        return f"{size} bytes"
    for unit, scale in (("KB", 1e3), ("MB", 1e6), ("GB", 1e9)):
        if size < scale * 1000 or unit == "GB":
            value = size / scale
            return f"{value:.1f} {unit}" if value < 10 else f"{value:.0f} {unit}"
    return f"{size} bytes"  # pragma: no cover - the loop always returns


def _label(v: AttachmentView) -> str:
    name = v.name if len(v.name) <= 40 else v.name[:39] + "…"
    text = "{0} ({1})" if v.exists else QCoreApplication.translate("AttachmentStrip", "{0} ({1}) — missing")
    return text.format(name, human_size(v.size)).replace("&", "&&")


class AttachmentStrip(QWidget):
    """``openRequested(attachment id)``, ``removeRequested(attachment id)``,
    ``revealRequested(attachment id)``."""

    openRequested = Signal(int)  # noqa: N815
    removeRequested = Signal(int)  # noqa: N815
    revealRequested = Signal(int)  # noqa: N815

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attachmentStrip")
        self.setAccessibleName(self.tr("Attached files"))
        self.source: Source | None = None
        self.read_only = False
        self.items: list[AttachmentView] = []
        self.buttons: list[QToolButton] = []
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(0, 0, 0, 0)
        self.row.setSpacing(4)
        self.caption = QLabel(self.tr("Files:"), self)
        self.row.addWidget(self.caption)
        self.row.addStretch(1)
        self.hide()

    def show_paper(self, paper: PaperView | None) -> None:
        """Show the attachments of ``paper`` (asked from ``source``)."""
        items = self.source(paper.id) if paper is not None and self.source is not None else []
        if items == self.items and len(self.buttons) == len(items):
            return
        self.items = items
        for b in self.buttons:
            b.deleteLater()
        self.buttons = []
        for n, v in enumerate(items, 1):
            b = QToolButton(self)
            b.setObjectName(f"attachment_{v.id}")
            b.setAutoRaise(True)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab skips the files (title → status); Ctrl+Enter opens
            b.setText(_label(v))
            b.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_FileIcon))
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            b.setToolTip(
                (self.tr("Open with the system's viewer") if v.exists else self.tr("The file is not there any more"))
                + ("" if v.kind == "copy" else self.tr(" (linked, not copied)"))
            )
            b.setAccessibleName(self.tr("Open attached file {0}").format(v.name))
            b.setCursor(Qt.CursorShape.PointingHandCursor)
            b.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            b.clicked.connect(lambda _=False, aid=v.id: self.openRequested.emit(aid))
            b.customContextMenuRequested.connect(lambda pos, aid=v.id, btn=b: self._menu(aid, btn, pos))
            self.row.insertWidget(n, b)
            self.buttons.append(b)
        self.setVisible(bool(items))

    def menu_for(self, aid: int) -> QMenu:
        """The context menu of one attached file (built apart so that tests can trigger it)."""
        menu = QMenu(self)
        menu.addAction(self.tr("Open"), lambda: self.openRequested.emit(aid))
        menu.addAction(self.tr("Show in folder"), lambda: self.revealRequested.emit(aid))
        menu.addSeparator()
        remove = menu.addAction(self.tr("Remove from paper"), lambda: self.removeRequested.emit(aid))
        remove.setObjectName("removeAttachment")
        remove.setEnabled(not self.read_only)
        return menu

    def _menu(self, aid: int, button: QToolButton, pos: QPoint) -> None:
        self.menu_for(aid).exec(button.mapToGlobal(pos))
