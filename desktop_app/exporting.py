"""Export papers from a library to a file in any format (PDF through Qt, the rest in core)."""

from __future__ import annotations

import json
from pathlib import Path

from desktop_app.core.library import Library
from desktop_app.core.records import ExportPaper

# a formatted bibliography in a citation style (core/citations.py), as HTML or plain text
BIBLIOGRAPHY_FORMATS = ("bibliography-html", "bibliography-txt")


def select_for_export(
    lib: Library, *, query: str | None = None, list_name: str | None = None, ids: list[int] | None = None
) -> tuple[list[int], str, str]:
    """(paper ids in order, document title, description) for a list, a query, or ids."""
    if ids is not None:
        return ids, "Selected papers", ""
    if list_name:
        info = next((i for i in lib.lists.all() if i.name.lower() == list_name.lower()), None)
        if info is None:
            from desktop_app.core.errors import LibraryError

            raise LibraryError(f"no reading list named '{list_name}'")
        return [pid for pid, _, _ in lib.lists.items(info.name)], info.name, info.description
    res = lib.query(query or "", sort="relevance" if query else "added")
    return res.ids, (f"Papers matching “{query}”" if query else "All papers"), ""


def export_to_file(
    lib: Library,
    fmt: str,
    path: Path,
    *,
    query: str | None = None,
    list_name: str | None = None,
    ids: list[int] | None = None,
    title: str | None = None,
    notes_in_bibtex: bool = False,
    style: str = "apa",
) -> int:
    """Write the export atomically; returns the number of papers written.

    ``style``: the citation style of ``bibliography-html`` and ``bibliography-txt``.

    Every format goes to a temporary file next to *path* that is fsynced and checked before it
    replaces *path*. When that fails, :class:`~desktop_app.core.errors.ExportFailed` says why in
    one line (``no space left on <folder>``); the old file is unchanged and no temporary file stays.
    """
    from desktop_app.core.errors import ExportFailed
    from desktop_app.core.formats.atomic import write_failure_message

    pids, default_title, description = select_for_export(lib, query=query, list_name=list_name, ids=ids)
    papers = lib.exports.papers(pids, list_name=list_name)
    title = title or default_title
    try:
        if fmt in BIBLIOGRAPHY_FORMATS:
            from desktop_app.core.citations import render_bibliography
            from desktop_app.core.formats.atomic import write_text_atomic

            write_text_atomic(Path(path), render_bibliography(papers, fmt, style, title))
        else:
            _write(
                lib,
                fmt,
                Path(path),
                papers,
                pids,
                title=title,
                description=description,
                notes_in_bibtex=notes_in_bibtex,
            )
    except OSError as exc:
        raise ExportFailed(write_failure_message(exc, path)) from exc
    return len(papers)


def export_text(
    lib: Library,
    fmt: str,
    *,
    query: str | None = None,
    list_name: str | None = None,
    title: str | None = None,
    notes_in_bibtex: bool = False,
    style: str = "apa",
) -> tuple[str, int]:
    """(the export as text, the number of papers) for every format but PDF: for standard output."""
    from desktop_app.core.formats.writers import render_export

    if fmt == "pdf":
        raise ValueError("a PDF export is not text")
    pids, default_title, description = select_for_export(lib, query=query, list_name=list_name)
    papers = lib.exports.papers(pids, list_name=list_name)
    title = title or default_title
    if fmt == "json":
        return _library_json_text(lib, papers, pids, title), len(papers)
    if fmt in BIBLIOGRAPHY_FORMATS:
        from desktop_app.core.citations import render_bibliography

        return render_bibliography(papers, fmt, style, title), len(papers)
    return render_export(
        fmt, papers, title=title, description=description, include_notes_in_bibtex=notes_in_bibtex
    ), len(papers)


def _library_json_text(lib: Library, papers: list[ExportPaper], pids: list[int], title: str) -> str:
    from desktop_app.core.formats.json_writer import library_json

    doc = library_json(papers, lib.exports.reading_lists(pids))
    doc["title"] = title
    doc["tags"] = [{"name": t.name, "color": t.color} for t in lib.tags.all()]
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def _write(
    lib: Library,
    fmt: str,
    path: Path,
    papers: list[ExportPaper],
    pids: list[int],
    *,
    title: str,
    description: str,
    notes_in_bibtex: bool,
) -> None:
    from desktop_app.core.formats.writers import render_export, write_export

    if fmt == "json":
        from desktop_app.core.formats.atomic import write_text_atomic

        write_text_atomic(path, _library_json_text(lib, papers, pids, title))
    elif fmt == "pdf":
        from desktop_app.gui.pdf_export import write_pdf

        html = render_export("html", papers, title=title, description=description)
        write_pdf(html, path, title=title)
    else:
        write_export(fmt, papers, path, title=title, description=description, include_notes_in_bibtex=notes_in_bibtex)
