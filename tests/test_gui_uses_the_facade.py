"""The window reaches the library's data only through the Library facade: no module of
desktop_app/gui reads ``library.store`` (or ``lib.store``) under it."""

from __future__ import annotations

import ast
from pathlib import Path

GUI = Path(__file__).resolve().parents[1] / "desktop_app" / "gui"


def _owner(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def store_reads(source: str) -> list[int]:
    return [
        n.lineno
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.Attribute) and n.attr == "store" and _owner(n.value) in ("library", "lib")
    ]


def test_the_scan_sees_a_store_read() -> None:
    assert store_reads("def f(self):\n    return self.library.store.read()\n") == [2]
    assert store_reads("x = lib.store\n") == [1]
    assert store_reads("x = self.library.papers\n") == []


def test_no_gui_module_reads_the_store_under_the_facade() -> None:
    found = {p.name: lines for p in sorted(GUI.glob("*.py")) if (lines := store_reads(p.read_text("utf-8")))}
    assert not found, f"gui modules reading library.store (use a facade method): {found}"
