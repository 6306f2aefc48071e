"""Paints the Tags column as small colored chips."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter
from PySide6.QtWidgets import QStyledItemDelegate

from desktop_app.gui import theme
from desktop_app.gui.paper_model import Index, TagsRole
from desktop_app.gui.theme import chip_colors

if TYPE_CHECKING:  # not imported when running (see paint)
    from PySide6.QtWidgets import QStyleOptionViewItem


class TagChipDelegate(QStyledItemDelegate):
    def __init__(self, color_of: Callable[[str], str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._color_of = color_of

    def initStyleOption(self, option: QStyleOptionViewItem, index: Index) -> None:  # noqa: N802
        """The cell as Qt draws it (background, selection, focus), without its text: the chips
        are painted over it."""
        super().initStyleOption(option, index)
        option.text = ""  # type: ignore[attr-defined]  # the stub omits QStyleOption's fields

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        # Qt's own delegate draws the cell (through initStyleOption above): no QStyle and
        # QStyleOptionViewItem types on the Python side, whose ~20 enums cost ~8 ms at start-up
        super().paint(painter, option, index)
        tags = index.data(TagsRole) or []
        if not tags:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = option.rect  # type: ignore[attr-defined]  # the stub omits QStyleOption's fields
        fm = QFontMetrics(option.font)  # type: ignore[attr-defined]
        x = rect.x() + 3
        h = fm.height() + 2
        y = rect.y() + (rect.height() - h) / 2
        for name in tags:
            w = fm.horizontalAdvance(name) + 12
            if x + w > rect.right() - 2:
                painter.setPen(QColor(theme.colors().muted))
                painter.drawText(QRectF(x, y, 20, h), Qt.AlignmentFlag.AlignVCenter, "…")
                break
            bg, fg = chip_colors(self._color_of(name))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(bg))
            painter.drawRoundedRect(QRectF(x, y, w, h), h / 2, h / 2)
            painter.setPen(QColor(fg))
            painter.drawText(QRectF(x, y, w, h), Qt.AlignmentFlag.AlignCenter, name)
            x += w + 4
        painter.restore()
