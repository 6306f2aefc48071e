"""Restoring a Marginalia JSON document (a backup, or a library being moved): papers with
everything the user wrote — status, rating, tags and colors, notes with their revisions,
highlights, edited titles — and reading lists. In the caller's one transaction, like any import:
these rows are written here, not through the other managers (each opens a transaction of its own).

Papers already in the library are recognised by identity (DOI, arXiv id, title+author+year,
abstract); what the user wrote there is kept: tags are added, a different note becomes the new
text with the old one kept as a revision, status and rating are taken only where the library has
none (unread, 0).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from sqlalchemy import exists, func, insert, select, update

from desktop_app.core.changelog import rows as change_log
from desktop_app.core.errors import LibraryError
from desktop_app.core.importing.writer import ImportWriter, finish_batch, start_batch
from desktop_app.core.records import ExportPaper, Record
from desktop_app.core.store import Tx
from desktop_app.core.store import tables as t
from desktop_app.core.store.column_types import DECISIONS
from desktop_app.core.store.store import inserted_id
from desktop_app.core.values import FileReport, ImportReport


def is_library_json(data: bytes) -> bool:
    """Whether a file's first bytes are those of a Marginalia JSON document."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"{") and b'"marginalia-library"' in data[:4096]


def is_library_json_file(path: str | Path) -> bool:
    """Whether the file at ``path`` is a Marginalia JSON document (False when unreadable)."""
    try:
        with open(path, "rb") as fh:
            return is_library_json(fh.read(4096))
    except OSError:
        return False


def read_document(path: Path) -> tuple[dict[str, Any], list[ExportPaper]]:
    """The document and its papers; LibraryError when it is not a readable library document."""
    from desktop_app.core.formats.json_writer import papers_from_library_json

    try:
        doc = json.loads(path.read_text("utf-8-sig"))
        return doc, papers_from_library_json(doc)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LibraryError(f"{path.name} is not a readable Marginalia JSON document: {exc}") from exc


def _record(p: ExportPaper) -> Record:
    return Record(
        abstract=p.abstract,
        title=p.title if p.title_source != "derived" else None,
        authors=list(p.authors),
        venue=p.venue,
        year=p.year,
        doi=p.doi,
        arxiv_id=p.arxiv_id,
        url=p.url,
        bibtex_key=p.bibtex_key,
        entry_type=p.entry_type,
        extra=dict(p.extra),
        keywords=list(p.keywords),
    )


def _when(value: object, tx: Tx) -> datetime | None:
    """A time written in the document ("2024-05-01 12:00:00", UTC) in the form of ``tx.now``
    (naive or aware UTC); None if unreadable."""
    try:
        when = datetime.fromisoformat(str(value).strip())
    except ValueError:
        return None
    when = when.astimezone(UTC) if when.tzinfo else when.replace(tzinfo=UTC)
    return when if tx.now.tzinfo else when.replace(tzinfo=None)


def restore_document(
    tx: Tx,
    path: Path,
    doc: dict[str, Any],
    papers: list[ExportPaper],
    *,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    library_folder: Path | None = None,
    accept_links: bool = False,
) -> ImportReport:
    """Write a library document's papers, user data and lists in ``tx``; what was done.

    With ``library_folder``, the papers' attachments are linked again (:func:`_attachments`)."""
    fr = FileReport(path=str(path), format="marginalia-json")
    report = ImportReport(files=[fr])
    colors = {tg["name"]: tg["color"] for tg in doc.get("tags", []) if isinstance(tg, dict) and tg.get("color")}
    batch = start_batch(tx, str(path), "marginalia-json")
    writer = ImportWriter(tx, batch, merge=True, tag_categories=False)
    by_uid: dict[str, int] = {}
    refused: list[str] = []  # file links outside the library folder, not restored (untrusted document)
    for n, p in enumerate(papers, 1):
        rec = _record(p)
        before = len(writer.new_ids)
        pid = writer.add(rec, fr, n - 1)
        new = len(writer.new_ids) > before
        if new:  # keep the paper's identity across libraries
            _keep_uid(tx, pid, p.uid)
        _user_data(tx, writer, pid, p, new)
        if library_folder is not None and p.attachments:
            _attachments(tx, library_folder, path.parent, pid, p.attachments, refused if not accept_links else None)
        by_uid[p.uid] = pid
        writer.touched.add(pid)
        if progress and n % 100 == 0:
            progress(n, len(papers))
        if cancelled and cancelled():
            raise LibraryError("restore cancelled; nothing was changed")
    for name, color in colors.items():
        tx.conn.execute(update(t.tag).where(t.tag.c.name == name, t.tag.c.color == "").values(color=color))
    for lst in doc.get("reading_lists", []) or []:
        _restore_list(tx, lst, by_uid)
    writer.finish()
    if refused:
        fr.warnings.append(
            f"{len(refused):,} file link(s) point outside the library folder and were not restored (first: "
            f"{refused[0]}); if you trust this backup, import it again accepting its links "
            "(marginalia import --accept-links, or answer Yes in the window)"
        )
    fr.refused_links = len(refused)
    finish_batch(tx, batch, fr)
    tx.queue_index(sorted(writer.touched))
    report.batch_id, report.paper_ids = batch, writer.new_ids
    return report


def _keep_uid(tx: Tx, pid: int, uid: str) -> None:
    """Give a new paper the document's uid, unless another paper has it."""
    p, other = t.paper, t.paper.alias("other")
    taken = exists().where(other.c.uid == uid)
    tx.conn.execute(update(p).where(p.c.id == pid, ~taken).values(uid=uid))


def _user_data(tx: Tx, writer: ImportWriter, pid: int, p: ExportPaper, new: bool) -> None:
    """Title, status, rating, date, tags, note and its revisions, highlights of one paper."""
    conn, pt = tx.conn, t.paper
    row = conn.execute(
        select(pt.c.title_source, pt.c.status, pt.c.rating, pt.c.decision, pt.c.abstract_text).where(pt.c.id == pid)
    ).one()
    sets: dict[str, object] = {}
    if p.title_source == "edited" and (new or row.title_source != "edited"):
        sets["title"], sets["title_source"] = p.title, "edited"
    if p.status in ("skimmed", "read") and (new or row.status == "unread"):
        sets["status"] = p.status
    if p.rating and (new or not row.rating):
        sets["rating"] = int(p.rating)
    if p.decision in DECISIONS and (new or row.decision is None):
        sets["decision"] = p.decision
    added_at = _when(p.added_at, tx) if p.added_at and new else None
    if added_at is not None:
        sets["added_at"] = added_at
    if sets:
        conn.execute(update(pt).where(pt.c.id == pid).values(**sets))
        # logged "via import": the library's read count changes now, but nobody read it here now
        change_log.record_fields(
            tx,
            {
                pid: {
                    "status": "unread" if new else row.status,
                    "rating": 0 if new else row.rating,
                    "decision": None if new else row.decision,
                }
            },
            {pid: sets},
            via="import",
        )
    writer.link_tags(pid, list(p.tags), skip_bad=False)
    _note(tx, pid, p)
    _highlights(tx, pid, p, row.abstract_text)


def _note(tx: Tx, pid: int, p: ExportPaper) -> None:
    """The note's revisions the library lacks; a different note replaces it, the old one kept."""
    conn, nr, nt = tx.conn, t.note_revision, t.note
    have_revs: set[str] = set(conn.execute(select(nr.c.text).where(nr.c.paper_id == pid)).scalars())
    for rev in p.note_revisions:
        if rev.get("text") and rev["text"] not in have_revs:
            saved_at = _when(rev["saved_at"], tx) if rev.get("saved_at") else None
            conn.execute(insert(nr).values(paper_id=pid, text=rev["text"], saved_at=saved_at or tx.now))
    if not p.note:
        return
    old = conn.execute(select(nt.c.text).where(nt.c.paper_id == pid)).scalar()
    if old == p.note:
        return
    if old:
        conn.execute(insert(nr).values(paper_id=pid, text=old, saved_at=tx.now))
    ins = tx.d.insert(nt).values(paper_id=pid, text=p.note, updated_at=tx.now)
    conn.execute(
        ins.on_conflict_do_update(
            index_elements=["paper_id"], set_={"text": ins.excluded.text, "updated_at": ins.excluded.updated_at}
        )
    )


def _highlights(tx: Tx, pid: int, p: ExportPaper, plain: str) -> None:
    """Highlights the paper lacks (same quote and start), anchored in its text or orphaned."""
    from desktop_app.core.anchoring import make_anchor, reanchor_all

    conn, h = tx.conn, t.highlight
    existing = {(q, s) for q, s in conn.execute(select(h.c.quote, h.c.start).where(h.c.paper_id == pid))}
    added_orphan = False
    for hl in p.highlights:
        if (hl.quote, hl.start) in existing:
            continue
        a = make_anchor(plain, hl.start, hl.end) if plain[hl.start : hl.end] == hl.quote else None
        conn.execute(
            insert(h).values(
                paper_id=pid,
                start=hl.start,
                end=hl.end,
                quote=hl.quote,
                prefix=a.prefix if a else "",
                suffix=a.suffix if a else "",
                color=hl.color,
                comment=hl.comment,
                orphaned=a is None,
                created_at=tx.now,
            )
        )
        added_orphan = added_orphan or a is None
    if added_orphan:
        reanchor_all(conn, pid, plain)


def _restore_list(tx: Tx, lst: dict[str, Any], by_uid: dict[str, int]) -> None:
    """A reading list (found by name, any case, or created) gets the document's items at its end."""
    conn, rl, item = tx.conn, t.reading_list, t.reading_list_item
    name = str(lst.get("name") or "").strip()
    if not name:
        return
    lid = conn.execute(select(rl.c.id).where(tx.d.ci_equals(rl.c.name, name))).scalar()
    if lid is None:
        lid = inserted_id(
            conn.execute(insert(rl).values(name=name, description=lst.get("description", ""), created_at=tx.now))
        )
    start: int = conn.execute(
        select(func.coalesce(func.max(item.c.position) + 1, 0)).where(item.c.list_id == lid)
    ).scalar_one()
    add = tx.d.insert(item).on_conflict_do_nothing(index_elements=["list_id", "paper_id"])
    for n, entry in enumerate(sorted(lst.get("items", []), key=lambda i: i.get("position", 0))):
        pid = by_uid.get(entry.get("uid"))
        if pid is None:
            continue
        conn.execute(add.values(list_id=lid, paper_id=pid, position=start + n, note=entry.get("note", "")))


def _inside(path: Path, folder: Path) -> bool:
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):
        return False


def _attachments(
    tx: Tx, folder: Path, doc_folder: Path, pid: int, attached: Sequence[object], refused: list[str] | None = None
) -> None:
    """A paper's attachments from a document (untrusted), those it lacks (same kind and SHA-256).

    A link is recorded as it was (``marginalia check`` says if its file is not there); one
    outside the library folder only when ``refused`` is None (the user accepted the document's
    links), else its path goes into ``refused``. A copy's
    file is looked for in this library (the same path), beside the document (a library folder
    moved with its ``files/``) and in ``backups/files/``; found with the recorded SHA-256, it is
    copied into ``files/<paper id>/``. Not found, the row is kept all the same, so that ``check``
    names the missing file (and the paper) instead of the attachment being silently lost.
    """
    from desktop_app.core import attachment_files as af
    from desktop_app.core.attachments import insert_copy, insert_row

    a = t.attachment
    have = {(k, s) for k, s in tx.conn.execute(select(a.c.kind, a.c.sha256).where(a.c.paper_id == pid))}
    for entry in attached:
        if not isinstance(entry, dict):
            continue
        kind, rel, sha = str(entry.get("kind") or ""), str(entry.get("path") or ""), str(entry.get("sha256") or "")
        name = str(entry.get("name") or PurePosixPath(rel).name or "attachment")
        try:
            size = max(0, int(entry.get("size") or 0))
        except (TypeError, ValueError):
            size = 0
        if kind not in ("copy", "link") or not rel or (kind, sha) in have:
            continue
        added = _when(entry.get("added_at"), tx) if entry.get("added_at") else None
        if kind == "link":
            if refused is not None and Path(rel).is_absolute() and not _inside(Path(rel), folder):
                refused.append(rel)  # a document can name any file: linked only when the user accepts
                continue
            if Path(rel).is_absolute():
                insert_row(tx, pid, "link", rel, name, size, sha, added)
                have.add((kind, sha))
            continue
        safe = af.is_copy_path(rel)
        candidates = ([folder / rel, doc_folder / rel] if safe else []) + [folder / "backups" / af.BLOBS_DIR / sha]
        placed = None
        for c in candidates:
            try:
                if c.is_file() and af.sha256_of(c)[0] == sha:
                    placed = c
                    break
            except OSError:
                continue
        if placed is not None and placed == folder / rel and not _path_taken(tx, rel):
            insert_row(tx, pid, "copy", rel, name, size, sha, added)
        elif placed is not None:
            temp, got, got_size = af.copy_to_temp(placed, folder / af.FILES_DIR / str(pid))
            try:
                insert_copy(tx, folder, pid, temp, af.safe_name(name), name, got_size, got)
            finally:
                temp.unlink(missing_ok=True)
        else:  # not found: kept as missing
            free = safe and not _path_taken(tx, rel) and not (folder / rel).exists()
            where = rel if free else f"{af.FILES_DIR}/{pid}/{af.safe_name(name)}"
            insert_row(tx, pid, "copy", where, name, size, sha, added)
        have.add((kind, sha))


def _path_taken(tx: Tx, rel: str) -> bool:
    a = t.attachment
    return tx.conn.execute(select(a.c.id).where(a.c.kind == "copy", a.c.path == rel)).first() is not None
