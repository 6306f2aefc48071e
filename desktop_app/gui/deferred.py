"""Work the window does one event-loop turn later: after its first paint, and after the table's
own work on each selection or search (the table paints first, the rest follows)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget


class AfterFirstPaint(QObject):
    """Calls ``callback`` once, one event-loop turn after ``widget`` was first painted, or after
    ``fallback_ms`` if it never is (a window started minimised, a hidden widget)."""

    def __init__(
        self, widget: QWidget, callback: Callable[[], None], fallback_ms: int, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._callback: Callable[[], None] | None = callback
        self._widget = widget
        widget.installEventFilter(self)
        QTimer.singleShot(fallback_ms, self, self.run)

    @property
    def done(self) -> bool:
        return self._callback is None

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Paint and self._callback is not None:
            self._widget.removeEventFilter(self)
            QTimer.singleShot(0, self, self.run)  # once the paint is on screen
        return False

    def run(self) -> None:
        """Call the callback now (once): also what the fallback timer does."""
        callback, self._callback = self._callback, None
        if callback is not None:
            self._widget.removeEventFilter(self)
            callback()

    def cancel(self) -> None:
        """Never call the callback: neither the paint nor the fallback timer will."""
        if self._callback is not None:
            self._callback = None
            self._widget.removeEventFilter(self)


class Coalescer(QObject):
    """Named updates asked for during one event-loop turn run together at the start of the next,
    each once, in the order of ``handlers``."""

    def __init__(self, handlers: dict[str, Callable[[], None]], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._handlers = handlers
        self._pending: set[str] = set()
        self._held = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.flush)

    def later(self, *names: str) -> None:
        unknown = set(names) - self._handlers.keys()
        if unknown:
            raise KeyError(f"no such update: {', '.join(sorted(unknown))}")
        self._pending.update(names)
        if not self._held:
            self._timer.start()

    def hold(self) -> None:
        """Queue without running until :meth:`release` (at start-up: until the first paint)."""
        self._held = True
        self._timer.stop()

    def release(self) -> None:
        """Run what was queued while held, one event-loop turn from now."""
        self._held = False
        if self._pending:
            self._timer.start()

    def pending(self, name: str | None = None) -> bool:
        return bool(self._pending) if name is None else name in self._pending

    def cancel(self, name: str) -> None:
        """Forget a queued update (it was just done another way)."""
        self._pending.discard(name)

    def flush(self) -> None:
        """Run what is queued now (when something needs it to be current at once), held or not."""
        self._timer.stop()
        for name, handler in self._handlers.items():
            if name in self._pending:
                self._pending.discard(name)
                handler()
        if self._pending and not self._held:  # queued by a handler: the next turn
            self._timer.start()
