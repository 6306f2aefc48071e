"""arXiv API Atom feeds (export.arxiv.org/api/query), parsed with defusedxml.

An error reply of the API is a feed with one entry titled "Error"; it imports nothing and
the error says why.
"""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element

from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException

from desktop_app.core.formats.identity import clean_doi, has_content, normalize_arxiv_id
from desktop_app.core.formats.limits import NO_DEADLINE, Deadline
from desktop_app.core.formats.names import parse_display_name
from desktop_app.core.records import ParseResult, Problem, Record

_ATOM = "{http://www.w3.org/2005/Atom}"
_ARXIV = "{http://arxiv.org/schemas/atom}"
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
_YEAR = re.compile(r"^(\d{4})")
_ENTRY = re.compile(r"<entry[\s>].*?</entry>", re.DOTALL)


def _text(element: Element | None) -> str:
    return (element.text or "").strip() if element is not None else ""


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _is_error(entry: Element) -> bool:
    return _text(entry.find(f"{_ATOM}title")) == "Error" and "/api/errors" in _text(entry.find(f"{_ATOM}id"))


def _link(entry: Element) -> str | None:
    for link in entry.findall(f"{_ATOM}link"):
        if link.get("rel") == "alternate" and link.get("href"):
            return link.get("href")
    return None


def _categories(entry: Element) -> list[str]:
    primary = entry.find(f"{_ARXIV}primary_category")
    terms = [primary.get("term", "")] if primary is not None else []
    for category in entry.findall(f"{_ATOM}category"):
        terms.append(category.get("term", ""))
    return list(dict.fromkeys(term for term in terms if term))


def entry_to_record(entry: Element) -> Record:
    """Map one Atom ``<entry>`` of the arXiv API to a :class:`Record`."""
    extra: dict[str, str] = {}
    entry_id = _text(entry.find(f"{_ATOM}id"))
    for key, tag in (("journal_ref", "journal_ref"), ("comment", "comment")):
        if value := _one_line(_text(entry.find(f"{_ARXIV}{tag}"))):
            extra[key] = value
    if categories := _categories(entry):
        extra["categories"] = ",".join(categories)
    if published := _text(entry.find(f"{_ATOM}published")):
        extra["published"] = published
    authors = [
        name
        for author in entry.findall(f"{_ATOM}author")
        if (name := parse_display_name(_text(author.find(f"{_ATOM}name"))))
    ]
    year_match = _YEAR.match(_text(entry.find(f"{_ATOM}published")))
    arxiv_id = normalize_arxiv_id(entry_id)
    return Record(
        abstract=_text(entry.find(f"{_ATOM}summary")),
        title=_one_line(_text(entry.find(f"{_ATOM}title"))) or None,
        authors=authors,
        year=int(year_match.group(1)) if year_match else None,
        doi=clean_doi(_text(entry.find(f"{_ARXIV}doi"))),
        arxiv_id=arxiv_id,
        url=_link(entry) or (entry_id if entry_id.startswith("http") else None),
        entry_type="misc",
        extra=extra,
    )


def _entry_spans(text: str) -> list[tuple[int, str]]:
    """(line, raw XML) of every ``<entry>`` element in the file text."""
    spans, line, pos = [], 1, 0
    for m in _ENTRY.finditer(text):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        spans.append((line, m.group()))
    return spans


def read_arxiv(text: str, *, deadline: Deadline = NO_DEADLINE) -> ParseResult:
    """Read an arXiv API Atom feed."""
    result = ParseResult(format="arxiv")
    body = _XML_DECLARATION.sub("", text.lstrip("\ufeff"), count=1)
    try:
        root = ElementTree.fromstring(body)
    except DefusedXmlException as exc:
        result.errors.append(Problem(f"refused unsafe XML ({type(exc).__name__})"))
        return result
    except ElementTree.ParseError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else None
        result.errors.append(Problem(f"not well-formed XML: {exc}; nothing was imported", line))
        return result
    if root.tag != f"{_ATOM}feed":
        result.errors.append(Problem("XML, but not an Atom feed from the arXiv API"))
        return result
    entries = root.findall(f"{_ATOM}entry")
    spans: list[tuple[int | None, str]] = list(_entry_spans(text))
    if len(spans) != len(entries):
        spans = [(None, "")] * len(entries)
    for index, (entry, (line, raw)) in enumerate(zip(entries, spans, strict=True)):
        if index % 500 == 0 and deadline.expired():
            result.errors.append(Problem(deadline.message(line), line))
            break
        if _is_error(entry):
            summary = _one_line(_text(entry.find(f"{_ATOM}summary"))) or "no reason given"
            result.errors.append(Problem(f"arXiv returned an error: {summary}", line))
            continue
        record = entry_to_record(entry)
        record.line, record.raw = line, raw
        if not has_content(record):
            result.errors.append(Problem("an empty entry; skipped", line))
            continue
        result.records.append(record)
    if not entries:
        result.errors.append(Problem("the arXiv feed holds no entries"))
    return result
