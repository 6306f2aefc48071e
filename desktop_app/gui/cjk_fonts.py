"""Chinese, Japanese and Korean text without a font: say once what to install.

On a machine without a CJK font, Qt draws every such character as a box ("tofu"). The window
watches the texts it shows (the titles of the table's rows in sight, the paper in the reader); the
first time one holds CJK characters while no installed font covers them, a dismissible banner in
the status bar names the package to install. It is said once per user (preference
``CJK_FONT_WARNED``). The .deb recommends ``fonts-noto-cjk`` and ``install.sh`` checks with
``fc-list :lang=zh``; this covers the other ways in (a wheel, a bare system).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from desktop_app.gui import preferences

if TYPE_CHECKING:
    from desktop_app.gui.window_protocol import WindowLike

    class NoticeWindow(WindowLike, Protocol):
        """The window :func:`attach` watches (``MainWindow`` is one)."""

        def set_cjk_notice(self, notice: CjkFontNotice) -> None: ...


# CJK ideographs (with extension A and compatibility), kana, Hangul, CJK punctuation, fullwidth forms
CJK = re.compile("[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
SCAN_ROWS = 200  # at most this many rows in sight
START_MS = 1500  # the first look, well after the first paint and the start's own reads
AFTER_PAINT_MS = 300

_available: bool | None = None


def has_cjk(text: str | None) -> bool:
    return bool(text) and CJK.search(text) is not None  # type: ignore[arg-type]


def cjk_font_available() -> bool:
    """Whether an installed font covers Simplified Chinese (asked once per process)."""
    global _available
    if _available is None:
        _available = bool(QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese))
    return _available


def advice() -> str:
    return QCoreApplication.translate(
        "CjkFontNotice",
        "Chinese, Japanese or Korean text is drawn as boxes: no installed font covers it. Install "
        "one, then restart Marginalia: fonts-noto-cjk (Debian, Ubuntu), "
        "google-noto-sans-cjk-fonts (Fedora), noto-fonts-cjk (Arch).",
    )


class CjkFontNotice(QObject):
    """Watches ``win``'s shown texts; shows the banner once when CJK text meets no font."""

    def __init__(self, win: WindowLike, font_available: Callable[[], bool] = cjk_font_available) -> None:
        super().__init__(win.window())
        self.win = win
        self.font_available = font_available
        self.banner: QWidget | None = None
        later = lambda *_: QTimer.singleShot(AFTER_PAINT_MS, self, self._check_table)  # noqa: E731
        win.model.modelReset.connect(later)
        win.model.rowsInserted.connect(later)
        win.table.selectionModel().currentRowChanged.connect(
            lambda *_: QTimer.singleShot(AFTER_PAINT_MS, self, self._check_reader)
        )
        QTimer.singleShot(START_MS, self, self._check_table)

    def done(self) -> bool:
        return self.banner is not None or preferences.get_bool(self.win.settings, preferences.CJK_FONT_WARNED)

    def _check_table(self) -> None:
        """The titles of the rows in sight: painted already, so read from the model's cache
        (nothing asks the database before the window's own first paint did)."""
        table = self.win.table
        if self.done() or not table.isVisible():
            return
        top = table.rowAt(0)
        if top < 0:
            return
        bottom = table.rowAt(table.viewport().height() - 1)
        bottom = self.win.model.rowCount() - 1 if bottom < 0 else bottom
        model = self.win.model
        self.check([model.index(r, 0).data() for r in range(top, min(bottom, top + SCAN_ROWS) + 1)])

    def _check_reader(self) -> None:
        paper = getattr(self.win.reader, "paper", None)
        if paper is not None and not self.done():
            self.check([paper.title, paper.abstract, *paper.tags])

    def check(self, texts: object) -> bool:
        """Show the banner if one of ``texts`` holds CJK characters and no font covers them."""
        if self.done() or not any(has_cjk(t) for t in texts) or self.font_available():  # type: ignore[attr-defined]
            return False
        self.show_banner()
        return True

    def show_banner(self) -> None:
        banner = QWidget(self.win.window())
        banner.setObjectName("cjkFontBanner")
        lay = QHBoxLayout(banner)
        lay.setContentsMargins(6, 0, 0, 0)
        label = QLabel(advice(), banner)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        close = QToolButton(banner)
        close.setText("✕")
        close.setAccessibleName(QCoreApplication.translate("CjkFontNotice", "Dismiss"))
        close.clicked.connect(banner.deleteLater)
        lay.addWidget(label, 1)
        lay.addWidget(close)
        self.win.statusBar().addWidget(banner, 1)
        self.banner = banner
        preferences.put(self.win.settings, preferences.CJK_FONT_WARNED, True)  # said once


def attach(win: NoticeWindow) -> CjkFontNotice:
    """Watch ``win`` (called by launch.open_main_window)."""
    notice = CjkFontNotice(win)
    win.set_cjk_notice(notice)
    return notice
