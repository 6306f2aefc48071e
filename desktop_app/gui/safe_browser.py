"""A QTextBrowser for untrusted text: it loads no resources and follows no link by itself."""

from __future__ import annotations

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QTextBrowser, QWidget


class SafeTextBrowser(QTextBrowser):
    linkActivated = Signal(QUrl)  # noqa: N815

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self.linkActivated.emit)

    def loadResource(self, kind: int, url: QUrl | str) -> None:  # noqa: N802
        """No images, style sheets or files: imported text must not reach the disk or the net."""
        return
