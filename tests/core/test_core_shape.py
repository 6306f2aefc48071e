"""The core's shape (docs/architecture.md): managers receive the store and never import the
Library back; nothing is bound onto a class from outside it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "desktop_app" / "core"
MANAGERS = (
    "papers",
    "tags",
    "notes",
    "highlights",
    "reading_lists",
    "saved_searches",
    "importing.imports",
    "exports",
    "finder",
    "duplicates",
    "trash",
    "library_backups",
    "insights.triage_progress",
    "insights.library_insights",
)
ATTRIBUTES = {
    "reading_lists": "lists",
    "saved_searches": "searches",
    "importing.imports": "imports",
    "library_backups": "backups",
    "insights.triage_progress": "progress",
    "insights.library_insights": "insights",
}


def _path(name: str) -> Path:
    return CORE / f"{name.replace('.', '/')}.py"


def _imports(path: Path) -> set[str]:
    """Modules imported at run time (type-only imports of a manager it receives are fine)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    type_only = {
        id(n)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and getattr(block.test, "id", None) == "TYPE_CHECKING"
        for n in ast.walk(block)
    }
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


@pytest.mark.parametrize("name", MANAGERS)
def test_manager_never_imports_the_library_or_another_manager(name: str) -> None:
    source = _path(name).read_text(encoding="utf-8")
    assert not re.search(r"desktop_app\.core\.library\b(?!_)", source)  # not even for type hints
    imported = _imports(_path(name))
    others = {f"desktop_app.core.{m}" for m in MANAGERS if m != name}
    assert not imported & others, f"{name}.py imports {sorted(imported & others)}"


def test_every_manager_is_a_library_attribute(tmp_path: Path) -> None:
    from desktop_app.core.library import Library

    with Library.open(tmp_path / "lib") as lib:
        for name in MANAGERS:
            attr = ATTRIBUTES.get(name, name)
            manager = getattr(lib, attr)
            assert type(manager).__module__ == f"desktop_app.core.{name}"


def test_no_method_binding_or_raw_sql_in_managers() -> None:
    for name in MANAGERS:
        source = _path(name).read_text(encoding="utf-8")
        tree = ast.parse(source)
        calls = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        assert "setattr" not in calls, name
        assert "text" not in calls, f"{name}.py builds raw SQL with text()"
        assert "exec_driver_sql" not in source, name
        # no module-level function taking a Library as `self` (the old bound-method style)
        for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
            assert not (fn.args.args and fn.args.args[0].arg == "self"), f"{name}.{fn.name}"
