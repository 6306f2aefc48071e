"""The plain title and content hash of a new paper. (When two records are one paper is
:mod:`.sameness`.)"""

from __future__ import annotations

import hashlib

from desktop_app.core.records import Record

UNTITLED = "Untitled"


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
