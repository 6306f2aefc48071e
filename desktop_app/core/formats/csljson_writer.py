"""CSL-JSON export: the citation format of Zotero, Pandoc and citeproc processors."""

from __future__ import annotations

import json
from collections.abc import Sequence

from desktop_app.core.formats.bibtex_writer import assign_keys
from desktop_app.core.formats.own_fields import own_fields
from desktop_app.core.formats.writer_common import (
    ARTICLE_TYPES,
    CONFERENCE_TYPES,
    derived_line,
    entry_type,
    export_title,
    keywords_and_tags,
    one_line,
    plain_abstract,
    split_author,
)
from desktop_app.core.records import ExportPaper


def csl_type(paper: ExportPaper) -> str:
    """``article-journal``, ``paper-conference`` or (preprints and the rest) ``article``."""
    kind = entry_type(paper)
    if kind in ARTICLE_TYPES:
        return "article-journal"
    if kind in CONFERENCE_TYPES:
        return "paper-conference"
    return "article"


def csl_name(name: str) -> dict[str, str]:
    """``{"family", "given"[, "suffix"]}`` for ``"Family, Given"``, else ``{"literal"}``."""
    split = split_author(name)
    if not split:
        return {"literal": one_line(name)}
    family, given, suffix = split
    out = {"family": family}
    if given:
        out["given"] = given
    if suffix:
        out["suffix"] = suffix
    return out


def paper_item(paper: ExportPaper, citation_key: str | None = None) -> dict[str, object]:
    """The CSL-JSON item for one paper; ``id`` is the paper's stable uid."""
    item: dict[str, object] = {"id": paper.uid, "type": csl_type(paper)}
    if citation_key:
        item["citation-key"] = citation_key

    def put(key: str, value: str | None) -> None:
        if value is not None and value.strip():
            item[key] = value.strip()

    put("title", export_title(paper))
    authors = [csl_name(a) for a in paper.authors if a.strip()]
    if authors:
        item["author"] = authors
    if paper.year:
        item["issued"] = {"date-parts": [[paper.year]]}
    put("container-title", one_line(paper.venue or ""))
    put("abstract", plain_abstract(paper))
    put("DOI", paper.doi)
    url = paper.url or (f"https://arxiv.org/abs/{paper.arxiv_id.strip()}" if paper.arxiv_id else "")
    put("URL", url)
    put("keyword", ", ".join(keywords_and_tags(paper)))
    # a derived title says so in the note, on a line of its own (read back, the line is dropped)
    put("note", "\n\n".join(x for x in (derived_line(paper), paper.note.strip()) if x))
    item["custom"] = {"marginalia": own_fields(paper)}  # Marginalia's own fields (formats/own_fields.py)
    return item


def render_csljson(papers: Sequence[ExportPaper]) -> str:
    """All *papers* as a CSL-JSON array (pretty-printed, UTF-8 kept)."""
    items = [paper_item(p, key) for p, key in zip(papers, assign_keys(papers), strict=True)]
    return json.dumps(items, ensure_ascii=False, indent=2) + "\n"
