"""Web of Science field-tagged export ("FN Clarivate Analytics Web of Science", PT ... ER).

Users often save it as ``.ris``; detection tells the two apart. Parsing is rispy's
``WokParser`` behind the same record framing and damage reports as the RIS reader.
"""

from __future__ import annotations

import re

import rispy

from desktop_app.core.formats.identity import clean_doi
from desktop_app.core.formats.limits import NO_DEADLINE, Deadline
from desktop_app.core.formats.ris_reader import (
    TaggedRecord,
    people,
    read_tagged,
    year_from,
)
from desktop_app.core.records import ParseResult, Record

_WOS_TAG = re.compile(r"^([A-Z][A-Z0-9])(?: |$)")
_WOS_TYPES = {"J": "article", "C": "inproceedings", "S": "inproceedings", "B": "book"}
_SMALL_WORDS = {"a", "an", "and", "at", "by", "de", "for", "from", "in", "of", "on", "the",
                "to", "with"}


def _wos_tag(line: str) -> str | None:
    m = _WOS_TAG.match(line)
    return m.group(1) if m else None


def _text(item: dict, name: str) -> str:
    value = item.get(name)
    if isinstance(value, list):
        value = " ".join(v for v in value if isinstance(v, str))
    return value.strip() if isinstance(value, str) else ""


def _list(item: dict, name: str) -> list[str]:
    value = item.get(name)
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def readable_case(title: str) -> str:
    """WoS writes source titles in capitals; "JOURNAL OF THE ACM" -> "Journal of the Acm"."""
    if not title.isupper():
        return title
    words = title.lower().split(" ")
    return " ".join(
        w if i and w in _SMALL_WORDS else w[:1].upper() + w[1:] for i, w in enumerate(words)
    )


def wos_item_to_record(item: dict, tagged: TaggedRecord) -> Record:
    """Map one rispy ``WokParser`` dictionary to a :class:`Record`."""
    extra: dict[str, str] = {}
    kind = _text(item, "publication_type")
    if kind:
        extra["wos_type"] = kind
    authors = people(_list(item, "author_full_name") or _list(item, "authors"), extra)
    for key, name in (("volume", "volume"), ("number", "issue"), ("publisher", "publisher"),
                      ("issn", "issn"), ("wos_id", "accession_number"),
                      ("language", "language"), ("keywords_plus", "keywords_plus")):
        if value := _text(item, name):
            extra[key] = value
    first, last = _text(item, "beginning_page"), _text(item, "ending_page")
    if first or last:
        extra["pages"] = f"{first}-{last}" if first and last else first or last
    tags = [t.strip() for t in _text(item, "author_keywords").split(";") if t.strip()]
    venue = _text(item, "publication_name") or _text(item, "conference_title")
    return Record(
        abstract=_text(item, "abstract"),
        title=_text(item, "document_title") or None,
        authors=authors,
        venue=readable_case(venue) or None,
        year=year_from(_text(item, "publication_year") or _text(item, "publication_date")),
        doi=clean_doi(_text(item, "doi")),
        entry_type=_WOS_TYPES.get(kind.upper(), "misc") if kind else "misc",
        tags=tags,
        raw="\n".join(tagged.lines),
        line=tagged.start,
        extra=extra,
    )


def read_wos(text: str, *, deadline: Deadline = NO_DEADLINE) -> ParseResult:
    """Read a Web of Science plain-text export."""
    return read_tagged(
        text,
        fmt="wos",
        tag_of=_wos_tag,
        start_tag="PT",
        start_line="PT J",
        ignore=frozenset({"FN", "VR", "EF"}),
        parser=rispy.WokParser,
        to_record=wos_item_to_record,
        deadline=deadline,
    )
