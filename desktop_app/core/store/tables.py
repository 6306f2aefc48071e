"""The library's tables in SQLAlchemy Core, for every statement the store runs.

``select(paper.c.id).where(paper.c.status == "read")`` is checked against the table (a misspelt
column is an AttributeError at import, not a runtime SQL error) and compiles for every dialect.

The same tables are declared as SQLModel classes in ``core/models.py``, which the migrations
read. They are written out here as well so that opening a library builds no ORM class and
imports neither SQLModel nor pydantic (a quarter of a second at each start of the window and
of every command). ``tests/core/test_tables_mirror_models.py`` fails on any difference between
the two: columns, types, defaults, keys, indexes and the DDL both dialects compile.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
)

from desktop_app.core.store.column_types import UTCDateTime, utcnow

metadata = MetaData()


def _fk(name: str, target: str, *, index: bool = True, primary_key: bool = False) -> Column[int]:
    """A cascading reference to ``target``, as the models' ``_fk`` columns."""
    if primary_key:
        return Column(name, Integer(), ForeignKey(target, ondelete="CASCADE"), primary_key=True, index=index)
    return Column(name, Integer(), ForeignKey(target, ondelete="CASCADE"), nullable=False, index=index)


def _text(name: str, default: str | None = None, *, index: bool = False, unique: bool = False) -> Column[str]:
    """A text column that is never NULL, with its Python-side default (if any)."""
    return Column(name, String(), nullable=False, default=default, index=index or None, unique=unique or None)


def _int(name: str, default: int, *, index: bool = False) -> Column[int]:
    return Column(name, Integer(), nullable=False, default=default, index=index or None)


def _flag(name: str) -> Column[bool]:
    return Column(name, Boolean(), nullable=False, default=False)


def _at(name: str, *, nullable: bool = False, index: bool = False) -> Column[object]:
    """A timestamp: now (UTC) by default unless it may be NULL."""
    return Column(name, UTCDateTime(), nullable=nullable, default=None if nullable else utcnow, index=index or None)


def _optional(name: str, kind: type[String] | type[Integer] = String, *, index: bool = False) -> Column[object]:
    return Column(name, kind(), nullable=True, index=index or None)


def _id() -> Column[int]:
    return Column("id", Integer(), primary_key=True)


import_batch = Table(
    "import_batch",
    metadata,
    _id(),
    _text("source"),
    _text("format", ""),
    _at("started_at"),
    _int("added", 0),
    _int("duplicates", 0),
    _int("merged", 0),
    _int("failed", 0),
    _flag("undone"),
)

paper = Table(
    "paper",
    metadata,
    _id(),
    _text("uid", unique=True),
    _text("title", ""),
    _text("title_source", "derived"),
    _text("abstract", ""),
    _text("abstract_text", ""),
    _text("authors_json", "[]"),
    _text("keywords_json", "[]"),
    _optional("venue", index=True),
    _optional("year", Integer, index=True),
    _optional("doi", index=True),
    _optional("arxiv_id", index=True),
    _optional("url"),
    _optional("bibtex_key"),
    _optional("entry_type"),
    _text("extra_json", "{}"),
    _text("raw", ""),
    _text("content_hash", "", index=True),
    _text("status", "unread", index=True),
    _int("rating", 0, index=True),
    _optional("decision", index=True),
    _at("added_at", index=True),
    _at("updated_at"),
    _at("deleted_at", nullable=True, index=True),
    _at("opened_at", nullable=True),
    Column("import_id", Integer(), ForeignKey("import_batch.id", ondelete="SET NULL"), nullable=True, index=True),
)

paper_identity = Table(
    "paper_identity",
    metadata,
    Column("key", String(), primary_key=True),
    _fk("paper_id", "paper.id", primary_key=True),
)

tag = Table(
    "tag",
    metadata,
    _id(),
    _text("name", unique=True),
    _text("color", ""),
)

paper_tag = Table(
    "paper_tag",
    metadata,
    _fk("paper_id", "paper.id", primary_key=True, index=False),
    _fk("tag_id", "tag.id", primary_key=True, index=False),
    Index("ix_paper_tag_tag", "tag_id", "paper_id"),
)

note = Table(
    "note",
    metadata,
    _fk("paper_id", "paper.id", primary_key=True, index=False),
    _text("text", ""),
    _at("updated_at"),
)

note_revision = Table(
    "note_revision",
    metadata,
    _id(),
    _fk("paper_id", "paper.id"),
    _text("text"),
    _at("saved_at"),
)

highlight = Table(
    "highlight",
    metadata,
    _id(),
    _fk("paper_id", "paper.id"),
    Column("start", Integer(), nullable=False),
    Column("end", Integer(), nullable=False),
    _text("quote"),
    _text("prefix", ""),
    _text("suffix", ""),
    _text("color", "yellow"),
    _text("comment", ""),
    _flag("orphaned"),
    _at("created_at"),
)

reading_list = Table(
    "reading_list",
    metadata,
    _id(),
    _text("name", unique=True),
    _text("description", ""),
    _at("created_at"),
)

reading_list_item = Table(
    "reading_list_item",
    metadata,
    _id(),
    _fk("list_id", "reading_list.id"),
    _fk("paper_id", "paper.id"),
    _int("position", 0),
    _text("note", ""),
    UniqueConstraint("list_id", "paper_id"),
)

saved_search = Table(
    "saved_search",
    metadata,
    _id(),
    _text("name", unique=True),
    _text("query"),
)

index_queue = Table(
    "index_queue",
    metadata,
    Column("paper_id", Integer(), primary_key=True),
    _at("queued_at"),
)

paper_merge = Table(
    "paper_merge",
    metadata,
    _id(),
    _fk("kept_id", "paper.id"),
    _fk("merged_id", "paper.id"),
    _text("before_json", "{}"),
    _text("moved_json", "{}"),
    _at("merged_at"),
    _flag("undone"),
)

distinct_pair = Table(
    "distinct_pair",
    metadata,
    _fk("low_id", "paper.id", primary_key=True, index=False),
    _fk("high_id", "paper.id", primary_key=True),
)

attachment = Table(
    "attachment",
    metadata,
    _id(),
    _fk("paper_id", "paper.id"),
    _text("kind", "copy"),
    _text("path"),
    _text("name", ""),
    _int("size", 0),
    _text("sha256", ""),
    _at("added_at"),
    _at("removed_at", nullable=True),
)

change_log = Table(
    "change_log",
    metadata,
    Column("seq", Integer(), primary_key=True),
    _at("at", index=True),
    _text("actor", ""),
    _text("kind", index=True),
    Column("paper_id", Integer(), nullable=True, index=True),
    _text("detail", "{}"),
)

applied_edit = Table(
    "applied_edit",
    metadata,
    Column("id", String(), primary_key=True),
    _at("applied_at", index=True),
    _optional("change"),
)
