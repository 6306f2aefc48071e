"""The QApplication: names, icon, style; created once."""

from __future__ import annotations

import sys
from importlib.resources import files
from typing import cast

from PySide6.QtCore import QSettings
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from desktop_app.appinfo import APP_ID, APP_NAME, ORG_NAME, VERSION
from desktop_app.gui import i18n, theme


def application() -> QApplication:
    app = cast("QApplication | None", QApplication.instance())  # this app makes no other kind
    if app is None:
        app = QApplication(sys.argv[:1])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(ORG_NAME)
    app.setApplicationVersion(VERSION)
    app.setDesktopFileName(APP_ID)
    icon = files("desktop_app.resources").joinpath("icons", "marginalia.svg")
    if icon.is_file():
        app.setWindowIcon(QIcon(str(icon)))
    theme.install(app)  # the system theme; the window applies the saved preference
    if not i18n.installed():
        i18n.install(app, settings=QSettings())  # the Language preference, else the system locale
    return app
