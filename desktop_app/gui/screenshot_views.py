"""The views ``marginalia gui --screenshot PNG --view NAME`` can render, for the docs.

Each is a function of the shown, loaded main window that prepares its view (opens a dialog,
selects a paper…) and returns the widget to grab.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from desktop_app.gui.main_window import MainWindow


def main_window(window: MainWindow) -> QWidget:
    """The whole window as it opened."""
    return window


VIEWS: dict[str, Callable[[MainWindow], QWidget]] = {
    "main": main_window,
}
