"""RIS reader on rispy, with an honest count of what was found.

The text is first cut into records by their ``TY`` and ``ER`` lines (also used by the Web
of Science reader, whose records run from ``PT`` to ``ER``), so that a record without
``ER`` (a truncated file) or without ``TY`` is reported with its lines instead of vanishing;
each piece is then parsed by rispy. Vendor text between records is skipped.

A tag line is two characters, one or two spaces and a dash (``TY  - JOUR``, also the
``TY - JOUR`` some tools write); any other line continues the line before it. What a tag means
depends on the reference type for the secondary and tertiary authors (``A2``/``A3``: editors or
series editors) and for ``T2`` (a book's series, not its venue); see :data:`A2_EDITOR_TYPES`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

import rispy

from desktop_app.core.formats.identity import clean_doi, has_content, isbn_from, normalize_arxiv_id
from desktop_app.core.formats.limits import NO_DEADLINE, Deadline
from desktop_app.core.formats.names import is_et_al, parse_display_name
from desktop_app.core.formats.own_fields import applied, from_one_line, is_marked
from desktop_app.core.records import ParseResult, Problem, Record

MAX_LIST_ITEMS = 10_000
"""A record keeps at most this many lines of one repeated tag (authors, keywords, ...)."""
_RIS_TAG = re.compile(r"^([A-Z][A-Z0-9])( {1,2})-(?: |$)")
RIS_TAGS = frozenset(rispy.TAG_KEY_MAPPING) - {"UK"} | {  # UK: rispy's "unknown", no tag
    "AV",
    "BT",
    "C6",
    "C7",
    "C8",
    "CP",
    "CT",
    "ED",
    "H1",
    "H2",
    "J1",
    "L3",
    "LK",
    "M2",
    "M4",
    "PP",
    "SV",
    "TS",
    "U1",
    "U2",
    "U3",
    "U4",
    "U5",
    "Y3",
}
"""The tags of the RIS specification and of the exports of common tools. With two spaces
before the dash any tag is one; with one (``TY - JOUR``), only these, so that a continued
line such as "US - Mexico border ..." stays text."""
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_KEYWORD_SPLIT = re.compile(r"\s*;\s*")
_PMID_LABEL = re.compile(
    r"^\s*(?:PMID\s*:?\s*(\d{1,8})(?!\d)|(\d{1,8})\s*\[pmid\])", re.IGNORECASE
)  # "PMID: 15020685", or "15020685[pmid]" as PubMed Central writes it
_PMID_URL = re.compile(r"(?:pubmed\.ncbi\.nlm\.nih\.gov/|ncbi\.nlm\.nih\.gov/pubmed/)(\d{1,8})(?!\d)", re.I)
_PUBMED_DATABASE = re.compile(r"pubmed|medline|\bNLM\b", re.IGNORECASE)
RIS_TYPES = {
    "JOUR": "article",
    "JFULL": "article",
    "EJOUR": "article",
    "MGZN": "article",
    "NEWS": "article",
    "CONF": "inproceedings",
    "CPAPER": "inproceedings",
    "BOOK": "book",
    "EBOOK": "book",
    "EDBOOK": "book",
    "CHAP": "incollection",
    "ECHAP": "incollection",
    "THES": "phdthesis",
    "RPRT": "techreport",
    "UNPB": "unpublished",
    "MANSCPT": "unpublished",
    "PAT": "patent",
    "ELEC": "online",
    "GEN": "misc",
    # descriptive names some tools write instead of the codes
    "JOURNAL ARTICLE": "article",
    "JOURNAL": "article",
    "MAGAZINE ARTICLE": "article",
    "CONFERENCE PAPER": "inproceedings",
    "CONFERENCE PROCEEDINGS": "inproceedings",
    "CONFERENCE PROCEEDING": "inproceedings",
    "BOOK SECTION": "incollection",
    "BOOK CHAPTER": "incollection",
    "THESIS": "phdthesis",
    "REPORT": "techreport",
    "WEB PAGE": "online",
    "GENERIC": "misc",
}
_TYPE_CODES = {
    "JOURNAL ARTICLE": "JOUR",
    "JOURNAL": "JOUR",
    "MAGAZINE ARTICLE": "MGZN",
    "CONFERENCE PAPER": "CPAPER",
    "CONFERENCE PROCEEDINGS": "CONF",
    "CONFERENCE PROCEEDING": "CONF",
    "BOOK SECTION": "CHAP",
    "BOOK CHAPTER": "CHAP",
    "EDITED BOOK": "EDBOOK",
    "WHOLE BOOK": "BOOK",
    "THESIS": "THES",
    "REPORT": "RPRT",
    "WEB PAGE": "ELEC",
    "GENERIC": "GEN",
}
"""Descriptive type names some tools write, as the RIS code they stand for."""

# Who the secondary (A2) and tertiary (A3) authors are depends on the reference type: as
# EndNote's export labels them (EndNote writes most A2/A3 lines; Zotero reads and writes them
# the same way), a chapter's A2 is its book's editor and A3 the series editor, while a book's A2
# is the series editor and A3 the editor. Types not listed use A2/A3 for other roles (a patent's
# issuing body, a letter's recipient, ...), which are not kept. ED (the 1990s specification's
# "secondary author") always names editors; an edited book's AU names its editors.
A2_EDITOR_TYPES = frozenset(
    {
        "ABST",
        "ANCIENT",
        "BLOG",
        "CHAP",
        "CONF",
        "CPAPER",
        "DICT",
        "EBOOK",
        "ECHAP",
        "EJOUR",
        "ENCYC",
        "GEN",
        "JFULL",
        "JOUR",
        "SER",
    }
)
A3_EDITOR_TYPES = frozenset({"BOOK"})
A2_SERIES_EDITOR_TYPES = frozenset(
    {
        "BOOK",
        "CLSWK",
        "COMP",
        "EDBOOK",
        "MAP",
        "MULTI",
        "RPRT",
        "UNPB",
        "WEB",
    }
)
A3_SERIES_EDITOR_TYPES = frozenset(
    {
        "ADVS",
        "CHAP",
        "CONF",
        "CPAPER",
        "EBOOK",
        "ECHAP",
        "MUSIC",
        "SER",
    }
)
AUTHORS_ARE_EDITORS_TYPES = frozenset({"EDBOOK"})
# where A2 names whoever stands as the work's author when there is no AU: a bill's sponsor
A2_AUTHOR_TYPES = frozenset({"BILL"})
T2_IS_SERIES_TYPES = frozenset(
    {
        "BOOK",
        "CLSWK",
        "COMP",
        "CTLG",
        "EDBOOK",
        "MAP",
        "MPCT",
        "MULTI",
        "RPRT",
        "UNPB",
        "WEB",
    }
)
"""Types whose T2 is the title of a series, not the venue the work appeared in."""
C3_IS_PROCEEDINGS_TYPES = frozenset({"CONF", "CPAPER"})
"""Types whose C3 is the proceedings title (the venue; T2 is then the conference's name)."""


class RisLineParser(rispy.RisParser):  # type: ignore[misc]  # rispy has no type hints
    """rispy's parser with the tag lines real files hold: one or two spaces before the dash
    (``TY - JOUR``); ``A1`` and ``AU`` read into one list in the order of the file (the first
    author stays first, whichever tag names them); ``ED`` (editors) kept."""

    DEFAULT_MAPPING = {
        **rispy.TAG_KEY_MAPPING,
        "A1": "authors",
        "ED": "editors",
        "M2": "misc2",
        **{f"U{n}": f"user{n}" for n in range(1, 6)},
    }
    DEFAULT_LIST_TAGS = [*rispy.LIST_TYPE_TAGS, "ED"]

    def parse_line(self, line: str) -> tuple[str, str] | tuple[None, str]:
        m = _tag_match(line)
        return (m.group(1), line[m.end() :].strip()) if m else (None, line.strip())


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
    once: Mapping[str, str] | None = None,
    deadline: Deadline = NO_DEADLINE,
) -> list[TaggedRecord]:
    """Cut tagged lines into records. A record starts at ``start_tag`` and ends at
    ``end_tag``; a new start tag also ends an unfinished record (left with ``end=None``);
    tag lines outside any record form a record with ``has_start_tag=False``. Lines that are
    neither tags nor inside a record (vendor junk) are dropped. Raises :class:`OutOfTime`
    when ``deadline`` expires (checked every 20,000 lines).

    ``once`` maps the tags a record holds once to their role ("TI" and "T1": "title"): a role
    given again in the same record after a blank line, or a title given again in a record
    without its start tag, begins the next record. Two records whose TY and ER lines were lost
    are two papers, not one with two titles."""
    once = once or {}
    records: list[TaggedRecord] = []
    current: TaggedRecord | None = None
    held: set[str] = set()  # the roles of `once` the current record has given
    after_blank = False
    for number, line in enumerate(lines, start=1):
        if number % 20_000 == 0 and deadline.expired():
            raise OutOfTime(number)
        tag = tag_of(line)
        if tag in ignore:
            continue
        blank, after_blank = after_blank, not line.strip()
        role = once.get(tag) if tag else None
        if role and current is not None and role in held and (blank or (role == "title" and not current.has_start_tag)):
            records.append(current)
            current = TaggedRecord([line], number, has_start_tag=False)
            held = {role}
            continue
        if role:
            held.add(role)
        if tag == start_tag:
            held = set()
            if current is not None:
                records.append(current)
            current = TaggedRecord([line], number)
        elif tag == end_tag:
            held = set()
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
            held = {role} if role else set()
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


def _tag_match(line: str) -> re.Match[str] | None:
    m = _RIS_TAG.match(line)
    return m if m and (len(m.group(2)) == 2 or m.group(1) in RIS_TAGS) else None


def _ris_tag(line: str) -> str | None:
    m = _tag_match(line)
    return m.group(1) if m else None


def _first(item: dict[str, object], *names: str) -> str:
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
    """The first four-digit year in a date such as "2012///", "2001/09/01/" or "2004-05-03";
    None without one (and for the "0000" that stands for an unknown year)."""
    m = _YEAR.search(text or "")
    year = int(m.group(1)) if m else 0
    return year or None


def first_year(*dates: str) -> int | None:
    """The year of the first of ``dates`` that holds one (most trusted first)."""
    return next((y for y in map(year_from, dates) if y is not None), None)


def people(values: Iterable[str], extra: dict[str, str]) -> list[str]:
    """Normalise names, dropping "et al." (then noted in ``extra["et_al"]``) and repeats."""
    names: dict[str, None] = {}  # ordered, and linear however many names repeat
    for value in values:
        if is_et_al(value):
            extra["et_al"] = "1"
        elif name := parse_display_name(value):
            names.setdefault(name)
    return list(names)


def split_keywords(values: Iterable[str]) -> list[str]:
    """Keywords from tag values, each value split on ";"; repeats dropped, order kept."""
    keywords: dict[str, None] = {}  # ordered; linear however many repeat
    for value in values:
        for piece in _KEYWORD_SPLIT.split(value):
            if piece := piece.strip():
                keywords.setdefault(piece)
    return list(keywords)


def _pmid(item: dict[str, object], urls: list[str]) -> str | None:
    """A PubMed id only where it is certain: a value that starts "PMID:" or is "123[pmid]"
    (the accession number, C1/C2, M1/M2, U1-U5 or a note; not "Comment on: ... PMID: 123",
    which is another paper's); a PubMed address; or the accession number of a record whose
    database is PubMed/MEDLINE."""
    names = ("accession_number", "custom1", "custom2", "note", "misc2", *(f"user{n}" for n in range(1, 6)), "notes")
    for name in names:
        for value in _as_list(item.get(name)):
            if m := _PMID_LABEL.match(value):
                return m.group(1) or m.group(2)
    for url in urls:
        if m := _PMID_URL.search(url):
            return m.group(1)
    accession = _first(item, "accession_number")
    database = " ".join((_first(item, "name_of_database"), _first(item, "database_provider")))
    if accession.isdigit() and len(accession) <= 8 and _PUBMED_DATABASE.search(database):
        return accession
    return None


def _pages(first: str, last: str) -> str:
    return f"{first}-{last}" if first and last else first or last


def _type_code(ris_type: str) -> str:
    upper = ris_type.strip().upper()
    return _TYPE_CODES.get(upper, upper)


def _people_by_role(item: dict[str, object], code: str, extra: dict[str, str]) -> tuple[list[str], list[str]]:
    """Authors and editors, by what each tag means for the type ``code``; series editors go to
    ``extra["series_editors"]``. A record with editors only lists them as its authors, marked
    ``extra["author_role"] = "editor"`` (as the BibTeX and CSL-JSON readers do)."""
    authors = people(_as_list(item.get("authors")), extra)
    editors = _as_list(item.get("editors"))
    series: list[str] = []
    for key, editor_types, series_types in (
        ("secondary_authors", A2_EDITOR_TYPES, A2_SERIES_EDITOR_TYPES),
        ("tertiary_authors", A3_EDITOR_TYPES, A3_SERIES_EDITOR_TYPES),
    ):
        if code in editor_types:
            editors += _as_list(item.get(key))
        elif code in series_types:
            series += _as_list(item.get(key))
    ignored: dict[str, str] = {}  # "et al." among editors says nothing about the authors
    editors = people(editors, ignored)
    if series := people(series, ignored):
        extra["series_editors"] = "; ".join(series)
    if code in AUTHORS_ARE_EDITORS_TYPES:
        authors, editors = [], [*authors, *editors]
    if code in A2_AUTHOR_TYPES and not authors:
        authors = people(_as_list(item.get("secondary_authors")), extra)
    if not authors and editors:
        extra["author_role"] = "editor"
        return editors, []
    return authors, editors


def _serial_number(item: dict[str, object], extra: dict[str, str]) -> str | None:
    """SN holds an ISBN or an ISSN (or a report or patent number): the ISBN is returned, the
    rest kept as ``extra["issn"]``."""
    serial = _first(item, "issn")
    isbn = isbn_from(serial)
    if serial and not isbn:
        extra["issn"] = serial
    return isbn


def _venue(item: dict[str, object], code: str) -> str:
    """Where the work appeared: the journal, the book of a chapter, the proceedings. Full
    names (JF, T2) come before JO, which most tools fill with the abbreviation, like J2 and
    JA; a book's or report's T2 is its series, so its publisher (or institution) stands in."""
    names = ["custom3"] if code in C3_IS_PROCEEDINGS_TYPES else []
    names.append("alternate_title3")  # JF
    if code not in T2_IS_SERIES_TYPES:
        names.append("secondary_title")
    names += ["journal_name", "alternate_title1", "alternate_title2", "publisher"]
    return _first(item, *names)


def ris_item_to_record(item: dict[str, object], tagged: TaggedRecord) -> Record:
    """Map one rispy dictionary (read by :class:`RisLineParser`) to a :class:`Record`."""
    extra: dict[str, str] = {}
    ris_type = _first(item, "type_of_reference")
    code = _type_code(ris_type)
    if ris_type:
        extra["ris_type"] = ris_type
    authors, editors = _people_by_role(item, code, extra)
    urls = _as_list(item.get("urls"))
    notes = [n.strip() for n in _as_list(item.get("notes")) if n.strip()]
    if notes:
        extra["note"] = "\n".join(notes)
    for key, name in (
        ("volume", "volume"),
        ("number", "number"),
        ("publisher", "publisher"),
        ("language", "language"),
        ("ris_id", "id"),
    ):
        if value := _first(item, name):
            extra[key] = value
    if code in T2_IS_SERIES_TYPES and (series := _first(item, "secondary_title")):
        extra["series"] = series
    if pages := _pages(_first(item, "start_page"), _first(item, "end_page")):
        extra["pages"] = pages
    doi = clean_doi(_first(item, "doi")) or next(filter(None, map(clean_doi, urls)), None)
    arxiv = next((a for a in map(normalize_arxiv_id, urls) if a), None)
    record = Record(
        abstract=_first(item, "abstract", "notes_abstract"),
        title=_first(item, "title", "primary_title", "short_title") or None,
        authors=authors,
        editors=editors,
        venue=_venue(item, code) or None,
        # PY is the publication year; Y1 its 1990s name; DA a date whose meaning varies by
        # type (the access date of web pages and databases), so it comes last
        year=first_year(*(_first(item, n) for n in ("year", "publication_year", "date"))),
        doi=doi,
        arxiv_id=arxiv,
        pmid=_pmid(item, urls),
        isbn=_serial_number(item, extra),
        url=urls[0].strip() if urls else None,
        entry_type=RIS_TYPES.get(ris_type.upper(), "misc") if ris_type else "misc",
        keywords=split_keywords(_as_list(item.get("keywords"))),
        raw="\n".join(tagged.lines),
        line=tagged.start,
        extra=extra,
    )
    user = _first(item, "user1")  # Marginalia's own fields, when Marginalia wrote the file
    if user.startswith("marginalia: ") and is_marked(own := from_one_line(user[len("marginalia: ") :])):
        record.extra.pop("note", None)
        if own.get("key"):
            record = replace(record, bibtex_key=own["key"])
        return applied(record, own, note="\n".join(notes) or None)
    return record


def fold_continuations(
    lines: list[str], parser: rispy.RisParser, *, max_items: int | None = None
) -> tuple[list[str], int]:
    """Join continuation lines (lines without a tag) onto their tag line, as rispy would,
    but in linear time: rispy joins them one at a time, which is quadratic in their number.
    Lines that continue a list tag (one author or keyword per line) are left for rispy,
    which appends each as a new item. Blank lines are dropped (they would add an empty author
    or keyword). With ``max_items``, at most that many lines of one list tag are kept; returns
    the lines and how many were dropped."""
    folded: list[str] = []
    pieces: list[str] = []
    counts: dict[str, int] = {}
    foldable = keep = True
    dropped = 0
    for line in lines:
        tag, content = parser.parse_line(line)
        if tag is None and not content:
            continue
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
    once: Mapping[str, str] | None = None,
    parser: type[rispy.RisParser],
    to_record: Callable[[dict[str, object], TaggedRecord], Record],
    deadline: Deadline,
) -> ParseResult:
    """Shared by the RIS and Web of Science readers: segment, parse each record with rispy,
    report damaged and unreadable records with their lines."""
    result = ParseResult(format=fmt)
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    try:
        tagged_records = segment_records(
            lines, tag_of, start_tag=start_tag, ignore=ignore, once=once, deadline=deadline
        )
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
            result.errors.append(Problem(f"unreadable record ({tagged.span()}): {exc}", tagged.start))
            continue
        record = to_record(items[0], tagged) if items else None
        if record is None or not has_content(record):
            reason = damage or f"an empty record ({tagged.span()})"
            result.errors.append(Problem(f"{reason}; it was not imported", tagged.start))
            continue
        if damage:
            result.warnings.append(Problem(f"{damage}; imported what it holds", tagged.start))
        if dropped:
            result.warnings.append(
                Problem(
                    f"{dropped:,} lines of a repeated tag (author, keyword, ...) beyond the first "
                    f"{MAX_LIST_ITEMS:,} of each were not imported ({tagged.span()})",
                    tagged.start,
                )
            )
        result.records.append(record)
    if starts != ends or len(result.records) != len(tagged_records):
        result.warnings.append(
            Problem(
                f"found {starts} {start_tag} and {ends} ER lines; "
                f"imported {len(result.records)} of {len(tagged_records)} records"
            )
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
        once={"TI": "title", "T1": "title", "PY": "year", "Y1": "year"},
        parser=RisLineParser,
        to_record=ris_item_to_record,
        deadline=deadline,
    )
