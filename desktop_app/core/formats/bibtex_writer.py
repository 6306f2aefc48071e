"""BibTeX export, written with bibtexparser 2.

Values are always brace-delimited and UTF-8. Plain-text values (title, authors, venue,
keywords, note) have the LaTeX specials escaped; the abstract is LaTeX already and is kept as
is, except that braces are made to balance. ``doi``, ``url`` and ``eprint`` are verbatim
fields for biblatex and are not escaped (stray braces are percent-encoded).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import bibtexparser
from bibtexparser.library import Library
from bibtexparser.model import Entry, Field
from bibtexparser.writer import BibtexFormat

from desktop_app.core.citation_keys import is_valid_key, pattern_key, unique_key
from desktop_app.core.formats.own_fields import PREFIX, own_fields
from desktop_app.core.formats.writer_common import (
    ARTICLE_TYPES,
    CONFERENCE_TYPES,
    DERIVED_NOTE,
    entry_type,
    export_title,
    is_derived,
    keywords_and_tags,
)
from desktop_app.core.records import ExportPaper

# --- escaping ---------------------------------------------------------------------------------

_SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_SPECIAL_RE = re.compile(r"[\\&%$#_~^{}]")
_BRACE_TEXT = {"{": r"\textbraceleft{}", "}": r"\textbraceright{}"}
_BRACE_MATH = {"{": r"\lbrace{}", "}": r"\rbrace{}"}
_LINE_START_AT = re.compile(r"(?m)^([ \t]*)@")


def _balanced(text: str) -> bool:
    """True when the braces in *text* nest properly (every brace counts, as in BibTeX)."""
    depth = 0
    for char in text:
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _defuse_at(value: str) -> str:
    """Keep a line that starts with ``@`` from reading as a new entry (``{}`` is invisible)."""
    return _LINE_START_AT.sub(r"\1{}@", value)


def escape_latex(text: str) -> str:
    """Escape the LaTeX specials of a plain-text value; non-ASCII stays as UTF-8."""
    braces_ok = _balanced(text)

    def repl(match: re.Match[str]) -> str:
        char = match.group(0)
        if char in "{}":
            return "\\" + char if braces_ok else _BRACE_TEXT[char]
        return _SPECIALS[char]

    return _defuse_at(_SPECIAL_RE.sub(repl, text))


def balance_latex(raw: str) -> str:
    """Return LaTeX *raw* unchanged when its braces balance; else neutralise the strays.

    Plain braces and escaped braces (``\\{``, ``\\}``) are matched separately, so the value
    balances both for BibTeX (which counts every brace) and for parsers that skip escaped
    ones. An unmatched brace becomes ``\\textbraceleft{}`` (``\\lbrace{}`` inside ``$...$``).
    A brace right after ``\\\\``, and the end after a lone ``\\``, get a space (for parsers).
    """
    pieces: list[str] = []
    open_plain: list[int] = []  # indexes into pieces of braces still open
    open_escaped: list[int] = []
    stray: list[int] = []
    in_math: dict[int, bool] = {}
    math = False
    backslashes = 0
    for char in raw:
        if char in "{}":
            if backslashes % 2:  # escaped: the backslash is the previous piece
                pieces[-1] += char
                stack = open_escaped
            else:
                if backslashes:
                    pieces.append(" ")
                pieces.append(char)
                stack = open_plain
            index = len(pieces) - 1
            in_math[index] = math
            if char == "{":
                stack.append(index)
            elif stack:
                stack.pop()
            else:
                stray.append(index)
            backslashes = 0
            continue
        if char == "$" and backslashes % 2 == 0:
            math = not math
        pieces.append(char)
        backslashes = backslashes + 1 if char == "\\" else 0
    for index in stray + open_plain + open_escaped:
        table = _BRACE_MATH if in_math[index] else _BRACE_TEXT
        pieces[index] = table[pieces[index][-1]]
    if backslashes % 2:  # a trailing lone backslash would escape the closing brace
        pieces.append(" ")
    return _defuse_at("".join(pieces))


def _verbatim(value: str) -> str:
    """A doi/url/eprint value: no escaping, but no braces or backslashes either."""
    return value.strip().replace("\\", "%5C").replace("{", "%7B").replace("}", "%7D")


_UNESCAPE = {**{v: k for k, v in _SPECIALS.items()}, **{v: k for k, v in _BRACE_TEXT.items()}, r"\{": "{", r"\}": "}"}
_UNESCAPE_RE = re.compile(
    "|".join(re.escape(k) for k in sorted(_UNESCAPE, key=len, reverse=True)) + r"|(?m:^([ \t]*)\{\}@)"
)


def unescape_latex(text: str) -> str:
    """:func:`escape_latex` undone exactly (for a value this writer wrote: a note read back)."""

    def repl(match: re.Match[str]) -> str:
        if match.group(1) is not None:
            return match.group(1) + "@"
        return _UNESCAPE[match.group(0)]

    return _UNESCAPE_RE.sub(repl, text)


# --- keys -------------------------------------------------------------------------------------


def base_key(paper: ExportPaper) -> str:
    """``familyYEARfirstword``, e.g. ``smith2026races`` (:func:`citation_keys.pattern_key`)."""
    return pattern_key(paper.authors, paper.year, paper.title)


def assign_keys(papers: Sequence[ExportPaper]) -> list[str]:
    """Unique, deterministic citation keys, one per paper, in order.

    A paper keeps its stored key (``bibtex_key``: every paper of a library has one, unique in
    it, so an export never changes it) when that is a valid key not taken by an earlier paper;
    the others (papers made outside a library) get :func:`base_key`, with ``a``, ``b``, ...
    appended on a clash. Keys are compared case-insensitively, as BibTeX does.
    """
    keys: list[str | None] = [None] * len(papers)
    taken: set[str] = set()
    for index, paper in enumerate(papers):
        own = (paper.bibtex_key or "").strip()
        if is_valid_key(own) and own.lower() not in taken:
            keys[index] = own
            taken.add(own.lower())
    tried: dict[str, int] = {}  # (taken only grows: each base's search starts where it stopped)
    for index, paper in enumerate(papers):
        if keys[index] is None:
            key = unique_key(base_key(paper), taken, tried)
            keys[index] = key
            taken.add(key.lower())
    return [k for k in keys if k is not None]


# --- entries ----------------------------------------------------------------------------------


def _author_field(authors: Sequence[str]) -> str:
    names = []
    for name in authors:
        name = " ".join(name.split())
        if not name:
            continue
        escaped = escape_latex(name)
        # a literal organisation name with " and " in it must not split into two authors
        names.append(f"{{{escaped}}}" if re.search(r"\band\b", name, re.I) else escaped)
    return " and ".join(names)


def paper_entry(paper: ExportPaper, key: str, *, include_notes: bool = False) -> Entry:
    """The bibtexparser :class:`Entry` for one paper; every value is already brace-enclosed."""
    kind = entry_type(paper)
    fields: list[tuple[str, str]] = []

    def add(name: str, value: str | None) -> None:
        if value is not None and value.strip():
            fields.append((name, "{" + value + "}"))

    add("author", _author_field(paper.authors))
    add("title", escape_latex(export_title(paper)))
    if is_derived(paper):
        add("titleaddon", DERIVED_NOTE)  # biblatex prints it after the title
    if paper.venue and paper.venue.strip():
        venue_field = (
            "journal"
            if kind in ARTICLE_TYPES
            else "booktitle"
            if kind in CONFERENCE_TYPES or kind == "incollection"
            else "institution"
            if kind in ("techreport", "report")
            else "school"
            if kind in ("phdthesis", "mastersthesis", "thesis")
            else "publisher"
            if kind in ("book", "inbook", "booklet", "manual", "proceedings", "collection")
            else "organization"  # @misc and unknown types: a field readers take as the venue
        )
        add(venue_field, escape_latex(" ".join(paper.venue.split())))
    add("year", str(paper.year) if paper.year else None)
    add("doi", _verbatim(paper.doi) if paper.doi else None)
    add("url", _verbatim(paper.url) if paper.url else None)
    if paper.arxiv_id and paper.arxiv_id.strip():
        add("eprint", _verbatim(paper.arxiv_id))
        add("archiveprefix", "arXiv")
    add("abstract", balance_latex(paper.abstract.strip()))
    add("keywords", escape_latex(", ".join(keywords_and_tags(paper))))
    if include_notes:
        add("note", escape_latex(paper.note.strip()))
    # Marginalia's own fields (formats/own_fields.py): other tools keep them or ignore them
    for name, value in own_fields(paper).items():
        add(PREFIX + name, value)
    return Entry(kind, key, [Field(name, value) for name, value in fields])


def render_bibtex(papers: Sequence[ExportPaper], *, include_notes: bool = False) -> str:
    """All *papers* as a BibTeX database (UTF-8 text), keys from :func:`assign_keys`."""
    library = Library()
    for paper, key in zip(papers, assign_keys(papers), strict=True):
        library.add(paper_entry(paper, key, include_notes=include_notes))
    fmt = BibtexFormat()  # type: ignore[no-untyped-call]  # bibtexparser: __init__ has no hints
    fmt.indent = "  "
    fmt.block_separator = "\n"
    text = bibtexparser.write_string(library, unparse_stack=[], bibtex_format=fmt)
    return text
