"""Restoring a Marginalia JSON document (a backup, or a library being moved): papers with
everything the user wrote — status, rating, tags and colors, notes with their revisions,
highlights, edited titles — and reading lists. In one transaction, like any import.

Papers already in the library are recognised by identity (DOI, arXiv id, title+author+year,
abstract); what the user wrote there is kept: tags are added, a different note becomes the new
text with the old one kept as a revision, status and rating are taken only where the library has
none (unread, 0).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, text

from desktop_app.core.db import LibraryError
from desktop_app.core.lib_import import _Importer, _plain_keys
from desktop_app.core.records import ExportPaper, Record
from desktop_app.core.values import Change, FileReport, ImportReport

if TYPE_CHECKING:
    from desktop_app.core.library import Library


def is_library_json(data: bytes) -> bool:
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"{") and b'"marginalia-library"' in data[:4096]


def _record(p: ExportPaper) -> Record:
    return Record(
        abstract=p.abstract, title=p.title if p.title_source != "derived" else None, authors=list(p.authors),
        venue=p.venue, year=p.year, doi=p.doi, arxiv_id=p.arxiv_id, url=p.url, bibtex_key=p.bibtex_key,
        entry_type=p.entry_type, extra=dict(p.extra),
    )


def _apply_user_data(self: Library, conn: Connection, pid: int, p: ExportPaper, new: bool) -> None:
    from desktop_app.core.anchoring import make_anchor, reanchor_all
    from desktop_app.core.lib_tags import _tag_id, normalize_tag
    from desktop_app.core.library import now_text

    row = conn.execute(text("SELECT title_source, status, rating, abstract_text FROM paper WHERE id=:i"),
                       {"i": pid}).one()
    sets: dict[str, object] = {}
    if p.title_source == "edited" and (new or row.title_source != "edited"):
        sets["title"], sets["title_source"] = p.title, "edited"
    if p.status in ("skimmed", "read") and (new or row.status == "unread"):
        sets["status"] = p.status
    if p.rating and (new or not row.rating):
        sets["rating"] = int(p.rating)
    if p.added_at and new:
        sets["added_at"] = p.added_at
    if sets:
        conn.execute(text(f"UPDATE paper SET {', '.join(f'{k}=:{k}' for k in sets)} WHERE id=:id"), {**sets, "id": pid})
    for name in p.tags:
        tid = _tag_id(conn, normalize_tag(name), create=True)
        conn.execute(text("INSERT OR IGNORE INTO paper_tag (paper_id, tag_id) VALUES (:p, :t)"), {"p": pid, "t": tid})
    have_revs = {r[0] for r in conn.execute(text("SELECT text FROM note_revision WHERE paper_id=:p"), {"p": pid})}
    for rev in p.note_revisions:
        if rev.get("text") and rev["text"] not in have_revs:
            conn.execute(text("INSERT INTO note_revision (paper_id, text, saved_at) VALUES (:p, :t, :s)"),
                         {"p": pid, "t": rev["text"], "s": rev.get("saved_at") or now_text()})
    if p.note:
        old = conn.execute(text("SELECT text FROM note WHERE paper_id=:p"), {"p": pid}).scalar()
        if old != p.note:
            if old:
                conn.execute(text("INSERT INTO note_revision (paper_id, text, saved_at) VALUES (:p, :t, :s)"),
                             {"p": pid, "t": old, "s": now_text()})
            conn.execute(text("INSERT INTO note (paper_id, text, updated_at) VALUES (:p, :t, :n) ON CONFLICT(paper_id) "
                              "DO UPDATE SET text=excluded.text, updated_at=excluded.updated_at"),
                         {"p": pid, "t": p.note, "n": now_text()})
    existing = {(r[0], r[1]) for r in conn.execute(text("SELECT quote, start FROM highlight WHERE paper_id=:p"), {"p": pid})}
    plain = row.abstract_text
    added_hl = False
    for h in p.highlights:
        if (h.quote, h.start) in existing:
            continue
        a = make_anchor(plain, h.start, h.end) if plain[h.start:h.end] == h.quote else None
        conn.execute(
            text("INSERT INTO highlight (paper_id, start, end, quote, prefix, suffix, color, comment, orphaned, created_at) "
                 "VALUES (:p, :s, :e, :q, :pr, :su, :c, :m, :o, :n)"),
            {"p": pid, "s": h.start, "e": h.end, "q": h.quote, "pr": a.prefix if a else "", "su": a.suffix if a else "",
             "c": h.color, "m": h.comment, "o": 0 if a else 1, "n": now_text()},
        )
        added_hl = added_hl or a is None
    if added_hl:
        reanchor_all(conn, pid, plain)


def restore_library_json(
    self: Library,
    source: str | Path,
    *,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> ImportReport:
    """Import a Marginalia JSON document with everything the user wrote."""
    from desktop_app.core.formats.json_writer import papers_from_library_json
    from desktop_app.core.library import now_text

    path = Path(source)
    try:
        doc = json.loads(path.read_text("utf-8-sig"))
        papers = papers_from_library_json(doc)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LibraryError(f"{path.name} is not a readable Marginalia JSON document: {exc}") from exc
    fr = FileReport(path=str(path), format="marginalia-json")
    report = ImportReport(files=[fr])
    colors = {t["name"]: t["color"] for t in doc.get("tags", []) if isinstance(t, dict) and t.get("color")}
    with self._tx() as conn:
        batch = conn.execute(
            text("INSERT INTO import_batch (source, format, started_at, added, duplicates, merged, failed, undone) "
                 "VALUES (:s, 'marginalia-json', :t, 0, 0, 0, 0, 0)"), {"s": str(path), "t": now_text()}).lastrowid
        imp = _Importer(conn, batch, merge=True, tag_categories=False)
        by_uid: dict[str, int] = {}
        from desktop_app.core.formats.identity import identity_keys

        for n, p in enumerate(papers, 1):
            rec = _record(p)
            before = len(imp.new_ids)
            imp.add(rec, fr)
            new = len(imp.new_ids) > before
            pid = imp.new_ids[-1] if new else imp.find(identity_keys(rec) + _plain_keys(p.abstract_text))
            if pid is None:
                fr.failed += 1
                fr.errors.append(f"paper {p.uid} could not be placed")
                continue
            if new:  # keep the paper's identity across libraries
                conn.execute(text("UPDATE paper SET uid=:u WHERE id=:i AND NOT EXISTS (SELECT 1 FROM paper WHERE uid=:u)"),
                             {"u": p.uid, "i": pid})
            _apply_user_data(self, conn, pid, p, new)
            by_uid[p.uid] = pid
            imp.touched.add(pid)
            if progress and n % 100 == 0:
                progress(n, len(papers))
            if cancelled and cancelled():
                raise LibraryError("restore cancelled; nothing was changed")
        for name, color in colors.items():
            conn.execute(text("UPDATE tag SET color=:c WHERE name=:n AND color=''"), {"c": color, "n": name})
        for lst in doc.get("reading_lists", []) or []:
            _restore_list(conn, lst, by_uid)
        conn.execute(text("UPDATE import_batch SET added=:a, duplicates=:d, merged=:m, failed=:f WHERE id=:b"),
                     {"a": fr.added, "d": fr.duplicates, "m": fr.merged, "f": fr.failed, "b": batch})
        self._queue(conn, sorted(imp.touched))
        report.batch_id, report.paper_ids = batch, imp.new_ids
    self._commit_change(Change("import", tuple(imp.new_ids), text_changed=True, detail={"batch": batch}))
    return report


def _restore_list(conn: Connection, lst: dict, by_uid: dict[str, int]) -> None:
    from desktop_app.core.library import now_text

    name = str(lst.get("name") or "").strip()
    if not name:
        return
    row = conn.execute(text("SELECT id FROM reading_list WHERE name=:n COLLATE NOCASE"), {"n": name}).first()
    lid = row[0] if row else conn.execute(
        text("INSERT INTO reading_list (name, description, created_at) VALUES (:n, :d, :c)"),
        {"n": name, "d": lst.get("description", ""), "c": now_text()}).lastrowid
    start = conn.execute(text("SELECT coalesce(max(position)+1, 0) FROM reading_list_item WHERE list_id=:l"),
                         {"l": lid}).scalar_one()
    for n, item in enumerate(sorted(lst.get("items", []), key=lambda i: i.get("position", 0))):
        pid = by_uid.get(item.get("uid"))
        if pid is None:
            continue
        conn.execute(text("INSERT OR IGNORE INTO reading_list_item (list_id, paper_id, position, note) "
                          "VALUES (:l, :p, :pos, :note)"),
                     {"l": lid, "p": pid, "pos": start + n, "note": item.get("note", "")})
