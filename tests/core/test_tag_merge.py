"""Merging tags returns exactly what it changed, and unmerge puts back the prior tag rows."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from desktop_app.core.errors import LibraryError
from desktop_app.core.library import Library
from desktop_app.core.store import tables as t


def _rows(lib: Library) -> tuple[set, set]:
    """Every tag row and every paper-tag link, by name."""
    with lib.store.read() as conn:
        tags = set(conn.execute(select(t.tag.c.id, t.tag.c.name, t.tag.c.color)).all())
        links = set(
            conn.execute(
                select(t.paper_tag.c.paper_id, t.tag.c.name).join(t.tag, t.tag.c.id == t.paper_tag.c.tag_id)
            ).all()
        )
    return tags, links


def test_merge_then_unmerge_restores_every_row(seed_library: Library) -> None:
    lib = seed_library
    ids = lib.query("").ids
    lib.tags.add(ids[:5], ["rl"])
    lib.tags.add(ids[3:8], ["reinforcement-learning"])  # ids 3, 4 have both
    lib.tags.add(ids[:2], ["rl/rlvr"])
    lib.tags.recolor("rl", "#1f77b4")
    before = _rows(lib)
    assert lib.tags.merge_preview("rl", "reinforcement-learning") == {
        "tagged": 5,
        "both": 2,
        "gaining": 3,
        "target_exists": True,
    }
    assert _rows(lib) == before  # a preview changes nothing

    change = lib.tags.merge("rl", "reinforcement-learning")
    m = change.detail.merge
    assert m.tagged == tuple(sorted(ids[:5])) and sorted(m.gained) == sorted(ids[:3])
    assert not m.target_created and m.source.color == "#1f77b4"
    names = {n for _, n, _ in _rows(lib)[0]}
    assert "rl" not in names and "rl/rlvr" in names  # children stay
    for pid in ids[:8]:
        assert "reinforcement-learning" in lib.papers.get(pid).tags

    lib.tags.unmerge(change)
    assert _rows(lib) == before  # the same tag ids, names, colors and links
    again = lib.tags.merge("rl", "reinforcement-learning")  # redo
    assert again.detail.merge.gained == m.gained


def test_merge_into_a_new_tag_and_back(seed_library: Library) -> None:
    lib = seed_library
    ids = lib.query("").ids
    lib.tags.add(ids[:3], ["ml"])
    before = _rows(lib)
    assert lib.tags.merge_preview("ml", "machine-learning")["target_exists"] is False
    change = lib.tags.merge("ml", "machine-learning")
    assert change.detail.merge.target_created
    lib.tags.unmerge(change)
    assert _rows(lib) == before
    assert "machine-learning" not in {x.name for x in lib.tags.all()}


def test_merge_refuses_itself_and_unmerge_refuses_a_new_namesake(seed_library: Library) -> None:
    lib = seed_library
    ids = lib.query("").ids
    lib.tags.add(ids[:2], ["rl", "other"])
    with pytest.raises(LibraryError):
        lib.tags.merge("rl", "RL")
    change = lib.tags.merge("rl", "other")
    lib.tags.add(ids[5:6], ["rl"])  # a new "rl" since: undoing would make two
    with pytest.raises(LibraryError):
        lib.tags.unmerge(change)
