"""Re-deriving titles: papers whose title was derived from their abstract get the title the
current algorithm (core/text/titles.py) derives, on request.

Only titles marked "derived" (``paper.title_source``) are ever touched: a title that came with
the record ("given") or that the user typed ("edited") is the user's, and setting a title by
hand marks it "edited". Writing checks the mark again inside the transaction, so an edit made
between the preview and the apply is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from sqlalchemy import Select, select, update

from desktop_app.core.changelog.undo_data import TitlesBefore
from desktop_app.core.store import Store
from desktop_app.core.store import tables as t
from desktop_app.core.values import Change, ChangeKind

__all__ = ["rederive_titles", "set_derived_titles"]

Retitle = tuple[int, str, str]  # (paper id, old title, new title)


Progress = Callable[[int, int], None]
Cancelled = Callable[[], bool]


def _proposals(store: Store, progress: Progress | None, cancelled: Cancelled | None) -> list[Retitle]:
    from desktop_app.core.text import derive_title

    p = t.paper.c
    with store.read() as conn:
        derived: Select[int, str, str] = (
            select(p.id, p.title, p.abstract).where(p.title_source == "derived", p.deleted_at.is_(None)).order_by(p.id)
        )
        rows = conn.execute(derived).all()
    out: list[Retitle] = []
    for n, (pid, old, abstract) in enumerate(rows):
        if n % 200 == 0:
            if cancelled is not None and cancelled():
                return []
            if progress is not None:
                progress(n, len(rows))
        if not (abstract or "").strip():
            continue  # "Untitled": nothing to derive from
        new = derive_title(abstract)
        if new and new != old:
            out.append((pid, old, new))
    return out


def set_derived_titles(store: Store, titles: Mapping[int, str] | Mapping[str, str]) -> Change:
    """Write derived titles, in one transaction, to the papers whose title is still derived.
    The ids may be given as text (a journaled edit's JSON keys are).

    ``detail.old`` maps each changed id to its previous title: passing it back undoes."""
    p = t.paper.c
    wanted = {int(pid): title for pid, title in titles.items()}
    ids = list(wanted)
    old: dict[int, str] = {}
    if not ids:
        return Change(ChangeKind.PAPERS, detail=TitlesBefore(old))
    with store.write() as tx:
        still_derived: Select[int, str] = select(p.id, p.title).where(
            tx.d.in_ids(p.id, ids), p.title_source == "derived", p.deleted_at.is_(None)
        )
        rows = tx.conn.execute(still_derived).all()
        for pid, title in rows:
            new = " ".join(str(wanted[pid]).split())
            if not new or new == title:
                continue
            tx.conn.execute(update(t.paper).where(p.id == pid).values(title=new, updated_at=tx.now))
            old[pid] = title
        tx.queue_index(old)
    return Change(ChangeKind.PAPERS, tuple(old), text_changed=bool(old), detail=TitlesBefore(old))


def rederive_titles(
    store: Store, dry_run: bool = True, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> list[Retitle]:
    """(id, old, new) for every derived title the current algorithm derives differently; unless
    ``dry_run``, they are written (see :func:`set_derived_titles`). Cancelled: an empty list."""
    changes = _proposals(store, progress, cancelled)
    if not dry_run and changes:
        set_derived_titles(store, {pid: new for pid, _old, new in changes})
    return changes
