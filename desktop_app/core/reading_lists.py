"""Reading lists: named, described, with a manual order and a note per item."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Select, and_, bindparam, delete, func, insert, select, update

from desktop_app.core.changelog.changes import writes
from desktop_app.core.changelog.undo_data import (
    DescriptionBefore,
    ItemNoteBefore,
    ListAdded,
    ListCreated,
    ListRenamed,
    ListSnapshot,
    ListSnapshotted,
    OrderBefore,
    PositionBefore,
)
from desktop_app.core.errors import LibraryError
from desktop_app.core.store import tables as t
from desktop_app.core.store.store import inserted_id
from desktop_app.core.values import Change, ChangeKind, ListInfo

if TYPE_CHECKING:
    from desktop_app.core.store import Store, Tx
    from desktop_app.core.store.dialect import Dialect

RL, ITEM = t.reading_list, t.reading_list_item


def _find(conn: Connection, d: Dialect, name: str) -> int | None:
    return conn.execute(select(RL.c.id).where(d.ci_equals(RL.c.name, name))).scalar()


def _list_id(conn: Connection, d: Dialect, name: str) -> int:
    lid = _find(conn, d, name)
    if lid is None:
        raise LibraryError(f"no reading list named '{name}'")
    return lid


def _order(conn: Connection, lid: int) -> list[int]:
    return list(
        conn.execute(
            select(ITEM.c.paper_id).where(ITEM.c.list_id == lid).order_by(ITEM.c.position, ITEM.c.id)
        ).scalars()
    )


def _renumber(conn: Connection, lid: int, order: list[int]) -> None:
    if not order:
        return
    conn.execute(
        update(ITEM)
        .where(ITEM.c.list_id == bindparam("b_list"), ITEM.c.paper_id == bindparam("b_paper"))
        .values(position=bindparam("b_pos")),
        [{"b_list": lid, "b_paper": pid, "b_pos": pos} for pos, pid in enumerate(order)],
    )


def _insert_items(conn: Connection, lid: int, notes: dict[int, str]) -> None:
    """New items at position 0; :func:`_renumber` places them."""
    if notes:
        conn.execute(
            insert(ITEM),
            [{"list_id": lid, "paper_id": pid, "position": 0, "note": note} for pid, note in notes.items()],
        )


def _snapshot(conn: Connection, lid: int) -> dict[str, Any]:
    name, desc = conn.execute(select(RL.c.name, RL.c.description).where(RL.c.id == lid)).one()
    items = [
        tuple(r)
        for r in conn.execute(
            select(ITEM.c.paper_id, ITEM.c.position, ITEM.c.note)
            .where(ITEM.c.list_id == lid)
            .order_by(ITEM.c.position, ITEM.c.id)
        )
    ]
    return {"name": name, "description": desc, "items": items}


def _clean_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise LibraryError("a reading list needs a name")
    return name


def place_in_lists(tx: Tx, places: Sequence[tuple[str, int, int]]) -> list[int]:
    """In the caller's transaction (an import): each ``(list name, position, paper id)`` puts the
    paper in that list (made when missing), after the papers the list holds already, in the
    order of the positions; a paper the list holds stays where it is. The lists' ids."""
    by_list: dict[str, list[tuple[int, int]]] = {}
    names: dict[str, str] = {}
    for name, pos, pid in places:
        clean = " ".join(name.split())
        if clean:
            names.setdefault(clean.casefold(), clean)
            by_list.setdefault(clean.casefold(), []).append((pos, pid))
    touched = []
    for folded, pairs in by_list.items():
        name = names[folded]
        lid = _find(tx.conn, tx.d, name)
        if lid is None:
            lid = inserted_id(tx.conn.execute(insert(RL).values(name=name, description="", created_at=tx.now)))
        order = _order(tx.conn, lid)
        held = set(order)
        new = [pid for _, pid in sorted(pairs) if pid not in held]
        new = list(dict.fromkeys(new))
        _insert_items(tx.conn, lid, dict.fromkeys(new, ""))
        _renumber(tx.conn, lid, order + new)
        touched.append(lid)
    return touched


class ReadingLists:
    """Reading lists and their ordered items; list names are unique regardless of case."""

    def __init__(self, store: Store) -> None:
        self._store = store

    # ---- reads -----------------------------------------------------------------------------
    def all(self) -> list[ListInfo]:
        """Every list with its number of live papers, by name."""
        d, p = self._store.dialect, t.paper
        stmt: Select[int, str, str, int] = (
            select(RL.c.id, RL.c.name, RL.c.description, func.count(p.c.id))
            .select_from(
                RL.outerjoin(ITEM, ITEM.c.list_id == RL.c.id).outerjoin(
                    p, and_(p.c.id == ITEM.c.paper_id, p.c.deleted_at.is_(None))
                )
            )
            .group_by(RL.c.id)
            .order_by(d.nocase(RL.c.name))
        )
        with self._store.read() as conn:
            return [ListInfo(*r) for r in conn.execute(stmt)]

    def items(self, name: str) -> list[tuple[int, int, str]]:
        """(paper id, position, item note) in order; trashed papers left out."""
        p = t.paper
        with self._store.read() as conn:
            lid = _list_id(conn, self._store.dialect, name)
            in_order: Select[int, int, str] = (
                select(ITEM.c.paper_id, ITEM.c.position, ITEM.c.note)
                .join(p, p.c.id == ITEM.c.paper_id)
                .where(ITEM.c.list_id == lid, p.c.deleted_at.is_(None))
                .order_by(ITEM.c.position, ITEM.c.id)
            )
            return [(pid, pos, note) for pid, pos, note in conn.execute(in_order)]

    # ---- the lists -----------------------------------------------------------------------
    @writes
    def create(self, name: str, description: str = "") -> Change:
        name = _clean_name(name)
        with self._store.write() as tx:
            if _find(tx.conn, tx.d, name) is not None:
                raise LibraryError(f"a reading list named '{name}' exists already")
            lid = inserted_id(tx.conn.execute(insert(RL).values(name=name, description=description, created_at=tx.now)))
        return Change(ChangeKind.LISTS, list_ids=(lid,), detail=ListCreated(name))

    @writes
    def snapshot(self, name: str, description: str, paper_ids: Sequence[int]) -> Change:
        """A new list holding ``paper_ids`` in this order (a search's results kept), in one
        transaction. Named ``name``, or "name (2)", "name (3)", ... when that is taken; papers
        deleted meanwhile are passed over. ``detail.name``: the name it got (``delete`` undoes it)."""
        base = _clean_name(name)
        with self._store.write() as tx:
            chosen, n = base, 2
            while _find(tx.conn, tx.d, chosen) is not None:
                chosen, n = f"{base} ({n})", n + 1
            lid = inserted_id(
                tx.conn.execute(insert(RL).values(name=chosen, description=description, created_at=tx.now))
            )
            wanted = list(dict.fromkeys(int(i) for i in paper_ids))
            p = t.paper.c
            live: set[int] = set(
                tx.conn.execute(select(p.id).where(tx.d.in_ids(p.id, wanted), p.deleted_at.is_(None))).scalars()
            )
            ids = [i for i in wanted if i in live]
            tx.touched.update(ids)
            _insert_items(tx.conn, lid, dict.fromkeys(ids, ""))
            _renumber(tx.conn, lid, ids)
        return Change(ChangeKind.LISTS, tuple(ids), list_ids=(lid,), detail=ListSnapshotted(chosen, ids))

    @writes
    def rename(self, name: str, new_name: str) -> Change:
        new_name = _clean_name(new_name)
        with self._store.write() as tx:
            lid = _list_id(tx.conn, tx.d, name)
            other = _find(tx.conn, tx.d, new_name)
            if other is not None and other != lid:
                raise LibraryError(f"a reading list named '{new_name}' exists already")
            tx.conn.execute(update(RL).where(RL.c.id == lid).values(name=new_name))
        return Change(ChangeKind.LISTS, list_ids=(lid,), detail=ListRenamed(name, new_name))

    @writes
    def describe(self, name: str, description: str) -> Change:
        with self._store.write() as tx:
            lid = _list_id(tx.conn, tx.d, name)
            old: str = tx.conn.execute(select(RL.c.description).where(RL.c.id == lid)).scalar_one()
            tx.conn.execute(update(RL).where(RL.c.id == lid).values(description=description))
        return Change(ChangeKind.LISTS, list_ids=(lid,), detail=DescriptionBefore(name, old))

    @writes
    def delete(self, name: str) -> Change:
        """Delete a list (papers stay); ``detail.snapshot`` restores it."""
        with self._store.write() as tx:
            lid = _list_id(tx.conn, tx.d, name)
            snap = _snapshot(tx.conn, lid)
            tx.conn.execute(delete(RL).where(RL.c.id == lid))
        return Change(ChangeKind.LISTS, list_ids=(lid,), detail=ListSnapshot(snap))

    @writes
    def restore(self, snapshot: Mapping[str, Any]) -> Change:
        """Recreate a list, or put items back into it, at their old positions."""
        with self._store.write() as tx:
            lid = _find(tx.conn, tx.d, snapshot["name"])
            if lid is None:
                lid = inserted_id(
                    tx.conn.execute(
                        insert(RL).values(
                            name=snapshot["name"],
                            description=snapshot.get("description", ""),
                            created_at=tx.now,
                        )
                    )
                )
            order = _order(tx.conn, lid)
            notes: dict[int, str] = {}
            for pid, pos, note in sorted(snapshot["items"], key=lambda it: it[1]):
                if pid in order:
                    continue
                order.insert(min(pos, len(order)), pid)
                notes[pid] = note
            _insert_items(tx.conn, lid, notes)
            _renumber(tx.conn, lid, order)
        return Change(ChangeKind.LISTS, tuple(notes), list_ids=(lid,))

    # ---- items -----------------------------------------------------------------------------
    @writes
    def add(self, name: str, paper_ids: Sequence[int], position: int | None = None) -> Change:
        """Append papers (or insert them at ``position``); papers already in the list stay put."""
        with self._store.write() as tx:
            lid = _list_id(tx.conn, tx.d, name)
            ids = tx.require_papers(paper_ids)
            order = _order(tx.conn, lid)
            new = [i for i in ids if i not in order]
            at = len(order) if position is None else max(0, min(position, len(order)))
            order[at:at] = new
            _insert_items(tx.conn, lid, dict.fromkeys(new, ""))
            _renumber(tx.conn, lid, order)
        return Change(ChangeKind.LISTS, tuple(new), list_ids=(lid,), detail=ListAdded(name, new))

    @writes
    def remove(self, name: str, paper_ids: Sequence[int]) -> Change:
        """Remove papers from a list; ``detail.snapshot`` puts them back."""
        with self._store.write() as tx:
            lid = _list_id(tx.conn, tx.d, name)
            snap = _snapshot(tx.conn, lid)
            gone = {int(i) for i in paper_ids}
            tx.conn.execute(delete(ITEM).where(ITEM.c.list_id == lid, tx.d.in_ids(ITEM.c.paper_id, sorted(gone))))
            _renumber(tx.conn, lid, _order(tx.conn, lid))
        snap["items"] = [it for it in snap["items"] if it[0] in gone]
        return Change(ChangeKind.LISTS, tuple(sorted(gone)), list_ids=(lid,), detail=ListSnapshot(snap))

    @writes
    def move(self, name: str, paper_id: int, position: int) -> Change:
        """Move a paper to ``position`` (0-based; clamped)."""
        with self._store.write() as tx:
            lid = _list_id(tx.conn, tx.d, name)
            order = _order(tx.conn, lid)
            if paper_id not in order:
                raise LibraryError(f"paper {paper_id} is not in '{name}'")
            old = order.index(paper_id)
            order.remove(paper_id)
            order.insert(max(0, min(position, len(order))), paper_id)
            _renumber(tx.conn, lid, order)
        return Change(
            ChangeKind.LISTS, (paper_id,), list_ids=(lid,), detail=PositionBefore(name, old, order.index(paper_id))
        )

    @writes
    def set_item_note(self, name: str, paper_id: int, note: str) -> Change:
        """Set the note a list keeps on one of its papers."""
        with self._store.write() as tx:
            lid = _list_id(tx.conn, tx.d, name)
            item = and_(ITEM.c.list_id == lid, ITEM.c.paper_id == paper_id)
            old = tx.conn.execute(select(ITEM.c.note).where(item)).scalar()
            if old is None:
                raise LibraryError(f"paper {paper_id} is not in '{name}'")
            tx.conn.execute(update(ITEM).where(item).values(note=note))
        return Change(ChangeKind.LISTS, (paper_id,), list_ids=(lid,), detail=ItemNoteBefore(name, old))

    @writes
    def reorder(self, name: str, order: Sequence[int]) -> Change:
        """Set the whole order of a list (papers not named keep their relative order, after them).
        ``detail.old`` is the previous order, for undo."""
        with self._store.write() as tx:
            lid = _list_id(tx.conn, tx.d, name)
            old = _order(tx.conn, lid)
            wanted = [int(p) for p in dict.fromkeys(order) if int(p) in old]
            new = wanted + [p for p in old if p not in wanted]
            _renumber(tx.conn, lid, new)
        return Change(ChangeKind.LISTS, tuple(new), list_ids=(lid,), detail=OrderBefore(name, old))

    @writes
    def move_many(self, name: str, paper_ids: Sequence[int], position: int) -> Change:
        """Move several papers (kept in their order) so that they start at ``position``."""
        with self._store.read() as conn:
            old = _order(conn, _list_id(conn, self._store.dialect, name))
        moving = [p for p in old if p in set(paper_ids)]
        before = [p for p in old[: max(0, position)] if p not in moving]
        rest = [p for p in old if p not in moving and p not in before]
        return self.reorder(name, before + moving + rest)
