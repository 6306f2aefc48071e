"""Paints the Tags column as small colored chips."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter
from PySide6.QtWidgets import QStyledItemDelegate

from desktop_app.gui import theme
from desktop_app.gui.paper_model import TagsRole
from desktop_app.gui.theme import chip_colors


class TagChipDelegate(QStyledItemDelegate):
    def __init__(self, color_of, parent=None) -> None:  # noqa: ANN001
        super().__init__(parent)
        self._color_of = color_of

    def initStyleOption(self, option, index) -> None:  # noqa: ANN001, N802
        """The cell as Qt draws it (background, selection, focus), without its text: the chips
        are painted over it."""
        super().initStyleOption(option, index)
        option.text = ""

    def paint(self, painter: QPainter, option, index) -> None:  # noqa: ANN001
        # Qt's own delegate draws the cell (through initStyleOption above): no QStyle and
        # QStyleOptionViewItem types on the Python side, whose ~20 enums cost ~8 ms at start-up
        super().paint(painter, option, index)
        tags = index.data(TagsRole) or []
        if not tags:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = option.rect
        fm = QFontMetrics(option.font)
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
