"""Small values the Library returns: what changed, what an import did, and read views."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeVar

from desktop_app.core.changelog.undo_data import NOTHING, UndoData

D = TypeVar("D", bound=UndoData)


class ChangeKind(StrEnum):
    """What a :class:`Change` is about, which decides what a view refreshes. A ``StrEnum``: it
    equals its string (``ChangeKind.TAGS == "tags"``), so a change told over a shared library's
    change log or a test comparing with the string reads the same."""

    PAPERS = "papers"  # papers' fields: status, rating, decision, title, deletion, merges
    TAGS = "tags"
    NOTE = "note"
    HIGHLIGHTS = "highlights"
    LISTS = "lists"
    SEARCHES = "searches"
    IMPORT = "import"  # papers added (or an import undone)
    DUPLICATES = "duplicates"  # pairs marked distinct
    ATTACHMENTS = "attachments"


@dataclass(frozen=True)
class Change:
    """What one mutation changed, so views refresh only what concerns them."""

    kind: ChangeKind
    paper_ids: tuple[int, ...] = ()
    tag_names: tuple[str, ...] = ()
    list_ids: tuple[int, ...] = ()
    text_changed: bool = False  # the full-text index must be updated
    # what undoing it needs, of the shape the method that made it keeps (core/changelog/undo_data.py)
    detail: UndoData = field(default=NOTHING, compare=False, hash=False)

    def __post_init__(self) -> None:
        # a string from outside the core (a test, a journal) becomes its kind; an unknown one is refused
        object.__setattr__(self, "kind", ChangeKind(self.kind))

    def detail_as(self, shape: type[D]) -> D:
        """The undo data, which the caller knows to be a ``shape`` (it made the edit that keeps
        one); TypeError when it is not."""
        if not isinstance(self.detail, shape):
            raise TypeError(f"a {self.kind} change keeps {type(self.detail).__name__}, not {shape.__name__}")
        return self.detail


@dataclass
class MatchNote:
    """One imported record found to be a paper already there (or earlier in the import)."""

    index: int | None  # the record's number in its file, from 0
    line: int | None  # where the record starts in the file
    title: str  # the record's title (or the start of its abstract)
    paper_id: int
    reason: str  # a key of sameness.REASON_LABELS
    paper_title: str = ""  # the title of the paper it matched

    def as_dict(self) -> dict[str, object]:
        return {
            "index": self.index,
            "line": self.line,
            "title": self.title,
            "paper": self.paper_id,
            "paper_title": self.paper_title,
            "reason": self.reason,
        }


@dataclass
class FileReport:
    path: str
    format: str
    added: int = 0
    duplicates: int = 0
    merged: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    matches: list[MatchNote] = field(default_factory=list)  # each duplicate, with its reason
    kept_apart: int = 0  # records the user kept as papers of their own despite a match
    refused_links: int = 0  # a backup's file links outside the library folder, not restored

    def as_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "format": self.format,
            "added": self.added,
            "duplicates": self.duplicates,
            "merged": self.merged,
            "failed": self.failed,
            "errors": self.errors,
            "warnings": self.warnings,
            "matches": [m.as_dict() for m in self.matches],
            "kept_apart": self.kept_apart,
            "refused_links": self.refused_links,
        }


@dataclass
class ImportReport:
    files: list[FileReport] = field(default_factory=list)
    batch_id: int | None = None
    paper_ids: list[int] = field(default_factory=list)  # new papers
    cancelled: bool = False

    @property
    def added(self) -> int:
        return sum(f.added for f in self.files)

    @property
    def duplicates(self) -> int:
        return sum(f.duplicates for f in self.files)

    @property
    def merged(self) -> int:
        return sum(f.merged for f in self.files)

    @property
    def failed(self) -> int:
        return sum(f.failed for f in self.files)

    def as_dict(self) -> dict[str, object]:
        return {
            "added": self.added,
            "duplicates": self.duplicates,
            "merged": self.merged,
            "failed": self.failed,
            "batch": self.batch_id,
            "cancelled": self.cancelled,
            "files": [f.as_dict() for f in self.files],
        }

    def reasons(self) -> dict[str, int]:
        """How many records matched a paper, by reason (strongest first)."""
        from desktop_app.core.sameness import REASON_LABELS

        counts = {r: 0 for r in REASON_LABELS}
        for f in self.files:
            for m in f.matches:
                counts[m.reason] = counts.get(m.reason, 0) + 1
        return {r: n for r, n in counts.items() if n}

    def summary(self) -> str:
        from desktop_app.core.sameness import REASON_LABELS

        text = f"{self.added} added"
        if self.duplicates:
            why = "; ".join(f"{REASON_LABELS.get(r, r)}: {n}" for r, n in self.reasons().items())
            text += f", merged {self.duplicates}" + (f" ({why})" if why else "")
            if self.merged:
                text += f", {self.merged} of them filled in fields the paper lacked"
        kept = sum(f.kept_apart for f in self.files)
        if kept:
            text += f", {kept} kept apart"
        text += f", {self.failed} failed"
        if self.added == 0 and self.duplicates and not self.failed:
            text += " — everything in these files is already in the library"
        return text


@dataclass
class HighlightView:
    id: int
    start: int
    end: int
    quote: str
    prefix: str
    suffix: str
    color: str
    comment: str
    orphaned: bool


@dataclass
class PaperView:
    """One paper with everything the reader shows."""

    id: int
    uid: str
    title: str
    title_source: str
    abstract: str
    abstract_text: str
    authors: list[str]
    venue: str | None
    year: int | None
    doi: str | None
    arxiv_id: str | None
    url: str | None
    bibtex_key: str | None
    entry_type: str | None
    status: str
    rating: int
    tags: list[str]
    note: str
    added_at: str
    extra: dict[str, str]
    highlights: list[HighlightView] = field(default_factory=list)
    lists: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)  # the source file's keywords (not tags)
    decision: str | None = None  # keep / maybe / skip; None: not decided

    def as_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "uid": self.uid,
            "title": self.title,
            "title_source": self.title_source,
            "abstract": self.abstract,
            "abstract_text": self.abstract_text,
            "authors": self.authors,
            "venue": self.venue,
            "year": self.year,
            "doi": self.doi,
            "arxiv_id": self.arxiv_id,
            "url": self.url,
            "bibtex_key": self.bibtex_key,
            "entry_type": self.entry_type,
            "tags": self.tags,
            "keywords": self.keywords,
            "status": self.status,
            "rating": self.rating,
            "decision": self.decision,
            "note": self.note,
            "added_at": self.added_at,
            "lists": self.lists,
            "highlights": [
                {
                    "id": h.id,
                    "quote": h.quote,
                    "comment": h.comment,
                    "color": h.color,
                    "start": h.start,
                    "end": h.end,
                    "orphaned": h.orphaned,
                }
                for h in self.highlights
            ],
        }


@dataclass
class PaperRow:
    """What the table shows for one paper."""

    id: int
    title: str
    venue: str | None
    year: int | None
    tags: list[str]
    status: str
    rating: int
    added_at: str
    highlights: int = 0
    decision: str | None = None
    has_note: bool = False
    authors: str = ""
    authors_short: str = ""  # "Vaswani, Shazeer et al." (metadata.short_authors)
    updated_at: str = ""  # "YYYY-MM-DD HH:MM:SS", UTC as stored


@dataclass
class TagInfo:
    id: int
    name: str
    color: str
    count: int


@dataclass
class ListInfo:
    id: int
    name: str
    description: str
    count: int


@dataclass
class QueryResult:
    ids: list[int]
    total: int
    terms: list[str] = field(default_factory=list)
    scores: dict[int, float] = field(default_factory=dict)


@dataclass(frozen=True)
class DuplicatePair:
    """Two live papers that may be one (``lib.duplicates.find``): the lower id first."""

    a: int
    b: int
    reason: str  # a key of sameness.REASON_LABELS, or a likeness ("same abstract", ...)
    label: str  # the reason in words, for the user
    strong: bool  # the rules would have merged these at import (a shared identifier, ...)
    title_a: str = ""
    title_b: str = ""


@dataclass(frozen=True)
class FieldDiff:
    """One field of two papers side by side (``lib.duplicates.compare``)."""

    field: str  # a key of duplicates.MERGE_FIELDS
    label: str
    a: str  # the value shown, "" when the paper has none
    b: str
    equal: bool
    default: str = "keep"  # what merge(a, b) does without a choice: "keep" a's value or take the "other"
