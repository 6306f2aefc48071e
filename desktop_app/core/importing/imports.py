"""Imports: read files into the library, preview an import, undo one, list them.

An import runs in ONE transaction: a cancelled or failed import leaves no half-imported paper.
A preview runs the same code and rolls back, so its counts are exactly what the import will do.
Marginalia JSON documents (backups) are restored with everything the user wrote
(:mod:`.library_json`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TypedDict

from sqlalchemy import func, select, update

from desktop_app.core.changelog.changes import writes
from desktop_app.core.changelog.undo_data import ImportUndone, NoteKeptAsPaper
from desktop_app.core.errors import LibraryError
from desktop_app.core.formats.regular_file import not_a_file
from desktop_app.core.importing.library_json import (
    is_library_json_file,
    read_document,
    restore_document,
)
from desktop_app.core.importing.writer import ImportWriter, finish_batch, start_batch
from desktop_app.core.records import ParseResult, Record, summarised
from desktop_app.core.store import Store, Tx
from desktop_app.core.store import tables as t
from desktop_app.core.values import Change, ChangeKind, FileReport, ImportReport

Progress = Callable[[int, int], None]
Cancelled = Callable[[], bool]
Parsed = list[tuple[str, ParseResult]]


class BatchRow(TypedDict):
    """One import as :meth:`Imports.batches` lists it: the ``import_batch`` row's columns."""

    id: int
    source: str
    format: str
    started_at: datetime
    added: int
    duplicates: int
    merged: int
    failed: int
    undone: bool


class _Cancelled(Exception):
    """The user cancelled: the transaction rolls back."""


class _Rollback(Exception):
    """A preview (dry run): the transaction rolls back after counting."""


def _lock(tx: Tx) -> None:
    """Before an import reads anything: one import at a time at every desk of a shared library,
    so the second finds the first's papers and merges into them (the same file imported at two
    desks at once gave 167 papers for 131), and the tags it links are not renamed under it."""
    tx.d.lock_imports(tx.conn)
    tx.d.lock_tags(tx.conn, exclusive=False)


def _read_all(paths: Sequence[str | Path], cancelled: Cancelled | None) -> Parsed:
    from desktop_app.core.formats import read_path

    parsed = []
    for p in paths:
        if cancelled and cancelled():
            break
        parsed.append((str(p), read_path(p)))
    return parsed


class Imports:
    """Imports of files and parsed records, their undo, and restoring Marginalia JSON."""

    def __init__(self, store: Store, folder: Path | None = None) -> None:
        self.store = store
        self.folder = folder  # the library folder: a JSON document's attached copies go to its files/

    @writes
    def from_files(
        self,
        paths: Sequence[str | Path],
        *,
        duplicates: str = "merge",
        tag_categories: bool = False,
        keywords_as_tags: bool = False,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
        accept_links: bool = False,
    ) -> ImportReport:
        """Read and import files. Unreadable files are reported per file; the rest imports.
        Marginalia JSON documents (backups) are restored with everything the user wrote (their
        file links outside the library folder only with ``accept_links``)."""
        backups = [p for p in paths if not_a_file(p) is None and is_library_json_file(p)]
        if backups:
            reports = [
                self.restore_json(p, progress=progress, cancelled=cancelled, accept_links=accept_links) for p in backups
            ]
            rest = [p for p in paths if p not in backups]
            merged = (
                self.from_files(
                    rest,
                    duplicates=duplicates,
                    tag_categories=tag_categories,
                    keywords_as_tags=keywords_as_tags,
                    progress=progress,
                    cancelled=cancelled,
                )
                if rest
                else ImportReport()
            )
            for r in reports:
                merged.files = r.files + merged.files
                merged.paper_ids = r.paper_ids + merged.paper_ids
            return merged
        parsed = _read_all(paths, cancelled)
        if cancelled and cancelled():
            return ImportReport(cancelled=True)
        return self.from_records(
            parsed,
            duplicates=duplicates,
            tag_categories=tag_categories,
            keywords_as_tags=keywords_as_tags,
            progress=progress,
            cancelled=cancelled,
        )

    @writes
    def from_records(
        self,
        parsed: Sequence[tuple[str, ParseResult]],
        *,
        duplicates: str = "merge",
        tag_categories: bool = False,
        keywords_as_tags: bool = False,
        keep_apart: frozenset[tuple[int, int]] = frozenset(),
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
        dry_run: bool = False,
    ) -> ImportReport:
        """Import already parsed files ``[(source name, ParseResult)]`` in one transaction.

        Each record found to be a paper already there is listed in its file's ``matches`` with
        the reason; ``keep_apart`` names ``(file number, record number)`` pairs (from 0, as in a
        preview's matches) to import as papers of their own instead. ``keywords_as_tags`` files
        each of the files' keywords as a tag under ``keywords/`` too (they are always kept as the
        paper's keywords)."""
        if duplicates not in ("merge", "skip"):
            raise LibraryError("duplicates is 'merge' or 'skip'")
        report = ImportReport()
        total = sum(len(pr.records) for _, pr in parsed) or 1
        done = 0
        try:
            with self.store.write() as tx:
                _lock(tx)
                batch = start_batch(
                    tx, "; ".join(name for name, _ in parsed)[:2000], ",".join(sorted({pr.format for _, pr in parsed}))
                )
                writer = ImportWriter(
                    tx,
                    batch,
                    merge=duplicates == "merge",
                    tag_categories=tag_categories,
                    keywords_as_tags=keywords_as_tags,
                    keep_apart=frozenset(keep_apart),
                    batch_keys=True,
                )
                for file_no, (name, pr) in enumerate(parsed):
                    if file_no:
                        writer.next_file()
                    fr = FileReport(
                        path=name,
                        format=pr.format,
                        failed=len(pr.errors),
                        errors=[str(e) for e in summarised(pr.errors)],
                        warnings=[str(w) for w in summarised(pr.warnings)],
                    )
                    report.files.append(fr)
                    for index, rec in enumerate(pr.records):
                        writer.add(rec, fr, index)
                        done += 1
                        if done % 100 == 0:
                            if progress:
                                progress(done, total)
                            if cancelled and cancelled():
                                raise _Cancelled
                writer.finish()
                finish_batch(tx, batch, report)
                tx.queue_index(writer.new_ids + sorted(writer.touched))
                report.batch_id = batch
                report.paper_ids = writer.new_ids
                if dry_run:
                    raise _Rollback
        except _Cancelled:
            return ImportReport(files=[FileReport(p, pr.format) for p, pr in parsed], cancelled=True)
        except _Rollback:
            report.batch_id = None
            report.paper_ids = []
            return report
        if progress:
            progress(total, total)
        return report

    def preview(self, paths: Sequence[str | Path], *, duplicates: str = "merge") -> tuple[ImportReport, Parsed]:
        """What importing these files would do (nothing is written). Returns the parsed files too,
        so the real import need not read them again."""
        parsed = _read_all(paths, None)
        return self.from_records(parsed, duplicates=duplicates, dry_run=True), parsed

    @writes
    def note_as_new_paper(self, paper_id: int, note: str) -> Change:
        """A note whose paper was deleted elsewhere while it was being written, kept as the note
        of a new paper, in one transaction: the new paper copies what the deleted one says
        (title, abstract, authors, venue, year, DOI, arXiv id, URL) while it is in the trash; a
        paper deleted for good leaves only its number ("Note kept from deleted paper 12").
        The new paper is never merged into another one."""
        p = t.paper.c
        with self.store.read() as conn:
            gone = (
                conn.execute(
                    select(p.title, p.abstract, p.authors_json, p.venue, p.year, p.doi, p.arxiv_id, p.url).where(
                        p.id == paper_id
                    )
                )
                .mappings()
                .first()
            )
        rec = Record(title=f"Note kept from deleted paper {paper_id}", note=note)
        if gone is not None:  # in the trash
            rec = Record(
                title=gone["title"] or rec.title,
                abstract=gone["abstract"] or "",
                authors=list(json.loads(gone["authors_json"] or "[]")),
                venue=gone["venue"],
                year=gone["year"],
                doi=gone["doi"],
                arxiv_id=gone["arxiv_id"],
                url=gone["url"],
                note=note,
            )
        report = self.from_records(
            [(f"the note of deleted paper {paper_id}", ParseResult("note", [rec]))], keep_apart=frozenset({(0, 0)})
        )
        return Change(
            ChangeKind.IMPORT,
            tuple(report.paper_ids),
            text_changed=True,
            detail=NoteKeptAsPaper(report.batch_id, paper_id),
        )

    @writes
    def undo(self, batch_id: int) -> Change:
        """Move the papers an import added to the trash (with anything attached to them since:
        ``lib.trash.restore`` brings them back, ``lib.trash.purge`` deletes them for good).
        Fields it merged into papers that were already there stay."""
        b, p = t.import_batch, t.paper
        with self.store.write() as tx:
            undone = tx.conn.execute(select(b.c.undone).where(b.c.id == batch_id)).first()
            if undone is None:
                raise LibraryError(f"no import with id {batch_id}")
            if undone[0]:
                raise LibraryError(f"import {batch_id} was undone already")
            mine = (p.c.import_id == batch_id) & p.c.deleted_at.is_(None)  # those in the trash stay there
            ids: list[int] = list(tx.conn.execute(select(p.c.id).where(mine)).scalars())
            tx.conn.execute(update(p).where(mine).values(deleted_at=tx.now))
            tx.conn.execute(update(b).where(b.c.id == batch_id).values(undone=True))
            tx.queue_index(ids)
        return Change(ChangeKind.IMPORT, tuple(ids), text_changed=True, detail=ImportUndone(batch_id))

    def undo_cost(self, batch_id: int) -> dict[str, int]:
        """What undoing this import would move to the trash: ``papers`` (those not there yet), how
        many of them have a ``notes`` text, and their ``highlights``; asked before :meth:`undo`."""
        p, n, h = t.paper, t.note, t.highlight
        mine = select(p.c.id).where(p.c.import_id == batch_id, p.c.deleted_at.is_(None))
        with self.store.read() as conn:
            papers = conn.execute(select(func.count()).select_from(mine.subquery())).scalar_one()
            notes = conn.execute(
                select(func.count()).select_from(n).where(n.c.paper_id.in_(mine), n.c.text != "")
            ).scalar_one()
            highlights = conn.execute(select(func.count()).select_from(h).where(h.c.paper_id.in_(mine))).scalar_one()
        return {"papers": papers, "notes": notes, "highlights": highlights}

    def batches(self) -> list[BatchRow]:
        """Every import, newest first, as dicts of the ``import_batch`` columns."""
        with self.store.read() as conn:
            rows = conn.execute(select(t.import_batch).order_by(t.import_batch.c.id.desc()))
            return [
                BatchRow(
                    id=r.id,
                    source=r.source,
                    format=r.format,
                    started_at=r.started_at,
                    added=r.added,
                    duplicates=r.duplicates,
                    merged=r.merged,
                    failed=r.failed,
                    undone=r.undone,
                )
                for r in rows
            ]

    def holds_nothing(self) -> bool:
        """Whether this library has no row at all (no paper, tag, list, batch, …): what
        :meth:`copy_library` needs."""
        from desktop_app.core.library_copy import holds_nothing

        return holds_nothing(self.store)

    @writes
    def copy_library(self, source: Store, source_folder: Path, progress: Progress | None = None) -> ImportReport:
        """Copy every row of another library (its store and folder) into this empty one, in one
        transaction, as it is: ids, the trash and the history kept (core/library_copy.py)."""
        from desktop_app.core.library_copy import copy_library

        if self.folder is None:
            raise LibraryError("copying a library needs the folder its attached copies go to")
        with self.store.write() as tx:
            _lock(tx)
            return copy_library(tx, source, source_folder, self.folder, progress)

    @writes
    def restore_json(
        self,
        source: str | Path,
        *,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
        accept_links: bool = False,
    ) -> ImportReport:
        """Import a Marginalia JSON document with everything the user wrote; its file links
        outside the library folder only with ``accept_links`` (the document may come from anyone)."""
        path = Path(source)
        doc, papers = read_document(path)
        with self.store.write() as tx:
            _lock(tx)
            return restore_document(
                tx,
                path,
                doc,
                papers,
                progress=progress,
                cancelled=cancelled,
                library_folder=self.folder,
                accept_links=accept_links,
            )
