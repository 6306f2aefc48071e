"""Copying a whole folder library into an empty library, table by table, in the caller's one
transaction: what ``marginalia share --to`` does when the server holds nothing yet.

The JSON restore (library_json.py) writes a paper at a time through the importer's identity
rules, ten or more statements each: about 15 ms a paper on a server, half an hour for 100,000.
An empty library has nothing to merge with, so here every table is copied as it is (ids, uids,
citation keys, the trash, import batches, the change log's history) with PostgreSQL's COPY,
or in batches of many rows elsewhere; then each id sequence is set past the copied ids. Files
attached by copy are copied into the target's folder under the same relative paths.
"""

from __future__ import annotations

import contextlib
import itertools
import shutil
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from sqlalchemy import Table, exists, func, insert, select

from desktop_app.core.errors import LibraryError
from desktop_app.core.store import Store, Tx
from desktop_app.core.store import tables as t
from desktop_app.core.values import FileReport, ImportReport

BATCH = 5_000  # rows sent at once where there is no COPY
SKIPPED = frozenset({"index_queue"})  # the target's own index follows its own rules


def copied_tables() -> list[Table]:
    """The library's tables in an order their foreign keys allow."""
    return [table for table in t.paper.metadata.sorted_tables if table.name not in SKIPPED]


def holds_nothing(store: Store) -> bool:
    """Whether the library behind ``store`` has no row in any table that is copied."""
    with store.read() as conn:
        return not any(conn.execute(select(exists().select_from(table))).scalar() for table in copied_tables())


def copy_library(
    tx: Tx, source: Store, source_folder: Path, target_folder: Path, progress: Callable[[int, int], None] | None = None
) -> ImportReport:
    """Copy every table of ``source`` into the (empty) library of ``tx``; what was copied."""
    tables = copied_tables()
    for table in tables:
        if tx.conn.execute(select(exists().select_from(table))).scalar():
            raise LibraryError(f"the library already holds {table.name} rows; it must be empty to be copied into")
    if tx.d.name == "postgresql":
        # the source's times are UTC without an offset: COPY reads such times in the session's
        # zone (no expression sets a session variable)
        tx.conn.exec_driver_sql("SET LOCAL TIME ZONE 'UTC'")
    placed: list[Path] = []
    try:
        with source.read() as src:
            for n, table in enumerate(tables, 1):
                rows = src.execute(select(*table.c)).yield_per(BATCH)
                _write(tx, table, (tuple(r) for r in rows))
                if progress:
                    progress(n, len(tables))
            live: Sequence[int] = (
                src.execute(select(t.paper.c.id).where(t.paper.c.deleted_at.is_(None))).scalars().all()
            )
            a = t.attachment.c
            copies: Sequence[str] = src.execute(select(a.path).where(a.kind == "copy")).scalars().all()
        _advance_sequences(tx, tables)
        if tx.index_queue:  # a folder's index follows its queue (a server's desks, the change log)
            tx.queue_index(live)
        for rel in copies:
            _copy_file(source_folder, target_folder, rel, placed)
    except BaseException:
        for path in placed:  # the transaction is rolled back: so are the files it brought
            with contextlib.suppress(OSError):
                path.unlink()
        raise
    fr = FileReport(path=str(source_folder), format="marginalia-library")
    fr.added = len(live)
    return ImportReport(files=[fr])


def _write(tx: Tx, table: Table, rows: Iterable[tuple[object, ...]]) -> None:
    names = [c.name for c in table.c]
    if tx.d.name == "postgresql":
        raw = tx.conn.connection.driver_connection  # psycopg's, in this transaction
        if raw is None:  # only a closed connection has none
            raise RuntimeError("copying into a closed connection")
        quote = tx.conn.dialect.identifier_preparer.quote
        columns = ", ".join(quote(name) for name in names)
        # COPY has no SQLAlchemy expression; the names are the model's, quoted. One COPY per
        # BATCH rows: each statement stays well inside the desk's statement_timeout
        statement = f"COPY {quote(table.name)} ({columns}) FROM STDIN"
        it = iter(rows)
        with raw.cursor() as cur:
            while chunk := list(itertools.islice(it, BATCH)):
                with cur.copy(statement) as copy:
                    for row in chunk:
                        copy.write_row(row)
        return
    batch: list[dict[str, object]] = []
    for row in rows:
        batch.append(dict(zip(names, row, strict=True)))
        if len(batch) >= BATCH:
            tx.conn.execute(insert(table), batch)
            batch = []
    if batch:
        tx.conn.execute(insert(table), batch)


def _advance_sequences(tx: Tx, tables: list[Table]) -> None:
    """Each table's id sequence (PostgreSQL) continues after the highest id copied."""
    if tx.d.name != "postgresql":
        return  # SQLite hands out max(rowid) + 1 by itself
    for table in tables:
        keys = list(table.primary_key.columns)
        if len(keys) != 1 or keys[0].type.python_type is not int or keys[0].foreign_keys:
            continue
        key = keys[0]
        top = tx.conn.execute(select(func.max(key))).scalar()
        seq = func.pg_get_serial_sequence(table.name, key.name)
        if top is not None:
            tx.conn.execute(select(func.setval(seq, top)))


def _copy_file(source_folder: Path, target_folder: Path, rel: str, placed: list[Path]) -> None:
    """An attachment's copy, to the same relative path in the target's folder (when there)."""
    from desktop_app.core import attachment_files as af

    if not af.is_copy_path(rel):
        return
    src, dst = source_folder / rel, target_folder / rel
    if not src.is_file() or dst.exists():
        return  # a missing file stays missing: `marginalia check` names it on both sides
    dst.parent.mkdir(parents=True, exist_ok=True)
    part = dst.parent / f".attach-{dst.name}.tmp"  # a killed copy's: swept as a partial attachment copy
    shutil.copyfile(src, part)
    part.replace(dst)
    placed.append(dst)
