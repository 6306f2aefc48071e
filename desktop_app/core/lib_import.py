"""Importing records into the library: dedup by identity keys, merge, undo a whole import.

An import runs in ONE transaction: a cancelled or failed import leaves no half-imported paper.
A preview runs the same code and rolls back, so its counts are exactly what the import will do.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, text

from desktop_app.core.db import LibraryError
from desktop_app.core.records import ParseResult, Record
from desktop_app.core.values import FileReport, ImportReport

if TYPE_CHECKING:
    from desktop_app.core.library import Library

UNTITLED = "Untitled"
MERGE_FIELDS = ("venue", "year", "doi", "arxiv_id", "url", "bibtex_key", "entry_type")


class _Cancelled(Exception):
    """The user cancelled: the transaction rolls back."""


class _Rollback(Exception):
    """A preview (dry run): the transaction rolls back after counting."""


def _plain_title(title: str) -> str:
    from desktop_app.core.text import to_plain

    if "\\" in title or "$" in title or "{" in title or "*" in title:
        title = to_plain(title)
    return " ".join(title.split())


def _content_hash(rec: Record, plain: str) -> str:
    basis = " ".join(plain.lower().split()) or f"{rec.title}|{rec.authors}|{rec.year}".lower()
    return hashlib.sha1(basis.encode("utf-8")).hexdigest()


def _plain_keys(plain: str) -> list[str]:
    """A key on the abstract as the reader sees it, so that an export that carries the plain
    abstract (RIS, CSL-JSON, CSV) is recognised as the LaTeX original it came from."""
    from desktop_app.core.formats.identity import abstract_hash

    digest = abstract_hash(plain)
    return [f"abp:{digest}"] if digest else []


def _fallback_keys(rec: Record, strong: bool) -> list[str]:
    """Keys for records the usual identity cannot name (no DOI, no arXiv id, no author or year,
    a short abstract): the record's own text, and title + year when it has no authors. Without
    them, re-importing such a file would add its papers again."""
    from desktop_app.core.formats.identity import normalize_title
    from desktop_app.core.formats.names import family_key

    keys = []
    if rec.raw.strip():
        keys.append("raw:" + hashlib.sha1(" ".join(rec.raw.split()).encode("utf-8")).hexdigest())
    if strong:  # a DOI, an arXiv id or an abstract names it; weaker keys would merge distinct papers
        return keys
    title = normalize_title(rec.title)
    family = family_key(rec.authors[0]) if rec.authors else ""
    if title and not rec.authors:
        keys.append(f"ty:{title}|{rec.year or ''}|{(rec.venue or '').lower()}")
    if title and family and rec.year is None:
        keys.append(f"ta:{title}|{family}")
    if rec.bibtex_key:
        # a citation key is only an identity together with who wrote it (keys repeat across files)
        keys.append(f"bk:{rec.bibtex_key.lower()}|{family or title}")
    authors = ";".join(family_key(a) for a in rec.authors)
    if title or authors:
        keys.append("c:" + hashlib.sha1(f"{title}|{authors}|{rec.year or ''}|{(rec.venue or '').lower()}"
                                        .encode()).hexdigest())
    return keys


class _Importer:
    def __init__(self, conn: Connection, batch_id: int, merge: bool, tag_categories: bool) -> None:
        self.conn = conn
        self.batch_id = batch_id
        self.merge = merge
        self.tag_categories = tag_categories
        self.seen: dict[str, int] = {}  # identity key -> paper id, this import
        self.new_ids: list[int] = []
        self.touched: set[int] = set()

    def find(self, keys: list[str]) -> int | None:
        for k in keys:
            if k in self.seen:
                return self.seen[k]
        if not keys:
            return None
        row = self.conn.execute(
            text("SELECT paper_id FROM paper_identity WHERE key IN (SELECT value FROM json_each(:k)) LIMIT 1"),
            {"k": json.dumps(keys)},
        ).first()
        return row[0] if row else None

    def add(self, rec: Record, fr: FileReport) -> None:
        from desktop_app.core.formats.identity import identity_keys
        from desktop_app.core.library import now_text
        from desktop_app.core.text import derive_title, to_plain

        plain = to_plain(rec.abstract) if rec.abstract else ""
        if rec.title and rec.title.strip().lower() == UNTITLED.lower() and not plain:
            rec.title = None  # our own placeholder, read back from an export
        keys = identity_keys(rec) + _plain_keys(plain)
        strong = any(k.startswith(("doi:", "arxiv:", "abs:", "abp:")) for k in keys)
        keys += _fallback_keys(rec, strong)
        existing = self.find(keys)
        if existing is not None:
            fr.duplicates += 1
            deleted = self.conn.execute(text("SELECT deleted_at FROM paper WHERE id=:i"), {"i": existing}).scalar()
            if deleted is not None:  # re-importing a trashed paper brings it back
                self.conn.execute(text("UPDATE paper SET deleted_at=NULL WHERE id=:i"), {"i": existing})
                self.touched.add(existing)
            if self.merge and self._merge(existing, rec, plain):
                fr.merged += 1
                self.touched.add(existing)
            self._remember(keys, existing)
            return
        if rec.title and rec.title.strip():
            title, source = _plain_title(rec.title), "given"
        else:
            title, source = (derive_title(rec.abstract) if rec.abstract else UNTITLED), "derived"
        now = now_text()
        extra = dict(rec.extra)
        pid = self.conn.execute(
            text(
                "INSERT INTO paper (uid, title, title_source, abstract, abstract_text, authors_json, venue, year, "
                "doi, arxiv_id, url, bibtex_key, entry_type, extra_json, raw, content_hash, status, rating, "
                "added_at, updated_at, import_id) VALUES (:uid, :title, :ts, :abs, :plain, :authors, :venue, :year, "
                ":doi, :arxiv, :url, :key, :etype, :extra, :raw, :hash, 'unread', 0, :now, :now, :batch)"
            ),
            {
                "uid": uuid.uuid4().hex, "title": title, "ts": source, "abs": rec.abstract, "plain": plain,
                "authors": json.dumps(rec.authors, ensure_ascii=False), "venue": rec.venue, "year": rec.year,
                "doi": rec.doi, "arxiv": rec.arxiv_id, "url": rec.url, "key": rec.bibtex_key,
                "etype": rec.entry_type, "extra": json.dumps(extra, ensure_ascii=False), "raw": rec.raw,
                "hash": _content_hash(rec, plain), "now": now, "batch": self.batch_id,
            },
        ).lastrowid
        self._remember(keys, pid)
        self._tags(pid, rec)
        if rec.note:
            self.conn.execute(text("INSERT INTO note (paper_id, text, updated_at) VALUES (:p, :t, :n)"),
                              {"p": pid, "t": rec.note, "n": now})
        self.new_ids.append(pid)
        fr.added += 1

    def _remember(self, keys: list[str], pid: int) -> None:
        for k in keys:
            self.seen[k] = pid
        if keys:
            self.conn.execute(
                text("INSERT OR IGNORE INTO paper_identity (key, paper_id) SELECT value, :p FROM json_each(:k)"),
                {"p": pid, "k": json.dumps(keys)},
            )

    def _tags(self, pid: int, rec: Record) -> None:
        from desktop_app.core.lib_tags import _tag_id, normalize_tag

        names = list(rec.tags)
        if self.tag_categories and rec.extra.get("categories"):
            names += ["arxiv/" + c for c in rec.extra["categories"].split(",") if c.strip()]
        for name in names:
            try:
                tid = _tag_id(self.conn, normalize_tag(name), create=True)
            except LibraryError:
                continue
            self.conn.execute(text("INSERT OR IGNORE INTO paper_tag (paper_id, tag_id) VALUES (:p, :t)"),
                              {"p": pid, "t": tid})

    def _merge(self, pid: int, rec: Record, plain: str) -> bool:
        """Fill fields the paper lacks; never overwrite what the user wrote."""
        row = self.conn.execute(text("SELECT * FROM paper WHERE id=:i"), {"i": pid}).mappings().one()
        sets: dict[str, object] = {}
        if rec.title and row["title_source"] == "derived":
            sets["title"], sets["title_source"] = _plain_title(rec.title), "given"
        if rec.abstract and not row["abstract"]:
            sets["abstract"], sets["abstract_text"] = rec.abstract, plain
        if rec.authors and row["authors_json"] in ("[]", "", None):
            sets["authors_json"] = json.dumps(rec.authors, ensure_ascii=False)
        values = {"venue": rec.venue, "year": rec.year, "doi": rec.doi, "arxiv_id": rec.arxiv_id,
                  "url": rec.url, "bibtex_key": rec.bibtex_key, "entry_type": rec.entry_type}
        for col in MERGE_FIELDS:
            if values[col] and not row[col]:
                sets[col] = values[col]
        extra = json.loads(row["extra_json"] or "{}")
        added_extra = {k: v for k, v in rec.extra.items() if k not in extra}
        if added_extra:
            extra.update(added_extra)
            sets["extra_json"] = json.dumps(extra, ensure_ascii=False)
        self._tags(pid, rec)
        if not sets:
            return False
        assign = ", ".join(f"{c}=:{c}" for c in sets)
        self.conn.execute(text(f"UPDATE paper SET {assign} WHERE id=:id"), {**sets, "id": pid})
        return True


def import_records(
    self: Library,
    parsed: Sequence[tuple[str, ParseResult]],
    *,
    duplicates: str = "merge",
    tag_categories: bool = False,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    dry_run: bool = False,
) -> ImportReport:
    """Import already parsed files ``[(source name, ParseResult)]`` in one transaction."""
    from desktop_app.core.library import now_text

    if duplicates not in ("merge", "skip"):
        raise LibraryError("duplicates is 'merge' or 'skip'")
    report = ImportReport()
    total = sum(len(pr.records) for _, pr in parsed) or 1
    done = 0
    try:
        with self._tx() as conn:
            batch = conn.execute(
                text("INSERT INTO import_batch (source, format, started_at, added, duplicates, merged, failed, undone) "
                     "VALUES (:s, :f, :t, 0, 0, 0, 0, 0)"),
                {"s": "; ".join(name for name, _ in parsed)[:2000],
                 "f": ",".join(sorted({pr.format for _, pr in parsed})), "t": now_text()},
            ).lastrowid
            imp = _Importer(conn, batch, duplicates == "merge", tag_categories)
            for name, pr in parsed:
                fr = FileReport(path=name, format=pr.format, failed=len(pr.errors),
                                errors=[str(e) for e in pr.errors], warnings=[str(w) for w in pr.warnings])
                report.files.append(fr)
                for rec in pr.records:
                    imp.add(rec, fr)
                    done += 1
                    if done % 100 == 0:
                        if progress:
                            progress(done, total)
                        if cancelled and cancelled():
                            raise _Cancelled
            conn.execute(
                text("UPDATE import_batch SET added=:a, duplicates=:d, merged=:m, failed=:f WHERE id=:b"),
                {"a": report.added, "d": report.duplicates, "m": report.merged, "f": report.failed, "b": batch},
            )
            self._queue(conn, imp.new_ids + sorted(imp.touched))
            report.batch_id = batch
            report.paper_ids = imp.new_ids
            if dry_run:
                raise _Rollback
    except _Cancelled:
        report = ImportReport(files=[FileReport(p, pr.format) for p, pr in parsed], cancelled=True)
        return report
    except _Rollback:
        report.batch_id = None
        report.paper_ids = []
        return report
    if progress:
        progress(total, total)
    self._commit_change(_import_change(report))
    return report


def _import_change(report: ImportReport):  # noqa: ANN202
    from desktop_app.core.values import Change

    return Change("import", tuple(report.paper_ids), text_changed=True, detail={"batch": report.batch_id})


def _is_backup(path: str | Path) -> bool:
    from desktop_app.core.lib_restore import is_library_json

    try:
        with open(path, "rb") as fh:
            return is_library_json(fh.read(4096))
    except OSError:
        return False


def _read_all(paths: Sequence[str | Path], cancelled: Callable[[], bool] | None) -> list[tuple[str, ParseResult]]:
    from desktop_app.core.formats import read_path

    parsed = []
    for p in paths:
        if cancelled and cancelled():
            break
        parsed.append((str(p), read_path(p)))
    return parsed


def import_files(
    self: Library,
    paths: Sequence[str | Path],
    *,
    duplicates: str = "merge",
    tag_categories: bool = False,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> ImportReport:
    """Read and import files. Unreadable files are reported per file; the rest imports.
    Marginalia JSON documents (backups) are restored with everything the user wrote."""
    backups = [p for p in paths if _is_backup(p)]
    if backups:
        reports = [self.restore_library_json(p, progress=progress, cancelled=cancelled) for p in backups]
        rest = [p for p in paths if p not in backups]
        merged = self.import_files(rest, duplicates=duplicates, tag_categories=tag_categories, progress=progress,
                                   cancelled=cancelled) if rest else ImportReport()
        for r in reports:
            merged.files = r.files + merged.files
            merged.paper_ids = r.paper_ids + merged.paper_ids
        return merged
    parsed = _read_all(paths, cancelled)
    if cancelled and cancelled():
        return ImportReport(cancelled=True)
    return self.import_records(parsed, duplicates=duplicates, tag_categories=tag_categories,
                               progress=progress, cancelled=cancelled)


def preview_files(self: Library, paths: Sequence[str | Path], *, duplicates: str = "merge") -> tuple[ImportReport, list[tuple[str, ParseResult]]]:
    """What importing these files would do (nothing is written). Returns the parsed files too,
    so the real import need not read them again."""
    parsed = _read_all(paths, None)
    return self.import_records(parsed, duplicates=duplicates, dry_run=True), parsed


def undo_import(self: Library, batch_id: int):  # noqa: ANN201
    """Remove the papers an import added (with anything attached to them since).
    Fields it merged into papers that were already there stay."""
    from desktop_app.core.values import Change

    with self._tx() as conn:
        row = conn.execute(text("SELECT undone FROM import_batch WHERE id=:b"), {"b": batch_id}).first()
        if row is None:
            raise LibraryError(f"no import with id {batch_id}")
        if row[0]:
            raise LibraryError(f"import {batch_id} was undone already")
        ids = [r[0] for r in conn.execute(text("SELECT id FROM paper WHERE import_id=:b"), {"b": batch_id})]
        conn.execute(text("DELETE FROM paper WHERE import_id=:b"), {"b": batch_id})
        conn.execute(text("UPDATE import_batch SET undone=1 WHERE id=:b"), {"b": batch_id})
        self._queue(conn, ids)
    return self._commit_change(Change("import", tuple(ids), text_changed=True, detail={"undone": batch_id}))
