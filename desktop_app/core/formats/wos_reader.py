"""Web of Science field-tagged export ("FN Clarivate Analytics Web of Science", PT ... ER).

Users often save it as ``.ris``; detection tells the two apart. Parsing is rispy's
``WokParser`` behind the same record framing and damage reports as the RIS reader.

A line is a tag line when it starts with a known field tag (:data:`WOS_TAGS`) and a space;
any other line continues the field before it, whether indented (as Web of Science writes it)
or not (as files that went through an editor or another tool often are). Only known tags
count, so that a continued title or abstract line starting with two capitals ("US", "IN")
is not taken for a field of its own.
"""

from __future__ import annotations

import re

import rispy

from desktop_app.core.formats.identity import clean_doi, isbn_from, normalize_title
from desktop_app.core.formats.limits import NO_DEADLINE, Deadline
from desktop_app.core.formats.ris_reader import (
    TaggedRecord,
    first_year,
    people,
    read_tagged,
    split_keywords,
)
from desktop_app.core.records import ParseResult, Record

WOS_TAGS = frozenset(rispy.WokParser.DEFAULT_MAPPING) | {
    # Web of Science Core Collection tags rispy does not map
    "C3",
    "DL",
    "EY",
    "FP",
    "WE",
    # other databases on the Web of Science platform (BIOSIS, CABI, FSTA, Derwent, Zoological
    # Record): patents, descriptors, page spans
    "AE",
    "BD",
    "CC",
    "CN",
    "DG",
    "MC",
    "MQ",
    "OR",
    "PC",
    "PL",
    "PS",
    # Inspec's record type ("TY CONV"), in records that have a PT line too or instead of it
    "TY",
}
"""The field tags of Web of Science exports (and of the other databases it exports from)."""
_WOS_TYPES = {"J": "article", "C": "inproceedings", "S": "inproceedings", "B": "book"}
_INSPEC_TYPES = {
    "JOUR": "article",
    "CONF": "inproceedings",
    "CONV": "inproceedings",
    "CPAPER": "inproceedings",
    "BOOK": "book",
    "CHAP": "incollection",
    "THES": "phdthesis",
    "RPRT": "techreport",
    "REP": "techreport",
}
_START = re.compile(r"^PT ", re.MULTILINE)
_TYPE_LINE = re.compile(r"^TY (?=[A-Z])", re.MULTILINE)
_SMALL_WORDS = {"a", "an", "and", "at", "by", "de", "for", "from", "in", "of", "on", "the", "to", "with"}
_KEYWORD_FIELDS = ("author_keywords", "keywords_plus", "BD", "OR", "MC", "MQ")
"""DE (author keywords), ID (Keywords Plus), and the descriptor fields of the other databases
(CABI's broader terms BD and organisms OR, BIOSIS's major concepts MC and descriptors MQ)."""
_AFTER_NAME = re.compile(r"\s+\(.*$")  # "Medvedeff, Cassandra A. (medvedeff22@ufl.edu)"


class WosLineParser(rispy.WokParser):  # type: ignore[misc]  # rispy has no type hints
    """rispy's Web of Science parser with continuation lines recognised by what they are not
    (a known tag and a space), not by their indentation; editors (BE) one per line like the
    authors; the descriptor fields of the other databases kept."""

    DEFAULT_MAPPING = {**rispy.WokParser.DEFAULT_MAPPING, **{tag: tag for tag in ("BD", "OR", "MC", "MQ", "TY")}}
    DEFAULT_LIST_TAGS = [*rispy.WokParser.DEFAULT_LIST_TAGS, "BE"]

    def parse_line(self, line: str) -> tuple[str, str] | tuple[None, str]:
        tag = _wos_tag(line)
        return (tag, line[3:].strip()) if tag else (None, line.strip())


def _wos_tag(line: str) -> str | None:
    tag = line[:2]
    return tag if tag in WOS_TAGS and line[2:3] in (" ", "") else None


def _text(item: dict[str, object], name: str) -> str:
    value = item.get(name)
    if isinstance(value, list):
        value = " ".join(v for v in value if isinstance(v, str))
    return value.strip() if isinstance(value, str) else ""


def _list(item: dict[str, object], name: str) -> list[str]:
    value = item.get(name)
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _names(item: dict[str, object], *fields: str) -> list[str]:
    """The names of the first of ``fields`` that has any, without the e-mail address some
    databases add in parentheses."""
    values = next((names for names in (_list(item, f) for f in fields) if names), [])
    return [_AFTER_NAME.sub("", v) for v in values]


def _isbn(value: str) -> str | None:
    """The first ISBN of a BN field (some books list two, "print; electronic")."""
    return isbn_from(value) or value.split(";")[0].strip() or None


def readable_case(title: str) -> str:
    """WoS writes source titles in capitals; "JOURNAL OF THE ACM" -> "Journal of the Acm"."""
    if not title.isupper():
        return title
    words = title.lower().split(" ")
    return " ".join(w if i and w in _SMALL_WORDS else w[:1].upper() + w[1:] for i, w in enumerate(words))


def _people(item: dict[str, object], extra: dict[str, str]) -> tuple[list[str], list[str]]:
    """Authors (full names, AF, over the short ones, AU) and editors (BE); a record with
    editors only lists them as its authors, marked ``extra["author_role"] = "editor"``."""
    authors = people(_names(item, "author_full_name", "authors"), extra)
    editors = people(_names(item, "editors"), {})
    if not authors and editors:
        extra["author_role"] = "editor"
        return editors, []
    return authors, editors


def _venue(item: dict[str, object], title: str) -> str:
    """The source (SO) or conference; a whole book's source is the book itself, so its
    publisher stands in."""
    venue = _text(item, "publication_name") or _text(item, "conference_title")
    if title and normalize_title(venue) == normalize_title(title):
        return _text(item, "publisher")
    return venue


def _entry_type(item: dict[str, object], kind: str) -> str:
    """From the document type, Inspec's TY, else PT: a letter ("J") or words ("Journal Paper")."""
    if "proceedings paper" in _text(item, "document_type").lower():
        return "inproceedings"  # also in a book (PT B) or a book series (PT S)
    inspec = _INSPEC_TYPES.get(_text(item, "TY").upper())
    if inspec:
        return inspec
    kind = kind.strip().upper()
    return _INSPEC_TYPES.get(kind) or _WOS_TYPES.get(kind[:1] if " " in kind else kind, "misc")


def wos_item_to_record(item: dict[str, object], tagged: TaggedRecord) -> Record:
    """Map one :class:`WosLineParser` dictionary to a :class:`Record`."""
    extra: dict[str, str] = {}
    kind = _text(item, "publication_type")
    if kind:
        extra["wos_type"] = kind
    authors, editors = _people(item, extra)
    for key, name in (
        ("volume", "volume"),
        ("number", "issue"),
        ("publisher", "publisher"),
        ("issn", "issn"),
        ("wos_id", "accession_number"),
        ("language", "language"),
    ):
        if value := _text(item, name):
            extra[key] = value
    first, last = _text(item, "beginning_page"), _text(item, "ending_page")
    if first or last:
        extra["pages"] = f"{first}-{last}" if first and last else first or last
    title = _text(item, "document_title")
    pmid = _text(item, "pubmed_id")
    return Record(
        abstract=_text(item, "abstract"),
        title=title or None,
        authors=authors,
        editors=editors,
        venue=readable_case(_venue(item, title)) or None,
        year=first_year(_text(item, "publication_year"), _text(item, "publication_date")),
        doi=clean_doi(_text(item, "doi")),
        pmid=pmid if pmid.isdigit() else None,
        isbn=_isbn(_text(item, "isbn")),
        entry_type=_entry_type(item, kind),
        keywords=split_keywords(_text(item, name) for name in _KEYWORD_FIELDS),
        raw="\n".join(tagged.lines),
        line=tagged.start,
        extra=extra,
    )


def read_wos(text: str, *, deadline: Deadline = NO_DEADLINE) -> ParseResult:
    """Read a Web of Science plain-text export (Inspec's too, whose records may start with
    ``TY CONV`` instead of a PT line: that line then stands for PT)."""
    if not _START.search(text) and _TYPE_LINE.search(text):
        text = _TYPE_LINE.sub("PT ", text)
    return read_tagged(
        text,
        fmt="wos",
        tag_of=_wos_tag,
        start_tag="PT",
        start_line="PT J",
        ignore=frozenset({"FN", "VR", "EF"}),
        parser=WosLineParser,
        to_record=wos_item_to_record,
        deadline=deadline,
    )
