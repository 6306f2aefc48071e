"""RIS reader on rispy, with an honest count of what was found.

The text is first cut into records by their ``TY`` and ``ER`` lines (also used by the Web
of Science reader, whose records run from ``PT`` to ``ER``), so that a record without
``ER`` (a truncated file) or without ``TY`` is reported with its lines instead of vanishing;
each piece is then parsed by rispy. Vendor text between records is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import rispy

from desktop_app.core.formats.identity import clean_doi, has_content, normalize_arxiv_id
from desktop_app.core.formats.limits import NO_DEADLINE, Deadline
from desktop_app.core.formats.names import is_et_al, parse_display_name
from desktop_app.core.records import ParseResult, Problem, Record

MAX_LIST_ITEMS = 10_000
"""A record keeps at most this many lines of one repeated tag (authors, keywords, ...)."""
_RIS_TAG = re.compile(r"^([A-Z][A-Z0-9])  -(?: |$)")
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
RIS_TYPES = {
    "JOUR": "article", "JFULL": "article", "EJOUR": "article", "MGZN": "article",
    "NEWS": "article", "CONF": "inproceedings", "CPAPER": "inproceedings",
    "BOOK": "book", "EBOOK": "book", "EDBOOK": "book", "CHAP": "incollection",
    "ECHAP": "incollection", "THES": "phdthesis", "RPRT": "techreport",
    "UNPB": "unpublished", "MANSCPT": "unpublished", "PAT": "patent", "ELEC": "online",
    "GEN": "misc",
    # descriptive names some tools write instead of the codes
    "JOURNAL ARTICLE": "article", "JOURNAL": "article", "MAGAZINE ARTICLE": "article",
    "CONFERENCE PAPER": "inproceedings", "CONFERENCE PROCEEDINGS": "inproceedings",
    "CONFERENCE PROCEEDING": "inproceedings", "BOOK SECTION": "incollection",
    "BOOK CHAPTER": "incollection", "THESIS": "phdthesis", "REPORT": "techreport",
    "WEB PAGE": "online", "GENERIC": "misc",
}


class OutOfTime(Exception):
    """The time budget ran out while cutting the file into records; ``line`` is where."""

    def __init__(self, line: int) -> None:
        super().__init__(line)
        self.line = line


@dataclass
class TaggedRecord:
    """The lines of one field-tagged record and where it stood in the file (1-based)."""

    lines: list[str] = field(default_factory=list)
    start: int = 0
    end: int | None = None  # line of the end tag; None when it is missing
    has_start_tag: bool = True
    untagged: int = 0  # lines without a tag (continuations): folded before rispy sees them

    @property
    def last_line(self) -> int:
        """The last line of the record (its end tag when present)."""
        return self.end or self.start + len(self.lines) - 1

    def span(self) -> str:
        """ "line 4" or "lines 4-17"."""
        last = self.last_line
        return f"line {self.start}" if last <= self.start else f"lines {self.start}-{last}"


def segment_records(
    lines: Iterable[str],
    tag_of: Callable[[str], str | None],
    *,
    start_tag: str,
    end_tag: str = "ER",
    ignore: frozenset[str] = frozenset(),
    deadline: Deadline = NO_DEADLINE,
) -> list[TaggedRecord]:
    """Cut tagged lines into records. A record starts at ``start_tag`` and ends at
    ``end_tag``; a new start tag also ends an unfinished record (left with ``end=None``);
    tag lines outside any record form a record with ``has_start_tag=False``. Lines that are
    neither tags nor inside a record (vendor junk) are dropped. Raises :class:`OutOfTime`
    when ``deadline`` expires (checked every 20,000 lines)."""
    records: list[TaggedRecord] = []
    current: TaggedRecord | None = None
    for number, line in enumerate(lines, start=1):
        if number % 20_000 == 0 and deadline.expired():
            raise OutOfTime(number)
        tag = tag_of(line)
        if tag in ignore:
            continue
        if tag == start_tag:
            if current is not None:
                records.append(current)
            current = TaggedRecord([line], number)
        elif tag == end_tag:
            if current is not None:
                current.lines.append(line)
                current.end = number
                records.append(current)
                current = None
        elif current is not None:
            if tag is not None or line.strip() or current.has_start_tag:
                current.lines.append(line)
                current.untagged += tag is None
        elif tag is not None:
            current = TaggedRecord([line], number, has_start_tag=False)
    if current is not None:
        records.append(current)
    return [r for r in records if r.has_start_tag or _has_text(r)]


def _has_text(record: TaggedRecord) -> bool:
    return any(line.strip() for line in record.lines)


def describe_damage(record: TaggedRecord, start_tag: str, end_tag: str = "ER") -> str | None:
    """What is wrong with a record's framing, or None when it is whole."""
    if not record.has_start_tag and record.end is None:
        return f"tagged lines outside any record, no {start_tag} and no {end_tag} ({record.span()})"
    if not record.has_start_tag:
        return f"a record without a {start_tag} line ({record.span()})"
    if record.end is None:
        return f"a record without an {end_tag} line; is the file truncated? ({record.span()})"
    return None


def _ris_tag(line: str) -> str | None:
    m = _RIS_TAG.match(line)
    return m.group(1) if m else None


def _first(item: dict, *names: str) -> str:
    for name in names:
        value = item.get(name)
        if isinstance(value, list):
            value = next((v for v in value if isinstance(v, str) and v.strip()), "")
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def _as_list(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def year_from(text: str) -> int | None:
    """The first four-digit year in a date such as "2012///" or "2001/09/01/"."""
    m = _YEAR.search(text or "")
    return int(m.group(1)) if m else None


def people(values: Iterable[str], extra: dict[str, str]) -> list[str]:
    """Normalise names, dropping "et al." (then noted in ``extra["et_al"]``) and repeats."""
    names: dict[str, None] = {}  # ordered, and linear however many names repeat
    for value in values:
        if is_et_al(value):
            extra["et_al"] = "1"
        elif name := parse_display_name(value):
            names.setdefault(name)
    return list(names)


def _pages(first: str, last: str) -> str:
    return f"{first}-{last}" if first and last else first or last


def ris_item_to_record(item: dict, tagged: TaggedRecord) -> Record:
    """Map one rispy dictionary to a :class:`Record`."""
    extra: dict[str, str] = {}
    ris_type = _first(item, "type_of_reference")
    if ris_type:
        extra["ris_type"] = ris_type
    authors = people(_as_list(item.get("authors")) + _as_list(item.get("first_authors")), extra)
    urls = _as_list(item.get("urls"))
    notes = [n.strip() for n in _as_list(item.get("notes")) if n.strip()]
    if notes:
        extra["note"] = "\n".join(notes)
    for key, name in (("volume", "volume"), ("number", "number"), ("publisher", "publisher"),
                      ("issn", "issn"), ("language", "language"), ("ris_id", "id")):
        if value := _first(item, name):
            extra[key] = value
    if pages := _pages(_first(item, "start_page"), _first(item, "end_page")):
        extra["pages"] = pages
    tags: dict[str, None] = {}
    for keyword in _as_list(item.get("keywords")):
        for piece in keyword.split(";"):
            if piece.strip():
                tags.setdefault(piece.strip())
    doi = clean_doi(_first(item, "doi")) or next(filter(None, map(clean_doi, urls)), None)
    arxiv = next((a for a in map(normalize_arxiv_id, urls) if a), None)
    return Record(
        abstract=_first(item, "abstract", "notes_abstract"),
        title=_first(item, "title", "primary_title", "short_title") or None,
        authors=authors,
        venue=_first(item, "alternate_title3", "journal_name", "secondary_title",
                     "alternate_title1", "alternate_title2", "publisher") or None,
        year=year_from(_first(item, "year", "publication_year", "date")),
        doi=doi,
        arxiv_id=arxiv,
        url=urls[0].strip() if urls else None,
        entry_type=RIS_TYPES.get(ris_type.upper(), "misc") if ris_type else "misc",
        tags=list(tags),
        raw="\n".join(tagged.lines),
        line=tagged.start,
        extra=extra,
    )


def fold_continuations(
    lines: list[str], parser: rispy.RisParser, *, max_items: int | None = None
) -> tuple[list[str], int]:
    """Join continuation lines (lines without a tag) onto their tag line, as rispy would,
    but in linear time: rispy joins them one at a time, which is quadratic in their number.
    Lines that continue a list tag (one author or keyword per line) are left for rispy,
    which appends each as a new item. With ``max_items``, at most that many lines of one list
    tag are kept; returns the lines and how many were dropped."""
    folded: list[str] = []
    pieces: list[str] = []
    counts: dict[str, int] = {}
    foldable = keep = True
    dropped = 0
    for line in lines:
        tag, content = parser.parse_line(line)
        if tag is None and foldable:
            pieces.append(content)
            continue
        if pieces:
            folded[-1] = " ".join([folded[-1].rstrip(), *pieces])
            pieces = []
        if tag is not None:
            foldable = tag not in parser.list_tags and tag not in parser.delimiter_map
            keep = True
            if not foldable and max_items is not None:
                counts[tag] = counts.get(tag, 0) + 1
                keep = counts[tag] <= max_items
        if keep:
            folded.append(line)
        else:
            dropped += 1
    if pieces:
        folded[-1] = " ".join([folded[-1].rstrip(), *pieces])
    return folded, dropped


def read_tagged(
    text: str,
    *,
    fmt: str,
    tag_of: Callable[[str], str | None],
    start_tag: str,
    start_line: str,
    ignore: frozenset[str],
    parser: type[rispy.RisParser],
    to_record: Callable[[dict, TaggedRecord], Record],
    deadline: Deadline,
) -> ParseResult:
    """Shared by the RIS and Web of Science readers: segment, parse each record with rispy,
    report damaged and unreadable records with their lines."""
    result = ParseResult(format=fmt)
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    try:
        tagged_records = segment_records(lines, tag_of, start_tag=start_tag, ignore=ignore,
                                         deadline=deadline)
    except OutOfTime as exc:
        result.errors.append(Problem(deadline.message(exc.line), exc.line))
        return result
    starts = sum(1 for r in tagged_records if r.has_start_tag)
    ends = sum(1 for r in tagged_records if r.end is not None)
    for index, tagged in enumerate(tagged_records):
        if index % 200 == 0 and deadline.expired():
            result.errors.append(Problem(deadline.message(tagged.start), tagged.start))
            break
        damage = describe_damage(tagged, start_tag)
        body = tagged.lines if tagged.has_start_tag else [start_line, *tagged.lines]
        if tagged.end is None:
            body = [*body, "ER  - " if fmt == "ris" else "ER"]
        try:
            reader = parser(skip_unknown_tags=True)
            dropped = 0
            if tagged.untagged or len(body) > MAX_LIST_ITEMS:
                body, dropped = fold_continuations(body, reader, max_items=MAX_LIST_ITEMS)
            items = reader.parse_lines(iter(body))
        except Exception as exc:  # noqa: BLE001 - one bad record must not stop the file
            result.errors.append(
                Problem(f"unreadable record ({tagged.span()}): {exc}", tagged.start)
            )
            continue
        record = to_record(items[0], tagged) if items else None
        if record is None or not has_content(record):
            reason = damage or f"an empty record ({tagged.span()})"
            result.errors.append(Problem(f"{reason}; it was not imported", tagged.start))
            continue
        if damage:
            result.warnings.append(Problem(f"{damage}; imported what it holds", tagged.start))
        if dropped:
            result.warnings.append(Problem(
                f"{dropped:,} lines of a repeated tag (author, keyword, ...) beyond the first "
                f"{MAX_LIST_ITEMS:,} of each were not imported ({tagged.span()})", tagged.start))
        result.records.append(record)
    if starts != ends or len(result.records) != len(tagged_records):
        result.warnings.append(
            Problem(f"found {starts} {start_tag} and {ends} ER lines; "
                    f"imported {len(result.records)} of {len(tagged_records)} records")
        )
    if not tagged_records:
        result.errors.append(Problem(f"no {start_tag} ... ER records found"))
    return result


def read_ris(text: str, *, deadline: Deadline = NO_DEADLINE) -> ParseResult:
    """Read RIS text (EndNote, Zotero, Scopus, SciFinder, ... exports)."""
    return read_tagged(
        text,
        fmt="ris",
        tag_of=_ris_tag,
        start_tag="TY",
        start_line="TY  - GEN",
        ignore=frozenset(),
        parser=rispy.RisParser,
        to_record=ris_item_to_record,
        deadline=deadline,
    )
