"""The main window is composed, not written into: no other gui module assigns an attribute on it
or calls one of its private methods (an AST scan of desktop_app/gui)."""

from __future__ import annotations

import ast
from pathlib import Path

GUI = Path(__file__).resolve().parents[1] / "desktop_app" / "gui"
WINDOW_NAMES = {"window", "win", "w", "main_window", "new_win"}  # how the helpers name the window
WINDOW_SELF_ATTRS = {"window", "window_", "win", "_window", "_win"}  # self.window_ and the like


def _is_window(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return node.id in WINDOW_NAMES
    return (
        isinstance(node, ast.Attribute)
        and node.attr in WINDOW_SELF_ATTRS
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _private_members_of_main_window() -> set[str]:
    tree = ast.parse((GUI / "main_window.py").read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "MainWindow")
    names = {n.name for n in ast.walk(cls) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    names |= {
        n.attr
        for n in ast.walk(cls)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"
    }
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        found: list[ast.expr] = []
        for target in node.targets:
            found.extend(target.elts if isinstance(target, ast.Tuple | ast.List) else [target])
        return found
    if isinstance(node, ast.AugAssign | ast.AnnAssign):
        return [node.target]
    return []


def _offences(path: Path, private: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = f"{path.name}:"
    found: list[str] = []
    for node in ast.walk(tree):
        for target in _targets(node):
            if isinstance(target, ast.Attribute) and _is_window(target.value):
                found.append(f"{where}{target.lineno} assigns {ast.unparse(target)}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in {"setattr", "delattr"}
            and node.args
            and _is_window(node.args[0])
        ):
            found.append(f"{where}{node.lineno} {ast.unparse(node)}")
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            on_window = _is_window(node.value)
            not_self = not (isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"})
            if on_window or (not_self and node.attr in private):
                found.append(f"{where}{node.lineno} reaches {ast.unparse(node)}")
    return found


def test_no_gui_module_writes_into_the_window_or_calls_its_private_methods() -> None:
    private = _private_members_of_main_window()
    assert private, "the scan found MainWindow's private members"
    offences = [
        o for path in sorted(GUI.glob("*.py")) if path.name != "main_window.py" for o in _offences(path, private)
    ]
    assert offences == []


def test_the_scan_sees_an_assignment_and_a_private_call(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("def f(win):\n    win.flag = 1\n    win._set_sort('a', False)\n", encoding="utf-8")
    assert len(_offences(sample, set())) == 2
