"""PDF from the export HTML through Qt (QTextDocument + QPdfWriter), with page numbers.

QPdfWriter reports no write errors (a full disk leaves a 0-byte or truncated file behind), so
the PDF is rendered into memory and written by :func:`~desktop_app.core.formats.atomic.write_bytes_atomic`,
which checks the written file (its size and the ``%%EOF`` trailer) before it replaces the old one.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QFont, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument

from desktop_app.core.formats.atomic import IncompleteWrite, write_bytes_atomic

_TRAILER_WINDOW = 1024  # a PDF ends with %%EOF, give or take a line end


def check_pdf(path: Path) -> None:
    """Raise :class:`IncompleteWrite` unless *path* starts like a PDF and ends with ``%%EOF``."""
    with open(path, "rb") as handle:
        head = handle.read(5)
        size = handle.seek(0, os.SEEK_END)
        handle.seek(max(0, size - _TRAILER_WINDOW))
        tail = handle.read()
    if head != b"%PDF-":
        raise IncompleteWrite(f"not a PDF ({size} bytes)")
    if b"%%EOF" not in tail.rstrip()[-16:]:
        raise IncompleteWrite(f"the PDF has no %%EOF trailer ({size} bytes)")


def _ensure_gui_app() -> None:
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _ensure_gui_app.app = QGuiApplication([])  # type: ignore[attr-defined]


def write_pdf(html: str, path: Path, *, title: str = "Marginalia export") -> int:
    """Write ``html`` as an A4 PDF with page numbers, atomically. Returns the page count.

    Raises ``OSError`` when the file cannot be written or fails its check; the old file at
    *path*, if any, is then unchanged and no temporary file is left.
    """
    _ensure_gui_app()
    data, pages = render_pdf(html, title=title)
    write_bytes_atomic(path, data, check=check_pdf)
    return pages


def render_pdf(html: str, *, title: str = "Marginalia export") -> tuple[bytes, int]:
    """``html`` as the bytes of an A4 PDF with page numbers, and its page count."""
    array = QByteArray()
    buffer = QBuffer(array)
    if not buffer.open(QIODevice.OpenModeFlag.WriteOnly):  # pragma: no cover - memory
        raise OSError("could not open a memory buffer for the PDF")
    try:
        writer = QPdfWriter(buffer)
        writer.setTitle(title)
        writer.setCreator("Marginalia")
        writer.setResolution(144)
        writer.setPageLayout(
            QPageLayout(
                QPageSize(QPageSize.PageSizeId.A4),
                QPageLayout.Orientation.Portrait,
                QMarginsF(18, 16, 18, 18),
                QPageLayout.Unit.Millimeter,
            )
        )
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
                try:
                    painter.translate(0, -n * page_h)
                    doc.drawContents(painter, QRectF(0, n * page_h, rect.width(), page_h))
                finally:  # balanced even when drawing fails, so that end() closes a clean painter
                    painter.restore()
                painter.setFont(QFont("DejaVu Sans", 8))
                painter.setPen(Qt.GlobalColor.darkGray)
                painter.drawText(
                    QRectF(QPointF(0, page_h + footer * 0.2), QSizeF(rect.width(), footer * 0.8)),
                    Qt.AlignmentFlag.AlignCenter,
                    f"{title} — page {n + 1} of {pages}",
                )
        finally:
            ended = painter.end()
        if not ended:
            raise IncompleteWrite("Qt could not finish the PDF")
    finally:
        buffer.close()
    return bytes(array.data()), pages
