"""Reading the library out for exporters and checks."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from sqlalchemy import text

from desktop_app.core.records import ExportHighlight, ExportPaper

if TYPE_CHECKING:
    from desktop_app.core.library import Library


def export_papers(self: Library, paper_ids: Sequence[int], *, list_name: str | None = None) -> list[ExportPaper]:
    """Everything the writers need, in the order given (with list item notes for a list)."""
    item_notes: dict[int, str] = {}
    if list_name:
        item_notes = {pid: note for pid, _, note in self.list_items(list_name)}
    out = []
    with self.engine.connect() as conn:
        for pid in paper_ids:
            v = self.paper(pid)
            revisions = [
                {"text": t, "saved_at": str(at)[:19]}
                for at, t in conn.execute(
                    text("SELECT saved_at, text FROM note_revision WHERE paper_id=:p ORDER BY id"), {"p": pid})
            ]
            out.append(ExportPaper(
                id=v.id, uid=v.uid, title=v.title, title_source=v.title_source, abstract=v.abstract,
                abstract_text=v.abstract_text, authors=v.authors, venue=v.venue, year=v.year, doi=v.doi,
                arxiv_id=v.arxiv_id, url=v.url, bibtex_key=v.bibtex_key, entry_type=v.entry_type,
                tags=v.tags, status=v.status, rating=v.rating, note=v.note, note_revisions=revisions,
                highlights=[ExportHighlight(h.quote, h.comment, h.color, h.start, h.end, h.orphaned)
                            for h in v.highlights],
                added_at=v.added_at, item_note=item_notes.get(pid) or None,
                extra={k: str(val) for k, val in v.extra.items()},
            ))
    return out


def reading_lists_json(self: Library, paper_ids: Sequence[int] | None = None) -> list[dict]:
    """Reading lists for the JSON document, items naming papers by uid (only exported ones)."""
    keep = set(paper_ids) if paper_ids is not None else None
    out = []
    with self.engine.connect() as conn:
        uids = dict(conn.execute(text("SELECT id, uid FROM paper")).all())
    for info in self.lists():
        items = [{"uid": uids[pid], "position": pos, "note": note}
                 for pid, pos, note in self.list_items(info.name) if keep is None or pid in keep]
        if items or keep is None:
            out.append({"name": info.name, "description": info.description, "items": items})
    return out


def integrity_check(self: Library) -> list[str]:
    """Problems found in the database and the index; empty when all is well."""
    problems: list[str] = []
    with self.engine.connect() as conn:
        res = conn.execute(text("PRAGMA integrity_check")).scalar()
        if res != "ok":
            problems.append(f"database integrity: {res}")
        fk = conn.execute(text("PRAGMA foreign_key_check")).all()
        if fk:
            problems.append(f"{len(fk)} broken references (first: {fk[0]})")
        queued = conn.execute(text("SELECT count(*) FROM index_queue")).scalar_one()
        if queued:
            problems.append(f"{queued} papers wait for the search index")
        live = {r[0] for r in conn.execute(text("SELECT id FROM paper WHERE deleted_at IS NULL"))}
    if self.index.is_open:
        indexed = self.index.index.all_pids()
        if indexed != live:
            problems.append(
                f"search index differs from the database: {len(live - indexed)} missing, "
                f"{len(indexed - live)} extra (run `marginalia reindex`)"
            )
    else:
        problems.append("search index is not open")
    _ = json
    return problems
