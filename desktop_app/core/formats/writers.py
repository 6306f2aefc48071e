"""Export dispatcher: picks a writer by format name and writes its output.

The per-format writers (``bibtex_writer``, ``ris_writer``, ...) are pure functions from a
sequence of :class:`~desktop_app.core.records.ExportPaper` to a string. This module picks one
by format name (:func:`render_export`) and writes its output atomically (:func:`write_export`).

This module imports the writers (each when its format is first asked for, so only that
format's libraries are loaded); the writers never import this module. The helpers they share
live in :mod:`desktop_app.core.formats.writer_common`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from os import PathLike
from pathlib import Path

from desktop_app.core.records import ExportPaper

EXPORT_FORMATS: tuple[str, ...] = ("md", "html", "bib", "ris", "csljson", "csv", "json")

#: File name suffix for each export format.
EXPORT_EXTENSIONS: dict[str, str] = {
    "md": ".md",
    "html": ".html",
    "bib": ".bib",
    "ris": ".ris",
    "csljson": ".json",
    "csv": ".csv",
    "json": ".json",
}

#: Human-readable names, e.g. for a file dialog filter.
EXPORT_LABELS: dict[str, str] = {
    "md": "Markdown",
    "html": "HTML",
    "bib": "BibTeX",
    "ris": "RIS",
    "csljson": "CSL-JSON",
    "csv": "CSV",
    "json": "Marginalia library (JSON)",
}

# CSV gets a byte-order mark on disk so spreadsheet programs detect UTF-8.
_FILE_ENCODINGS: dict[str, str] = {"csv": "utf-8-sig"}


def _renderer(fmt: str) -> Callable[..., str]:
    """Return the render function for *fmt* (imported on first use)."""
    if fmt == "md":
        from desktop_app.core.formats.markdown_writer import render_markdown

        return render_markdown
    if fmt == "html":
        from desktop_app.core.formats.html_writer import render_html

        return render_html
    if fmt == "bib":
        from desktop_app.core.formats.bibtex_writer import render_bibtex

        return render_bibtex
    if fmt == "ris":
        from desktop_app.core.formats.ris_writer import render_ris

        return render_ris
    if fmt == "csljson":
        from desktop_app.core.formats.csljson_writer import render_csljson

        return render_csljson
    if fmt == "csv":
        from desktop_app.core.formats.csv_writer import render_csv

        return render_csv
    if fmt == "json":
        from desktop_app.core.formats.json_writer import render_library_json

        return render_library_json
    hint = " (PDF is printed by the GUI from the HTML export)" if fmt == "pdf" else ""
    raise ValueError(f"unknown export format {fmt!r}{hint}; expected one of {EXPORT_FORMATS}")


def render_export(
    fmt: str,
    papers: Sequence[ExportPaper],
    *,
    title: str = "Marginalia export",
    description: str = "",
    include_notes_in_bibtex: bool = False,
) -> str:
    """Render *papers* in export format *fmt* (one of :data:`EXPORT_FORMATS`) to a string.

    *title* and *description* head the Markdown and HTML documents; *include_notes_in_bibtex*
    adds the user's note as a BibTeX ``note`` field. Formats ignore options they have no use for.
    """
    render = _renderer(fmt)
    papers = list(papers)
    if fmt in ("md", "html"):
        return render(papers, title=title, description=description)
    if fmt == "bib":
        return render(papers, include_notes=include_notes_in_bibtex)
    return render(papers)


def write_export(
    fmt: str,
    papers: Sequence[ExportPaper],
    path: str | PathLike[str],
    *,
    title: str = "Marginalia export",
    description: str = "",
    include_notes_in_bibtex: bool = False,
) -> Path:
    """Render *papers* as *fmt* and write them to *path* atomically; return the path.

    Text is UTF-8 (CSV with a byte-order mark, for spreadsheets). An existing file at *path*
    is replaced only once the new content is completely on disk.
    """
    from desktop_app.core.formats.atomic import write_text_atomic

    text = render_export(
        fmt,
        papers,
        title=title,
        description=description,
        include_notes_in_bibtex=include_notes_in_bibtex,
    )
    return write_text_atomic(path, text, encoding=_FILE_ENCODINGS.get(fmt, "utf-8"))
