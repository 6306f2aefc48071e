"""PDF from the export HTML through Qt (QTextDocument + QPdfWriter), with page numbers."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from PySide6.QtCore import QMarginsF, QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QFont, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument


def _ensure_gui_app() -> None:
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _ensure_gui_app.app = QGuiApplication([])  # type: ignore[attr-defined]


def write_pdf(html: str, path: Path, *, title: str = "Marginalia export") -> int:
    """Write ``html`` as an A4 PDF with page numbers, atomically. Returns the page count."""
    _ensure_gui_app()
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        writer = QPdfWriter(tmp)
        writer.setTitle(title)
        writer.setCreator("Marginalia")
        writer.setResolution(144)
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                         QMarginsF(18, 16, 18, 18), QPageLayout.Unit.Millimeter))
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        font = QFont("DejaVu Sans")
        font.setPointSizeF(10)
        doc.setDefaultFont(font)
        doc.setHtml(html)
        dpi = writer.resolution()
        rect = writer.pageLayout().paintRectPixels(dpi)
        footer = int(dpi * 0.35)
        page_h = rect.height() - footer
        doc.setPageSize(QSizeF(rect.width(), page_h))
        pages = doc.pageCount()
        painter = QPainter(writer)
        try:
            for n in range(pages):
                if n:
                    writer.newPage()
                painter.save()
                painter.translate(0, -n * page_h)
                doc.drawContents(painter, QRectF(0, n * page_h, rect.width(), page_h))
                painter.restore()
                painter.setFont(QFont("DejaVu Sans", 8))
                painter.setPen(Qt.GlobalColor.darkGray)
                painter.drawText(QRectF(QPointF(0, page_h + footer * 0.2), QSizeF(rect.width(), footer * 0.8)),
                                 Qt.AlignmentFlag.AlignCenter, f"{title} — page {n + 1} of {pages}")
        finally:
            painter.end()
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the file ordinary permissions
        os.replace(tmp, path)
        return pages
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
