"""CSL-JSON reader: a list of items, one item, or Crossref's ``{doi: [item]}`` wrapping.

Markup in titles and abstracts (HTML, or Crossref's JATS XML) becomes plain text: tags
dropped by a real HTML tokenizer (never executed, never evaluated), entities decoded,
paragraphs kept as blank lines. Dates may take any CSL form.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

from desktop_app.core.formats.identity import clean_doi, has_content, normalize_arxiv_id
from desktop_app.core.formats.limits import (
    MAX_ABSTRACT_CHARS,
    MAX_FIELD_CHARS,
    MAX_NAMES,
    MAX_RECORDS,
    NO_DEADLINE,
    Deadline,
    cap_names,
    cut_message,
    too_many_records,
)
from desktop_app.core.formats.names import format_name, is_et_al
from desktop_app.core.formats.own_fields import applied, is_marked
from desktop_app.core.records import ParseResult, Problem, Record

_BLOCK_TAGS = {
    "p",
    "div",
    "br",
    "li",
    "ul",
    "ol",
    "section",
    "sec",
    "title",
    "h1",
    "h2",
    "h3",
    "h4",
    "table",
    "tr",
    "blockquote",
    "list",
    "list-item",
    "abstract",
    "disp-quote",
}
_SKIP_TAGS = {"script", "style"}
_SPACES = re.compile(r"[ \t\r\f\v\xa0]*\n[ \t\r\f\v\xa0\n]*|[ \t\r\f\v\xa0]+")
_YEAR = re.compile(r"(-?\d{1,4})")
_YEAR_IN_TEXT = re.compile(r"(?<!\d)(\d{4})(?!\d)")
# strings as an unrolled loop: an alternation per character is 20 times slower on long ones
_JSON_MARKS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}\n]|-?\d[\d.eE+-]*|true|false|null')
_KEY_SHAPE = re.compile(r"^[\w:.\-+/]{1,120}$")
CSL_TYPES = {
    "article-journal": "article",
    "journal-article": "article",
    "article": "article",
    "article-magazine": "article",
    "article-newspaper": "article",
    "paper-conference": "inproceedings",
    "proceedings-article": "inproceedings",
    "book": "book",
    "chapter": "incollection",
    "book-chapter": "incollection",
    "thesis": "phdthesis",
    "dissertation": "phdthesis",
    "report": "techreport",
    "manuscript": "unpublished",
    "posted-content": "misc",
    "webpage": "online",
    "patent": "patent",
    "dataset": "misc",
}
_ITEM_KEYS = {"type", "title", "id", "author", "issued", "DOI"}
_MARKUP_FACTOR = 4  # markup kept before conversion, per character of the text cap
_DATE_FIELDS = ("issued", "published", "published-print", "published-online", "posted")


class _TextCollector(HTMLParser):
    """Collects the text of an HTML/JATS fragment; block elements end paragraphs."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[list[str]] = [[]]
        self._skipping = 0
        self._in_title = False
        self._title: list[str] = []

    @staticmethod
    def _local(tag: str) -> str:
        return tag.rsplit(":", 1)[-1].lower()

    def _break(self) -> None:
        if self.paragraphs[-1]:
            self.paragraphs.append([])

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        local = self._local(tag)
        if local in _SKIP_TAGS:
            self._skipping += 1
        elif local in _BLOCK_TAGS:
            self._break()
        if local == "title":
            self._in_title, self._title = True, []

    def handle_endtag(self, tag: str) -> None:
        local = self._local(tag)
        if local in _SKIP_TAGS:
            self._skipping = max(0, self._skipping - 1)
        elif local in _BLOCK_TAGS:
            if local == "title" and self._in_title:
                self._in_title = False
                if "".join(self._title).strip().lower() == "abstract":
                    self.paragraphs[-1] = []  # Crossref's redundant "Abstract" heading
            self._break()

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.paragraphs[-1].append(data)
            if self._in_title:
                self._title.append(data)


def markup_to_text(value: str) -> str:
    """Plain text from an HTML or JATS fragment; paragraphs separated by a blank line."""
    if "<" not in value and "&" not in value:
        return _SPACES.sub(lambda m: " " if "\n" not in m.group() else "\n", value).strip()
    collector = _TextCollector()
    try:
        collector.feed(value)
        collector.close()
    except Exception:  # noqa: BLE001 - HTMLParser is lenient; be safe anyway
        return value.strip()
    paragraphs = [" ".join("".join(p).split()) for p in collector.paragraphs]
    return "\n\n".join(p for p in paragraphs if p)


def _string(value: object) -> str:
    """A CSL text field may be a string, a number or (Crossref) a list of strings."""
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, (str, int)) and str(v).strip()), "")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return value.strip() if isinstance(value, str) else ""


def _bounded(value: str, limit: int, name: str, cut: list[str] | None) -> str:
    """``value`` cut to ``_MARKUP_FACTOR * limit`` characters before markup is converted
    (HTML parsing costs about a microsecond per character); the cut is noted in ``cut``."""
    if len(value) <= _MARKUP_FACTOR * limit:
        return value
    if cut is not None:
        cut.append(cut_message(name, len(value), _MARKUP_FACTOR * limit))
    return value[: _MARKUP_FACTOR * limit]


def _text(value: object) -> str:
    return " ".join(markup_to_text(_bounded(_string(value), MAX_FIELD_CHARS, "", None)).split())


def csl_year(date: object) -> int | None:
    """The (first) year of any CSL date: date-parts, ranges, negative years, ``literal``,
    ``raw``, or a plain string / number."""
    if isinstance(date, (int, str)) and not isinstance(date, bool):
        m = _YEAR_IN_TEXT.search(str(date)) or _YEAR.match(str(date).strip())
        return int(m.group(1)) or None if m else None
    if not isinstance(date, dict):
        return None
    parts = date.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        first = parts[0][0]
        try:
            year = int(str(first).strip())
        except ValueError:
            year = 0
        if year:
            return year
    for key in ("raw", "literal", "year"):
        text = date.get(key)
        if isinstance(text, (str, int)) and not isinstance(text, bool):
            m = _YEAR_IN_TEXT.search(str(text))
            if m:
                return int(m.group(1))
    return None


def _person(person: object, extra: dict[str, str]) -> str:
    if isinstance(person, str):
        return "" if is_et_al(person) else person.strip()
    if not isinstance(person, dict):
        return ""
    if literal := _text(person.get("literal")):
        if is_et_al(literal):
            extra["et_al"] = "1"
            return ""
        return literal
    particle = " ".join(_text(person.get(k)) for k in ("dropping-particle", "non-dropping-particle")).strip()
    return format_name(
        _text(person.get("family")),
        _text(person.get("given")),
        particle=particle,
        suffix=_text(person.get("suffix")),
    )


def _people(value: object) -> list[object]:
    """The names of a CSL name variable: its list, or the one name written without the list (a
    string or a name object); anything else names nobody."""
    if isinstance(value, list):
        return value
    return [value] if isinstance(value, (str, dict)) else []


def _institution(item: dict[str, object]) -> str:
    """Crossref names the server of a preprint in ``institution: [{name: "medRxiv"}]``."""
    institutions = item.get("institution")
    if isinstance(institutions, list) and institutions and isinstance(institutions[0], dict):
        return _text(institutions[0].get("name"))
    return ""


def _title(item: dict[str, object]) -> str | None:
    title = _text(item.get("title"))
    subtitle = _text(item.get("subtitle"))
    if subtitle and subtitle.lower() not in title.lower():
        title = f"{title}: {subtitle}" if title else subtitle
    return title or None


def _key(item: dict[str, object]) -> str | None:
    key = _string(item.get("citation-key") or item.get("citation_key") or item.get("id"))
    return key if key and _KEY_SHAPE.match(key) and "://" not in key else None


def _tags(item: dict[str, object]) -> list[str]:
    tags: dict[str, None] = {}  # ordered; linear however many repeat
    for piece in re.split(r"[,;]", _string(item.get("keyword"))):
        if piece.strip():
            tags.setdefault(piece.strip())
    return list(tags)


def item_to_record(item: dict[str, object], line: int | None = None, cut: list[str] | None = None) -> Record:
    """Map one CSL-JSON item to a :class:`Record` (an abstract too long to convert is cut
    first, and noted in ``cut``)."""
    extra: dict[str, str] = {}
    for role in ("author", "editor"):
        names = item.get(role)
        if isinstance(names, list) and len(names) > MAX_NAMES:
            item = {**item, role: cap_names(names, f"{role}s", cut if cut is not None else [])}
    authors = [a for a in (_person(p, extra) for p in _people(item.get("author"))) if a]
    if not authors and item.get("editor"):
        authors = [a for a in (_person(p, extra) for p in _people(item.get("editor"))) if a]
        if authors:
            extra["author_role"] = "editor"
    csl_type = _string(item.get("type"))
    if csl_type:
        extra["csl_type"] = csl_type
    for key, name in (
        ("volume", "volume"),
        ("number", "issue"),
        ("pages", "page"),
        ("publisher", "publisher"),
        ("note", "note"),
        ("language", "language"),
    ):
        if value := _text(item.get(name)):
            extra[key] = value
    year = next((y for f in _DATE_FIELDS if (y := csl_year(item.get(f))) is not None), None)
    url = _string(item.get("URL") or item.get("url"))
    doi = clean_doi(_string(item.get("DOI") or item.get("doi"))) or clean_doi(url)
    arxiv = normalize_arxiv_id(_string(item.get("arxiv") or item.get("arXiv"))) or (
        normalize_arxiv_id(url) if "arxiv.org/" in url.lower() else None
    )
    venue = (
        _text(item.get("container-title"))
        or _text(item.get("event-title"))
        or (_text(item.get("event")) if isinstance(item.get("event"), str) else "")
        or _text(item.get("collection-title"))
    )
    if institution := _institution(item):
        extra["institution"] = institution
    record = Record(
        abstract=markup_to_text(_bounded(_string(item.get("abstract")), MAX_ABSTRACT_CHARS, "abstract", cut)),
        title=_title(item),
        authors=authors,
        venue=venue or None,
        year=year,
        doi=doi,
        arxiv_id=arxiv,
        url=url or None,
        bibtex_key=_key(item),
        entry_type=CSL_TYPES.get(csl_type.lower(), "misc") if csl_type else "misc",
        keywords=_tags(item),
        pmid=_string(item.get("PMID")).strip() or None,
        isbn=_string(item.get("ISBN")).strip() or None,
        raw=json.dumps(item, ensure_ascii=False, indent=1),
        line=line,
        extra=extra,
    )
    custom = item.get("custom")  # Marginalia's own fields, when Marginalia wrote the file
    own = custom.get("marginalia") if isinstance(custom, dict) else None
    if isinstance(own, dict) and is_marked(own := {str(k): str(v) for k, v in own.items()}):
        note = item.get("note")
        record.extra.pop("note", None)
        return applied(
            record, own, note=_bounded(note, MAX_ABSTRACT_CHARS, "note", cut) if isinstance(note, str) else None
        )
    return record


def _items(value: object) -> tuple[list[object], int] | None:
    """The CSL items of a parsed document and the JSON nesting depth they sit at;
    unwraps Crossref's ``{doi: [item]}`` and ``{"items": [...]}``."""
    if isinstance(value, list):
        return value, 1
    if not isinstance(value, dict):
        return None
    if isinstance(value.get("items"), list):
        return value["items"], 2
    if isinstance(value.get("message"), dict):  # a Crossref REST API response
        message = value["message"]
        if isinstance(message.get("items"), list):
            return message["items"], 3
        return [message], 1
    if (
        value and not _ITEM_KEYS & value.keys() and all(isinstance(v, list) for v in value.values())
    ):  # Crossref / citation-js: {"10.1000/x": [item], ...}
        return [item for v in value.values() for item in v], 2
    return [value], 0


def _value_lines(text: str, depth: int, keep: int | None = None) -> tuple[list[int], int]:
    """Line of every JSON value that starts at nesting ``depth`` inside a list (of the first
    ``keep`` of them, when given), and how many there are."""
    lines: list[int] = []
    count, level, line = 0, 0, 1
    for m in _JSON_MARKS.finditer(text):
        mark = m.group()
        if mark == "\n":
            line += 1
            continue
        if level == depth and mark not in "]}":
            count += 1
            if keep is None or count <= keep:
                lines.append(line)
        if mark[0] == '"':
            line += mark.count("\n")
        elif mark in "[{":
            level += 1
        elif mark in "]}":
            level -= 1
    return lines, count


def _int_or_text(digits: str) -> int | str:
    """JSON integers too long for Python's int conversion limit stay text."""
    return int(digits) if len(digits) < 4000 else digits


_STREAM_CHARS = 8 * 1024 * 1024
"""A list larger than this is decoded item by item, and no further than the record cap."""
_SPACE = re.compile(r"\s*")


def _past_space(text: str, pos: int) -> int:
    """The first position from ``pos`` on that is not whitespace."""
    m = _SPACE.match(text, pos)
    return m.end() if m else pos  # (never None: \s* matches the empty string)


_NAME_KEYS = frozenset(
    {
        "family",
        "given",
        "literal",
        "suffix",
        "dropping-particle",
        "non-dropping-particle",
        "parse-names",
        "comma-suffix",
        "static-ordering",
        "sequence",
        "affiliation",
    }
)


class _NameCap:
    """An ``object_pairs_hook`` that stops making name objects (``{"family": ..., "given": ...}``)
    past ``cap`` in one item: the rest become None (the readers skip them; the list keeps its
    length, so the warning still says how many there were). An item with a million authors
    then costs a list of a million Nones, not a million dicts (450 MB)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.names = 0

    def __call__(self, pairs: list[tuple[str, object]]) -> dict[str, object] | None:
        if pairs and len(pairs) <= len(_NAME_KEYS) and all(k in _NAME_KEYS for k, _ in pairs):
            self.names += 1
            if self.names > self.cap:
                return None
        return dict(pairs)


def _leading_items(text: str) -> list[object] | None:
    """The first MAX_RECORDS + 1 items of a large top-level JSON list, decoded one by one (the
    rest of the list is never turned into objects); None when the text is not such a list, or
    not valid JSON up to there (then the whole text is decoded, and its error reported)."""
    start = _past_space(text, 0)
    if len(text) <= _STREAM_CHARS or not text.startswith("[", start):
        return None
    names = _NameCap(4 * MAX_NAMES)  # (authors and editors, with room: each role is cut later)
    decoder = json.JSONDecoder(parse_int=_int_or_text, strict=False, object_pairs_hook=names)
    items: list[object] = []
    position = _past_space(text, start + 1)
    try:
        while len(items) <= MAX_RECORDS and not text.startswith("]", position):
            names.names = 0
            item, position = decoder.raw_decode(text, position)
            items.append(item)
            position = _past_space(text, position)
            if text.startswith(",", position):
                position = _past_space(text, position + 1)
            elif not text.startswith("]", position):
                return None
    except (ValueError, RecursionError):
        return None
    return items


def _decode(text: str, result: ParseResult) -> object:
    """The whole JSON document; None, with the error in ``result``, when it is not valid."""
    try:
        # strict=False: a control character (a NUL byte) inside a string costs only the
        # item that holds it (see formats.read_text), not the whole file
        return json.loads(text, parse_int=_int_or_text, strict=False)
    except json.JSONDecodeError as exc:
        result.errors.append(
            Problem(f"not valid JSON: {exc.msg} (column {exc.colno}); nothing was imported", exc.lineno)
        )
    except (ValueError, RecursionError) as exc:  # absurd numbers or nesting
        result.errors.append(Problem(f"unreadable JSON ({exc}); nothing was imported"))
    return None


def read_csljson(text: str, *, deadline: Deadline = NO_DEADLINE) -> ParseResult:
    """Read CSL-JSON text."""
    result = ParseResult(format="csljson")
    text = text.lstrip("\ufeff")
    leading = _leading_items(text)
    document = leading if leading is not None else _decode(text, result)
    if result.errors:
        return result
    found = _items(document)
    if found is None:
        result.errors.append(Problem("JSON, but not CSL-JSON: expected a list of items"))
        return result
    items, depth = found
    found_lines, count = _value_lines(text, depth, keep=len(items))
    lines: list[int | None] = list(found_lines)
    total = count if leading is not None else len(items)  # the list's length, all of it
    if count != total or len(lines) < len(items):
        lines, total = [None] * len(items), len(items)
    for index, item in enumerate(items):
        if len(result.records) == MAX_RECORDS:
            result.errors.append(Problem(too_many_records(total - index, lines[index]), lines[index]))
            break
        if index % 500 == 0 and deadline.expired():
            result.errors.append(Problem(deadline.message(lines[index]), lines[index]))
            break
        if not isinstance(item, dict):
            result.errors.append(Problem(f"item {index + 1} is not an object; skipped", lines[index]))
            continue
        items[index] = None  # each item's objects go once it is a record (a large file's peak)
        cut: list[str] = []
        record = item_to_record(item, lines[index], cut)
        if cut:
            result.warnings.append(Problem(f"too long, cut: {'; '.join(cut)}", lines[index]))
        if not has_content(record):
            result.errors.append(
                Problem(f"item {index + 1} has no title, abstract, author or identifier; skipped", lines[index])
            )
            continue
        result.records.append(record)
    return result
