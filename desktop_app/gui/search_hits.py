"""Search hits drawn in the reader: an underline in the palette's accent colour over exactly what
the query matched (:func:`desktop_app.core.search.hit_spans.hit_spans`), so that a hit never
looks like one of the user's highlights (those keep their coloured fills)."""

from __future__ import annotations

from PySide6.QtGui import QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QTextEdit

from desktop_app.core.search.hit_spans import hit_spans

HIT_PROPERTY = QTextCharFormat.Property.UserProperty + 15  # marks a character as a search hit


def hit_format(palette: QPalette) -> QTextCharFormat:
    """The format merged over a hit: an underline in the palette's highlight (accent) colour."""
    fmt = QTextCharFormat()
    fmt.setFontUnderline(True)
    fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
    fmt.setUnderlineColor(palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.Highlight))
    fmt.setProperty(HIT_PROPERTY, True)
    return fmt


def draw_hits(view: QTextEdit, query_text: str, plain: str, field: str = "abstract") -> list[tuple[int, int]]:
    """Underline in ``view`` what ``query_text`` matched of ``plain`` (the document's plain text:
    a document position is an offset into it). Returns the spans drawn."""
    doc = view.document()
    n = doc.characterCount() - 1
    spans = [(a, min(b, n)) for a, b in hit_spans(query_text, plain, field) if a < n]
    if not spans:
        return []
    fmt = hit_format(view.palette())
    cursor = QTextCursor(doc)
    for start, end in spans:
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        cursor.mergeCharFormat(fmt)
    return spans
