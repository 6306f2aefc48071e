"""Export dispatcher and the small helpers every writer shares.

The per-format writers (``bibtex_writer``, ``ris_writer``, ...) are pure functions from a
sequence of :class:`~desktop_app.core.records.ExportPaper` to a string. This module picks one
by format name (:func:`render_export`) and writes its output atomically (:func:`write_export`).

The writers import the helpers below; the dispatcher imports the writers lazily, inside
:func:`render_export`, so there is no import cycle.
"""

from __future__ import annotations

import html
import re
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

MAX_RATING = 5


# --- dispatcher -------------------------------------------------------------------------------


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


# --- helpers shared by the writers ------------------------------------------------------------


def latex_to_plain(raw: str) -> str:
    """Plain text for a LaTeX-laden string, via ``desktop_app.core.text.to_plain``.

    Falls back to the raw string while the text module is not available.
    """
    try:
        from desktop_app.core.text import to_plain
    except ImportError:
        return raw
    return to_plain(raw)


def plain_abstract(paper: ExportPaper) -> str:
    """The abstract as the reader sees it: the stored plain text, else converted from LaTeX."""
    if paper.abstract_text.strip():
        return paper.abstract_text
    return latex_to_plain(paper.abstract) if paper.abstract else ""


def html_abstract(paper: ExportPaper) -> str:
    """The abstract as a SAFE HTML fragment (math made readable by ``core.text.to_html``).

    Highlights whose offsets still match their quote are marked in the text. While the text
    module is not available, the escaped plain text is used instead.
    """
    try:
        from desktop_app.core.text import to_html, to_plain
    except ImportError:
        return html.escape(paper.abstract_text or paper.abstract)
    try:
        from desktop_app.core.text import Mark
    except ImportError:
        return to_html(paper.abstract)
    plain = to_plain(paper.abstract)
    marks = [
        Mark(h.start, h.end, h.color, key=str(index))
        for index, h in enumerate(paper.highlights)
        if not h.orphaned
        and 0 <= h.start < h.end <= len(plain)
        and plain[h.start : h.end] == h.quote
    ]
    return to_html(paper.abstract, marks=marks)


def stars(rating: int) -> str:
    """``★★★☆☆`` for a rating of 3 (clamped to 0..5)."""
    filled = max(0, min(MAX_RATING, int(rating or 0)))
    return "★" * filled + "☆" * (MAX_RATING - filled)


def rating_label(rating: int) -> str:
    """Stars for a rated paper, ``not rated`` for 0."""
    return stars(rating) if rating and rating > 0 else "not rated"


def split_author(name: str) -> tuple[str, str, str] | None:
    """Split ``"Family, Given"`` (or ``"Family, Suffix, Given"``) into (family, given, suffix).

    Returns None for a literal name (no comma), e.g. ``"OpenAI"`` or ``"Jane Doe"``.
    """
    parts = [p.strip() for p in name.split(",")]
    if len(parts) < 2 or not parts[0]:
        return None
    if len(parts) == 2:
        return parts[0], parts[1], ""
    return parts[0], ", ".join(parts[2:]), parts[1]


def family_name(name: str) -> str:
    """The family name of an author given as ``"Family, Given"`` or as a literal name."""
    split = split_author(name)
    if split:
        return split[0]
    words = name.split()
    return words[-1] if words else ""


def display_author(name: str) -> str:
    """``"Given Family"`` for ``"Family, Given"``; a literal name unchanged."""
    split = split_author(name)
    if not split:
        return name.strip()
    family, given, suffix = split
    return " ".join(p for p in (given, family) if p) + (f", {suffix}" if suffix else "")


_CONFERENCE = re.compile(
    r"\b(conference|proceedings|proc\.|workshop|symposium|congress|meeting|summit|"
    r"neurips|nips|icml|iclr|aaai|ijcai|acl|emnlp|naacl|eacl|coling|cvpr|iccv|eccv|"
    r"kdd|sigir|www|uai|aistats|colt|corl|interspeech|icassp|chi|uist|sosp|osdi|nsdi)\b",
    re.IGNORECASE,
)


def entry_type(paper: ExportPaper) -> str:
    """The BibTeX entry type: the paper's own, else guessed from the venue, else ``misc``.

    A venue that names a conference (``NeurIPS``, ``Proceedings of ...``) gives
    ``inproceedings``; any other venue gives ``article``.
    """
    if paper.entry_type and paper.entry_type.strip():
        return paper.entry_type.strip().lower()
    if paper.venue and paper.venue.strip():
        return "inproceedings" if _CONFERENCE.search(paper.venue) else "article"
    return "misc"


CONFERENCE_TYPES = frozenset({"inproceedings", "conference", "proceedings"})
ARTICLE_TYPES = frozenset({"article"})


def one_line(text: str) -> str:
    """Collapse all whitespace (newlines included) into single spaces."""
    return " ".join(text.split())


def paper_links(paper: ExportPaper, link: Callable[[str, str], str]) -> list[str]:
    """DOI, arXiv and URL links of a paper, each rendered by ``link(label, url)``."""
    from urllib.parse import quote

    out = []
    if paper.doi and paper.doi.strip():
        doi = one_line(paper.doi)
        out.append("DOI " + link(doi, "https://doi.org/" + quote(doi, safe="/")))
    if paper.arxiv_id and paper.arxiv_id.strip():
        arxiv = one_line(paper.arxiv_id)
        out.append("arXiv " + link(arxiv, "https://arxiv.org/abs/" + quote(arxiv, safe="/")))
    if paper.url and paper.url.strip():
        out.append(link(one_line(paper.url), one_line(paper.url)))
    return out
