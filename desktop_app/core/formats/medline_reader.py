"""PubMed / MEDLINE reader: PubMed's ``.nbib`` citation files, its "PubMed format" text export
(``pubmed-….txt``) and ERIC's MEDLINE-style ``.nbib``.

A record is a run of field lines: a tag of up to four characters, left-justified and padded
so that ``-`` stands in column 5 (``PMID- 8402898``, ``TI  - A title``, ``FAU - Gout, I``;
ERIC writes ``ISSN - …`` with the dash in column 6, also accepted). Any other non-blank line
continues the field before it (PubMed indents continuations by six spaces). A blank line or
a ``PMID-`` line starts the next record. Lines before the first field are skipped, with a
warning.

Mapping, per record: TI (else BTI, TT) is the title; AB the abstract; FAU authors ("Family,
Given"), or AU ("Gout I" → "Gout, I") when the record has no FAU, with CN (a collective
author) kept as a literal name among them in file order; FED (else ED) the editors; DP the
year; JT (else TA) the venue - for a book chapter the book (BTI), for an ERIC report or book
its institution or publisher; LID/AID ``… [doi]`` the DOI, ``… [pii]`` ``extra["pii"]``; PMID
``Record.pmid`` and the PubMed address as URL; MH and OT (and KoreaMed's KW) the keywords; PT
the entry type. VI, IP, PG, IS, PMC, LA, PB go to ``extra`` (``volume``, ``number``, ``pages``,
``issn``, ``pmcid``, ``language``, ``publisher``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from desktop_app.core.formats.identity import clean_doi, has_content
from desktop_app.core.formats.limits import NO_DEADLINE, Deadline
from desktop_app.core.formats.names import format_name, is_et_al, parse_display_name
from desktop_app.core.formats.ris_reader import MAX_LIST_ITEMS, OutOfTime, year_from
from desktop_app.core.records import ParseResult, Problem, Record

PUBMED_URL = "https://pubmed.ncbi.nlm.nih.gov/{}/"
_TAG_LINE = re.compile(r"([A-Z][A-Z0-9 ]{3,4})-(?: |$)")  # the tag, padded to 4 or 5
# "PMID-22664238": some tools write a known tag and its dash without the space after it
_TIGHT_TAG_LINE = re.compile(r"([A-Z][A-Z0-9]{1,3}) *-(?=\S)")
MEDLINE_TAGS = frozenset(
    (
        "AB AD AID AU AUID BTI CI CIN CN COI COIS CON CP CRDT CRF CRI CTDT CTI DA DCOM DEP DP DRDT "
        "ECF ECI ED EDAT EFR EIN EN FAU FED FIR FPS GN GR GS IP IR IRAD IS ISBN JID JT LA LID LR MH "
        "MHDA MID OAB OABL OCI OID ORI OT OTO OWN PB PG PHST PL PMC PMCR PMID PS PST PT PUBM RF RIN "
        "RN ROF RPF RPI RRF RRI SB SFM SI SO SPIN STAT TA TI TT UIN UOF VI VTI"
    ).split()
)
"""PubMed's MEDLINE field tags (NLM's list), the ones a line may give without the space after
its dash."""
_AU_INITIALS = re.compile(
    r"^(?P<family>.+?)\s+(?P<initials>[A-Z]{1,6})(?:\s+(?P<suffix>Jr|Sr|2nd|3rd|4th|I{2,3}|IV))?$"
)
_DOI_MARK = re.compile(r"\s*\[doi\]\s*$", re.IGNORECASE)
_PII_MARK = re.compile(r"\s*\[pii\]\s*$", re.IGNORECASE)
_ISSN = re.compile(r"\b(\d{4}-?\d{3}[\dXx])\b")
_ISSN_PREFIX = re.compile(r"^E?ISSN-", re.IGNORECASE)
_ISBN_PREFIX = re.compile(r"^ISBN-", re.IGNORECASE)
_ISBN_SHAPE = re.compile(r"^\d[\d -]{8,15}[\dXx]$")
_PAGE_RANGE = re.compile(r"(?<![\w.])(\d+)-(\d+)(?![\w.])")
_DEP_DATE = re.compile(r"^(\d{4})\d{4}$")
_ERIC_ID = re.compile(r"^E[DJ]\d+$")
_UNIVERSITY = re.compile(r",\s*([^,]+ University)\b")
_SPACES = re.compile(r"\s+")
_SCAN_CHECK_EVERY = 20_000  # lines between two looks at the clock while splitting the file
_MAP_CHECK_EVERY = 200  # records between two looks at the clock while mapping them

# PT (publication type) values that decide the entry type, strongest first. Anything else
# (Review, Case Reports, Clinical Trial, Letter, ...) is a journal article.
_CHAPTER_TYPES = {"book chapter"}
_ARTICLE_TYPES = {"journal article", "journal articles", "case reports", "case report"}
_BOOK_TYPES = {"book", "books"}
_REPORT_TYPES = {"technical report"}
_PREPRINT_TYPES = {"preprint"}


@dataclass
class MedlineRecord:
    """The fields of one record in file order, and where it stood (1-based lines)."""

    start: int
    end: int = 0
    fields: list[tuple[str, list[str]]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    dropped: int = 0  # lines of a repeated tag beyond MAX_LIST_ITEMS, not kept
    skipping: bool = False  # the current field is one of those dropped lines

    def add(self, tag: str, value: str, line: int) -> None:
        """Start a field (unless its tag has already been seen MAX_LIST_ITEMS times)."""
        self.end = line
        self.counts[tag] = self.counts.get(tag, 0) + 1
        self.skipping = self.counts[tag] > MAX_LIST_ITEMS
        if self.skipping:
            self.dropped += 1
        else:
            self.fields.append((tag, [value.strip()]))

    def continue_field(self, text: str, line: int) -> None:
        """Add a continuation line to the field before it."""
        self.end = line
        if not self.skipping and self.fields:
            self.fields[-1][1].append(text.strip())

    def values(self) -> list[tuple[str, str]]:
        """(tag, value) pairs in file order, continuation lines joined by single spaces."""
        return [
            (tag, pieces[0] if len(pieces) == 1 else " ".join(p for p in pieces if p)) for tag, pieces in self.fields
        ]


def tag_of(line: str) -> tuple[str, str] | None:
    """(tag, value) when ``line`` is a MEDLINE field line, else None. The dash stands in
    column 5 (``TI  - x``, ``PMID- 1``), or 6 in ERIC's ``ISSN - x``; one of
    :data:`MEDLINE_TAGS` may be followed by its dash and the value without a space
    (``PMID-22664238``). "CT - scan" at the start of an unindented continuation line is no tag."""
    m = _TAG_LINE.match(line)
    if m is None:
        tight = _TIGHT_TAG_LINE.match(line)
        if tight is not None and tight.group(1) in MEDLINE_TAGS:
            return tight.group(1), line[tight.end() :]
        return None
    tag = m.group(1).rstrip()
    return None if len(tag) < 2 or " " in tag else (tag, line[m.end() :])


@dataclass
class Outside:
    """Non-blank lines before the first field line: how many, and the first one's number."""

    count: int = 0
    first: int | None = None


def split_records(lines: Iterable[str], *, deadline: Deadline = NO_DEADLINE) -> tuple[list[MedlineRecord], Outside]:
    """Cut the lines into records: a blank line or a ``PMID-`` line ends a record; a field
    line after a blank line starts the next. Returns the records and the non-blank lines
    that stood outside any record. Raises :class:`OutOfTime` when ``deadline`` expires
    (checked every 20,000 lines)."""
    records: list[MedlineRecord] = []
    outside = Outside()
    current: MedlineRecord | None = None
    after_blank = False
    for number, line in enumerate(lines, start=1):
        if number % _SCAN_CHECK_EVERY == 0 and deadline.expired():
            raise OutOfTime(number)
        if not line.strip():
            after_blank = True
            continue
        tagged = tag_of(line)
        if tagged is None:
            if current is None:
                outside.count += 1
                outside.first = outside.first or number
            else:  # a continuation, even after a blank line
                current.continue_field(line, number)
            after_blank = False
            continue
        tag, value = tagged
        if current is None or after_blank or tag == "PMID":
            current = MedlineRecord(number)
            records.append(current)
        current.add(tag, value, number)
        after_blank = False
    return records, outside


# ---------------------------------------------------------------- names


def au_name(value: str) -> str:
    """An abbreviated MEDLINE author ("Gout I", "van Raaij MJ", "Smith JA Jr") as
    "Family, Given" with spaced initials ("van Raaij, M J", as FAU writes them). A name with
    a comma (ERIC) is read as "Family, Given"; any other shape is kept as written."""
    value = _SPACES.sub(" ", value).strip()
    if "," in value:
        return parse_display_name(value)
    m = _AU_INITIALS.match(value)
    if m is None:
        return value
    return format_name(m.group("family"), " ".join(m.group("initials")), suffix=m.group("suffix") or "")


def fau_name(value: str) -> str:
    """A full MEDLINE author ("Gout, Ivan", "Smith, John, Jr") as "Family, Given"; a name
    without a comma is kept as written."""
    value = _SPACES.sub(" ", value).strip()
    return parse_display_name(value) if "," in value else value


def people(
    pairs: list[tuple[str, str]],
    present: dict[str, list[str]],
    full: str,
    short: str,
    extra: dict[str, str],
    collective: str | None = None,
) -> list[str]:
    """The names of one role in file order: the ``full`` tag's (FAU, FED) when the record
    has any, else the ``short`` tag's (AU, ED); ``collective`` (CN) names are kept as
    written among them. "et al." is dropped and noted in ``extra["et_al"]``. ``present``
    holds the record's values by tag."""
    use_full = full in present
    if not use_full and short not in present and collective not in present:
        return []
    wanted = {full if use_full else short, collective}
    names: list[str] = []
    for tag, value in pairs:
        if tag not in wanted and tag not in (full, short) or not value:
            continue
        if is_et_al(value):  # also when FAU lines are read: "AU  - et al." follows them
            extra["et_al"] = "1"
        elif tag not in wanted:
            continue
        elif tag == collective:
            names.append(_SPACES.sub(" ", value))
        elif name := (fau_name(value) if use_full else au_name(value)):
            names.append(name)
    return names


# ---------------------------------------------------------------- other fields


def full_page_range(pages: str) -> str:
    """MEDLINE shortens page ranges ("6913-7"); write them in full ("6913-6917")."""

    def expand(m: re.Match[str]) -> str:
        first, last = m.group(1), m.group(2)
        if len(last) < len(first):
            full = first[: len(first) - len(last)] + last
            if int(full) >= int(first):
                return f"{first}-{full}"
        return m.group(0)

    return _PAGE_RANGE.sub(expand, pages)


def _issns(values: list[str]) -> list[str]:
    """Distinct ISSNs of the IS / ISSN lines ("0027-8424 (Print)", ERIC's "EISSN-2375-5636")."""
    found: dict[str, None] = {}
    for value in values:
        m = _ISSN.search(_ISSN_PREFIX.sub("", value.strip()))
        if m:
            issn = m.group(1).upper()
            found.setdefault(issn if "-" in issn else f"{issn[:4]}-{issn[4:]}")
    return list(found)


def _isbn(values: list[str]) -> str | None:
    """The first ISBN as written, without ERIC's "ISBN-" prefix."""
    for value in values:
        isbn = _ISBN_PREFIX.sub("", value.split("(")[0].strip()).strip()
        digits = sum(ch.isdigit() or ch in "Xx" for ch in isbn)
        if _ISBN_SHAPE.match(isbn) and digits in (10, 13):
            return isbn
    return None


def _year(dp: str, dep: str) -> int | None:
    """The year of the publication date (DP, "1993 Oct 8"), else of the electronic one (DEP,
    "20150303")."""
    if year := year_from(dp):
        return year
    m = _DEP_DATE.match(dep)
    return int(m.group(1)) if m else None


def entry_type(types: list[str], *, eric_journal: bool, has_volume: bool) -> str:
    """The entry type from the PT lines: "Book Chapter" → incollection, journal articles →
    article, "Book(s)" → book, ERIC's dissertations → phdthesis / mastersthesis, ERIC's
    "Reports - …" → techreport unless the record is a journal's (an EJ number, a volume);
    anything else is an article."""
    lowered = {t.strip().lower() for t in types}
    if lowered & _CHAPTER_TYPES:
        return "incollection"
    if lowered & _ARTICLE_TYPES:
        return "article"
    if lowered & _BOOK_TYPES:
        return "book"
    if lowered & _PREPRINT_TYPES:
        return "unpublished"
    # ERIC: "Dissertations/Theses - Doctoral Dissertations" / "- Masters Theses", "Reports - …"
    if any("masters theses" in t for t in lowered):
        return "mastersthesis"
    if any("dissertation" in t for t in lowered):
        return "phdthesis"
    reports = lowered & _REPORT_TYPES or any(t.startswith("reports - ") for t in lowered)
    if reports and not eric_journal and not has_volume:
        return "techreport"
    return "article"


@dataclass
class _Ids:
    doi: str | None = None
    pii: str | None = None
    links: list[str] = field(default_factory=list)


def _identifiers(values: list[str]) -> _Ids:
    """DOI, PII and web links from the LID and AID lines ("10.1016/x [doi]", "S0033-… [pii]",
    ERIC's "http://dx.doi.org/10.1186/…" and catalogue links)."""
    ids = _Ids()
    for value in values:
        if _DOI_MARK.search(value):
            ids.doi = ids.doi or clean_doi(_DOI_MARK.sub("", value))
        elif _PII_MARK.search(value):
            ids.pii = ids.pii or _PII_MARK.sub("", value).strip() or None
        elif value.lower().startswith(("http://", "https://")):
            ids.links.append(value)
            ids.doi = ids.doi or (clean_doi(value) if "doi.org/" in value.lower() else None)
    return ids


def _venue(kind: str, first: dict[str, str], extra: dict[str, str]) -> str | None:
    """Where the work appeared, as the writers read ``venue`` for its type: the journal of an
    article, the book of a chapter, the publisher of a book, the institution of a report,
    the university of a thesis. A journal title that is none of these goes to ``extra``."""
    journal = first.get("JT") or first.get("TA") or ""
    if kind == "incollection":
        if journal:
            extra.setdefault("publisher", journal)
        return first.get("BTI") if first.get("TI") else None
    if kind == "book":
        return journal or first.get("PB") or None
    if kind in ("phdthesis", "mastersthesis"):
        if journal:
            extra.setdefault("publisher", journal)  # ERIC names the archive (ProQuest) here
        m = _UNIVERSITY.search(first.get("SO", ""))
        return m.group(1).strip() if m else None
    return journal or None


def _extras(first: dict[str, str], every: dict[str, list[str]], kind: str) -> dict[str, str]:
    extra: dict[str, str] = {}
    for key, tag in (("volume", "VI"), ("number", "IP"), ("publisher", "PB"), ("edition", "EN"), ("pmcid", "PMC")):
        if value := first.get(tag):
            extra[key] = value
    if kind in ("book", "incollection") and first.get("PL"):
        extra["address"] = first["PL"]
    if pages := first.get("PG"):
        extra["pages"] = full_page_range(pages)
    if languages := [v for v in every.get("LA", []) if v]:
        extra["language"] = ", ".join(dict.fromkeys(languages))
    if issns := _issns(every.get("IS", []) + every.get("ISSN", [])):
        extra["issn"] = ", ".join(issns)
    eric = next((v for v in every.get("OID", []) if _ERIC_ID.match(v)), None)
    if eric:
        extra["eric_id"] = eric
    if types := [v for v in every.get("PT", []) if v]:
        extra["medline_type"] = "; ".join(types)
    return extra


def _keywords(pairs: list[tuple[str, str]]) -> list[str]:
    """MeSH headings (MH, kept as written, "*" marking a major topic included), other terms
    (OT) and KoreaMed's KW, in file order, each once."""
    found: dict[str, None] = {}
    for tag, value in pairs:
        if tag in ("MH", "OT", "KW") and value:
            found.setdefault(value)
    return list(found)


def to_record(medline: MedlineRecord, raw: str) -> Record:
    """Map one record's fields to a :class:`Record`."""
    pairs = medline.values()
    every: dict[str, list[str]] = {}
    first: dict[str, str] = {}  # each tag's first non-empty value
    for tag, value in pairs:
        every.setdefault(tag, []).append(value)
        if value and not first.get(tag):
            first[tag] = value
    pmid = first.get("PMID", "")
    eric_journal = any(v.startswith("EJ") for v in every.get("OID", []))
    kind = entry_type(
        every.get("PT", []), eric_journal=eric_journal, has_volume=bool(first.get("VI") or first.get("IP"))
    )
    extra = _extras(first, every, kind)
    ids = _identifiers(every.get("LID", []) + every.get("AID", []))
    if ids.pii:
        extra["pii"] = ids.pii
    if pmid and not pmid.isdigit():
        extra["pmid"] = pmid
    pmid = pmid if pmid.isdigit() else ""
    return Record(
        abstract=first.get("AB", ""),
        title=first.get("TI") or first.get("BTI") or first.get("TT") or None,
        authors=people(pairs, every, "FAU", "AU", extra, collective="CN"),
        editors=people(pairs, every, "FED", "ED", extra),
        venue=_venue(kind, first, extra),
        year=_year(first.get("DP", ""), first.get("DEP", "")),
        doi=ids.doi,
        url=PUBMED_URL.format(pmid) if pmid else (ids.links[0] if ids.links else None),
        entry_type=kind,
        keywords=_keywords(pairs),
        pmid=pmid or None,
        isbn=_isbn(every.get("ISBN", []) + every.get("IS", [])),
        raw=raw,
        line=medline.start,
        extra=extra,
    )


def _span(medline: MedlineRecord) -> str:
    last = max(medline.end, medline.start)
    return f"line {medline.start}" if last == medline.start else f"lines {medline.start}-{last}"


def _outside_warning(outside: Outside) -> Problem:
    what = "1 line" if outside.count == 1 else f"{outside.count:,} lines"
    return Problem(
        f'{what} before the first record held no MEDLINE field (a tag such as "PMID- " or "TI  - "); skipped',
        outside.first,
    )


def read_medline(text: str, *, deadline: Deadline = NO_DEADLINE) -> ParseResult:
    """Read PubMed / MEDLINE text (.nbib, PubMed's "PubMed format" .txt, ERIC .nbib)."""
    result = ParseResult(format="medline")
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    try:
        records, outside = split_records(lines, deadline=deadline)
    except OutOfTime as exc:
        result.errors.append(Problem(deadline.message(exc.line), exc.line))
        return result
    if outside.count:
        result.warnings.append(_outside_warning(outside))
    for index, medline in enumerate(records):
        if index % _MAP_CHECK_EVERY == 0 and deadline.expired():
            result.errors.append(Problem(deadline.message(medline.start), medline.start))
            break
        raw = "\n".join(lines[medline.start - 1 : medline.end])
        record = to_record(medline, raw)
        if not has_content(record):
            result.errors.append(
                Problem(
                    f"a record without title, abstract, authors, DOI or PubMed id ({_span(medline)});"
                    " it was not imported",
                    medline.start,
                )
            )
            continue
        if medline.dropped:
            result.warnings.append(
                Problem(
                    f"{medline.dropped:,} lines of a repeated tag (author, MeSH heading, ...) beyond "
                    f"the first {MAX_LIST_ITEMS:,} of each were not imported ({_span(medline)})",
                    medline.start,
                )
            )
        result.records.append(record)
    if not records:
        result.errors.append(Problem("no MEDLINE records found (no PMID- or other tag lines)"))
    return result
