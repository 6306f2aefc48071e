"""SQLModel tables: the library's schema as the migrations read it (``migrations/env.py``). The
Whoosh index is derived from these. The store runs its statements on the same tables written in
SQLAlchemy Core (``core/store/tables.py``, held equal to these by a test), so that opening a library
never builds these classes."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, ForeignKey, Index, Integer, UniqueConstraint
from sqlmodel import Field, SQLModel

from desktop_app.core.store.column_types import utcnow


def _fk(target: str, *, nullable: bool = False, index: bool = True) -> Column[int]:
    return Column(Integer, ForeignKey(target, ondelete="CASCADE"), nullable=nullable, index=index)


class ImportBatch(SQLModel, table=True):
    """One import of one or more files; undoable as a whole."""

    __tablename__ = "import_batch"
    id: int | None = Field(default=None, primary_key=True)
    source: str
    format: str = ""
    started_at: datetime = Field(default_factory=utcnow)
    added: int = 0
    duplicates: int = 0
    merged: int = 0
    failed: int = 0
    undone: bool = False


class Paper(SQLModel, table=True):
    __tablename__ = "paper"
    id: int | None = Field(default=None, primary_key=True)
    uid: str = Field(unique=True)
    title: str = ""
    title_source: str = "derived"
    abstract: str = ""  # raw, LaTeX kept
    abstract_text: str = ""  # plain, as the reader sees it
    authors_json: str = "[]"
    keywords_json: str = "[]"  # the source file's subject keywords (not the user's tags)
    venue: str | None = Field(default=None, index=True)
    year: int | None = Field(default=None, index=True)
    doi: str | None = Field(default=None, index=True)
    arxiv_id: str | None = Field(default=None, index=True)
    url: str | None = None
    bibtex_key: str | None = None
    entry_type: str | None = None
    extra_json: str = "{}"
    raw: str = ""
    content_hash: str = Field(default="", index=True)
    status: str = Field(default="unread", index=True)
    rating: int = Field(default=0, index=True)
    decision: str | None = Field(default=None, index=True)
    added_at: datetime = Field(default_factory=utcnow, index=True)
    updated_at: datetime = Field(default_factory=utcnow)
    deleted_at: datetime | None = Field(default=None, index=True)
    opened_at: datetime | None = None
    import_id: int | None = Field(
        default=None,
        sa_column=Column(Integer, ForeignKey("import_batch.id", ondelete="SET NULL"), index=True),
    )


class PaperIdentity(SQLModel, table=True):
    """Look-up keys that find a paper's possible duplicates (doi:, arxiv:, pmid:, tya:, t:, abs:,
    cite:; see core/sameness.py). A key may name several papers; the rules decide."""

    __tablename__ = "paper_identity"
    key: str = Field(primary_key=True)
    paper_id: int = Field(
        sa_column=Column(Integer, ForeignKey("paper.id", ondelete="CASCADE"), primary_key=True, index=True)
    )


class Tag(SQLModel, table=True):
    __tablename__ = "tag"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True)  # a path: "rl/rlvr"
    color: str = ""


class PaperTag(SQLModel, table=True):
    __tablename__ = "paper_tag"
    __table_args__ = (Index("ix_paper_tag_tag", "tag_id", "paper_id"),)
    paper_id: int = Field(sa_column=Column(Integer, ForeignKey("paper.id", ondelete="CASCADE"), primary_key=True))
    tag_id: int = Field(sa_column=Column(Integer, ForeignKey("tag.id", ondelete="CASCADE"), primary_key=True))


class Note(SQLModel, table=True):
    __tablename__ = "note"
    paper_id: int = Field(sa_column=Column(Integer, ForeignKey("paper.id", ondelete="CASCADE"), primary_key=True))
    text: str = ""
    updated_at: datetime = Field(default_factory=utcnow)


class NoteRevision(SQLModel, table=True):
    """An earlier text of a note; a note is never lost to an overwrite."""

    __tablename__ = "note_revision"
    id: int | None = Field(default=None, primary_key=True)
    paper_id: int = Field(sa_column=_fk("paper.id"))
    text: str
    saved_at: datetime = Field(default_factory=utcnow)


class Highlight(SQLModel, table=True):
    __tablename__ = "highlight"
    id: int | None = Field(default=None, primary_key=True)
    paper_id: int = Field(sa_column=_fk("paper.id"))
    start: int
    end: int
    quote: str
    prefix: str = ""
    suffix: str = ""
    color: str = "yellow"
    comment: str = ""
    orphaned: bool = False
    created_at: datetime = Field(default_factory=utcnow)


class ReadingList(SQLModel, table=True):
    __tablename__ = "reading_list"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True)
    description: str = ""
    created_at: datetime = Field(default_factory=utcnow)


class ReadingListItem(SQLModel, table=True):
    __tablename__ = "reading_list_item"
    __table_args__ = (UniqueConstraint("list_id", "paper_id"),)
    id: int | None = Field(default=None, primary_key=True)
    list_id: int = Field(sa_column=_fk("reading_list.id"))
    paper_id: int = Field(sa_column=_fk("paper.id"))
    position: int = 0
    note: str = ""


class SavedSearch(SQLModel, table=True):
    __tablename__ = "saved_search"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True)
    query: str


class IndexQueue(SQLModel, table=True):
    """Papers whose text changed and whose index document is not yet rewritten."""

    __tablename__ = "index_queue"
    paper_id: int = Field(primary_key=True)
    queued_at: datetime = Field(default_factory=utcnow)


class PaperMerge(SQLModel, table=True):
    """One merge of two papers found to be duplicates; kept so that it can be undone.

    ``before_json`` holds the kept paper's fields before the merge, ``moved_json`` what was moved
    onto it (tag ids, list item ids, highlight ids, the note's text before) and ``merged_id`` the
    paper put in the trash.
    """

    __tablename__ = "paper_merge"
    id: int | None = Field(default=None, primary_key=True)
    kept_id: int = Field(sa_column=_fk("paper.id"))
    merged_id: int = Field(sa_column=_fk("paper.id"))
    before_json: str = "{}"
    moved_json: str = "{}"
    merged_at: datetime = Field(default_factory=utcnow)
    undone: bool = False


class DistinctPair(SQLModel, table=True):
    """Two papers the user said are not duplicates; never offered as a pair again."""

    __tablename__ = "distinct_pair"
    low_id: int = Field(sa_column=Column(Integer, ForeignKey("paper.id", ondelete="CASCADE"), primary_key=True))
    high_id: int = Field(
        sa_column=Column(Integer, ForeignKey("paper.id", ondelete="CASCADE"), primary_key=True, index=True)
    )


class Attachment(SQLModel, table=True):
    """A file attached to a paper: a ``copy`` kept in the library's ``files/`` folder (``path``
    relative to the library folder) or a ``link`` to a file left where it is (``path`` absolute).
    ``size`` and ``sha256`` are the file's when it was attached (``marginalia check`` compares);
    ``removed_at`` set: removed by the user, undoable (a copy's file stays until removed for good)."""

    __tablename__ = "attachment"
    id: int | None = Field(default=None, primary_key=True)
    paper_id: int = Field(sa_column=_fk("paper.id"))
    kind: str = "copy"  # one of column_types.ATTACHMENT_KINDS
    path: str
    name: str = ""  # the file's original name
    size: int = 0
    sha256: str = ""
    added_at: datetime = Field(default_factory=utcnow)
    removed_at: datetime | None = None


class ChangeLog(SQLModel, table=True):
    """One change to the library, in the order it was committed (``seq`` only grows).

    The statistics read reading progress from it (``kind`` "status"); a shared library's desks
    pull the changes after the last ``seq`` they saw to keep their own search index and open
    windows current. ``actor`` is who made it (the database role or a configured display name),
    ``detail`` a small JSON object (for "status": ``{"old": ..., "new": ...}``).
    """

    __tablename__ = "change_log"
    seq: int | None = Field(default=None, primary_key=True)
    at: datetime = Field(default_factory=utcnow, index=True)
    actor: str = ""
    kind: str = Field(index=True)
    paper_id: int | None = Field(default=None, index=True)
    detail: str = "{}"


class AppliedEdit(SQLModel, table=True):
    """An edit a desk sent with an id of its own (a UUID), recorded by the transaction that
    applied it, with the edit's Change as JSON (``change``; NULL when it could not be written
    down): an edit sent again after its answer was lost is not applied twice
    (``Library.apply_once``). Kept ``applied_edits.KEEP_DAYS`` days."""

    __tablename__ = "applied_edit"
    id: str = Field(primary_key=True)
    applied_at: datetime = Field(default_factory=utcnow, index=True)
    change: str | None = None
