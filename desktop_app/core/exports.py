"""Reading the library out for the exporters: papers with everything a writer needs, and lists."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sqlalchemy import select

from desktop_app.core.records import ExportHighlight, ExportPaper
from desktop_app.core.store import tables as t

if TYPE_CHECKING:
    from desktop_app.core.papers import Papers
    from desktop_app.core.reading_lists import ReadingLists
    from desktop_app.core.store import Store


class Exports:
    """What the writers in :mod:`desktop_app.core.formats` and the JSON document read."""

    def __init__(self, store: Store, papers: Papers, lists: ReadingLists) -> None:
        self._store = store
        self._papers = papers
        self._lists = lists

    def papers(self, paper_ids: Sequence[int], *, list_name: str | None = None) -> list[ExportPaper]:
        """Everything the writers need, in the order given (with list item notes for a list)."""
        item_notes: dict[int, str] = {}
        if list_name:
            item_notes = {pid: note for pid, _, note in self._lists.items(list_name)}
        nr, at = t.note_revision, t.attachment
        places = self._list_places(paper_ids)
        out = []
        with self._store.read() as conn:
            for pid in paper_ids:
                attached = [
                    {
                        "kind": r.kind,
                        "path": r.path,
                        "name": r.name,
                        "size": r.size,
                        "sha256": r.sha256,
                        "added_at": str(r.added_at)[:19],
                    }
                    for r in conn.execute(
                        select(at).where(at.c.paper_id == pid, at.c.removed_at.is_(None)).order_by(at.c.id)
                    )
                ]
                v = self._papers.get(pid)
                revisions = [
                    {"text": text, "saved_at": str(at)[:19]}
                    for at, text in conn.execute(
                        select(nr.c.saved_at, nr.c.text).where(nr.c.paper_id == pid).order_by(nr.c.id)
                    )
                ]
                out.append(
                    ExportPaper(
                        id=v.id,
                        uid=v.uid,
                        title=v.title,
                        title_source=v.title_source,
                        abstract=v.abstract,
                        abstract_text=v.abstract_text,
                        authors=v.authors,
                        venue=v.venue,
                        year=v.year,
                        doi=v.doi,
                        arxiv_id=v.arxiv_id,
                        url=v.url,
                        bibtex_key=v.bibtex_key,
                        entry_type=v.entry_type,
                        tags=v.tags,
                        status=v.status,
                        rating=v.rating,
                        note=v.note,
                        note_revisions=revisions,
                        highlights=[
                            ExportHighlight(h.quote, h.comment, h.color, h.start, h.end, h.orphaned)
                            for h in v.highlights
                        ],
                        added_at=v.added_at,
                        item_note=item_notes.get(pid) or None,
                        extra={k: str(val) for k, val in v.extra.items()},
                        keywords=list(v.keywords),
                        attachments=attached,
                        decision=v.decision,
                        lists=places.get(pid, {}),
                    )
                )
        return out

    def _list_places(self, paper_ids: Sequence[int]) -> dict[int, dict[str, int]]:
        """paper -> {reading list: its position there (0-based, in the list's order)}."""
        wanted = set(paper_ids)
        out: dict[int, dict[str, int]] = {}
        for info in self._lists.all():
            for n, (pid, _, _) in enumerate(self._lists.items(info.name)):
                if pid in wanted:
                    out.setdefault(pid, {})[info.name] = n
        return out

    def reading_lists(self, paper_ids: Sequence[int] | None = None) -> list[dict[str, object]]:
        """Reading lists for the JSON document, items naming papers by uid (only exported ones)."""
        keep = set(paper_ids) if paper_ids is not None else None
        with self._store.read() as conn:
            uids: dict[int, str] = dict(conn.execute(select(t.paper.c.id, t.paper.c.uid)).all())
        out: list[dict[str, object]] = []
        for info in self._lists.all():
            items = [
                {"uid": uids[pid], "position": pos, "note": note}
                for pid, pos, note in self._lists.items(info.name)
                if keep is None or pid in keep
            ]
            if items or keep is None:
                out.append({"name": info.name, "description": info.description, "items": items})
        return out
