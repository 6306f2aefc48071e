"""The window on a shared (PostgreSQL) library: live updates from the other desks, who changed
the shown paper last, and File → Connect to a shared library….

The library's listener thread (core/changelog/changes.py) pulls the change log after each NOTIFY; its
rows reach the GUI thread through a queued signal (:class:`RemoteChanges`), where the window
re-reads the changed papers (``MainWindow.on_change``) and the note on screen
(``check_note_elsewhere``: unsaved typing stays, with the "Changed elsewhere" banner).

No password is ever stored: the recent list keeps the URL without it (gui/libraries.py), and the
dialog has no password field; libpq finds it in ~/.pgpass, PGPASSFILE or a service file.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
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

from desktop_app.core.changelog.changes import ChangeRow, is_server_url
from desktop_app.core.errors import LibraryError, ServerUnreachable
from desktop_app.core.values import Change, ChangeKind
from desktop_app.gui.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from desktop_app.gui.offline import ServerWindow
    from desktop_app.gui.window_protocol import WindowLike

    class DeskWindow(ServerWindow, Protocol):
        """The window :func:`attach` follows the other desks in (``MainWindow`` is one)."""

        def set_remote_changes(self, relay: RemoteChanges) -> None: ...


def _tr(text: str, n: int = -1) -> str:
    return QCoreApplication.translate("SharedDesk", text, None, n)


class RemoteChanges(QObject):
    """Carries change rows from the listener's thread to the GUI thread (a queued signal)."""

    arrived = Signal(object)


def last_change_text(lib: object, paper_id: int, now: datetime | None = None) -> str:
    """ "tagged by lin, 5 min ago" for the reader ("" when the log has nothing on the paper)."""
    server = getattr(lib, "server", None)
    if server is None:
        return ""
    feed = server.feed
    try:
        row = feed.last_change(paper_id)
    except Exception:  # noqa: BLE001 - a lost server: the line is left out, the window goes on
        return ""
    return "" if row is None else describe_row(row, now)


_N = "SharedDesk"
VERBS = {  # whole sentences ({0}: who, {1}: when); QT_TRANSLATE_NOOP lets lupdate find them
    "tags": QT_TRANSLATE_NOOP(_N, "tagged by {0}, {1}"),
    "notes": QT_TRANSLATE_NOOP(_N, "note edited by {0}, {1}"),
    "highlights": QT_TRANSLATE_NOOP(_N, "highlighted by {0}, {1}"),
    "lists": QT_TRANSLATE_NOOP(_N, "added to a list by {0}, {1}"),
    "attachments": QT_TRANSLATE_NOOP(_N, "attachment changed by {0}, {1}"),
    "imports": QT_TRANSLATE_NOOP(_N, "imported by {0}, {1}"),
    "duplicates": QT_TRANSLATE_NOOP(_N, "merged by {0}, {1}"),
    "papers.set_status": QT_TRANSLATE_NOOP(_N, "status set by {0}, {1}"),
    "papers.set_rating": QT_TRANSLATE_NOOP(_N, "rated by {0}, {1}"),
    "papers.delete": QT_TRANSLATE_NOOP(_N, "moved to the trash by {0}, {1}"),
    "papers.restore": QT_TRANSLATE_NOOP(_N, "restored by {0}, {1}"),
    "trash.restore": QT_TRANSLATE_NOOP(_N, "restored by {0}, {1}"),
    "": QT_TRANSLATE_NOOP(_N, "edited by {0}, {1}"),
}


def describe_row(row: ChangeRow, now: datetime | None = None) -> str:
    area = row.kind.partition(".")[0]
    sentence = _tr(VERBS.get(row.kind) or VERBS.get(area) or VERBS[""])
    minutes = max(0, int(((now or datetime.now(UTC)) - row.at).total_seconds() // 60))
    if minutes < 1:
        when = _tr("just now")
    elif minutes < 60:
        when = _tr("%n min ago", minutes).replace("%n", str(minutes))
    elif minutes < 60 * 24:
        when = _tr("%n h ago", minutes // 60).replace("%n", str(minutes // 60))
    else:
        when = _tr("%n days ago", minutes // 1440).replace("%n", str(minutes // 1440))
    return sentence.format(row.actor or _tr("someone"), when)


def apply_rows(win: WindowLike, rows: list[ChangeRow]) -> None:
    """Refresh what the rows concern: the changed papers (or everything), the sidebar, the note."""
    if not rows or getattr(win, "library", None) is None:
        return
    ids = tuple(sorted({r.paper_id for r in rows if r.paper_id is not None}))
    library_wide = any(r.paper_id is None for r in rows)
    kinds = {r.kind.partition(".")[0] for r in rows}
    # rows that arrive as the server goes away: the window refreshes whole when it is back
    # (gui/offline.py), so a read that fails meanwhile is left unsaid (the banner says it)
    with contextlib.suppress(ServerUnreachable):
        if (
            library_wide
            or kinds & {"imports", "trash"}
            or any(r.kind in ("papers.delete", "papers.restore") for r in rows)
        ):
            win.on_change(Change(ChangeKind.IMPORT))  # the list, the sidebar and the counts
        else:
            win.on_change(Change(ChangeKind.TAGS if "tags" in kinds else ChangeKind.PAPERS, ids))
        win.edits.check_note_elsewhere()


def attach(win: DeskWindow) -> RemoteChanges | None:
    """Follow the other desks in this window (a shared library only)."""
    lib = win.library
    if lib.server is None:
        return None
    win.window().setWindowTitle(
        (_tr("{0} — {1} (read-only)") if lib.read_only else "{0} — {1}").format("Marginalia", lib.server.location)
    )
    win.reader.last_change_provider = lambda pid: last_change_text(lib, pid)
    relay = RemoteChanges(win.window())
    relay.arrived.connect(lambda rows: apply_rows(win, rows), Qt.ConnectionType.QueuedConnection)
    win.set_remote_changes(relay)
    from desktop_app.gui import offline

    offline.attach(win)  # the banner while the server cannot be reached
    lib.follow(relay.arrived.emit)
    return relay


# ---- File → Connect to a shared library… -------------------------------------------------------
def url_of(text: str) -> str:
    """What the user typed: a URL as it is, libpq's keyword form as the same URL, or a service
    name (``lab`` -> ``postgresql:///?service=lab``)."""
    from desktop_app.core.conninfo import is_keyword_string, keyword_url

    text = text.strip()
    if not text or is_server_url(text):
        return text
    if is_keyword_string(text):
        return keyword_url(text)
    return f"postgresql:///?service={text}"


class ConnectDialog(QDialog):
    """A URL or a service name, a Test button; no password field (libpq's ~/.pgpass)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("connectSharedDialog")
        self.setWindowTitle(self.tr("Connect to a shared library"))
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "A library on a PostgreSQL server, shared by a lab. Enter its address "
                "(postgresql://user@host/database) or a service name from your "
                "pg_service.conf. Passwords are never stored here: put yours in "
                "~/.pgpass."
            ),
            self,
        )
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
        # the name hides QDialog.result (kept: a public attribute, which the tests read)
        self.result: QLabel = QLabel("", self)  # type: ignore[assignment]
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
            said += "\n" + self.tr(
                "The password in the address is used now and never saved; put it in ~/.pgpass to connect next time."
            )
        self.result.setText(said)
        return ok


def connect_and_switch(win: WindowLike) -> QWidget | None:
    """File → Connect to a shared library…: ask, then open it in place of this window (through
    ``win.library_opener``: launch.switch_library, which opens a URL with launch.switch_to_shared)."""
    dialog = ConnectDialog(win.window())
    if dialog.exec() != QDialog.DialogCode.Accepted or not dialog.url():
        return None
    opener: Callable[[str, bool], QWidget | None] | None = getattr(win, "library_opener", None)
    try:
        if opener is None:
            raise LibraryError(QCoreApplication.translate("ConnectDialog", "This window cannot open another library."))
        return opener(dialog.url(), False)
    except Exception as exc:  # noqa: BLE001 - libraries.SwitchRefused or a failed connection: said
        QMessageBox.warning(win.window(), dialog.windowTitle(), str(exc))
        return None


def screenshot_view(window: QWidget) -> QWidget:
    """File → Connect to a shared library…, filled in (for the docs)."""
    dialog = ConnectDialog(window)
    dialog.address.setText("postgresql://lin@db.lab.example/papers?sslmode=require")
    dialog.result.setText(
        QCoreApplication.translate("ConnectDialog", "connected as lin to papers on db.lab.example:5432")
    )
    dialog.show()
    return dialog
