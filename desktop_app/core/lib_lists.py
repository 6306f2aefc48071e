"""Reading lists: named, described, with a manual order and a note per item."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sqlalchemy import Connection, text

from desktop_app.core.db import LibraryError
from desktop_app.core.values import Change

if TYPE_CHECKING:
    from desktop_app.core.library import Library


def _list_id(conn: Connection, name: str) -> int:
    row = conn.execute(text("SELECT id FROM reading_list WHERE name=:n COLLATE NOCASE"), {"n": name}).first()
    if row is None:
        raise LibraryError(f"no reading list named '{name}'")
    return row[0]


def _order(conn: Connection, lid: int) -> list[int]:
    return [r[0] for r in conn.execute(
        text("SELECT paper_id FROM reading_list_item WHERE list_id=:l ORDER BY position, id"), {"l": lid})]


def _renumber(conn: Connection, lid: int, order: list[int]) -> None:
    # two passes avoid transient clashes if positions were ever made unique
    for pos, pid in enumerate(order):
        conn.execute(text("UPDATE reading_list_item SET position=:p WHERE list_id=:l AND paper_id=:i"),
                     {"p": pos, "l": lid, "i": pid})


def create_list(self: Library, name: str, description: str = "") -> Change:
    name = " ".join(name.split())
    if not name:
        raise LibraryError("a reading list needs a name")
    from desktop_app.core.library import now_text

    with self._tx() as conn:
        if conn.execute(text("SELECT 1 FROM reading_list WHERE name=:n COLLATE NOCASE"), {"n": name}).first():
            raise LibraryError(f"a reading list named '{name}' exists already")
        lid = conn.execute(text("INSERT INTO reading_list (name, description, created_at) VALUES (:n, :d, :c)"),
                           {"n": name, "d": description, "c": now_text()}).lastrowid
    return Change("lists", list_ids=(lid,), detail={"name": name})


def rename_list(self: Library, name: str, new_name: str) -> Change:
    new_name = " ".join(new_name.split())
    if not new_name:
        raise LibraryError("a reading list needs a name")
    with self._tx() as conn:
        lid = _list_id(conn, name)
        other = conn.execute(text("SELECT id FROM reading_list WHERE name=:n COLLATE NOCASE"), {"n": new_name}).first()
        if other and other[0] != lid:
            raise LibraryError(f"a reading list named '{new_name}' exists already")
        conn.execute(text("UPDATE reading_list SET name=:n WHERE id=:l"), {"n": new_name, "l": lid})
    return Change("lists", list_ids=(lid,), detail={"old": name, "new": new_name})


def describe_list(self: Library, name: str, description: str) -> Change:
    with self._tx() as conn:
        lid = _list_id(conn, name)
        old = conn.execute(text("SELECT description FROM reading_list WHERE id=:l"), {"l": lid}).scalar_one()
        conn.execute(text("UPDATE reading_list SET description=:d WHERE id=:l"), {"d": description, "l": lid})
    return Change("lists", list_ids=(lid,), detail={"old": old})


def list_items(self: Library, name: str) -> list[tuple[int, int, str]]:
    """(paper id, position, item note) in order; trashed papers left out."""
    with self.engine.connect() as conn:
        lid = _list_id(conn, name)
        return [tuple(r) for r in conn.execute(text(
            "SELECT i.paper_id, i.position, i.note FROM reading_list_item i JOIN paper p ON p.id=i.paper_id "
            "WHERE i.list_id=:l AND p.deleted_at IS NULL ORDER BY i.position, i.id"), {"l": lid})]


def _snapshot(conn: Connection, lid: int) -> dict:
    name, desc = conn.execute(text("SELECT name, description FROM reading_list WHERE id=:l"), {"l": lid}).one()
    items = [tuple(r) for r in conn.execute(text(
        "SELECT paper_id, position, note FROM reading_list_item WHERE list_id=:l ORDER BY position, id"), {"l": lid})]
    return {"name": name, "description": desc, "items": items}


def delete_list(self: Library, name: str) -> Change:
    """Delete a list (papers stay); ``detail["snapshot"]`` restores it."""
    with self._tx() as conn:
        lid = _list_id(conn, name)
        snap = _snapshot(conn, lid)
        conn.execute(text("DELETE FROM reading_list WHERE id=:l"), {"l": lid})
    return Change("lists", list_ids=(lid,), detail={"snapshot": snap})


def restore_list(self: Library, snapshot: dict) -> Change:
    """Recreate a list, or put items back into it, at their old positions."""
    from desktop_app.core.library import now_text

    with self._tx() as conn:
        row = conn.execute(text("SELECT id FROM reading_list WHERE name=:n COLLATE NOCASE"),
                           {"n": snapshot["name"]}).first()
        lid = row[0] if row else conn.execute(
            text("INSERT INTO reading_list (name, description, created_at) VALUES (:n, :d, :c)"),
            {"n": snapshot["name"], "d": snapshot.get("description", ""), "c": now_text()}).lastrowid
        order = _order(conn, lid)
        notes = {}
        for pid, pos, note in sorted(snapshot["items"], key=lambda it: it[1]):
            if pid in order:
                continue
            order.insert(min(pos, len(order)), pid)
            notes[pid] = note
        for pid, note in notes.items():
            conn.execute(text("INSERT INTO reading_list_item (list_id, paper_id, position, note) VALUES (:l, :p, 0, :n)"),
                         {"l": lid, "p": pid, "n": note})
        _renumber(conn, lid, order)
    return Change("lists", tuple(notes), list_ids=(lid,))


def add_to_list(self: Library, name: str, paper_ids: Sequence[int], position: int | None = None) -> Change:
    """Append papers (or insert them at ``position``); papers already in the list stay put."""
    with self._tx() as conn:
        lid = _list_id(conn, name)
        ids = self._require_papers(conn, paper_ids)
        order = _order(conn, lid)
        new = [i for i in ids if i not in order]
        at = len(order) if position is None else max(0, min(position, len(order)))
        order[at:at] = new
        for pid in new:
            conn.execute(text("INSERT INTO reading_list_item (list_id, paper_id, position, note) VALUES (:l, :p, 0, '')"),
                         {"l": lid, "p": pid})
        _renumber(conn, lid, order)
    return Change("lists", tuple(new), list_ids=(lid,), detail={"added": new})


def remove_from_list(self: Library, name: str, paper_ids: Sequence[int]) -> Change:
    """Remove papers from a list; ``detail["snapshot"]`` puts them back."""
    with self._tx() as conn:
        lid = _list_id(conn, name)
        snap = _snapshot(conn, lid)
        gone = set(int(i) for i in paper_ids)
        conn.execute(text("DELETE FROM reading_list_item WHERE list_id=:l AND paper_id IN (SELECT value FROM json_each(:i))"),
                     {"l": lid, "i": str(sorted(gone))})
        _renumber(conn, lid, [p for p in _order(conn, lid)])
    snap["items"] = [it for it in snap["items"] if it[0] in gone]
    return Change("lists", tuple(sorted(gone)), list_ids=(lid,), detail={"snapshot": snap})


def move_in_list(self: Library, name: str, paper_id: int, position: int) -> Change:
    """Move a paper to ``position`` (0-based; clamped)."""
    with self._tx() as conn:
        lid = _list_id(conn, name)
        order = _order(conn, lid)
        if paper_id not in order:
            raise LibraryError(f"paper {paper_id} is not in '{name}'")
        old = order.index(paper_id)
        order.remove(paper_id)
        order.insert(max(0, min(position, len(order))), paper_id)
        _renumber(conn, lid, order)
    return Change("lists", (paper_id,), list_ids=(lid,), detail={"old": old, "new": order.index(paper_id)})


def set_item_note(self: Library, name: str, paper_id: int, note: str) -> Change:
    with self._tx() as conn:
        lid = _list_id(conn, name)
        old = conn.execute(text("SELECT note FROM reading_list_item WHERE list_id=:l AND paper_id=:p"),
                           {"l": lid, "p": paper_id}).scalar()
        if old is None:
            raise LibraryError(f"paper {paper_id} is not in '{name}'")
        conn.execute(text("UPDATE reading_list_item SET note=:n WHERE list_id=:l AND paper_id=:p"),
                     {"n": note, "l": lid, "p": paper_id})
    return Change("lists", (paper_id,), list_ids=(lid,), detail={"old": old})


def reorder_list(self: Library, name: str, order: Sequence[int]) -> Change:
    """Set the whole order of a list (papers not named keep their relative order, after them).
    ``detail["old"]`` is the previous order, for undo."""
    with self._tx() as conn:
        lid = _list_id(conn, name)
        old = _order(conn, lid)
        wanted = [int(p) for p in dict.fromkeys(order) if int(p) in old]
        new = wanted + [p for p in old if p not in wanted]
        _renumber(conn, lid, new)
    return Change("lists", tuple(new), list_ids=(lid,), detail={"old": old})


def move_many_in_list(self: Library, name: str, paper_ids: Sequence[int], position: int) -> Change:
    """Move several papers (kept in their order) so that they start at ``position``."""
    with self.engine.connect() as conn:
        old = _order(conn, _list_id(conn, name))
    moving = [p for p in old if p in set(paper_ids)]
    before = [p for p in old[:max(0, position)] if p not in moving]
    rest = [p for p in old if p not in moving and p not in before]
    return reorder_list(self, name, before + moving + rest)
