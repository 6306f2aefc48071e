"""The window on a shared (PostgreSQL) library: live updates from the other desks, who changed
the shown paper last, and File → Connect to a shared library….

The library's listener thread (core/changes.py) pulls the change log after each NOTIFY; its
rows reach the GUI thread through a queued signal (:class:`RemoteChanges`), where the window
re-reads the changed papers (``MainWindow.on_change``) and the note on screen
(``check_note_elsewhere``: unsaved typing stays, with the "Changed elsewhere" banner).

No password is ever stored: the recent list keeps the URL without it (gui/libraries.py), and the
dialog has no password field; libpq finds it in ~/.pgpass, PGPASSFILE or a service file.
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime

from PySide6.QtCore import QCoreApplication, QObject, QSettings, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.core.changes import ChangeRow, is_server_url
from desktop_app.core.errors import LibraryError
from desktop_app.core.values import Change


def _tr(text: str, n: int = -1) -> str:
    return QCoreApplication.translate("SharedDesk", text, None, n)


class RemoteChanges(QObject):
    """Carries change rows from the listener's thread to the GUI thread (a queued signal)."""

    arrived = Signal(object)


def last_change_text(lib: object, paper_id: int, now: datetime | None = None) -> str:
    """ "tagged by lin, 5 min ago" for the reader ("" when the log has nothing on the paper)."""
    feed = getattr(lib, "feed", None)
    if feed is None:
        return ""
    try:
        row = feed.last_change(paper_id)
    except Exception:  # noqa: BLE001 - a lost server: the line is left out, the window goes on
        return ""
    return "" if row is None else describe_row(row, now)


VERBS = {
    "tags": "tagged", "notes": "note edited", "highlights": "highlighted", "lists": "added to a list",
    "attachments": "attachment changed", "imports": "imported", "duplicates": "merged",
    "papers.set_status": "status set", "papers.set_rating": "rated", "papers.delete": "moved to the trash",
    "papers.restore": "restored",
}


def describe_row(row: ChangeRow, now: datetime | None = None) -> str:
    area = row.kind.partition(".")[0]
    verb = _tr(VERBS.get(row.kind) or VERBS.get(area) or "edited")
    minutes = max(0, int(((now or datetime.now(UTC)) - row.at).total_seconds() // 60))
    if minutes < 1:
        when = _tr("just now")
    elif minutes < 60:
        when = _tr("%n min ago", minutes).replace("%n", str(minutes))
    elif minutes < 60 * 24:
        when = _tr("%n h ago", minutes // 60).replace("%n", str(minutes // 60))
    else:
        when = _tr("%n days ago", minutes // 1440).replace("%n", str(minutes // 1440))
    if row.actor:
        return _tr("{0} by {1}, {2}").format(verb, row.actor, when)
    return _tr("{0}, {1}").format(verb, when)


def apply_rows(win: QWidget, rows: list[ChangeRow]) -> None:
    """Refresh what the rows concern: the changed papers (or everything), the sidebar, the note."""
    if not rows or getattr(win, "library", None) is None:
        return
    ids = tuple(sorted({r.paper_id for r in rows if r.paper_id is not None}))
    library_wide = any(r.paper_id is None for r in rows)
    kinds = {r.kind.partition(".")[0] for r in rows}
    if library_wide or "imports" in kinds or any(r.kind in ("papers.delete", "papers.restore") for r in rows):
        win.on_change(Change("import"))  # the list, the sidebar and the counts
    else:
        win.on_change(Change("tags" if "tags" in kinds else "papers", ids))
    win.edits.check_note_elsewhere()


def attach(win: QWidget) -> RemoteChanges | None:
    """Follow the other desks in this window (a shared library only)."""
    lib = win.library
    if not is_server_url(getattr(lib, "url", None)):
        return None
    win.reader.last_change_provider = lambda pid: last_change_text(lib, pid)
    relay = RemoteChanges(win)
    relay.arrived.connect(lambda rows: apply_rows(win, rows), Qt.ConnectionType.QueuedConnection)
    win.remote_changes = relay
    lib.follow(relay.arrived.emit)
    return relay


# ---- opening -----------------------------------------------------------------------------------
def open_shared_window(url: str, settings: QSettings | None = None) -> QWidget:
    """The shown window on the shared library at ``url`` (no folder lock: every desk may open it)."""
    from desktop_app.core.library import Library
    from desktop_app.gui import index_status, libraries
    from desktop_app.gui.app import application
    from desktop_app.gui.launch import switch_library
    from desktop_app.gui.main_window import MainWindow

    application()
    lib = Library.open(url, background_index=True, ensure_index=False)
    try:
        win = MainWindow(lib, settings)
    except BaseException:
        lib.close()
        raise
    win.setWindowTitle(f"Marginalia — {lib.location}" + (_tr(" (read-only)") if lib.read_only else ""))
    index_status.attach(win)
    libraries.remember_library(win.settings, url)  # without its password
    win.library_opener = lambda other, new=False: switch_library(win, other, new=new)
    attach(win)
    win.show()
    win.destroyed.connect(lambda *_: lib.close())
    return win


def switch_to_shared(win: QWidget, url: str) -> QWidget:
    """File → Connect / Open Recent on a server: a new window on it; ``win`` closes."""
    from desktop_app.gui import libraries
    from desktop_app.gui.launch import close_window

    win.reader.notes.flush()
    try:
        new_win = open_shared_window(url, win.settings)
    except Exception as exc:  # noqa: BLE001 - said; the old window stays
        raise libraries.SwitchRefused(_tr("Cannot open the shared library:\n{0}").format(exc)) from exc
    win.replaced_by = new_win
    close_window(win)
    libraries.release(win)
    return new_win


def run_shared(url: str, args: argparse.Namespace) -> int:
    """``marginalia --library postgresql://…``: the window on a shared library."""
    from desktop_app.gui.app import application
    from desktop_app.gui.launch import _fail, _screenshot, close_window, current_window

    app = application()
    screenshot = getattr(args, "screenshot", None)
    try:
        win = open_shared_window(url, QSettings())
    except (LibraryError, OSError) as exc:
        return _fail(str(exc), headless=bool(screenshot))
    if screenshot:
        from pathlib import Path

        return _screenshot(app, win, Path(screenshot), args)
    code = app.exec()
    close_window(current_window(win))
    return code


# ---- File → Connect to a shared library… -------------------------------------------------------
def url_of(text: str) -> str:
    """What the user typed: a URL as it is, or a service name (``lab`` -> ``postgresql:///?service=lab``)."""
    text = text.strip()
    if not text or is_server_url(text):
        return text
    return f"postgresql:///?service={text}"


class ConnectDialog(QDialog):
    """A URL or a service name, a Test button; no password field (libpq's ~/.pgpass)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("connectSharedDialog")
        self.setWindowTitle(self.tr("Connect to a shared library"))
        layout = QVBoxLayout(self)
        intro = QLabel(self.tr("A library on a PostgreSQL server, shared by a lab. Enter its address "
                               "(postgresql://user@host/database) or a service name from your "
                               "pg_service.conf. Passwords are never stored here: put yours in "
                               "~/.pgpass."), self)
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.address = QLineEdit(self)
        self.address.setObjectName("sharedAddress")
        self.address.setPlaceholderText("postgresql://lin@db.lab.example/papers?sslmode=require")
        form.addRow(self.tr("Address or service:"), self.address)
        layout.addLayout(form)
        self.test_button = QPushButton(self.tr("Test connection"), self)
        self.test_button.setObjectName("testConnection")
        self.test_button.clicked.connect(self.test)
        layout.addWidget(self.test_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.result = QLabel("", self)
        self.result.setObjectName("connectionResult")
        self.result.setTextFormat(Qt.TextFormat.PlainText)
        self.result.setWordWrap(True)
        layout.addWidget(self.result)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Connect"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(520, self.sizeHint().height())

    def url(self) -> str:
        return url_of(self.address.text())

    def test(self) -> bool:
        """Connect once; the result (or libpq's reason) is shown below the field."""
        from desktop_app.core.shared_library import check_connection, has_password

        url = self.url()
        if not url:
            self.result.setText(self.tr("Enter an address or a service name."))
            return False
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            said = check_connection(url)
            ok = True
        except LibraryError as exc:
            said, ok = str(exc), False
        finally:
            QGuiApplication.restoreOverrideCursor()
        if ok and has_password(url):
            said += "\n" + self.tr("The password in the address is used now and never saved; "
                                   "put it in ~/.pgpass to connect next time.")
        self.result.setText(said)
        return ok


def connect_and_switch(win: QWidget) -> QWidget | None:
    """File → Connect to a shared library…: ask, then open it in place of this window."""
    from desktop_app.gui import libraries

    dialog = ConnectDialog(win)
    if dialog.exec() != QDialog.DialogCode.Accepted or not dialog.url():
        return None
    try:
        return switch_to_shared(win, dialog.url())
    except libraries.SwitchRefused as exc:
        QMessageBox.warning(win, dialog.windowTitle(), str(exc))
        return None


def screenshot_view(window: QWidget) -> QWidget:
    """File → Connect to a shared library…, filled in (for the docs)."""
    dialog = ConnectDialog(window)
    dialog.address.setText("postgresql://lin@db.lab.example/papers?sslmode=require")
    dialog.result.setText(dialog.tr("connected as lin to papers on db.lab.example:5432"))
    dialog.show()
    return dialog
