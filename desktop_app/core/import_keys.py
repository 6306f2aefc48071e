"""The identity keys of an imported record, and the plain title and content hash of a new paper.

A record's keys are :func:`~desktop_app.core.formats.identity.identity_keys` (DOI, arXiv id,
title + author + year, abstract) plus a key on the plain abstract and, for records those cannot
name, fallback keys on the record's own text. Two records are one paper when any key is equal.
"""

from __future__ import annotations

import hashlib

from desktop_app.core.records import Record

UNTITLED = "Untitled"
STRONG_PREFIXES = ("doi:", "arxiv:", "abs:", "abp:")


def plain_title(title: str) -> str:
    """A given title as the reader sees it: LaTeX and Markdown rendered, spaces collapsed."""
    from desktop_app.core.text import to_plain

    if "\\" in title or "$" in title or "{" in title or "*" in title:
        title = to_plain(title)
    return " ".join(title.split())


def content_hash(rec: Record, plain: str) -> str:
    """A hash of the plain abstract (or of title, authors and year when there is none)."""
    basis = " ".join(plain.lower().split()) or f"{rec.title}|{rec.authors}|{rec.year}".lower()
    return hashlib.sha1(basis.encode("utf-8")).hexdigest()


def plain_keys(plain: str) -> list[str]:
    """A key on the abstract as the reader sees it, so that an export that carries the plain
    abstract (RIS, CSL-JSON, CSV) is recognised as the LaTeX original it came from."""
    from desktop_app.core.formats.identity import abstract_hash

    digest = abstract_hash(plain)
    return [f"abp:{digest}"] if digest else []


def fallback_keys(rec: Record, strong: bool) -> list[str]:
    """Keys for records the usual identity cannot name (no DOI, no arXiv id, no author or year,
    a short abstract): the record's own text, and title + year when it has no authors. Without
    them, re-importing such a file would add its papers again."""
    from desktop_app.core.formats.identity import normalize_title
    from desktop_app.core.formats.names import family_key

    keys = []
    if rec.raw.strip():
        keys.append("raw:" + hashlib.sha1(" ".join(rec.raw.split()).encode("utf-8")).hexdigest())
    if strong:  # a DOI, an arXiv id or an abstract names it; weaker keys would merge distinct papers
        return keys
    title = normalize_title(rec.title)
    family = family_key(rec.authors[0]) if rec.authors else ""
    if title and not rec.authors:
        keys.append(f"ty:{title}|{rec.year or ''}|{(rec.venue or '').lower()}")
    if title and family and rec.year is None:
        keys.append(f"ta:{title}|{family}")
    if rec.bibtex_key:
        # a citation key is only an identity together with who wrote it (keys repeat across files)
        keys.append(f"bk:{rec.bibtex_key.lower()}|{family or title}")
    authors = ";".join(family_key(a) for a in rec.authors)
    if title or authors:
        keys.append("c:" + hashlib.sha1(f"{title}|{authors}|{rec.year or ''}|{(rec.venue or '').lower()}"
                                        .encode()).hexdigest())
    return keys


def record_keys(rec: Record, plain: str) -> list[str]:
    """Every key of a record whose plain abstract is ``plain``, strongest first."""
    from desktop_app.core.formats.identity import identity_keys

    keys = identity_keys(rec) + plain_keys(plain)
    strong = any(k.startswith(STRONG_PREFIXES) for k in keys)
    return keys + fallback_keys(rec, strong)
