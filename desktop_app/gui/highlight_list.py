"""The reader's list of highlights: each row as tall as its wrapped text (quote and the whole
comment), the list as tall as its rows up to a limit, then it scrolls."""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QListWidget,
    QListWidgetItem,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from desktop_app.gui import theme

MAX_HEIGHT = 220  # beyond this the list scrolls
ROW_PADDING = 4  # above and below a row's text


class _WrappedRows(QStyledItemDelegate):
    """A row's size: its text wrapped to the viewport's width (Qt's own word-wrapped painting,
    whose width this matches)."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802
        view = cast(QListWidget, self.parent())  # the list it is the delegate of
        width = text_width(view)
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        # the stub omits QStyleOption's fields (rect, font, fontMetrics)
        rect = option.fontMetrics.boundingRect(  # type: ignore[attr-defined]
            QRect(0, 0, width, 1_000_000), int(Qt.TextFlag.TextWordWrap), text
        )
        return QSize(view.viewport().width(), rect.height() + 2 * ROW_PADDING)


def text_width(view: QListWidget) -> int:
    """The width a row's text is wrapped to (the item's margins, as Qt's style leaves them)."""
    from PySide6.QtWidgets import QStyle

    margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    return max(40, view.viewport().width() - 2 * margin)


class HighlightList(QListWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("highlightList")
        self.setAccessibleName(self.tr("Highlights"))
        self.setWordWrap(True)
        self.setUniformItemSizes(False)
        self.setResizeMode(QListView.ResizeMode.Adjust)  # rows are measured again when the width changes
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.setItemDelegate(_WrappedRows(self))

    def add_highlight(self, label: str, fill: str) -> QListWidgetItem:
        """A row on the highlight's own fill, its text black or white for contrast (a light fill
        keeps dark text in a dark theme too)."""
        item = QListWidgetItem(label)
        item.setBackground(QColor(fill))
        item.setForeground(QColor(theme.text_on(fill)))
        self.addItem(item)
        return item

    def fit_height(self) -> None:
        """As tall as all rows (up to :data:`MAX_HEIGHT`)."""
        rows = sum(self.sizeHintForRow(i) for i in range(self.count()))
        height = min(MAX_HEIGHT, rows + 2 * self.frameWidth() + 2)
        if self.count() and height != self.height():
            self.setFixedHeight(height)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.fit_height()  # another width wraps the text on other lines
