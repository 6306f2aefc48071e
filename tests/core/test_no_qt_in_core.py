"""``desktop_app.core`` is headless: the CLI, tests and any other front end reuse it without Qt."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "desktop_app" / "core"
QT_NAMES = ("PySide6", "shiboken6", "PyQt5", "PyQt6", "PySide2")

_PROBE = """
import importlib, json, pkgutil, sys
{before}
import desktop_app.core as core
names = [m.name for m in pkgutil.walk_packages(core.__path__, "desktop_app.core.")]
for name in names:
    importlib.import_module(name)
qt = sorted(m for m in sys.modules if m.split(".")[0] in {qt})
print(json.dumps({{"modules": names, "qt": qt}}))
"""


def _probe(before: str = "") -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    code = _PROBE.format(before=before, qt=repr(set(QT_NAMES)))
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_importing_every_core_module_loads_no_qt() -> None:
    result = _probe()
    expected = {
        "desktop_app.core." + ".".join(p.relative_to(CORE).with_suffix("").parts).removesuffix(".__init__")
        for p in CORE.rglob("*.py")
        if p != CORE / "__init__.py"
    }
    assert expected <= set(result["modules"])  # the walk imported every module under core
    assert result["qt"] == [], f"desktop_app.core pulled in Qt: {result['qt']}"


def test_control_the_probe_sees_qt_when_it_is_imported() -> None:
    result = _probe("import PySide6.QtCore")
    assert "PySide6" in result["qt"] and "PySide6.QtCore" in result["qt"]


def qt_imports(source: str) -> list[tuple[int, str]]:
    """(line, module) for every import of a Qt binding: import, from-import, import_module."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            names = [str(node.args[0].value)]
        else:
            continue
        out += [(node.lineno, n) for n in names if n.split(".")[0] in QT_NAMES]
    return sorted(out)


def test_no_core_file_imports_qt() -> None:
    files = sorted(CORE.rglob("*.py"))
    assert len(files) > 20
    problems = {str(f.relative_to(ROOT)): found for f in files if (found := qt_imports(f.read_text("utf-8")))}
    assert problems == {}


def test_control_the_static_check_flags_each_import_form() -> None:
    source = (
        "import json\n"
        "import PySide6\n"
        "from PySide6.QtCore import QObject\n"
        "def later():\n"
        "    import importlib\n"
        "    return importlib.import_module('PySide6.QtGui')\n"
    )
    assert qt_imports(source) == [(2, "PySide6"), (3, "PySide6.QtCore"), (6, "PySide6.QtGui")]
