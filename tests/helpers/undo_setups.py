"""States a library is put in before an edit whose undo a test checks (tests of undo data and
of journaled undo): ``setup(lib, ids, tmp)``."""

from __future__ import annotations

from pathlib import Path

from desktop_app.core.library import Library


def nothing(_lib: Library, _ids: list[int], _tmp: Path) -> None:
    """An edit that needs nothing set up first."""


def tagged(lib: Library, ids: list[int], _tmp: Path) -> None:
    lib.tags.add(ids[:3], ["undo/alpha"])
    lib.tags.add(ids[2:5], ["undo/beta"])
    lib.tags.recolor("undo/alpha", "#1f77b4")


def listed(lib: Library, ids: list[int], _tmp: Path) -> None:
    lib.lists.create("Reading", "to read first")
    lib.lists.add("Reading", ids[:5])
    lib.lists.set_item_note("Reading", ids[1], "the second")
