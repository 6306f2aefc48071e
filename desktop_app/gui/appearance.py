"""The Appearance preferences applied to a window (``MainWindow.apply_preferences``): the font
size of the paper table and the reader, and the theme (``gui.theme``).
The ``win`` of these functions is a ``MainWindow``, typed by what they need of it (``window_protocol.WindowLike``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication

from desktop_app.gui import preferences as prefs

if TYPE_CHECKING:
    from desktop_app.gui.window_protocol import WindowLike

MIN_FONT_SIZE, MAX_FONT_SIZE = 6, 32  # points; 0 is the system's size
ROW_PADDING = 10  # pixels above and below a table row's text
MIN_ROW_HEIGHT = 26  # the table's row height at the system's font size
_SIZE_RULE = "/* font size preference */"


def font_for(size: int) -> QFont:
    """The application's font at ``size`` points (0: the application's font as it is)."""
    font = QFont(QApplication.font())
    if size > 0:
        font.setPointSize(max(MIN_FONT_SIZE, min(MAX_FONT_SIZE, size)))
    return font


def apply_font_size(win: WindowLike, size: int) -> None:
    """Set the paper table's and the reader's font, the table's row height, and the abstract's
    text size (its style sheet gives pixels; a size preference overrides them), then show the
    current paper again in that size."""
    font = font_for(size)
    win.table.ensurePolished()  # else the style sheet's first polish (at show) puts its own font back
    win.table.setFont(font)
    win.table.verticalHeader().setDefaultSectionSize(max(MIN_ROW_HEIGHT, QFontMetrics(font).height() + ROW_PADDING))
    win.reader.setFont(font)
    doc = win.reader.abstract.document()
    css = re.sub(re.escape(_SIZE_RULE) + r".*\Z", "", doc.defaultStyleSheet(), flags=re.S).rstrip()
    if size > 0:
        css += f"\n{_SIZE_RULE} body {{ font-size: {font.pointSize()}pt; }}"
    doc.setDefaultStyleSheet(css)
    if win.reader.paper is not None:
        win.show_current(reload_note=False)  # the abstract's HTML is laid out again with the rule


def apply_theme(win: WindowLike) -> None:
    """Apply the saved theme ("system", "light", "dark"; a ``gui --theme`` of this run wins)."""
    from desktop_app.gui.theme import apply_preference

    apply_preference(win.settings)


def apply_preferences(win: WindowLike) -> None:
    """Everything of the Appearance page, read from the window's settings."""
    apply_font_size(win, prefs.get_int(win.settings, prefs.FONT_SIZE))
    apply_theme(win)
