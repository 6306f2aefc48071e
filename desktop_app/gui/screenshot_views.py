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


def _lazy(module: str, function: str) -> Callable[[MainWindow], QWidget]:
    """The view ``function`` of ``desktop_app.gui.<module>``, imported when it is rendered."""

    def view(window: MainWindow) -> QWidget:
        from importlib import import_module

        render: Callable[[MainWindow], QWidget] = getattr(import_module(f"desktop_app.gui.{module}"), function)
        return render(window)

    view.__doc__ = f"{module}.{function}"
    return view


VIEWS: dict[str, Callable[[MainWindow], QWidget]] = {
    "main": main_window,
    "context-menu": _lazy("paper_menu", "screenshot_view"),
    "metadata-editor": _lazy("metadata_editor", "screenshot_view"),
    "bulk": _lazy("bulk_panel", "screenshot_bulk_panel"),
    "duplicates": _lazy("duplicates_view", "screenshot_duplicates"),
    "note-history": _lazy("note_history", "screenshot_note_history"),
    "settings": _lazy("settings_dialog", "screenshot_view"),
    "attachments": _lazy("attach_controller", "screenshot_view"),
    "merge-tags": _lazy("merge_tags", "screenshot_merge_tags"),
    "focus": _lazy("focus_order", "screenshot_focus"),
    "tag-filter": _lazy("sidebar", "screenshot_tag_filter"),
    "undo-import": _lazy("undo_import", "screenshot_undo_import"),
    "did-you-mean": _lazy("did_you_mean", "screenshot_view"),
    "retitle": _lazy("retitle_dialog", "screenshot_view"),
    "triage": _lazy("triage", "screenshot_view"),
    "related": _lazy("related_panel", "screenshot_view"),
    "statistics": _lazy("statistics_view", "screenshot_view"),
    "trash": _lazy("trash_view", "screenshot_view"),
    "map": _lazy("paper_map", "screenshot_view"),
}
