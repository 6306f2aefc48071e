"""Paints the Tags column as small colored chips."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from desktop_app.gui.paper_model import TagsRole
from desktop_app.gui.tag_editor import chip_colors


class TagChipDelegate(QStyledItemDelegate):
    def __init__(self, color_of, parent=None) -> None:  # noqa: ANN001
        super().__init__(parent)
        self._color_of = color_of

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index) -> None:  # noqa: ANN001
        tags = index.data(TagsRole) or []
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget else None
        if style:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        if not tags:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = QFontMetrics(opt.font)
        x = opt.rect.x() + 3
        h = fm.height() + 2
        y = opt.rect.y() + (opt.rect.height() - h) / 2
        for name in tags:
            w = fm.horizontalAdvance(name) + 12
            if x + w > opt.rect.right() - 2:
                painter.setPen(QColor("#777777"))
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
