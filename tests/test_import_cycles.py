"""No import cycles inside ``desktop_app``: the import graph, read from the source, is acyclic.

Every ``import`` and ``from ... import`` statement counts, wherever it is: at the top of the
file, inside a function, under ``if TYPE_CHECKING:`` or in a ``try``. A cycle closed by a lazy
import still works at run time, but a reader following the imports goes round in circles all
the same, and moving that import to the top of the file breaks start-up.

How statements become edges of the graph (module -> module it imports):

* ``import a.b.c`` and ``from a.b.c import x`` import ``a.b.c``; a package is its ``__init__``.
* ``from a.b import c`` imports the submodule ``a.b.c`` when there is one, else the module
  ``a.b`` (``c`` is then a name defined there).
* relative imports are resolved against the importing module's package.
* an import of a ``desktop_app`` module that does not exist counts as an import of its nearest
  existing parent package (Python would run that package's ``__init__``).
* the parent packages Python initialises on the way (``a`` and ``a.b`` for ``import a.b.c``)
  are not edges: otherwise every ``__init__`` that re-exports from its submodules would close
  a cycle with each of them. A module importing itself is not an edge either.

Source folders come from ``[tool.setuptools.package-dir]`` in pyproject.toml, so
``migrations/`` is read as ``desktop_app.migrations`` and ``resources/`` as
``desktop_app.resources``. ``importlib.import_module("...")`` calls are not followed.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOP = "desktop_app"

Graph = Mapping[str, Iterable[str]]


# --- reading the source -------------------------------------------------------------------------


def package_dirs(root: Path = ROOT) -> dict[str, Path]:
    """Package name -> source folder, for the ``desktop_app`` packages (from pyproject.toml)."""
    config = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))
    mapping = config["tool"]["setuptools"]["package-dir"]
    dirs = {name: root / folder for name, folder in mapping.items() if name.split(".")[0] == TOP}
    dirs.setdefault(TOP, root / TOP)
    return dirs


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Module name -> file, for every ``.py`` file of the ``desktop_app`` packages."""
    modules: dict[str, Path] = {}
    for package, folder in package_dirs(root).items():
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            name = ".".join((package, *parts))
            assert name not in modules, f"{name} is both {modules[name]} and {path}"
            modules[name] = path
    return modules


def _nearest(name: str, known: set[str]) -> str | None:
    """*name* if it is a known module, else its nearest known parent package."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(module: str, source: str, known: set[str], *, is_package: bool = False) -> dict[str, int]:
    """The ``desktop_app`` modules *module* imports (see the module docstring), with a line each.

    *known* is the set of all module names; *is_package* says *module* is an ``__init__``.
    """
    found: dict[str, int] = {}

    def add(target: str | None, line: int) -> None:
        if target is not None and target != module:
            found[target] = min(line, found.get(target, line))

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == TOP:
                    add(_nearest(alias.name, known), node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = module if is_package else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{node.module}" if node.module else package
            else:
                base = node.module or ""
            if base.split(".")[0] != TOP:
                continue
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                add(submodule if submodule in known else _nearest(base, known), node.lineno)
    return found


def import_graph(root: Path = ROOT) -> dict[str, dict[str, int]]:
    """Module -> {imported module: line of the first such import}, for all of ``desktop_app``."""
    files = module_files(root)
    known = set(files)
    return {
        name: imports_of(name, path.read_text("utf-8"), known, is_package=path.name == "__init__.py")
        for name, path in files.items()
    }


# --- finding cycles -----------------------------------------------------------------------------


def strongly_connected(graph: Graph) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative), each sorted; edges to nodes that
    are not keys of *graph* are ignored."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        work = [(start, iter(sorted(t for t in graph[start] if t in graph)))]
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(t for t in graph[succ] if t in graph))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(sorted(component))
    return components


def cycles(graph: Graph) -> list[list[str]]:
    """The groups of modules that import each other (components of two or more), sorted."""
    return sorted(c for c in strongly_connected(graph) if len(c) > 1)


def describe(graph: Mapping[str, Mapping[str, int]], group: list[str]) -> str:
    members = set(group)
    edges = [
        f"    {source}:{line} imports {target}"
        for source in group
        for target, line in sorted(graph[source].items())
        if target in members
    ]
    return f"cycle among {len(group)} modules: {', '.join(group)}\n" + "\n".join(edges)


# --- the test -----------------------------------------------------------------------------------


def test_desktop_app_has_no_import_cycles() -> None:
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import cycles in desktop_app:\n" + "\n".join(describe(graph, c) for c in found)


# --- the detector, checked on graphs and sources made up for the purpose ------------------------


def test_control_the_graph_covers_the_package_and_its_mapped_folders() -> None:
    graph = import_graph()
    assert len(graph) > 50
    assert {"desktop_app", "desktop_app.cli", "desktop_app.core.formats.writers"} <= set(graph)
    assert "desktop_app.migrations.env" in graph  # migrations/ is read as desktop_app.migrations
    assert "desktop_app.core.models" in graph["desktop_app.migrations.env"]
    assert "desktop_app.core.search.worker_child" in graph["desktop_app.cli"]  # imported inside main()


def test_control_a_cycle_is_found_and_an_acyclic_graph_passes() -> None:
    cyclic = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"a", "f"}, "f": {"e"}}
    assert cycles(cyclic) == [["a", "b", "c"], ["e", "f"]]
    assert cycles({"a": {"b", "c"}, "b": {"c"}, "c": set(), "d": {"a"}}) == []
    assert cycles({"a": {"a"}}) == []  # a self-import is not a cycle between modules
    long_chain = {str(i): {str(i + 1)} for i in range(5000)} | {"5000": {"0"}}
    assert [len(c) for c in cycles(long_chain)] == [5001]  # iterative: no recursion limit


def test_control_every_import_form_is_an_edge() -> None:
    known = {
        "desktop_app",
        "desktop_app.pkg",
        "desktop_app.pkg.sub",
        "desktop_app.pkg.other",
        "desktop_app.pkg.inner",
        "desktop_app.pkg.inner.deep",
        "desktop_app.top",
        "desktop_app.lazy",
        "desktop_app.typing_only",
    }
    source = (
        "from __future__ import annotations\n"
        "import json\n"
        "from typing import TYPE_CHECKING\n"
        "import desktop_app.top\n"
        "from . import other\n"
        "from .inner import deep\n"
        "from .. import pkg\n"
        "from desktop_app import __version__\n"
        "if TYPE_CHECKING:\n"
        "    from desktop_app.typing_only import Thing\n"
        "def later():\n"
        "    from desktop_app.lazy import helper\n"
        "    import desktop_app.pkg.gone\n"
    )
    assert imports_of("desktop_app.pkg.sub", source, known) == {
        "desktop_app.top": 4,
        "desktop_app.pkg.other": 5,
        "desktop_app.pkg.inner.deep": 6,
        "desktop_app.pkg": 7,
        "desktop_app": 8,
        "desktop_app.typing_only": 10,
        "desktop_app.lazy": 12,
    }
    # In a package's __init__, "." is the package itself; importing yourself is no edge.
    init = "from . import sub\nfrom .inner import deep\nfrom desktop_app.pkg import sub as s, name\n"
    assert imports_of("desktop_app.pkg", init, known, is_package=True) == {
        "desktop_app.pkg.sub": 1,
        "desktop_app.pkg.inner.deep": 2,
    }
