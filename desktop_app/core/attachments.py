"""Files attached to papers: ``lib.attachments``.

``add(paper_id, path, mode="copy")`` copies the file into ``<library>/files/<paper id>/<name>``
(atomically: written under a temporary name, then renamed; a name already there gets `` (2)``)
or, with ``mode="link"``, records where it is. Each mutation is one transaction. A removal is
soft by default (``removed_at`` set, the file kept: :meth:`Attachments.restore` undoes it); a
hard removal deletes the row and, for a copy, its file once the deletion is committed.
:meth:`Attachments.problems` is what ``marginalia check`` reports: files missing or changed, and
copies in ``files/`` that no attachment names (left behind).

While a shared library's server is away, a file attached by copy is copied at once into the
desk's ``outbox/attachments/`` (:meth:`Attachments.stage`: the copy is local, the row needs the
server) and :meth:`Attachments.add_staged` attaches that copy when the server is back, then
removes it; refused then (the paper deleted meanwhile), it is removed too.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import delete, insert, select, update

from desktop_app.core import attachment_files as af
from desktop_app.core.changelog.changes import writes
from desktop_app.core.changelog.undo_data import AttachmentAdded, AttachmentRemoved, AttachmentRestored
from desktop_app.core.errors import LibraryError, ServerUnreachable
from desktop_app.core.store import Store, Tx
from desktop_app.core.store import tables as t
from desktop_app.core.store.column_types import ATTACHMENT_KINDS
from desktop_app.core.store.store import inserted_id
from desktop_app.core.values import Change, ChangeKind

STAGED_DIR = Path("outbox") / "attachments"  # in the library (desk) folder: copies waiting for a server


@dataclass(frozen=True)
class AttachmentView:
    """One attachment as the reader and the command line show it."""

    id: int
    paper_id: int
    kind: str  # "copy" or "link"
    path: str  # relative to the library folder (a copy) or absolute (a link)
    name: str
    size: int
    sha256: str
    added_at: datetime
    removed: bool
    location: Path | None  # where the file is; None when a stored path is not acceptable

    @property
    def exists(self) -> bool:
        return self.location is not None and self.location.is_file()

    def as_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "paper": self.paper_id,
            "kind": self.kind,
            "path": self.path,
            "name": self.name,
            "size": self.size,
            "sha256": self.sha256,
            "added_at": str(self.added_at)[:19],
            "removed": self.removed,
            "exists": self.exists,
        }


class Attachments:
    """The attachments of a library folder's papers."""

    def __init__(self, store: Store, folder: Path) -> None:
        self.store = store
        self.folder = folder

    # ---- reading ---------------------------------------------------------------------------
    def resolve(self, kind: str, path: str) -> Path | None:
        """Where an attachment's file is: a copy inside ``files/`` (None for a path that would
        leave it), a link where it points (absolute paths only)."""
        if kind == "copy":
            return self.folder / path if af.is_copy_path(path) else None
        p = Path(path)
        return p if p.is_absolute() else None

    def _view(self, row: object) -> AttachmentView:
        r: Any = row  # a Row of t.attachment: its columns are attributes
        return AttachmentView(
            id=r.id,
            paper_id=r.paper_id,
            kind=r.kind,
            path=r.path,
            name=r.name,
            size=r.size,
            sha256=r.sha256,
            added_at=r.added_at,
            removed=r.removed_at is not None,
            location=self.resolve(r.kind, r.path),
        )

    def for_paper(self, paper_id: int, *, removed: bool = False) -> list[AttachmentView]:
        """A paper's attachments in the order they were added (removed ones too with ``removed``)."""
        a = t.attachment
        stmt = select(a).where(a.c.paper_id == paper_id).order_by(a.c.id)
        if not removed:
            stmt = stmt.where(a.c.removed_at.is_(None))
        with self.store.read() as conn:
            return [self._view(r) for r in conn.execute(stmt)]

    def get(self, attachment_id: int) -> AttachmentView:
        a = t.attachment
        with self.store.read() as conn:
            row = conn.execute(select(a).where(a.c.id == attachment_id)).first()
        if row is None:
            raise LibraryError(f"no attachment with id {attachment_id}")
        return self._view(row)

    def first_file(self, paper_id: int) -> AttachmentView | None:
        """The paper's first attachment whose file is there (what "Open paper" opens)."""
        return next((v for v in self.for_paper(paper_id) if v.exists), None)

    # ---- writing ---------------------------------------------------------------------------
    @writes
    def add(self, paper_id: int, path: str | Path, mode: str = "copy") -> Change:
        """Attach the file at ``path`` to a paper: a copy in ``files/<paper id>/`` or a link.

        ``detail.attachment_id`` names the new attachment (for undo: :meth:`remove`)."""
        if mode not in ATTACHMENT_KINDS:
            raise LibraryError(f"an attachment is a copy or a link, not {mode!r}")
        source = Path(path).expanduser().absolute()
        if not source.is_file():
            raise LibraryError(f"{source} is not a file that can be attached")
        with self.store.read() as conn:
            live = conn.execute(
                select(t.paper.c.id).where(t.paper.c.id == int(paper_id), t.paper.c.deleted_at.is_(None))
            ).first()
        if live is None:
            raise LibraryError(f"no paper with id {paper_id}")
        name = af.safe_name(source.name)
        if mode == "link":
            try:
                sha, size = af.sha256_of(source)
            except OSError as exc:
                raise LibraryError(f"{source} cannot be read: {exc.strerror or exc}") from exc
            with self.store.write() as tx:
                tx.require_papers([paper_id])
                aid = insert_row(tx, paper_id, "link", str(source), source.name, size, sha)
            return Change(ChangeKind.ATTACHMENTS, (int(paper_id),), detail=AttachmentAdded(aid))
        target_dir = self.folder / af.FILES_DIR / str(int(paper_id))
        try:
            temp, sha, size = af.copy_to_temp(source, target_dir)
        except OSError as exc:
            raise LibraryError(f"{source.name} could not be copied into the library: {exc.strerror or exc}") from exc
        try:
            with self.store.write() as tx:
                tx.require_papers([paper_id])
                aid = insert_copy(tx, self.folder, paper_id, temp, name, source.name, size, sha)
        finally:
            temp.unlink(missing_ok=True)
        return Change(ChangeKind.ATTACHMENTS, (int(paper_id),), detail=AttachmentAdded(aid))

    def stage(self, path: str | Path) -> Path:
        """Copy the file at ``path`` into ``outbox/attachments/<token>/`` under its own name, for
        :meth:`add_staged` to attach when the server answers: what an attachment by copy can do
        while a shared library's server is away. Returns the copy."""
        source = Path(path).expanduser().absolute()
        if not source.is_file():
            raise LibraryError(f"{source} is not a file that can be attached")
        folder = self.folder / STAGED_DIR / secrets.token_hex(8)
        temp: Path | None = None
        try:
            temp, _sha, _size = af.copy_to_temp(source, folder)
            return temp.rename(folder / af.safe_name(source.name))
        except OSError as exc:
            if temp is not None:
                temp.unlink(missing_ok=True)
            with contextlib.suppress(OSError):
                folder.rmdir()
            raise LibraryError(f"{source.name} could not be copied into the library: {exc.strerror or exc}") from exc

    @writes
    def add_staged(self, paper_id: int, staged: str | Path) -> Change:
        """Attach by copy a file :meth:`stage` copied, then remove that copy; refused (the
        paper gone, say), it is removed too. A server still away keeps it for the next try."""
        where = Path(staged)
        folder = (self.folder / STAGED_DIR).resolve()
        if where.resolve().parent.parent != folder:
            raise LibraryError(f"{where} is not a copy staged in this library's folder")
        try:
            change = self.add(paper_id, where, mode="copy")
        except ServerUnreachable:
            raise
        except LibraryError:  # refused, or attached already (sent again after its answer was lost)
            af.remove_file(where)
            raise
        # once attached for good: part of an edit sent with its id (lib.apply_once), its
        # transaction is not committed yet, and a rollback needs the copy for the next try
        self.store.after_commit(lambda: af.remove_file(where))
        return change

    @writes
    def remove(self, attachment_id: int, *, hard: bool = False) -> Change:
        """Remove an attachment. Soft (the default): hidden, the file kept, :meth:`restore`
        brings it back. Hard: the row goes, and a copy's file once that is committed."""
        a = t.attachment
        with self.store.write() as tx:
            row = tx.conn.execute(select(a).where(a.c.id == attachment_id)).first()
            if row is None:
                raise LibraryError(f"no attachment with id {attachment_id}")
            if hard:
                tx.conn.execute(delete(a).where(a.c.id == attachment_id))
                where = self.resolve(row.kind, row.path)
                if row.kind == "copy" and where is not None:
                    still = tx.conn.execute(select(a.c.id).where(a.c.kind == "copy", a.c.path == row.path)).first()
                    if still is None:
                        tx.after_commit.append(lambda: af.remove_file(where))
            else:
                tx.conn.execute(update(a).where(a.c.id == attachment_id).values(removed_at=tx.now))
        return Change(ChangeKind.ATTACHMENTS, (row.paper_id,), detail=AttachmentRemoved(attachment_id, hard))

    @writes
    def restore(self, attachment_id: int) -> Change:
        """Undo a soft removal."""
        a = t.attachment
        with self.store.write() as tx:
            pid = tx.conn.execute(
                update(a).where(a.c.id == attachment_id).values(removed_at=None).returning(a.c.paper_id)
            ).scalar()
        if pid is None:
            raise LibraryError(f"no attachment with id {attachment_id}")
        return Change(ChangeKind.ATTACHMENTS, (int(pid),), detail=AttachmentRestored(attachment_id))

    # ---- checking --------------------------------------------------------------------------
    def problems(self) -> list[str]:
        """Attached files of live papers that are missing or no longer what was attached, and
        copies in the library's ``files/`` folder that no attachment (of any paper) names."""
        a, p = t.attachment, t.paper
        stmt = (
            select(a)
            .join(p, p.c.id == a.c.paper_id)
            .where(a.c.removed_at.is_(None), p.c.deleted_at.is_(None))
            .order_by(a.c.paper_id, a.c.id)
        )
        with self.store.read() as conn:
            views = [self._view(r) for r in conn.execute(stmt)]
        out = []
        for v in views:
            what = f"paper {v.paper_id}: attached file {v.name!r} ({v.path})"
            if v.location is None:
                out.append(f"{what} has a path outside the library's files/ folder; it is not opened")
                continue
            if not v.location.is_file():
                out.append(f"{what} is missing")
                continue
            try:
                changed = v.location.stat().st_size != v.size or af.sha256_of(v.location)[0] != v.sha256
            except OSError as exc:
                out.append(f"{what} cannot be read ({exc.strerror or exc})")
                continue
            if changed:
                out.append(f"{what} has changed since it was attached")
        with self.store.read() as conn:
            named: set[str] = set(conn.execute(select(a.c.path).where(a.c.kind == "copy")).scalars())
        out += [
            f"{rel} is in the library's files/ folder but no paper refers to it (left behind; "
            "delete it if it is not needed)"
            for rel in af.copies_on_disk(self.folder)
            if rel not in named
        ]
        return out


def insert_row(
    tx: Tx, paper_id: int, kind: str, path: str, name: str, size: int, sha: str, added_at: datetime | None = None
) -> int:
    """In ``tx``: an attachment's row; its id."""
    return inserted_id(
        tx.conn.execute(
            insert(t.attachment).values(
                paper_id=int(paper_id),
                kind=kind,
                path=path,
                name=name,
                size=size,
                sha256=sha,
                added_at=added_at or tx.now,
            )
        )
    )


def insert_copy(tx: Tx, folder: Path, paper_id: int, temp: Path, name: str, original: str, size: int, sha: str) -> int:
    """In ``tx``: give the temporary copy ``temp`` a free name in ``folder/files/<paper id>/`` and
    a row; the file is deleted again if the transaction rolls back. Returns the row's id."""
    a = t.attachment
    prefix = f"{af.FILES_DIR}/{int(paper_id)}/"
    paths: Iterable[str] = tx.conn.execute(
        select(a.c.path).where(a.c.kind == "copy", a.c.path.startswith(prefix, autoescape=True))
    ).scalars()
    taken = {p[len(prefix) :] for p in paths}
    final = af.place(temp, folder / af.FILES_DIR / str(int(paper_id)), name, taken)
    tx.after_rollback.append(lambda: af.remove_file(final))
    return insert_row(tx, paper_id, "copy", prefix + final.name, original, size, sha)
