"""The search box (query language, applied as you type), the result count, an inline error
line for a bad query, and removable chips for the active filters."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.core.saved_filter import SavedFilter
from desktop_app.gui import i18n
from desktop_app.gui.flow_layout import FlowLayout

DEBOUNCE_MS = 180


@dataclass
class FilterState:
    """Everything that decides which papers the table shows."""

    query: str = ""
    status: str | None = None
    tags: list[str] = field(default_factory=list)
    not_tags: list[str] = field(default_factory=list)
    list_name: str | None = None
    trash: bool = False  # the papers in the trash instead of the library's (gui/trash_view.py)

    def chips(self) -> list[tuple[str, str]]:
        out = []
        if self.trash:
            out.append(("trash", QCoreApplication.translate("FilterState", "in the trash")))
        if self.status:
            out.append(("status", f"status: {self.status}"))
        if self.list_name:
            out.append(("list", f"list: {self.list_name}"))
        out += [(f"tag:{t}", f"tag: {t}") for t in self.tags]
        out += [(f"not:{t}", f"not tag: {t}") for t in self.not_tags]
        return out

    def sidebar_entry(self) -> tuple[str, str] | None:
        """The sidebar entry (kind, value) that stands for this filter, if one does."""
        if self.trash:
            return ("trash", "") if not (self.status or self.tags or self.not_tags or self.list_name) else None
        if self.list_name:
            return ("list", self.list_name)
        if self.status and not self.tags:
            return ("status", self.status)
        if len(self.tags) == 1 and not self.status:
            return ("tag", self.tags[0])
        if not (self.status or self.tags or self.not_tags):
            return ("all", "")
        return None

    def as_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "status": self.status,
            "tags": self.tags,
            "not_tags": self.not_tags,
            "list_name": self.list_name,
            "trash": self.trash,
        }

    def saved(self, sort: str | None, descending: bool) -> SavedFilter:
        """The whole filter and the table's sort, as a saved search keeps them. The sort every
        such filter starts with (:meth:`first_sort`) is kept as none: a query alone stays its
        text, as saved searches always were."""
        if (sort, descending) == self.first_sort():
            sort, descending = None, False
        return SavedFilter(
            query=self.query.strip(),
            status=self.status,
            tags=tuple(self.tags),
            not_tags=tuple(self.not_tags),
            list_name=self.list_name,
            sort=sort,
            descending=descending,
        )

    def first_sort(self) -> tuple[str, bool]:
        """The sort the window gives this filter when it is chosen: relevance for a text
        search, the list's order for a reading list, else the date added."""
        if self.query.strip():
            return ("relevance", True)
        return ("position", False) if self.list_name else ("added", False)

    @classmethod
    def from_saved(cls, saved: SavedFilter) -> FilterState:
        return cls(
            query=saved.query,
            status=saved.status,
            tags=list(saved.tags),
            not_tags=list(saved.not_tags),
            list_name=saved.list_name,
        )

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FilterState:
        return cls(
            query=str(d.get("query") or ""),
            status=d.get("status") or None,
            tags=list(d.get("tags") or []),
            not_tags=list(d.get("not_tags") or []),
            list_name=d.get("list_name") or None,
            trash=bool(d.get("trash")),
        )


class SearchBar(QWidget):
    queryChanged = Signal(str)  # noqa: N815  (debounced)
    chipRemoved = Signal(str)  # noqa: N815
    chipNegated = Signal(str)  # noqa: N815  Alt+click on a tag chip: "tag: x" <-> "not tag: x"
    saveRequested = Signal()  # noqa: N815

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 6, 8, 2)
        outer.setSpacing(3)
        row = QHBoxLayout()
        self.box = QLineEdit(self)
        self.box.setObjectName("searchBox")
        self.box.setAccessibleName(self.tr("Search"))
        self.box.setPlaceholderText(
            self.tr('Search — e.g.  tag:rl/* AND NOT status:read   "in-context learning"   year:>=2025')
        )
        self.box.setClearButtonEnabled(True)
        self.count = QLabel("", self)
        self.count.setObjectName("resultCount")
        self.count.setMinimumWidth(110)
        self.count.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.save = QPushButton(self.tr("Save search…"), self)
        self.save.setObjectName("saveSearch")
        self.save.clicked.connect(self.saveRequested)
        row.addWidget(self.box, 1)
        row.addWidget(self.count)
        row.addWidget(self.save)
        outer.addLayout(row)
        self.error = QLabel("", self)
        self.error.setObjectName("queryError")
        self.error.setTextFormat(Qt.TextFormat.PlainText)
        self.error.hide()
        outer.addWidget(self.error)
        self.chip_box = QWidget(self)
        self.chip_layout = FlowLayout(self.chip_box)
        outer.addWidget(self.chip_box)
        self.chip_box.hide()
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(lambda: self.queryChanged.emit(self.box.text()))
        self.box.textEdited.connect(lambda _t: self.timer.start())
        self.box.returnPressed.connect(self.apply_now)

    def apply_now(self) -> None:
        self.timer.stop()
        self.queryChanged.emit(self.box.text())

    def set_text(self, text: str) -> None:
        self.box.setText(text)

    def show_error(self, message: str | None) -> None:
        self.error.setText(f"⚠ {message}" if message else "")
        self.error.setVisible(bool(message))

    def show_count(self, shown: int, total_library: int) -> None:
        self.count.setText(
            self.tr("{0} of {1}").format(i18n.number(shown), i18n.number(total_library))
            if shown != total_library
            else i18n.papers(total_library)
        )

    def _chip_clicked(self, key: str) -> None:
        alt = QApplication.keyboardModifiers() & Qt.KeyboardModifier.AltModifier
        if alt and key.startswith(("tag:", "not:")):
            self.chipNegated.emit(key)
        else:
            self.chipRemoved.emit(key)

    def set_chips(self, chips: list[tuple[str, str]]) -> None:
        while self.chip_layout.count():
            item = self.chip_layout.takeAt(0)
            if item and item.widget():
                item.widget().hide()
                item.widget().deleteLater()
        for key, label in chips:
            b = QToolButton(self.chip_box)
            b.setText(f"{label}  ✕")
            b.setObjectName("filterChip")
            tag = key.startswith(("tag:", "not:"))
            b.setToolTip(
                self.tr("Remove this filter (Alt+click: the opposite tag filter)")
                if tag
                else self.tr("Remove this filter")
            )
            b.setAccessibleName(self.tr("Filter {0}; press to remove").format(label))
            # its colours: the application's style sheet (desktop_app.gui.theme)
            b.clicked.connect(lambda _=False, k=key: self._chip_clicked(k))
            self.chip_layout.addWidget(b)
        self.chip_box.setVisible(bool(chips))
