"""What the helper modules (controllers, desks, dialogs) need from the main window, as a
``typing.Protocol``: they type their ``win``/``window`` against :class:`WindowLike` instead of
``MainWindow`` (which imports them) or its Qt base. A leaf module: at run time it imports no gui
module; the types it names are imported for the type checker only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings

    from desktop_app.core.library import Library
    from desktop_app.gui.paper_table import PaperTable
    from desktop_app.gui.reader import ReaderPane
    from desktop_app.gui.search_bar import FilterState


class WindowLike(Protocol):
    """The main window's state and public methods its helpers use."""

    library: Library
    settings: QSettings
    state: FilterState
    table: PaperTable
    reader: ReaderPane
    sort_key: str
    sort_desc: bool

    def set_sort(self, key: str, desc: bool) -> None:
        """Sort the table by ``key`` (descending if ``desc``)."""

    def show_current(self, reload_note: bool) -> None:
        """Show the current paper in the reader again."""

    def current_id(self) -> int | None:
        """The id of the paper selected in the table."""

    def status_message(self, text: str, ms: int = ...) -> None:
        """Say ``text`` in the status bar."""
