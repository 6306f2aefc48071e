"""Tag writes of the Library: add/remove on many papers, rename, merge, recolor, delete.

Tags live only in SQL; none of these touch the full-text index.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from sqlalchemy import Connection, text

from desktop_app.core.db import LibraryError
from desktop_app.core.values import Change

if TYPE_CHECKING:
    from desktop_app.core.library import Library

_COLOR = re.compile(r"^(#[0-9a-fA-F]{6})?$")


def normalize_tag(name: str) -> str:
    """"  RL / rlvr " -> "RL/rlvr": segments trimmed, empty segments dropped."""
    parts = [" ".join(p.split()) for p in name.split("/")]
    clean = "/".join(p for p in parts if p)
    if not clean:
        raise LibraryError(f"'{name}' is not a tag name")
    if len(clean) > 200:
        raise LibraryError("a tag name is at most 200 characters")
    return clean


def _tag_id(conn: Connection, name: str, create: bool) -> int | None:
    row = conn.execute(text("SELECT id FROM tag WHERE name = :n COLLATE NOCASE"), {"n": name}).first()
    if row:
        return row[0]
    if not create:
        return None
    return conn.execute(text("INSERT INTO tag (name, color) VALUES (:n, '')"), {"n": name}).lastrowid


def _drop_unused(conn: Connection) -> None:
    conn.execute(text(
        "DELETE FROM tag WHERE color = '' AND NOT EXISTS (SELECT 1 FROM paper_tag pt WHERE pt.tag_id = tag.id)"
    ))


def add_tags(self: Library, paper_ids: Sequence[int], names: Sequence[str]) -> Change:
    """Add tags to papers. ``detail["links"]`` lists the (paper, tag) links actually added."""
    names = list(dict.fromkeys(normalize_tag(n) for n in names))
    added: list[tuple[int, str]] = []
    with self._tx() as conn:
        ids = self._require_papers(conn, paper_ids)
        ids_json = str(ids)
        for name in names:
            tid = _tag_id(conn, name, create=True)
            real = conn.execute(text("SELECT name FROM tag WHERE id=:t"), {"t": tid}).scalar_one()
            have = {r[0] for r in conn.execute(
                text("SELECT paper_id FROM paper_tag WHERE tag_id=:t AND paper_id IN (SELECT value FROM json_each(:ids))"),
                {"t": tid, "ids": ids_json})}
            conn.execute(
                text("INSERT OR IGNORE INTO paper_tag (paper_id, tag_id) SELECT value, :t FROM json_each(:ids)"),
                {"t": tid, "ids": ids_json},
            )
            added += [(pid, real) for pid in ids if pid not in have]
    return Change("tags", tuple(ids), tuple(names), detail={"links": added})


def remove_tags(self: Library, paper_ids: Sequence[int], names: Sequence[str]) -> Change:
    """Remove exactly these tags (not their children). ``detail["links"]`` lists removed links."""
    removed: list[tuple[int, str]] = []
    with self._tx() as conn:
        ids = [int(i) for i in paper_ids]
        for name in names:
            tid = _tag_id(conn, normalize_tag(name), create=False)
            if tid is None:
                continue
            real = conn.execute(text("SELECT name FROM tag WHERE id=:t"), {"t": tid}).scalar_one()
            gone = [r[0] for r in conn.execute(
                text("DELETE FROM paper_tag WHERE tag_id=:t AND paper_id IN (SELECT value FROM json_each(:ids)) "
                     "RETURNING paper_id"), {"t": tid, "ids": str(ids)})]
            removed += [(pid, real) for pid in gone]
        _drop_unused(conn)
    return Change("tags", tuple(ids), tuple(names), detail={"links": removed})


def set_tags(self: Library, links: Sequence[tuple[int, str]], present: bool) -> Change:
    """Add (present=True) or remove exact (paper, tag) links: the undo of add/remove."""
    by_tag: dict[str, list[int]] = {}
    for pid, name in links:
        by_tag.setdefault(name, []).append(pid)
    pids: set[int] = set()
    for name, ids in by_tag.items():
        (add_tags if present else remove_tags)(self, ids, [name])
        pids.update(ids)
    return Change("tags", tuple(sorted(pids)), tuple(by_tag))


def rename_tag(self: Library, old: str, new: str) -> Change:
    """Rename a tag and its children ("rl" -> "reinforcement" renames "rl/rlvr" too).
    Renaming onto an existing tag merges into it."""
    old, new = normalize_tag(old), normalize_tag(new)
    with self._tx() as conn:
        rows = conn.execute(
            text("SELECT id, name FROM tag WHERE name = :o COLLATE NOCASE OR name LIKE :p ESCAPE '\\'"),
            {"o": old, "p": old.replace("%", "\\%").replace("_", "\\_") + "/%"},
        ).all()
        if not rows:
            raise LibraryError(f"no tag named '{old}'")
        for tid, name in rows:
            target = new + name[len(old):]
            existing = _tag_id(conn, target, create=False)
            if existing is not None and existing != tid:
                _merge(conn, tid, existing)
            else:
                conn.execute(text("UPDATE tag SET name=:n WHERE id=:t"), {"n": target, "t": tid})
    return Change("tags", tag_names=(old, new), detail={"renamed": {old: new}})


def _merge(conn: Connection, src: int, dst: int) -> None:
    conn.execute(text("INSERT OR IGNORE INTO paper_tag (paper_id, tag_id) SELECT paper_id, :d FROM paper_tag WHERE tag_id=:s"),
                 {"d": dst, "s": src})
    conn.execute(text("DELETE FROM tag WHERE id=:s"), {"s": src})


def merge_tags(self: Library, source: str, target: str) -> Change:
    """Every paper tagged ``source`` gets ``target``; ``source`` disappears."""
    source, target = normalize_tag(source), normalize_tag(target)
    with self._tx() as conn:
        src = _tag_id(conn, source, create=False)
        if src is None:
            raise LibraryError(f"no tag named '{source}'")
        dst = _tag_id(conn, target, create=True)
        if src != dst:
            _merge(conn, src, dst)
    return Change("tags", tag_names=(source, target))


def recolor_tag(self: Library, name: str, color: str) -> Change:
    """Set a tag's color ("#rrggbb", or "" for none)."""
    if not _COLOR.fullmatch(color):  # fullmatch: "$" would accept a trailing newline
        raise LibraryError(f"a color looks like #1f77b4, not '{color}'")
    name = normalize_tag(name)
    with self._tx() as conn:
        tid = _tag_id(conn, name, create=False)
        if tid is None:
            raise LibraryError(f"no tag named '{name}'")
        old = conn.execute(text("SELECT color FROM tag WHERE id=:t"), {"t": tid}).scalar_one()
        conn.execute(text("UPDATE tag SET color=:c WHERE id=:t"), {"c": color, "t": tid})
    return Change("tags", tag_names=(name,), detail={"old_color": old})


def delete_tag(self: Library, name: str) -> Change:
    """Delete one tag (its children stay). ``detail`` holds what undo needs."""
    name = normalize_tag(name)
    with self._tx() as conn:
        tid = _tag_id(conn, name, create=False)
        if tid is None:
            raise LibraryError(f"no tag named '{name}'")
        real, color = conn.execute(text("SELECT name, color FROM tag WHERE id=:t"), {"t": tid}).one()
        pids = [r[0] for r in conn.execute(text("SELECT paper_id FROM paper_tag WHERE tag_id=:t"), {"t": tid})]
        conn.execute(text("DELETE FROM tag WHERE id=:t"), {"t": tid})
    return Change("tags", tuple(pids), (real,), detail={"links": [(p, real) for p in pids], "color": color})
