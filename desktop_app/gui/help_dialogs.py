"""The Help menu's dialogs: the keyboard shortcuts and About."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QMessageBox, QVBoxLayout, QWidget

from desktop_app.appinfo import APP_NAME, VERSION
from desktop_app.core.library import Library
from desktop_app.gui import i18n
from desktop_app.gui.shortcuts_help import translated_shortcuts


def show_shortcuts(parent: QWidget) -> None:
    dlg = QDialog(parent)
    dlg.setObjectName("shortcutsDialog")
    dlg.setWindowTitle(QCoreApplication.translate("HelpDialogs", "Keyboard shortcuts"))
    lay = QVBoxLayout(dlg)
    rows = "".join(
        f"<tr><td style='padding-right:18px'><b>{k}</b></td><td>{v}</td></tr>" for k, v in translated_shortcuts()
    )
    label = QLabel(f"<table>{rows}</table>", dlg)
    label.setTextFormat(Qt.TextFormat.RichText)
    lay.addWidget(label)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dlg)
    buttons.rejected.connect(dlg.reject)
    lay.addWidget(buttons)
    dlg.open()


def show_about(parent: QWidget, library: Library) -> None:
    box = QMessageBox(parent)
    box.setObjectName("aboutBox")
    box.setWindowTitle(QCoreApplication.translate("HelpDialogs", "About {0}").format(APP_NAME))
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(
        QCoreApplication.translate(
            "HelpDialogs", "{0} {1}\n\nA reading room for paper abstracts.\n\nLibrary: {2}\nPapers: {3}"
        ).format(APP_NAME, VERSION, library.folder, i18n.number(library.papers.count()))
    )
    box.open()
