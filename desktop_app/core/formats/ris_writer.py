"""RIS export, written with rispy.

RIS has one value per line, so single-valued fields are collapsed to one line. The note keeps
its lines (as continuation lines of one ``N1``; blank lines are dropped), and a continuation
line that would read as a tag (``ER  - ``) is indented so that readers do not take it for one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import rispy
from rispy.writer import RisWriter

from desktop_app.core.formats.own_fields import one_line as own_line
from desktop_app.core.formats.writer_common import (
    ARTICLE_TYPES,
    CONFERENCE_TYPES,
    derived_line,
    entry_type,
    export_title,
    keywords_and_tags,
    one_line,
    plain_abstract,
)
from desktop_app.core.records import ExportPaper

_TAG_LIKE = re.compile(r"^[A-Z][A-Z0-9] {1,2}-")


class _PlainRisWriter(RisWriter):  # type: ignore[misc]  # rispy has no type hints
    """rispy's writer without the ``1.``, ``2.`` counter line before each record; ``U1`` (user
    field 1) holds Marginalia's own fields."""

    DEFAULT_MAPPING = {**rispy.TAG_KEY_MAPPING, "U1": "user1"}

    def set_header(self, count: int) -> str:
        return ""


def ris_type(paper: ExportPaper) -> str:
    """``JOUR`` for articles, ``CONF`` for conference papers, ``GEN`` otherwise."""
    kind = entry_type(paper)
    if kind in ARTICLE_TYPES:
        return "JOUR"
    if kind in CONFERENCE_TYPES:
        return "CONF"
    return "GEN"


def _note_value(note: str) -> str:
    """The note as RIS continuation lines: no blank lines, no line that looks like a tag."""
    lines = [line.strip() for line in note.splitlines() if line.strip()]
    return "\n".join((" " + line) if index and _TAG_LIKE.match(line) else line for index, line in enumerate(lines))


def paper_reference(paper: ExportPaper) -> dict[str, object]:
    """The rispy reference dict for one paper."""
    kind = ris_type(paper)
    ref: dict[str, object] = {"type_of_reference": kind}

    def put(key: str, value: str | None) -> None:
        if value is not None and one_line(value):
            ref[key] = one_line(value)

    put("title", export_title(paper))
    authors = [one_line(a) for a in paper.authors if one_line(a)]
    if authors:
        ref["authors"] = authors
    put("year", str(paper.year) if paper.year else None)
    if paper.venue:
        put("journal_name" if kind == "JOUR" else "secondary_title", paper.venue)
    put("abstract", plain_abstract(paper))
    put("doi", paper.doi)
    urls = [one_line(u) for u in (paper.url,) if u and one_line(u)]
    if paper.arxiv_id and one_line(paper.arxiv_id):
        urls.append(f"https://arxiv.org/abs/{one_line(paper.arxiv_id)}")
    if urls:
        ref["urls"] = list(dict.fromkeys(urls))
    words = [one_line(t) for t in keywords_and_tags(paper) if one_line(t)]
    if words:
        ref["keywords"] = words
    notes = [x for x in (derived_line(paper), paper.note.strip() and _note_value(paper.note)) if x]
    if notes:  # a derived title says so in a note of its own (read back, it is dropped)
        ref["notes"] = notes
    put("id", paper.uid)
    ref["user1"] = "marginalia: " + own_line(paper, paper.bibtex_key)  # Marginalia's own fields (formats/own_fields.py)
    return ref


def render_ris(papers: Sequence[ExportPaper]) -> str:
    """All *papers* as an RIS file (records separated by a blank line)."""
    if not papers:
        return ""
    text: str = rispy.dumps([paper_reference(p) for p in papers], implementation=_PlainRisWriter)
    return text
