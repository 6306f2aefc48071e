"""Everything that differs between SQLite and PostgreSQL, in one place.

Managers build their statements from the tables in :mod:`.tables` and ask the dialect only for
the pieces SQL does not spell the same way: case-insensitive comparison and ordering, upserts,
"id in this (possibly huge) list", string aggregation, taking the write lock, integrity checks.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Integer,
    Select,
    Table,
    any_,
    bindparam,
    func,
    select,
)
from sqlalchemy.dialects import sqlite

if TYPE_CHECKING:
    from sqlalchemy.dialects import postgresql


def like_escape(text: str) -> str:
    """Escape LIKE's wildcards; use with ``escape="\\\\"``."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


class Dialect:
    """The SQLite forms; :class:`PostgresDialect` overrides what PostgreSQL says differently."""

    name = "sqlite"

    # ---- comparison and ordering -------------------------------------------------------
    def nocase(self, column: ColumnElement[Any]) -> ColumnElement[Any]:
        """A column compared and sorted without regard to case."""
        return column.collate("NOCASE")

    def ci_equals(self, column: ColumnElement[Any], value: str | ColumnElement[str]) -> ColumnElement[bool]:
        return column.collate("NOCASE") == value

    def ci_like(self, column: ColumnElement[Any], pattern: str) -> ColumnElement[bool]:
        """LIKE without regard to case (SQLite's LIKE already ignores ASCII case)."""
        return column.like(pattern, escape="\\")

    def ci_under(self, column: ColumnElement[Any], path: str) -> ColumnElement[bool]:
        """The tag path ``path`` itself or any of its children ("rl" matches "rl/rlvr")."""
        return self.ci_equals(column, path) | self.ci_like(column, like_escape(path) + "/%")

    # ---- id lists ------------------------------------------------------------------------
    def id_values(self, ids: Iterable[int]) -> Select[int]:
        """A one-column SELECT of the given ids, bound as ONE parameter whatever their number
        (an IN list of 100,000 parameters exceeds SQLite's limit)."""
        each = func.json_each(bindparam(None, json.dumps([int(i) for i in ids]))).table_valued("value")
        return select(each.c.value)

    def in_ids(self, column: ColumnElement[Any], ids: Iterable[int]) -> ColumnElement[bool]:
        return column.in_(self.id_values(ids))

    # the same with a named parameter, for statements built once and run many times (hot paths:
    # building the expression anew cost more than running it): bind ``ids_value(ids)`` to ``name``
    def ids_column(self, name: str) -> ColumnElement[int]:
        """The ids bound to ``name``, one per row, as a column to SELECT."""
        return func.json_each(bindparam(name)).table_valued("value").c.value

    def in_ids_named(self, column: ColumnElement[Any], name: str) -> ColumnElement[bool]:
        return column.in_(select(self.ids_column(name)))

    def ids_value(self, ids: Iterable[int]) -> object:
        return json.dumps([int(i) for i in ids])

    # ---- aggregation -----------------------------------------------------------------------
    def string_agg(self, column: ColumnElement[Any], separator: str) -> ColumnElement[str]:
        return func.group_concat(column, separator)

    # ---- inserts -------------------------------------------------------------------------
    def insert(self, table: Table) -> sqlite.Insert | postgresql.Insert:
        """An INSERT that offers ``on_conflict_do_nothing`` / ``on_conflict_do_update``."""
        return sqlite.insert(table)

    # ---- transactions and checks ---------------------------------------------------------
    def begin_write(self, conn: Connection) -> None:
        """Take the write lock at the start of a write transaction, so a read-then-write (a
        note's previous text kept as a revision) cannot interleave with another writer."""
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    def lock_paper(self, conn: Connection, paper_id: int) -> None:
        """Serialize writers of one paper's note until the commit (SQLite's write lock does)."""
        return

    def lock_tags(self, conn: Connection, *, exclusive: bool) -> None:
        """Serialize tag edits with other desks until the commit (SQLite's write lock does):
        ``exclusive`` for a change to the tags themselves (rename, merge, delete, recolor, a
        removal that may drop an unused tag), shared for a use of them (tagging, importing)."""
        return

    def lock_imports(self, conn: Connection) -> None:
        """Serialize imports with other desks until the commit (SQLite's write lock does)."""
        return

    def order_change_log(self, conn: Connection) -> None:
        """Make change_log's seq order the commit order (see PostgresDialect); SQLite's one
        writer at a time already does."""
        return

    def notify_changes(self, conn: Connection) -> None:
        """Wake the other desks when this transaction commits (PostgreSQL's NOTIFY)."""
        return

    def bump_commit_count(self, conn: Connection) -> int | None:
        """Count this write in the database itself (SQLite's user_version header field, free in
        this schema: Alembic keeps its own table). Compared with the count the store writes beside
        the database after each commit, it shows acknowledged writes that went missing (a -wal
        file deleted while the library was open). PRAGMAs have no expression form."""
        n = int(conn.exec_driver_sql("PRAGMA user_version").scalar() or 0) + 1
        conn.exec_driver_sql(f"PRAGMA user_version = {n}")
        return n

    def commit_count(self, conn: Connection) -> int | None:
        return int(conn.exec_driver_sql("PRAGMA user_version").scalar() or 0)

    def integrity_problems(self, conn: Connection) -> list[str]:
        # PRAGMAs have no expression form: raw SQL by necessity.
        problems = []
        res = conn.exec_driver_sql("PRAGMA integrity_check").scalar()
        if res != "ok":
            problems.append(f"database integrity: {res}")
        fk = conn.exec_driver_sql("PRAGMA foreign_key_check").all()
        if fk:
            problems.append(f"{len(fk)} broken references (first: {tuple(fk[0])})")
        return problems


CHANGES_CHANNEL = "marginalia_changes"  # LISTEN/NOTIFY channel of a shared library
CHANGE_LOG_LOCK = 0x6D617267  # "marg": the advisory lock key of change_log writers
PAPER_LOCK_CLASS = 0x6E6F7465  # "note": (class, paper id) advisory locks of note writers
TAG_LOCK = 0x74616773  # "tags": shared by tag users, exclusive for changes to the tags themselves
IMPORT_LOCK = 0x696D7074  # "impt": one import at a time


def _int_array() -> postgresql.ARRAY[int]:
    """SQLAlchemy's PostgreSQL dialect is imported when a PostgreSQL store uses it: a SQLite
    window or command never pays for it (about 40 ms of start-up)."""
    from sqlalchemy.dialects.postgresql import ARRAY

    return ARRAY(Integer)


class PostgresDialect(Dialect):
    """PostgreSQL: lower() for case, ILIKE, = ANY(array) for id lists, string_agg."""

    name = "postgresql"

    def nocase(self, column: ColumnElement[Any]) -> ColumnElement[Any]:
        return func.lower(column)

    def ci_equals(self, column: ColumnElement[Any], value: str | ColumnElement[str]) -> ColumnElement[bool]:
        return func.lower(column) == func.lower(value)

    def ci_like(self, column: ColumnElement[Any], pattern: str) -> ColumnElement[bool]:
        return column.ilike(pattern, escape="\\")

    def id_values(self, ids: Iterable[int]) -> Select[int]:
        return select(func.unnest(bindparam(None, [int(i) for i in ids], type_=_int_array())))

    def in_ids(self, column: ColumnElement[Any], ids: Iterable[int]) -> ColumnElement[bool]:
        return column == any_(bindparam(None, [int(i) for i in ids], type_=_int_array()))

    def ids_column(self, name: str) -> ColumnElement[int]:
        return func.unnest(bindparam(name, type_=_int_array()))

    def in_ids_named(self, column: ColumnElement[Any], name: str) -> ColumnElement[bool]:
        return column == any_(bindparam(name, type_=_int_array()))

    def ids_value(self, ids: Iterable[int]) -> object:
        return [int(i) for i in ids]

    def string_agg(self, column: ColumnElement[Any], separator: str) -> ColumnElement[str]:
        return func.string_agg(column, separator)

    def insert(self, table: Table) -> sqlite.Insert | postgresql.Insert:
        from sqlalchemy.dialects import postgresql

        return postgresql.insert(table)

    def begin_write(self, conn: Connection) -> None:
        return None  # row locks and the note version do the work there

    def lock_paper(self, conn: Connection, paper_id: int) -> None:
        """A transaction-level advisory lock on the paper: SELECT … FOR UPDATE locks nothing
        when the note has no row yet, and two first notes written at once would both read ""
        and the second upsert would replace the first's text without keeping it."""
        conn.execute(select(func.pg_advisory_xact_lock(PAPER_LOCK_CLASS, int(paper_id))))

    def lock_tags(self, conn: Connection, *, exclusive: bool) -> None:
        """A transaction-level advisory lock, taken before the first read of tags: a rename, merge,
        delete or removal (exclusive) waits for the desks tagging at that moment to commit, and
        reads their links; a desk tagging (shared) waits for it and then finds the tags as it
        left them. Without it a rename's copy of the old tag's links missed a link made in the
        meantime, which the old tag's deletion then took with it (20 of 30 lost, two desks at once)."""
        lock = func.pg_advisory_xact_lock if exclusive else func.pg_advisory_xact_lock_shared
        conn.execute(select(lock(TAG_LOCK)))

    def lock_imports(self, conn: Connection) -> None:
        """A transaction-level advisory lock at the start of an import: the same file imported at
        two desks at once was added twice (neither saw the other's uncommitted papers); now the
        second waits, then finds the first's papers and merges into them."""
        conn.execute(select(func.pg_advisory_xact_lock(IMPORT_LOCK)))

    def order_change_log(self, conn: Connection) -> None:
        """A sequence hands out seq before the commit, so a reader could see seq 11 committed
        while seq 10 is not yet, pull past 10 and never see it. Writers take this transaction-level
        advisory lock just before inserting their change rows, so no other writer takes a seq until
        this one commits (or rolls back): seq order is commit order, and "seq > last seen" is
        exact. The lock is held only from the log insert to the commit."""
        conn.execute(select(func.pg_advisory_xact_lock(CHANGE_LOG_LOCK)))

    def notify_changes(self, conn: Connection) -> None:
        """NOTIFY inside the transaction: PostgreSQL delivers it only if and when it commits."""
        conn.execute(select(func.pg_notify(CHANGES_CHANNEL, "")))

    def bump_commit_count(self, conn: Connection) -> int | None:
        return None  # a server's writes cannot lose their log behind its back

    def commit_count(self, conn: Connection) -> int | None:
        return None

    def integrity_problems(self, conn: Connection) -> list[str]:
        return []  # the server enforces references; nothing to ask


def dialect_for(name: str) -> Dialect:
    """The dialect object for an engine's ``dialect.name``."""
    if name == "sqlite":
        return Dialect()
    if name == "postgresql":
        return PostgresDialect()
    raise ValueError(f"unsupported database: {name}")
