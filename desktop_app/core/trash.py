"""The trash: ``lib.trash``.

Deleting a paper (``lib.papers.delete``, a merge's other paper, an undone import) sets its
``deleted_at``: the paper leaves every view, the search index and the counts, and stays in the
database, so it survives restarts and comes back with :meth:`Trash.restore`. :meth:`Trash.purge`
deletes papers for good: the paper's row and every row that hangs on it (tag links, the note and
its revisions, highlights, reading-list places, look-up keys, merges, "not duplicates" pairs,
attachments), in one transaction; the search index drops them through the index queue, and the
attached copies only these papers had are removed from the library's ``files/`` folder once the
transaction is committed. A purge cannot be undone: the window and the command line ask first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from sqlalchemy import ColumnElement, Delete, String, delete, func, or_, select, type_coerce, update

from desktop_app.core import attachment_files as af
from desktop_app.core.changelog.changes import writes
from desktop_app.core.changelog.undo_data import Purged, Restored
from desktop_app.core.errors import LibraryError
from desktop_app.core.store import Store, Tx
from desktop_app.core.store import tables as t
from desktop_app.core.values import Change, ChangeKind


@dataclass(frozen=True)
class TrashedPaper:
    """One paper in the trash, as ``marginalia trash list`` shows it."""

    id: int
    title: str
    year: int | None
    venue: str | None
    deleted_at: str  # as stored, to the second

    def as_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "title": self.title,
            "year": self.year,
            "venue": self.venue,
            "deleted_at": self.deleted_at,
        }


Among = Callable[[ColumnElement[Any]], ColumnElement[bool]]  # a paper-id column -> "is one of the papers"


def _dependents(among: Among) -> list[Delete]:
    """DELETE statements for every row that refers to the papers chosen by ``among``."""
    stmts = [
        delete(table).where(among(table.c.paper_id))
        for table in (
            t.paper_tag,
            t.note,
            t.note_revision,
            t.highlight,
            t.reading_list_item,
            t.paper_identity,
            t.attachment,
        )
    ]
    m, dp = t.paper_merge.c, t.distinct_pair.c
    stmts.append(delete(t.paper_merge).where(or_(among(m.kept_id), among(m.merged_id))))
    stmts.append(delete(t.distinct_pair).where(or_(among(dp.low_id), among(dp.high_id))))
    return stmts


class Trash:
    """The papers in the trash: list them, bring them back, delete them for good."""

    def __init__(self, store: Store, folder: Path) -> None:
        self._store = store
        self._folder = folder

    # ---- reads ---------------------------------------------------------------------------
    def count(self) -> int:
        with self._store.read() as conn:
            return conn.execute(
                select(func.count()).select_from(t.paper).where(t.paper.c.deleted_at.is_not(None))
            ).scalar_one()

    def ids(self) -> list[int]:
        """The trashed papers' ids, the most recently deleted first."""
        p = t.paper.c
        with self._store.read() as conn:
            return list(
                conn.execute(
                    select(p.id).where(p.deleted_at.is_not(None)).order_by(p.deleted_at.desc(), p.id.desc())
                ).scalars()
            )

    def items(self) -> list[TrashedPaper]:
        """The trashed papers, the most recently deleted first."""
        p = t.paper.c
        stmt = (
            select(p.id, p.title, p.year, p.venue, type_coerce(p.deleted_at, String).label("at"))
            .where(p.deleted_at.is_not(None))
            .order_by(p.deleted_at.desc(), p.id.desc())
        )
        with self._store.read() as conn:
            return [TrashedPaper(r.id, r.title, r.year, r.venue, str(r.at)[:19]) for r in conn.execute(stmt)]

    def holds(self, paper_id: int) -> bool:
        """Whether the paper is in the trash (False when it is live or deleted for good)."""
        p = t.paper.c
        with self._store.read() as conn:
            return conn.execute(select(p.id).where(p.id == paper_id, p.deleted_at.is_not(None))).first() is not None

    # ---- writes --------------------------------------------------------------------------
    @writes
    def restore(self, paper_ids: Sequence[int]) -> Change:
        """Take papers out of the trash (all or, on an id not in the trash, none)."""
        with self._store.write() as tx:
            ids = self._require_trashed(tx, paper_ids)
            tx.conn.execute(update(t.paper).where(tx.d.in_ids(t.paper.c.id, ids)).values(deleted_at=None))
            tx.queue_index(ids)
        return Change(ChangeKind.PAPERS, tuple(ids), text_changed=True, detail=Restored())

    @writes
    def purge(self, paper_ids: Sequence[int]) -> Change:
        """Delete papers in the trash for good (all or, on an id not in the trash, none).
        Not undoable; ``detail.files`` counts the attached copies removed with them."""
        with self._store.write() as tx:
            ids = self._require_trashed(tx, paper_ids)
            files = self._purge(tx, ids)
        return Change(ChangeKind.PAPERS, tuple(ids), text_changed=True, detail=Purged(files))

    @writes
    def empty(self) -> Change:
        """Delete every paper in the trash for good (not undoable)."""
        p = t.paper.c
        with self._store.write() as tx:
            ids: list[int] = list(
                tx.conn.execute(select(p.id).where(p.deleted_at.is_not(None)).order_by(p.id)).scalars()
            )
            files = self._purge(tx, ids) if ids else 0
        return Change(ChangeKind.PAPERS, tuple(ids), text_changed=bool(ids), detail=Purged(files))

    # ---- inside a transaction ------------------------------------------------------------
    @staticmethod
    def _require_trashed(tx: Tx, paper_ids: Sequence[int]) -> list[int]:
        """The ids, deduplicated in order; LibraryError naming those that are not in the trash."""
        ids = list(dict.fromkeys(int(i) for i in paper_ids))
        if not ids:
            raise LibraryError("no paper ids given")
        p = t.paper.c
        state: dict[int, bool] = dict(
            tx.conn.execute(select(p.id, p.deleted_at.is_not(None)).where(tx.d.in_ids(p.id, ids))).all()
        )
        unknown = [i for i in ids if i not in state]
        if unknown:
            raise LibraryError(f"no paper with id {', '.join(map(str, unknown[:5]))}")
        live = [i for i in ids if not state[i]]
        if live:
            raise LibraryError(f"not in the trash: paper {', '.join(map(str, live[:5]))}")
        tx.touched.update(ids)
        return ids

    def _purge(self, tx: Tx, ids: list[int]) -> int:
        """Delete the papers and their rows in ``tx``; their copies' files go after the commit.
        Returns how many files are to be removed."""
        a = t.attachment.c

        def among(column: ColumnElement[Any]) -> ColumnElement[bool]:
            return tx.d.in_ids(column, ids)

        copies: set[str] = set(tx.conn.execute(select(a.path).where(among(a.paper_id), a.kind == "copy")).scalars())
        for stmt in _dependents(among):
            tx.conn.execute(stmt)
        tx.conn.execute(delete(t.paper).where(among(t.paper.c.id)))
        tx.queue_index(ids)  # the index drops papers that are no longer there
        if copies:  # a path another attachment still names keeps its file
            copies -= set(tx.conn.execute(select(a.path).where(a.kind == "copy", a.path.in_(sorted(copies)))).scalars())
        doomed = [self._folder / rel for rel in sorted(copies) if af.is_copy_path(rel)]
        for path in doomed:
            tx.after_commit.append(partial(af.remove_file, path))
        return len(doomed)
