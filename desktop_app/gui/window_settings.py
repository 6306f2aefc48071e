"""What the main window remembers between runs: its layout and sort for every library; the
filter and the selected paper per library."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QHeaderView, QSplitter, QWidget

from desktop_app.gui.search_bar import FilterState

SPLITTER_KEYS = ("window/splitter", "window/readerSplitter")
DEFAULT_SIZE = (1400, 900)  # the window at its first start


class WindowSettings:
    def __init__(self, settings: QSettings, folder: Path) -> None:
        self.settings = settings
        self.folder = folder

    def key(self, name: str) -> str:
        """Settings that belong to one library (filter, selected paper) are kept per library."""
        folder = str(self.folder.resolve())
        return f"library-{hashlib.sha1(folder.encode()).hexdigest()[:12]}/{name}"

    # ---- restore ---------------------------------------------------------------------------
    def restore_layout(self, window: QWidget, splitters: tuple[QSplitter, QSplitter], header: QHeaderView) -> None:
        """Geometry (or the default size), the main and reader splitters, the table header."""
        s = self.settings
        geo = s.value("window/geometry")
        if isinstance(geo, QByteArray | bytes):
            window.restoreGeometry(geo)
        else:
            window.resize(*DEFAULT_SIZE)
        for key, splitter in zip(SPLITTER_KEYS, splitters, strict=True):
            val = s.value(key)
            if isinstance(val, QByteArray | bytes):
                splitter.restoreState(val)
        hdr = s.value("table/header")
        if isinstance(hdr, QByteArray | bytes):
            header.blockSignals(True)  # restoring emits sortIndicatorChanged
            header.restoreState(hdr)
            header.blockSignals(False)

    def sort(self) -> tuple[str, bool]:
        """The sort key and whether it is descending."""
        return str(self.settings.value("table/sort", "added")), str(
            self.settings.value("table/desc", "false")
        ) == "true"

    def filter_state(self) -> FilterState:
        try:
            return FilterState.from_dict(json.loads(str(self.settings.value(self.key("filter"), "{}"))))
        except ValueError:
            return FilterState()

    def selected_paper(self) -> int | None:
        sel = self.settings.value(self.key("selected"))
        return int(sel) if sel not in (None, "") and str(sel).isdigit() else None

    # ---- save ------------------------------------------------------------------------------
    def save(
        self,
        window: QWidget,
        splitters: tuple[QSplitter, QSplitter],
        header: QHeaderView,
        sort: tuple[str, bool],
        state: FilterState,
        selected: int | None,
    ) -> None:
        s = self.settings
        s.setValue("window/geometry", window.saveGeometry())
        for key, splitter in zip(SPLITTER_KEYS, splitters, strict=True):
            s.setValue(key, splitter.saveState())
        s.setValue("table/header", header.saveState())
        s.setValue("table/sort", sort[0])
        s.setValue("table/desc", "true" if sort[1] else "false")
        s.setValue(self.key("filter"), json.dumps(state.as_dict()))
        s.setValue(self.key("selected"), "" if selected is None else str(selected))
        s.sync()
