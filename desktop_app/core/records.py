"""Plain data passed between the format readers/writers and the Library.

Readers turn a file into :class:`ParseResult` (records plus problems); the Library turns
records into papers. Writers get :class:`ExportPaper` values, never database rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Marginalia's own BibTeX field for the triage decision (other tools keep it or ignore it; a
# file from another tool never has it, so its keywords stay keywords)
DECISION_FIELD = "marginalia-decision"
# the triage decisions (models.DECISIONS is this): here, so that the file readers need not load
# the ORM's models (a reading child process stays small)
DECISIONS = ("keep", "maybe", "skip")


@dataclass(slots=True)
class Record:
    """One bibliographic record read from a file, before it becomes a paper.

    Slots: an import of 100,000 records holds them all at once (a preview, then the writer), and
    a per-record ``__dict__`` of these 25 fields cost about 85 MB of them."""

    abstract: str = ""
    title: str | None = None
    authors: list[str] = field(default_factory=list)  # "Family, Given" or a literal name
    venue: str | None = None
    year: int | None = None
    doi: str | None = None
    arxiv_id: str | None = None  # without version suffix
    url: str | None = None
    bibtex_key: str | None = None
    entry_type: str | None = None  # "article", "inproceedings", ... (lower case)
    tags: list[str] = field(default_factory=list)  # the user's own tags (Marginalia exports, CSV)
    keywords: list[str] = field(default_factory=list)  # the file's subject keywords (not tags)
    editors: list[str] = field(default_factory=list)  # "Family, Given", when authors are also given
    pmid: str | None = None  # PubMed id, digits only
    isbn: str | None = None  # as written (hyphens kept)
    note: str | None = None
    raw: str = ""  # the record's text as it stood in the file
    line: int | None = None  # 1-based line where the record starts
    extra: dict[str, str] = field(default_factory=dict)  # other fields worth keeping
    decision: str | None = None  # keep / maybe / skip from Marginalia's own export (a new paper takes it)
    # the rest of what a user made, from Marginalia's own fields (formats/own_fields.py); a new paper takes them
    status: str | None = None
    rating: int | None = None
    lists: dict[str, int] = field(default_factory=dict)  # reading list -> the paper's position in it (0-based)
    title_derived: bool = False  # the title is one Marginalia derived from the abstract (its own export)


@dataclass(slots=True)
class Problem:
    """Something in a file that could not be imported, or imported with a caveat."""

    message: str
    line: int | None = None

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


MAX_LISTED_PROBLEMS = 100
"""A report lists this many errors (or warnings) of a file one by one, then one line for the rest."""


def summarised(problems: list[Problem], limit: int = MAX_LISTED_PROBLEMS) -> list[Problem]:
    """The first ``limit`` problems, then one that counts the rest and names their lines."""
    if len(problems) <= limit:
        return list(problems)
    rest = problems[limit:]
    lines = [p.line for p in rest if p.line]
    where = f" (lines {min(lines):,}-{max(lines):,})" if lines else ""
    return [*problems[:limit], Problem(f"... and {len(rest):,} more{where}")]


@dataclass
class ParseResult:
    """What a reader found in one file."""

    format: str
    records: list[Record] = field(default_factory=list)
    errors: list[Problem] = field(default_factory=list)  # records that were lost
    warnings: list[Problem] = field(default_factory=list)  # imported, but with a caveat


@dataclass
class ExportHighlight:
    quote: str
    comment: str
    color: str
    start: int
    end: int
    orphaned: bool = False


@dataclass
class ExportPaper:
    """Everything a writer may need about one paper, already read from the store."""

    id: int
    uid: str
    title: str
    title_source: str
    abstract: str  # raw, LaTeX kept
    abstract_text: str  # plain text
    authors: list[str]
    venue: str | None
    year: int | None
    doi: str | None
    arxiv_id: str | None
    url: str | None
    bibtex_key: str | None
    entry_type: str | None
    tags: list[str]
    status: str
    rating: int
    note: str
    note_revisions: list[dict[str, Any]] = field(default_factory=list)  # {"text", "saved_at"}
    highlights: list[ExportHighlight] = field(default_factory=list)
    added_at: str = ""
    item_note: str | None = None  # reading-list item note, when exported from a list
    extra: dict[str, str] = field(default_factory=dict)
    keywords: list[str] = field(default_factory=list)  # the source file's keywords (not tags)
    # attached files (metadata only: {"kind", "path", "name", "size", "sha256", "added_at"}); the
    # copies themselves are in the library's files/ folder and kept by its backups
    attachments: list[dict[str, Any]] = field(default_factory=list)
    decision: str | None = None  # the triage decision (keep / maybe / skip), None when undecided
    lists: dict[str, int] = field(default_factory=dict)  # reading list -> the paper's position in it (0-based)
