"""A shared library whose server cannot be reached: a banner, not a crash.

The store (core/store/store.py) tells its ``reachability_listeners`` when the server stops or
starts answering, from whichever thread noticed (the window's, or the change listener's, which
keeps reconnecting). Here that reaches the GUI thread by a queued signal: the banner shows or
hides; when the server is back the window re-reads what it shows (the listener has already
pulled the change log into the desk's index) and the edits that waited are sent in order
(``EditController.send_outbox``), with those an earlier window on this library left in its
journal (closed or killed during an outage: ``EditController.adopt_journal``); the dialogs'
edits wait among them (``EditController.submit``), and a metadata edit that meets fields
changed elsewhere meanwhile reopens the editor with the choice of each
(``metadata_editor.resolve_waiting_conflict``). While the server is gone the window's own reads fail at once
(no wait on the GUI thread): the table keeps the rows it has, the reader the paper it shows.
A server that hangs without closing its connections costs the window's thread about a tenth of
a second once (a probe finds it silent; a busy server's slow statement is waited for up to
SERVER_DEADLINE: ``lib.answer_within``, core/store/server_watchdog.py), then nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QWidget

from desktop_app.core.errors import ServerUnreachable
from desktop_app.core.values import Change, ChangeKind

if TYPE_CHECKING:
    from desktop_app.gui.editing import EditController
    from desktop_app.gui.window_protocol import WindowLike

    class ServerWindow(WindowLike, Protocol):
        """The window :func:`attach` watches (``MainWindow`` is one): its edit controller is the
        context of a timer, so a QObject."""

        @property
        def edits(self) -> EditController: ...
        def set_server_state(self, state: ServerState) -> None: ...


SERVER_DEADLINE = 1.0  # seconds the window's thread waits for a server that stopped answering


class OfflineBanner(QLabel):
    """ "The library's server cannot be reached — showing what this desk has; edits wait"."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(
            self.tr("The library's server cannot be reached — showing what this desk has; edits wait"), parent
        )
        self.setObjectName("offlineBanner")
        self.setWordWrap(True)
        self.setMargin(6)
        self.hide()


def quiet(call: Callable[[], None]) -> Callable[[], None]:
    """``call`` with a lost server left unsaid (the banner says it): for the window's follow-ups."""

    def run() -> None:
        with contextlib.suppress(ServerUnreachable):
            call()

    return run


class ServerState(QObject):
    """Carries the store's reachability to the GUI thread."""

    changed = Signal(bool)  # the server answers


def attach(win: ServerWindow) -> ServerState | None:
    """Show the window's offline banner while its shared library's server is gone."""
    lib = win.library
    if lib.server is None:
        return None
    lib.answer_within(SERVER_DEADLINE)  # a hung server: this thread's statement is cut, not waited on
    state = ServerState(win.window())
    state.changed.connect(lambda on: _reachable(win, on), Qt.ConnectionType.QueuedConnection)

    def tell(on: bool) -> None:
        with contextlib.suppress(RuntimeError):  # the window is gone (closed meanwhile)
            state.changed.emit(on)

    stop = lib.on_reachability(tell)
    state.destroyed.connect(lambda: stop())
    win.set_server_state(state)
    if not lib.reachable:
        win.offline_banner.show()
    if win.edits.adopt_journal() and lib.reachable:  # else: when the server is back (_reachable)
        QTimer.singleShot(0, win.edits, win.edits.send_outbox)
    return state


def _reachable(win: WindowLike, on: bool) -> None:
    if on == (not win.offline_banner.isVisible()):
        return
    win.offline_banner.setVisible(not on)
    if not on:
        return
    win.status_message(QCoreApplication.translate("OfflineBanner", "The library's server is back"), 5000)
    win.on_change(Change(ChangeKind.IMPORT))  # the list, the sidebar, the counts and the reader, afresh
    win.edits.send_outbox()
