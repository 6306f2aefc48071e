"""BibTeX / BibLaTeX reader on bibtexparser 2.

bibtexparser's splitter cuts the text into blocks (fault tolerant, with line numbers); the
entries it refuses for a slip that has one reading (no key, an empty field, a missing comma)
are read again by :mod:`.bibtex_repair`, with a warning. This module then does what
bibtexparser's default middlewares do not: ``@string`` macros with ``#`` concatenation (macros
defined by macros, case-insensitive names, the month macros), crossref / xdata inheritance,
LaTeX to Unicode (:mod:`.latex_text`) for titles, names, venues and keywords, and the mapping
to :class:`Record`. Abstracts stay raw LaTeX. Large files are split into chunks at entry
boundaries so that the time budget can stop the import between chunks.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import bibtexparser
from bibtexparser import model

from desktop_app.core.formats.bibtex_repair import (
    LineIndex,
    Repaired,
    is_entry_start,
    read_entry_leniently,
    split_run_on_value,
)
from desktop_app.core.formats.identity import clean_doi, normalize_arxiv_id
from desktop_app.core.formats.latex_text import decode_common_accents, latex_to_text
from desktop_app.core.formats.limits import (
    MAX_ABSTRACT_CHARS,
    MAX_EXPANSION_CHARS,
    MAX_FIELD_CHARS,
    MAX_TAGS,
    NO_DEADLINE,
    Deadline,
    cut_message,
)
from desktop_app.core.formats.names import split_bibtex_names, split_outside_braces
from desktop_app.core.formats.own_fields import PREFIX, applied, is_marked
from desktop_app.core.records import DECISION_FIELD, DECISIONS, ParseResult, Problem, Record


class _DropSplitterChatter(logging.Filter):
    """bibtexparser logs every broken block; this reader reports them itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= logging.ERROR


_splitter_log = logging.getLogger("bibtexparser.splitter")
_splitter_log.addFilter(_DropSplitterChatter())
if _splitter_log.level == logging.NOTSET:
    # below ERROR no record is even made (a file of broken entries: a fifth of the read time)
    _splitter_log.setLevel(logging.ERROR)

_CHUNK_CHARS = 1 << 18  # a broken block holds its exception and traceback: 1 MB of them took 300 MB
# "@article{,}", "@misc{key}": an entry without a single field, alone on its line
_EMPTY_ENTRY = re.compile(
    r"^[ \t]*@(?!string\b|comment\b|preamble\b)[A-Za-z]\w*[ \t]*\{[ \t]*[^\s,{}()=@\"#%]*[ \t]*,?[ \t]*\}[ \t]*$",
    re.MULTILINE | re.IGNORECASE,
)
_EMPTY_MESSAGE = "an entry without any field (no title, no abstract); it was not imported"
_BLOCK_START = re.compile(r"\n(?=[ \t]*@\w*[ \t]*[{(])")
# "@article" and, on a later line, "{": the splitter wants them together; the line breaks move
# after the brace, so that every line keeps its number
_SPLIT_HEAD = re.compile(r"^([ \t]*@[A-Za-z]\w*)([ \t]*(?:\n[ \t]*)+)([{(])", re.MULTILINE)
_MONTHS = {
    "jan": "January",
    "feb": "February",
    "mar": "March",
    "apr": "April",
    "may": "May",
    "jun": "June",
    "jul": "July",
    "aug": "August",
    "sep": "September",
    "oct": "October",
    "nov": "November",
    "dec": "December",
}
_LONG_FIELDS = {"author", "editor", "note", "annote", "annotation"}
# fields that hold lists: given twice, the values are joined (as JabRef does), not dropped
_LIST_FIELDS = {"author": " and ", "editor": " and ", "keywords": ", ", "keyword": ", "}
_MAX_CROSSREF_DEPTH = 32
_MAX_SINGLE_WARNINGS = 10
_GROUP_TYPES = {"set", "xdata"}  # containers of other entries, not papers
_NOT_INHERITED = {
    "ids",
    "crossref",
    "xref",
    "xdata",
    "entryset",
    "label",
    "shorthand",
    "sortkey",
    "options",
    "presort",
    "related",
    "indextitle",
    "indexsorttitle",
    "sorttitle",
    "shorttitle",
    "title",
    "subtitle",
    "titleaddon",
}
_TITLE_TO_BOOK = {"title": "booktitle", "subtitle": "booksubtitle", "titleaddon": "booktitleaddon"}
_VENUE_FIELDS = (
    "journaltitle",
    "journal",
    "booktitle",
    "eventtitle",
    "publisher",
    "school",
    "institution",
    "organization",
)
_EXTRA_FIELDS = (
    "note",
    "pages",
    "volume",
    "number",
    "issue",
    "month",
    "publisher",
    "address",
    "location",
    "edition",
    "series",
    "isbn",
    "issn",
    "eprint",
    "eprinttype",
    "eprintclass",
    "primaryclass",
    "archiveprefix",
    "language",
    "langid",
    "howpublished",
    "institution",
    "school",
    "organization",
    "editor",
    "addendum",
    "pubstate",
    "date",
    "crossref",
    "pmid",
    "pmcid",
)
_YEAR = re.compile(r"(?<![\d])(-?\d{3,4})(?![\d])")
_URL_COMMAND = re.compile(r"\\(?:url|href)\s*\{([^}]*)\}")  # in howpublished
_IDENTIFIER_FIELDS = (
    "doi",
    "url",
    "eprint",
    "isbn",
    "issn",
    "eissn",
    "pmid",
    "pmcid",
    "arxivid",
    "lccn",
    "mrnumber",
    "zmnumber",
    "urn",
    "eid",
    "archiveprefix",
    "eprinttype",
    "eprintclass",
    "primaryclass",
)
_WRAPPING_COMMAND = re.compile(r"\\(?:url|path|nolinkurl|doi)\s*(\{.*\})", re.DOTALL)
_IDENTIFIER_ESCAPE = re.compile(r"\\([_%&#$~])(?:\{\})?|\{\\([_%&#$~])\}")
_KEYWORD_SEPARATOR = re.compile(r"[,;]")
_PMID = re.compile(r"(?:PMID\s*:?\s*)?(\d{1,9})", re.IGNORECASE)
_INDENT = re.compile(r"\n[ \t]+")
_DELIMITERS = re.compile(r'(?<!\\)[{}"]')
_BRACES = re.compile(r"(?<!\\)[{}]")


@dataclass
class _Entry:
    """One entry after macro expansion: lower-case field names to expanded values."""

    entry_type: str
    key: str
    fields: dict[str, str]
    raw: str
    line: int
    duplicate_fields: list[str] = field(default_factory=list)
    cut: list[str] = field(default_factory=list)  # fields cut to MAX_FIELD_CHARS


@dataclass
class _Split:
    """What the splitter found, with file line numbers (1-based)."""

    strings: list[tuple[str, str, int]] = field(default_factory=list)  # key, raw value, line
    entries: list[tuple[model.Entry, int]] = field(default_factory=list)
    errors: list[Problem] = field(default_factory=list)
    repairs: list[Problem] = field(default_factory=list)  # slips read past, with a warning
    outside: list[tuple[int, int]] = field(default_factory=list)  # text outside entries: lines


# ---------------------------------------------------------------- text helpers

__all__ = ["decode_common_accents", "expand_value", "latex_to_text", "read_bibtex", "strip_outer_braces", "to_record"]


def strip_outer_braces(value: str) -> str:
    """Remove braces that wrap the whole value, repeatedly ("{{x}}" -> "x", "{a} {b}" kept).

    Linear in the length of the value, however deep the nesting: one pass pairs every brace,
    then the wrapping layers are peeled from both ends at once."""
    value = value.strip()
    if not (value.startswith("{") and value.endswith("}")):
        return value
    opening = _leading_braces(value)
    closing = _trailing_braces(value)
    layers = min(len(opening), len(closing))
    closed_at = _closers(value, layers)
    peeled = 0
    while peeled < layers and closed_at.get(peeled) == closing[peeled]:
        peeled += 1
    if not peeled:
        return value
    return value[opening[peeled - 1] + 1 : closing[peeled - 1]].strip()


def _leading_braces(value: str) -> list[int]:
    """Positions of the opening braces that start ``value``, whitespace between them allowed."""
    found, i, n = [], 0, len(value)
    while i < n and value[i] == "{":
        found.append(i)
        i += 1
        while i < n and value[i].isspace():
            i += 1
    return found


def _trailing_braces(value: str) -> list[int]:
    """Positions of the unescaped closing braces that end ``value``, the last first."""
    found, i = [], len(value) - 1
    while i >= 0 and value[i] == "}" and (i == 0 or value[i - 1] != "\\"):
        found.append(i)
        i -= 1
        while i >= 0 and value[i].isspace():
            i -= 1
    return found


def _closers(value: str, layers: int) -> dict[int, int]:
    """Where the first ``layers`` opening braces of ``value`` close (by nesting level)."""
    closed_at: dict[int, int] = {}
    depth = 0
    for m in _BRACES.finditer(value):
        if m.group() == "{":
            depth += 1
        else:
            depth -= 1
            if depth < layers:
                closed_at.setdefault(depth, m.start())
            if depth <= 0:
                break
    return closed_at


def _closing_brace(text: str, start: int) -> int:
    """Index of the brace closing the one at ``start``; -1 when unbalanced."""
    depth = 0
    for m in _BRACES.finditer(text, start):
        if m.group() == "{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return m.start()
    return -1


def _closing_quote(text: str, start: int) -> int:
    depth = 0
    for m in _DELIMITERS.finditer(text, start + 1):
        char = m.group()
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
        elif depth == 0:
            return m.start()
    return -1


class ExpansionTooLarge(ValueError):
    """A value would grow past :data:`MAX_EXPANSION_CHARS` through ``@string`` macros (or the
    file's whole expansion budget is spent); ``name`` is the macro that made it so."""

    def __init__(self, name: str, reason: str = "") -> None:
        super().__init__(name)
        self.name = name
        self.reason = reason or f"to more than {MAX_EXPANSION_CHARS:,} characters"


class ExpansionBudget:
    """The characters all macro expansions of one file may produce together: linear in the
    file's size, so that many macros just under the cap cannot fill the memory either."""

    def __init__(self, text_chars: int) -> None:
        self.left = 2 * text_chars + 16 * MAX_EXPANSION_CHARS

    def spend(self, chars: int, name: str) -> None:
        """Take ``chars`` from the budget; raise when it is spent."""
        self.left -= chars
        if self.left < 0:
            raise ExpansionTooLarge(
                name, "past the expansion budget of the whole file (twice its size plus 16 million characters)"
            )


def expand_value(
    value: str,
    macros: dict[str, str | None],
    unknown: set[str] | None = None,
    budget: ExpansionBudget | None = None,
) -> str:
    """Evaluate a raw BibTeX value: ``{..}``, ``".."``, numbers and macro names joined by
    ``#``. Undefined macro names are kept as written (and added to ``unknown``).

    Raises :class:`ExpansionTooLarge` when macros would make the value longer than
    :data:`MAX_EXPANSION_CHARS` (and longer than its own text), when it uses a macro that was
    itself too large (``None`` in ``macros``), or when ``budget`` is spent."""
    value = value.strip()
    if "#" not in value:  # the common case: a single piece
        if len(value) >= 2 and value[0] == "{" and value[-1] == "}":
            return value[1:-1]
        if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
            return value[1:-1]
    limit = max(MAX_EXPANSION_CHARS, len(value))
    parts: list[str] = []
    size, grown_by = 0, ""
    i, n = 0, len(value)
    while i < n:
        char = value[i]
        if char.isspace() or char == "#":
            i += 1
            continue
        if char in '{"':
            end = _closing_brace(value, i) if char == "{" else _closing_quote(value, i)
            if end < 0:
                parts.append(value[i + 1 :])
                i = n
            else:
                parts.append(value[i + 1 : end])
                i = end + 1
        else:
            j = i
            while j < n and not value[j].isspace() and value[j] != "#":
                j += 1
            token = value[i:j]
            i = j
            if token.lstrip("-").isdigit():
                parts.append(token)
            elif token.lower() in macros:
                expansion = macros[token.lower()]
                if expansion is None:
                    raise ExpansionTooLarge(token)
                parts.append(expansion)
                grown_by = grown_by or token
            else:
                if unknown is not None:
                    unknown.add(token)
                parts.append(token)
        size += len(parts[-1])
        if size > limit:
            raise ExpansionTooLarge(grown_by or "the value")
    if grown_by and budget is not None:
        budget.spend(size, grown_by)
    return "".join(parts)


def _raw_abstract(value: str) -> str:
    return _INDENT.sub("\n", strip_outer_braces(value)).strip()


def _year(value: str | None) -> int | None:
    if not value:
        return None
    m = _YEAR.search(value)
    return int(m.group(1)) if m else None


# ---------------------------------------------------------------- splitting

_EXPANDED = (model.Entry("", "", []), 0)  # stands in for a block already expanded


def _chunks(text: str, size: int | None = None) -> Iterator[tuple[int, str]]:
    """Yield (line offset, chunk) pieces of about ``size`` characters, cut before a line that
    starts a block, where bibtexparser's splitter would start a new block anyway."""
    size = size or _CHUNK_CHARS
    start, line = 0, 0
    while start < len(text):
        m = _BLOCK_START.search(text, start + size) if start + size < len(text) else None
        end = m.start() + 1 if m else len(text)
        yield line, text[start:end]
        line += text.count("\n", start, end)
        start = end


def _blocks(chunk: str) -> Sequence[tuple[model.Block | Repaired, int]]:
    """Split one chunk into (block, 0-based line of the block within the chunk); an entry the
    splitter refused but :func:`read_entry_leniently` can read comes back as :class:`Repaired`.

    If bibtexparser itself fails, split block by block so that only the offending block is
    lost (it comes back as a ParsingFailedBlock)."""
    try:
        return _parse(chunk)
    except Exception:  # noqa: BLE001 - a parser bug must not lose the whole file
        pass
    found: list[tuple[model.Block | Repaired, int]] = []
    offset = 0
    for piece in _BLOCK_START.split(chunk):
        try:
            found.extend((block, offset + line) for block, line in _parse(piece))
        except Exception as exc:  # noqa: BLE001
            found.append((model.ParsingFailedBlock(exc, start_line=0, raw=piece), offset))
        offset += piece.count("\n") + 1
    return found


def _parse(text: str) -> Sequence[tuple[model.Block | Repaired, int]]:
    blocks = [(block, block.start_line or 0) for block in bibtexparser.parse_string(text, parse_stack=[]).blocks]
    if any(_refused(block) for block, _ in blocks):
        return _repair(text, blocks)
    return blocks


def _refused(block: model.Block) -> bool:
    """A block the splitter could not read (a repeated key is read, and reported later)."""
    return isinstance(block, model.ParsingFailedBlock) and not isinstance(
        block, (model.DuplicateBlockKeyBlock, model.DuplicateFieldKeyBlock)
    )


def _repair(text: str, blocks: list[tuple[model.Block, int]]) -> list[tuple[model.Block | Repaired, int]]:
    """Read the refused entries leniently; the blocks the splitter then found inside a
    repaired entry (the rest of its fields, as free text) are dropped."""
    lines = LineIndex(text)
    kept: list[tuple[model.Block | Repaired, int]] = []
    repaired_up_to = -1
    for block, line in blocks:
        start = _position(text, block, line, lines)
        if start < repaired_up_to:
            continue
        if _refused(block) and is_entry_start(block.raw):
            repaired = read_entry_leniently(text, start, lines)
            if repaired is not None:
                kept.append((repaired, line))
                repaired_up_to = repaired.end
                continue
        kept.append((block, line))
    return kept


def _position(text: str, block: model.Block, line: int, lines: LineIndex) -> int:
    """Where ``block`` starts in ``text`` (its raw text is a slice of it, on ``line``)."""
    line_start = lines.start(line)
    raw = block.raw or ""
    found = text.find(raw[:200], line_start) if raw else -1
    return found if found >= 0 else line_start


def _failure_message(block: model.ParsingFailedBlock) -> str:
    error = block.error
    reason = getattr(error, "abort_reason", None) or str(error) or type(error).__name__
    head = (block.raw or "").strip().split("\n", 1)[0][:60]
    return f"could not read {head!r}: {reason.strip()}; it was not imported"


def _repair_problem(repaired: Repaired, message: str, line: int) -> Problem:
    who = repaired.entry.key or "an entry without a key"
    return Problem(f"{who}: {message}; the entry was imported", line)


def _split(text: str, deadline: Deadline) -> _Split:
    found = _Split()
    said: dict[str, str] = {}
    for offset, chunk in _chunks(text):
        if deadline.expired():
            found.errors.append(Problem(deadline.message(offset + 1), offset + 1))
            break
        for block, line_in_chunk in _blocks(chunk):
            line = offset + line_in_chunk + 1
            if isinstance(block, (model.DuplicateBlockKeyBlock, model.DuplicateFieldKeyBlock)):
                read = block.ignore_error_block  # duplicates are reported below, not lost
                if read is None:  # (bibtexparser always keeps it; without it, nothing to read)
                    continue
                block = read
            if isinstance(block, Repaired):
                found.repairs.extend(_repair_problem(block, message, line + delta) for message, delta in block.repairs)
                block = block.entry
            if isinstance(block, model.String):
                found.strings.append((block.key, block.value, line))
            elif isinstance(block, model.Entry):
                found.entries.append((block, line))
            elif isinstance(block, model.ParsingFailedBlock):
                message = _failure_message(block)  # a thousand like lines share one text
                found.errors.append(Problem(said.setdefault(message, message), line))
            elif isinstance(block, model.ImplicitComment) and (span := _junk_span(block, line)):
                found.outside.append(span)
    return found


def _drop_empty_entries(text: str, result: ParseResult) -> str:
    """``text`` without its entries that hold no field, each reported with its line (their
    lines stay, blank, so that every other line keeps its number). Read by the splitter, a
    file of nothing but ``@article{,}`` took a hundred times longer than its size warrants."""
    line, position, dropped = 1, 0, 0
    for m in _EMPTY_ENTRY.finditer(text):
        line += text.count("\n", position, m.start())
        position = m.start()
        result.errors.append(Problem(_EMPTY_MESSAGE, line))
        dropped += 1
    return _EMPTY_ENTRY.sub("", text) if dropped else text


def _junk_span(block: model.ImplicitComment, line: int) -> tuple[int, int] | None:
    """The first and last line of the text outside entries that says something (not blank,
    not a ``%`` comment), or None."""
    lines = (block.raw or "").split("\n")
    said = [n for n, text in enumerate(lines) if text.strip() and not text.lstrip().startswith("%")]
    return (line + said[0], line + said[-1]) if said else None


def _outside_warning(spans: list[tuple[int, int]]) -> Problem:
    """One warning for the text outside entries that was skipped, with its lines."""
    shown = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans[:10])
    more = f" and {len(spans) - 10:,} more places" if len(spans) > 10 else ""
    where = "line" if len(spans) == 1 and spans[0][0] == spans[0][1] else "lines"
    return Problem(f"skipped text outside any entry ({where} {shown}{more})", spans[0][0])


# ---------------------------------------------------------------- macros and inheritance


def _out_of_time(deadline: Deadline, result: ParseResult, line: int) -> bool:
    """True once the time budget is spent; the error saying so is added only once, by the
    first stage that finds it spent."""
    if not deadline.expired():
        return False
    if not any(e.message.startswith("stopped after") for e in result.errors):
        result.errors.append(Problem(deadline.message(line), line))
    return True


def _macros(
    strings: list[tuple[str, str, int]],
    result: ParseResult,
    budget: ExpansionBudget,
    deadline: Deadline,
) -> dict[str, str | None]:
    """Expand the ``@string`` definitions in order; a macro that would grow too large is kept
    as ``None`` (entries using it are reported) and warned about once for all."""
    macros: dict[str, str | None] = dict(_MONTHS)
    defined_at: dict[str, int] = {}
    too_large: list[Problem] = []
    again: list[Problem] = []
    for index, (key, raw, line) in enumerate(strings):
        if index % 500 == 0 and _out_of_time(deadline, result, line):
            break
        name = key.lower()
        if name in defined_at:
            again.append(
                Problem(
                    f"@string {key} is defined again (first at line {defined_at[name]}); the later definition is used",
                    line,
                )
            )
        defined_at.setdefault(name, line)
        try:
            macros[name] = expand_value(raw, macros, budget=budget)
        except ExpansionTooLarge:
            macros[name] = None
            too_large.append(Problem(key, line))
    _report(result, again, "@string definitions repeat an earlier name; the later one is used")
    if too_large:
        names = ", ".join(p.message for p in too_large[:8])
        more = f" and {len(too_large) - 8} more" if len(too_large) > 8 else ""
        result.warnings.append(
            Problem(
                f"{len(too_large)} @string macros ({names}{more}) would expand to more than "
                f"{MAX_EXPANSION_CHARS:,} characters; entries that use them are not imported",
                too_large[0].line,
            )
        )
    return macros


def _expand_entries(
    found: _Split,
    macros: dict[str, str | None],
    result: ParseResult,
    budget: ExpansionBudget,
    deadline: Deadline,
) -> list[_Entry]:
    entries = []
    unknown: set[str] = set()
    first_unknown_line = None
    too_large: list[Problem] = []
    run_on: list[Problem] = []
    for index, (block, line) in enumerate(found.entries):
        if index % 500 == 0 and _out_of_time(deadline, result, line):
            break
        found.entries[index] = _EXPANDED  # the block's raw values are freed once expanded
        fields: dict[str, str] = {}
        duplicates = []
        before = len(unknown)
        try:
            repeated: dict[str, list[str]] = {}  # list fields given more than once
            for name, raw in _raw_fields(block, line, run_on):
                if name in fields and name not in _LIST_FIELDS:
                    duplicates.append(name)
                    continue
                value = expand_value(raw, macros, unknown, budget)
                if name in fields:
                    repeated.setdefault(name, [fields[name]]).append(value)
                else:
                    fields[name] = value
            for name, values in repeated.items():
                fields[name] = _LIST_FIELDS[name].join(v for v in values if v.strip())
        except ExpansionTooLarge as exc:
            too_large.append(
                Problem(
                    f"{block.key or 'entry'}: field {name} would expand (through @string "
                    f"{exc.name}) {exc.reason}; the entry was not imported",
                    line,
                )
            )
            continue
        if len(unknown) > before and first_unknown_line is None:
            first_unknown_line = line
        _unprotect_identifiers(fields)
        entries.append(
            _Entry(
                block.entry_type.lower(), block.key, fields, block.raw or "", line, duplicates, _cut_long_fields(fields)
            )
        )
    _report(result, too_large, "entries expand @string macros too far; not imported", errors=True)
    _report(result, run_on, "fields miss the comma before the next field; read as separate fields")
    if unknown:
        names = ", ".join(sorted(unknown)[:8])
        result.warnings.append(Problem(f"undefined @string names kept as text: {names}", first_unknown_line))
    return entries


def _raw_fields(block: model.Entry, line: int, run_on: list[Problem]) -> Iterator[tuple[str, str]]:
    """(lower-case name, raw value) of each field of ``block``; a value that swallowed the
    next fields for want of a comma is cut into them, each added to ``run_on`` with its line
    (``line`` is the entry's)."""
    for fld in block.fields:
        name, value = fld.key.lower(), str(fld.value)
        if "=" not in value:  # the common case, without a look for run-on fields
            yield name, value
            continue
        pieces = split_run_on_value(value)
        yield name, pieces[0][1]
        field_line = line + max(0, (fld.start_line or 0) - (block.start_line or 0))
        for next_name, raw, lines_in in pieces[1:]:
            run_on.append(
                Problem(
                    f"{block.key or 'an entry without a key'}: no comma between the fields {name} "
                    f"and {next_name}; read as two fields",
                    field_line + lines_in,
                )
            )
            name = str(next_name).lower()
            yield name, raw


def _unprotect_identifiers(fields: dict[str, str]) -> None:
    """Identifiers are not text: the braces that protect them from BibTeX's case changes
    (``doi = {{10.1016/...}}``), a ``\\url{}`` around them and LaTeX escapes (``\\_``) go."""
    for name in _IDENTIFIER_FIELDS:
        value = fields.get(name)
        if value and ("{" in value or "\\" in value):
            value = strip_outer_braces(value)
            if m := _WRAPPING_COMMAND.fullmatch(value.strip()):
                value = strip_outer_braces(m.group(1))
            fields[name] = _IDENTIFIER_ESCAPE.sub(_escaped, value).strip()


def _escaped(match: re.Match[str]) -> str:
    return match.group(1) or match.group(2)


def _cut_long_fields(fields: dict[str, str]) -> list[str]:
    """Cut every field but the abstract (kept raw, capped later) before any LaTeX conversion,
    which costs tens of microseconds per character: names and notes to MAX_ABSTRACT_CHARS (a
    collaboration lists thousands of authors), the rest to MAX_FIELD_CHARS. Returns what was
    cut."""
    cut = []
    for name, value in fields.items():
        if name == "abstract":
            continue
        limit = MAX_ABSTRACT_CHARS if name in _LONG_FIELDS else MAX_FIELD_CHARS
        if len(value) > limit:
            cut.append(cut_message(name, len(value), limit))
            fields[name] = value[:limit]
    return cut


def _inherit(entries: list[_Entry], result: ParseResult, deadline: Deadline = NO_DEADLINE) -> None:
    """Fill missing fields from crossref'ed and xdata entries (resolved recursively)."""
    by_key: dict[str, _Entry] = {}
    for entry in entries:
        by_key.setdefault(entry.key, entry)
        by_key.setdefault(entry.key.lower(), entry)
    done: set[int] = set()
    problems: list[Problem] = []

    def resolve(entry: _Entry, path: tuple[_Entry, ...]) -> bool:
        """Fill ``entry`` from its parents; False when it stands in a cycle (or too deep)."""
        if id(entry) in done:
            return True
        if any(e is entry for e in path) or len(path) > _MAX_CROSSREF_DEPTH:
            return False
        for parent_key in _parent_keys(entry):
            parent = by_key.get(parent_key) or by_key.get(parent_key.lower())
            if parent is None:
                problems.append(Problem(f"{entry.key} refers to {parent_key}, which is not in the file", entry.line))
                continue
            if parent is entry:
                problems.append(
                    Problem(f"{entry.key} refers to itself (crossref); the reference was ignored", entry.line)
                )
                continue
            if not resolve(parent, (*path, entry)):
                chain = " -> ".join(e.key for e in (*path, entry, parent))
                problems.append(
                    Problem(
                        f"{entry.key}: crossref cycle or chain too deep ({chain[:200]}); the entry "
                        "was imported without what it refers to",
                        entry.line,
                    )
                )
                continue
            via_crossref = parent_key in _split_keys(entry.fields.get("crossref", ""))
            _copy_missing(parent.fields, entry.fields, map_titles=via_crossref)
        done.add(id(entry))
        return True

    for index, entry in enumerate(entries):
        if index % 500 == 0 and _out_of_time(deadline, result, entry.line):
            break
        resolve(entry, ())
    _report(result, problems, "crossref/xdata references could not be followed")


def _split_keys(value: str) -> list[str]:
    return [k.strip() for k in value.split(",") if k.strip()]


def _parent_keys(entry: _Entry) -> list[str]:
    return _split_keys(entry.fields.get("crossref", "")) + _split_keys(entry.fields.get("xdata", ""))


def _copy_missing(parent: dict[str, str], child: dict[str, str], *, map_titles: bool) -> None:
    for name, value in list(parent.items()):
        if map_titles and name in _TITLE_TO_BOOK:
            child.setdefault(_TITLE_TO_BOOK[name], value)
        elif name not in _NOT_INHERITED:
            child.setdefault(name, value)


# ---------------------------------------------------------------- records


def _arxiv_id(fields: dict[str, str]) -> str | None:
    eprint = fields.get("eprint", "")
    kind = (fields.get("eprinttype") or fields.get("archiveprefix") or "").strip().lower()
    if eprint and (kind == "arxiv" or "arxiv" in eprint.lower()):
        if found := normalize_arxiv_id(eprint):
            return found
    url = fields.get("url", "")
    return normalize_arxiv_id(url) if "arxiv.org/" in url.lower() else None


def _url(fields: dict[str, str]) -> str | None:
    if url := fields.get("url", "").strip():
        return url.split()[0]
    if m := _URL_COMMAND.search(fields.get("howpublished", "")):
        return m.group(1).strip()
    return None


def _keywords(fields: dict[str, str]) -> list[str]:
    """The file's ``keywords``/``keyword`` fields, split on commas and semicolons outside
    braces (``{Smith, J.}`` stays one keyword), repeats dropped."""
    keywords: dict[str, None] = {}  # ordered; linear however many repeat
    for name in ("keywords", "keyword"):
        for piece in _keyword_pieces(fields.get(name, "")):
            if keyword := latex_to_text(piece):
                keywords.setdefault(keyword)
    return list(keywords)


def _keyword_pieces(value: str) -> list[str]:
    """``value`` split at the commas and semicolons outside braces."""
    if "{" not in value:
        return _KEYWORD_SEPARATOR.split(value)
    return split_outside_braces(value, "[,;]")


def _editors(fields: dict[str, str]) -> list[str]:
    """The editors, when the entry also has authors (an editor-only entry has them as its
    authors, ``extra["author_role"] == "editor"``)."""
    if not (fields.get("author", "").strip() and fields.get("editor", "").strip()):
        return []
    return split_bibtex_names(fields["editor"], latex_to_text)[0]


def _isbn(fields: dict[str, str]) -> str | None:
    return latex_to_text(fields.get("isbn", "")) or None


def _pmid(fields: dict[str, str]) -> str | None:
    """The PubMed id: a ``pmid`` field, biblatex's ``eprinttype = {pubmed}``, or a note that
    says only "PMID: 123" (Zotero's BibTeX export); digits only, else None."""
    candidates = [fields.get("pmid", "")]
    kind = (fields.get("eprinttype") or fields.get("archiveprefix") or "").strip().lower()
    if kind == "pubmed":
        candidates.append(fields.get("eprint", ""))
    if "pmid" in (note := fields.get("note", "")).lower():
        candidates.append(latex_to_text(note))
    for candidate in candidates:
        if m := _PMID.fullmatch(candidate.strip()):
            return m.group(1)
    return None


def _title(fields: dict[str, str]) -> str | None:
    title = latex_to_text(fields.get("title", ""))
    subtitle = latex_to_text(fields.get("subtitle", ""))
    if title and subtitle:
        return f"{title}: {subtitle}"
    return title or subtitle or None


def to_record(entry: _Entry) -> Record:
    """Map one expanded, inherited entry to a :class:`Record`."""
    fields = entry.fields
    extra: dict[str, str] = {}
    role_field = "author" if fields.get("author", "").strip() else "editor"
    authors, et_al = split_bibtex_names(fields.get(role_field, ""), latex_to_text)
    if et_al:
        extra["et_al"] = "1"
    if role_field == "editor" and authors:
        extra["author_role"] = "editor"
    for name in _EXTRA_FIELDS:
        if value := fields.get(name, "").strip():
            extra[name] = latex_to_text(value)
    venue = next((latex_to_text(fields[n]) for n in _VENUE_FIELDS if fields.get(n)), None)
    decision = fields.get(DECISION_FIELD, "").strip().lower()
    year = _year(fields.get("year")) or _year(fields.get("date"))
    doi = clean_doi(fields.get("doi")) or clean_doi(fields.get("url"))
    record = Record(
        abstract=_raw_abstract(fields.get("abstract", "")),
        title=_title(fields),
        authors=authors,
        venue=venue or None,
        year=year,
        doi=doi,
        arxiv_id=_arxiv_id(fields),
        url=_url(fields),
        bibtex_key=entry.key or None,
        entry_type=entry.entry_type,
        keywords=_keywords(fields),
        editors=_editors(fields),
        pmid=_pmid(fields),
        isbn=_isbn(fields),
        raw=entry.raw,
        line=entry.line,
        extra=extra,
        decision=decision if decision in DECISIONS else None,
    )
    own = {name[len(PREFIX) :]: value for name, value in fields.items() if name.startswith(PREFIX)}
    if not is_marked(own):
        return record
    from desktop_app.core.formats.bibtex_writer import unescape_latex

    return applied(record, own, note=unescape_latex(fields["note"]) if fields.get("note") else None)


def _report(result: ParseResult, problems: list[Problem], summary: str, *, errors: bool = False) -> None:
    """Add warnings (or errors) one by one, or as one summary line when there are many."""
    target = result.errors if errors else result.warnings
    if len(problems) <= _MAX_SINGLE_WARNINGS:
        target.extend(problems)
        return
    lines = ", ".join(str(p.line) for p in problems[:_MAX_SINGLE_WARNINGS])
    target.append(Problem(f"{len(problems)} {summary} (lines {lines}, ...)", problems[0].line))


def _report_entry_issues(entries: list[_Entry], result: ParseResult) -> None:
    seen: dict[str, int] = {}
    twice: list[Problem] = []
    reused: list[Problem] = []
    for entry in entries:
        if entry.duplicate_fields:
            names = ", ".join(sorted(set(entry.duplicate_fields)))
            twice.append(
                Problem(f"{entry.key or 'entry'}: field {names} appears twice; the first value is used", entry.line)
            )
        if not entry.key:
            continue
        if entry.key in seen:
            reused.append(
                Problem(
                    f"the key {entry.key} is used again (first at line {seen[entry.key]}); both entries were imported",
                    entry.line,
                )
            )
        seen.setdefault(entry.key, entry.line)
    _report(result, twice, "entries repeat a field; the first value is used")
    _report(result, reused, "entries reuse an earlier key; all were imported")


def _cap_keywords(record: Record) -> list[str]:
    """Keep at most MAX_TAGS keywords (as tags are capped); say so when some were dropped."""
    if len(record.keywords) <= MAX_TAGS:
        return []
    count = len(record.keywords)
    record.keywords = record.keywords[:MAX_TAGS]
    return [f"keywords ({count:,}; kept the first {MAX_TAGS:,})"]


def read_bibtex(text: str, *, deadline: Deadline = NO_DEADLINE) -> ParseResult:
    """Read BibTeX/BibLaTeX text. Broken blocks are reported with their line and skipped; an
    entry with a slip that has one reading (no key, an empty field, a missing comma) is read,
    with a warning that gives the line."""
    result = ParseResult(format="bibtex")
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    text = _SPLIT_HEAD.sub(r"\1\3\2", text)
    text = _drop_empty_entries(text, result)
    found = _split(text, deadline)
    result.errors.extend(found.errors)
    _report(
        result,
        found.repairs,
        "entries have a missing key, a key without its comma or an empty field; they were imported",
    )
    budget = ExpansionBudget(len(text))
    macros = _macros(found.strings, result, budget, deadline)
    entries = _expand_entries(found, macros, result, budget, deadline)
    _inherit(entries, result, deadline)
    _report_entry_issues(entries, result)
    groups = [e for e in entries if e.entry_type in _GROUP_TYPES]
    if groups:
        kinds = ", ".join(sorted({f"@{e.entry_type}" for e in groups}))
        result.warnings.append(
            Problem(
                f"{len(groups)} {kinds} entries group other entries and are not papers; they were not imported",
                groups[0].line,
            )
        )
    for entry in entries:
        if entry.entry_type in _GROUP_TYPES:
            continue
        if _out_of_time(deadline, result, entry.line):  # one clock read; an entry may be slow
            break
        record = to_record(entry)
        cut = [*entry.cut, *_cap_keywords(record)]
        if cut:
            result.warnings.append(Problem(f"too long, cut: {'; '.join(cut)}", entry.line))
        result.records.append(record)
    reported = {e.line for e in found.errors}  # a broken block's rest is in its error already
    outside = [span for span in found.outside if span[0] not in reported]
    if outside:
        result.warnings.append(_outside_warning(outside))
    result.errors.sort(key=lambda p: p.line or 0)
    return result
