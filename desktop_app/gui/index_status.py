"""The search index catching up, in the status bar: "Indexing… 2,500 of 10,000" while the writer
(a child process, or the fallback thread) drains the queue, and a refresh of a text search when
it is done, so that papers just imported appear in its results.

The writer reports from its own thread; a queued signal brings each report to the GUI thread.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QLabel

from desktop_app.core.library import Library
from desktop_app.gui import i18n

if TYPE_CHECKING:
    from desktop_app.core.search.worker import Event
    from desktop_app.gui.window_protocol import WindowLike

    class IndexWindow(WindowLike, Protocol):
        """The window :func:`attach` shows the catch-up in (``MainWindow`` is one)."""

        def set_index_status(self, status: IndexStatus) -> None: ...


class IndexStatus(QObject):
    # a writer's report (dict), emitted from its thread; the name hides QObject.event (kept: it
    # is the signal's name)
    event = Signal(object)  # type: ignore[assignment]
    caughtUp = Signal()  # noqa: N815  the queue is empty and the writer idle (after a drain)

    def __init__(self, library: Library, window: WindowLike) -> None:
        super().__init__(window.window())
        self.library = library
        self.label = QLabel("", window.window())
        self.label.setObjectName("indexProgress")
        window.statusBar().addPermanentWidget(self.label)
        self.event.connect(self._on_event)  # queued: the writer's thread is not this one
        self._listener = self.event.emit
        library.index.listeners.append(self._listener)
        self.destroyed.connect(lambda *_: self.detach())

    def detach(self) -> None:
        listeners = self.library.index.listeners
        if self._listener in listeners:
            listeners.remove(self._listener)

    def _on_event(self, event: Event) -> None:
        kind = event.get("event")
        if kind == "progress" and event.get("phase") == "drain":
            total = int(event.get("total") or 0)
            done = min(int(event.get("done") or 0), total)
            if total > done:
                self.label.setText(self.tr("Indexing… {0} of {1}").format(i18n.number(done), i18n.number(total)))
            return
        if kind == "done" and event.get("cmd") in ("drain", "ensure", "rebuild"):
            try:
                caught_up = self.library.index.caught_up()
            except Exception:  # noqa: BLE001 - the library is closing
                return
            if caught_up:
                self.label.setText("")
                self.caughtUp.emit()
        elif kind == "error":
            self.label.setText(
                self.tr("Search index update failed ({0}); it will be retried").format(event.get("message"))
            )


def attach(window: IndexWindow) -> IndexStatus:
    """Show the catch-up in ``window``'s status bar; re-run its text search when caught up."""
    status = IndexStatus(window.library, window)
    status.caughtUp.connect(window.index_ready)
    window.set_index_status(status)
    return status
