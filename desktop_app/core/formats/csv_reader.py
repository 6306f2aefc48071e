"""CSV / TSV with a header row: one paper per row.

Columns are matched case-insensitively, with common synonyms ("summary" for abstract,
"journal" for venue, ...). The delimiter is whichever of ``, \\t ; |`` makes the header
yield the most known columns. Rows that cannot be imported are reported with their line.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator

from desktop_app.core.formats.identity import clean_doi, has_content, normalize_arxiv_id
from desktop_app.core.formats.limits import NO_DEADLINE, Deadline
from desktop_app.core.formats.names import split_name_list
from desktop_app.core.records import DECISIONS, MAX_LISTED_PROBLEMS, ParseResult, Problem, Record

EXPECTED_COLUMNS = ("title", "abstract", "authors", "year", "venue", "doi", "arxiv", "url", "tags", "notes")
_SYNONYMS = {
    "title": ("title", "paper title", "article title", "document title"),
    "abstract": ("abstract", "summary", "abstract note", "description"),
    "authors": ("authors", "author", "author s", "creators", "creator", "author names"),
    "year": ("year", "publication year", "pub year", "date", "published", "publication date"),
    "venue": (
        "venue",
        "journal",
        "booktitle",
        "book title",
        "conference",
        "source",
        "source title",
        "publication",
        "publication title",
        "container title",
        "journal title",
    ),
    "doi": ("doi",),
    "arxiv": ("arxiv", "arxiv id", "arxivid", "eprint", "arxiv number"),
    "url": ("url", "link", "pdf url", "pdf"),
    "tags": ("tags", "tag", "labels", "manual tags"),
    "keywords": ("keywords", "keyword", "author keywords", "automatic tags", "subject"),
    "notes": ("notes", "note", "comment", "comments"),
    "bibtex_key": ("key", "bibtex key", "citekey", "cite key", "citation key"),
    "entry_type": ("type", "entry type", "item type"),
    "decision": ("decision",),  # Marginalia's CSV export: keep / maybe / skip
}
_COLUMN_OF = {name: field for field, names in _SYNONYMS.items() for name in names}
_DELIMITERS = (",", "\t", ";", "|")
_HEADER_CLEAN = re.compile(r"[\s_\-.()/]+")
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_TAG_SPLIT = re.compile(r"[;,]")

csv.field_size_limit(max(csv.field_size_limit(), 64 * 1024 * 1024))


def _normal_header(cell: str) -> str:
    return _HEADER_CLEAN.sub(" ", cell.lstrip("\ufeff").strip().lower()).strip()


def _columns(header: list[str]) -> dict[str, int]:
    """Known field -> column index (the first column wins on repeats)."""
    found: dict[str, int] = {}
    for index, cell in enumerate(header):
        field = _COLUMN_OF.get(_normal_header(cell))
        if field and field not in found:
            found[field] = index
    return found


def _header_cells(line: str, delimiter: str) -> list[str]:
    try:
        return next(csv.reader([line], delimiter=delimiter), [])
    except csv.Error:
        return []


def sniff_delimiter(header_line: str) -> str:
    """The delimiter that makes the most known columns of ``header_line``."""

    def score(delimiter: str) -> tuple[int, int]:
        cells = _header_cells(header_line, delimiter)
        return len(_columns(cells)), len(cells)

    return max(_DELIMITERS, key=score)


def header_matches(header_line: str) -> bool:
    """True when the line reads as a header naming a title or abstract column."""
    columns = _columns(_header_cells(header_line, sniff_delimiter(header_line)))
    return "title" in columns or "abstract" in columns


def _year(text: str) -> int | None:
    m = _YEAR.search(text)
    return int(m.group(1)) if m else None


def _tags(text: str) -> list[str]:
    tags: dict[str, None] = {}  # ordered; linear however many repeat
    for piece in _TAG_SPLIT.split(text):
        if piece.strip():
            tags.setdefault(piece.strip())
    return list(tags)


def _undefuse(cell: str) -> str:
    """Undo the spreadsheet-formula guard our CSV export adds ("'=SUM" -> "=SUM")."""
    return cell[1:] if len(cell) > 1 and cell[0] == "'" and cell[1] in "=+-@\t\r" else cell


def row_to_record(cells: dict[str, str], raw: str, line: int) -> Record:
    """Map one row (known field -> cell text) to a :class:`Record`."""
    cells = {k: _undefuse(v) for k, v in cells.items()}
    extra: dict[str, str] = {}
    authors, et_al = split_name_list(cells.get("authors", ""))
    if et_al:
        extra["et_al"] = "1"
    arxiv_text = cells.get("arxiv", "")
    return Record(
        abstract=cells.get("abstract", "").strip(),
        title=cells.get("title", "").strip() or None,
        authors=authors,
        venue=cells.get("venue", "").strip() or None,
        year=_year(cells.get("year", "")),
        doi=clean_doi(cells.get("doi", "")),
        arxiv_id=normalize_arxiv_id(arxiv_text),
        url=cells.get("url", "").strip() or None,
        bibtex_key=cells.get("bibtex_key", "").strip() or None,
        entry_type=cells.get("entry_type", "").strip().lower() or None,
        tags=_tags(cells.get("tags", "")),
        keywords=_tags(cells.get("keywords", "")),
        note=cells.get("notes", "").strip() or None,
        raw=raw,
        line=line,
        extra=extra,
        decision=_decision(cells.get("decision", "")),
    )


def _decision(text: str) -> str | None:
    value = text.strip().lower()
    return value if value in DECISIONS else None


def _summarise(lines: list[int], what: str) -> str:
    shown = ", ".join(str(n) for n in lines[:10])
    more = f" and {len(lines) - 10} more" if len(lines) > 10 else ""
    return f"{len(lines)} {what} (line {shown}{more})"


MAX_LINE_CHARS = 1_000_000
"""A line longer than this (a cell of a hundred megabytes) is cut here before the CSV parser
sees it, so that the file is not held twice over; its cells are cut further by the caps of
:mod:`.limits`."""


def _lines(text: str, seen: list[str], long_lines: list[tuple[int, int]]) -> Iterator[str]:
    """The lines of ``text`` (each with its line break), appended to ``seen`` as they are
    given out; a line over MAX_LINE_CHARS is cut (a quote added back where the cut left a
    quoted cell open) and noted in ``long_lines`` as (line number, length)."""
    position, number = 0, 0
    while position < len(text):
        number += 1
        end = text.find("\n", position)
        end = len(text) if end < 0 else end
        if end - position > MAX_LINE_CHARS:
            line = text[position : position + MAX_LINE_CHARS]
            if text.count('"', position, end) % 2 != line.count('"') % 2:
                line += '"'
            long_lines.append((number, end - position))
        else:
            line = text[position:end]
        seen.append(line)
        yield line + "\n"
        position = end + 1


def read_csv(text: str, *, deadline: Deadline = NO_DEADLINE) -> ParseResult:
    """Read CSV/TSV text with a header row."""
    result = ParseResult(format="csv")
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    physical: list[str] = []  # the lines as the reader got them (an over-long one cut)
    header_line = text[: text.find("\n")] if "\n" in text[:MAX_LINE_CHARS] else text[:MAX_LINE_CHARS]
    delimiter = sniff_delimiter(header_line)
    long_lines: list[tuple[int, int]] = []
    reader = csv.reader(_lines(text, physical, long_lines), delimiter=delimiter)
    try:
        header = next(reader)
    except (StopIteration, csv.Error):
        header = []
    columns = _columns(header)
    if "title" not in columns and "abstract" not in columns:
        found = ", ".join(repr(c.strip()) for c in header[:12] if c.strip()) or "none"
        result.errors.append(
            Problem(
                f"the header names no title or abstract column (found: {found}); expected "
                f"columns: {', '.join(EXPECTED_COLUMNS)}",
                1,
            )
        )
        return result
    short_rows: list[int] = []
    bad_years: list[int] = []
    previous_end = reader.line_num
    rows = iter(reader)
    while True:
        try:
            row = next(rows)
        except StopIteration:
            break
        except csv.Error as exc:
            result.errors.append(Problem(f"unreadable row: {exc}", previous_end + 1))
            previous_end = reader.line_num
            continue
        start, previous_end = previous_end + 1, reader.line_num
        if len(result.records) % 500 == 0 and deadline.expired():
            result.errors.append(Problem(deadline.message(start), start))
            break
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(header) and any(cell.strip() for cell in row[len(header) :]):
            result.errors.append(
                Problem(
                    f"the row has {len(row)} cells but the header has {len(header)} "
                    "(an unquoted delimiter inside a value?); not imported",
                    start,
                )
            )
            continue
        if len(row) < len(header):
            short_rows.append(start)
        cells = {field: row[i] for field, i in columns.items() if i < len(row)}
        raw = "\n".join(physical[start - 1 : previous_end])
        record = row_to_record(cells, raw, start)
        if not has_content(record):
            result.errors.append(Problem("the row has no title, abstract, author or identifier; skipped", start))
            continue
        if cells.get("year", "").strip() and record.year is None:
            bad_years.append(start)
        result.records.append(record)
    for number, length in long_lines[:MAX_LISTED_PROBLEMS]:
        result.warnings.append(
            Problem(f"too long, cut: the line ({length:,} characters; kept the first {MAX_LINE_CHARS:,})", number)
        )
    if short_rows:
        result.warnings.append(
            Problem(
                _summarise(short_rows, "rows have fewer cells than the header; missing cells are empty"), short_rows[0]
            )
        )
    if bad_years:
        result.warnings.append(
            Problem(_summarise(bad_years, "rows have a year that is not a number; left empty"), bad_years[0])
        )
    return result
