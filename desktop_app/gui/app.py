"""The QApplication: names, icon, style; created once."""

from __future__ import annotations

import sys
from importlib.resources import files

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from desktop_app.appinfo import APP_ID, APP_NAME, ORG_NAME, VERSION
from desktop_app.gui.focus_style import FOCUS

STYLE = """
QTableView#paperTable { border: none; selection-background-color: #cfe3ff; selection-color: #111; }
QTreeWidget#sidebar { border: none; background: #f6f7f9; }
QTreeWidget#sidebar::item { padding: 3px 2px; }
QTreeWidget#sidebar::item:selected { background: #dbe7fb; color: #111; }
QLabel#metaLine { color: #5f6368; }
QLabel#sectionLabel { font-weight: 600; color: #3c4043; }
QLabel#noteState { color: #80868b; }
QPlainTextEdit#noteEditor, QTextBrowser#notePreview { border: 1px solid #dadce0; border-radius: 6px; padding: 4px; }
QLineEdit#searchBox { padding: 5px 8px; border: 1px solid #c6c9ce; border-radius: 6px; }
QLineEdit#titleEdit { background: transparent; }
QToolButton[checkable="true"] { padding: 3px 10px; border: 1px solid #c6c9ce; background: #fff; }
QToolButton[checkable="true"]:checked { background: #1a73e8; color: white; border-color: #1a73e8; }
QListWidget#highlightList { border: none; }
"""


def application() -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(ORG_NAME)
    app.setApplicationVersion(VERSION)
    app.setDesktopFileName(APP_ID)
    icon = files("desktop_app.resources").joinpath("icons", "marginalia.svg")
    if icon.is_file():
        app.setWindowIcon(QIcon(str(icon)))
    app.setStyleSheet(STYLE + FOCUS)  # focus_style: the focused widget always shows it
    return app  # type: ignore[return-value]
