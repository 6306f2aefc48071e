"""CSV export: one row per paper, safe to open in a spreadsheet.

A text cell that a spreadsheet could run as a formula (it starts with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return) is prefixed with ``'``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from desktop_app.core.formats.writer_common import plain_abstract
from desktop_app.core.records import ExportPaper

CSV_COLUMNS: tuple[str, ...] = (
    "id",
    "uid",
    "title",
    "authors",
    "venue",
    "year",
    "doi",
    "arxiv",
    "url",
    "tags",
    "keywords",
    "status",
    "rating",
    "decision",
    "abstract",
    "note",
    "highlights",
)

FORMULA_PREFIXES: tuple[str, ...] = ("=", "+", "-", "@", "\t", "\r")
LIST_SEPARATOR = ";"


def safe_cell(value: object) -> object:
    """*value* unchanged, except text that starts like a formula, which gets a ``'`` prefix."""
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES):
        return "'" + value
    return value


def paper_row(paper: ExportPaper) -> list[object]:
    """The cells of one paper, in :data:`CSV_COLUMNS` order, formula-safe."""
    row: list[object] = [
        paper.id,
        paper.uid,
        paper.title,
        LIST_SEPARATOR.join(paper.authors),
        paper.venue or "",
        paper.year if paper.year is not None else "",
        paper.doi or "",
        paper.arxiv_id or "",
        paper.url or "",
        LIST_SEPARATOR.join(paper.tags),
        LIST_SEPARATOR.join(paper.keywords),
        paper.status,
        paper.rating,
        paper.decision or "",
        plain_abstract(paper),
        paper.note,
        len(paper.highlights),
    ]
    return [safe_cell(cell) for cell in row]


def render_csv(papers: Sequence[ExportPaper]) -> str:
    """All *papers* as CSV text (RFC 4180: CRLF line ends, quoted where needed)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for paper in papers:
        writer.writerow(paper_row(paper))
    return buffer.getvalue()
