"""``docs/architecture.md`` names every module of ``desktop_app``, and only modules that exist.

A module counts as named when the page holds its path below ``desktop_app/`` (``core/store/engine.py``;
with the ``desktop_app/`` prefix as well) or its dotted name (``desktop_app.core.store.engine``).
A package is named by its folder (``core/store/``), its ``__init__.py`` or its dotted name. A bare
file name (``engine.py``) does not count: several folders hold an ``errors.py`` or a
``change_log.py``. Paths the page gives under ``core/`` or ``gui/`` must exist, so a renamed or
removed module is noticed too. Imports nothing of the app: no Qt, no database.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "desktop_app"
DOC = ROOT / "docs" / "architecture.md"

# a path or dotted name: letters, digits, "_", ".", "/"; the trailing "." of a sentence is dropped
_TOKEN = re.compile(r"[\w./]+")


def modules(package: Path = PACKAGE) -> list[str]:
    """Every module of the app as its path below ``desktop_app/`` (``core/store/engine.py``).

    The top-level modules (``cli.py``, ``commands.py``, ...) and everything under ``core/`` and
    ``gui/``; ``__init__.py`` stands for its package."""
    found = [p.relative_to(package).as_posix() for p in package.glob("*.py")]
    for part in ("core", "gui"):
        found += [p.relative_to(package).as_posix() for p in (package / part).rglob("*.py")]
    return sorted(m for m in found if "__pycache__" not in m)


def _normal(token: str) -> str:
    """A token of the page as a path below ``desktop_app/``: dotted names become paths."""
    token = token.rstrip(".")
    if token.startswith("desktop_app.") and "/" not in token and not token.endswith(".py"):
        return token.removeprefix("desktop_app.").replace(".", "/")
    return token.removeprefix("./").removeprefix("desktop_app/")


def named(text: str) -> set[str]:
    """What the page names, as paths below ``desktop_app/`` (packages as ``core/store``)."""
    return {_normal(token).rstrip("/") for token in _TOKEN.findall(text)}


def unnamed(mods: list[str], names: set[str]) -> list[str]:
    """The modules the page does not name."""
    missing = []
    for mod in mods:
        if mod.endswith("__init__.py"):
            package = mod.removesuffix("/__init__.py").removesuffix("__init__.py")
            if mod in names or not package or package in names:
                continue
        elif mod in names or mod.removesuffix(".py") in names:
            continue
        missing.append(mod)
    return missing


def test_the_listing_finds_the_modules() -> None:
    mods = modules()
    assert "core/library.py" in mods and "gui/main_window.py" in mods and "cli.py" in mods
    assert "core/store/__init__.py" in mods and "core/insights/topics.py" in mods


def test_the_check_reads_paths_and_dotted_names() -> None:
    names = named("`core/store/engine.py`, desktop_app.gui.jobs and `desktop_app/cli.py`. `core/text/`")
    mods = [
        "core/store/engine.py",
        "gui/jobs.py",
        "cli.py",
        "core/text/__init__.py",
        "core/errors.py",
        "core/search/__init__.py",
    ]
    assert unnamed(mods, names) == ["core/errors.py", "core/search/__init__.py"]
    assert unnamed(["core/errors.py"], named("errors.py search/errors.py")) == ["core/errors.py"]


def test_every_module_is_in_the_architecture_page() -> None:
    missing = unnamed(modules(), named(DOC.read_text(encoding="utf-8")))
    assert not missing, (
        f"docs/architecture.md does not name {len(missing)} module(s): {', '.join(missing)}; "
        "add each with one line on what it does (its path below desktop_app/, e.g. core/store/engine.py)"
    )


def test_every_module_the_page_names_exists() -> None:
    names = named(DOC.read_text(encoding="utf-8"))
    stale = sorted(
        n for n in names if n.startswith(("core/", "gui/")) and n.endswith(".py") and not (PACKAGE / n).is_file()
    )
    assert not stale, f"docs/architecture.md names modules that do not exist: {', '.join(stale)}"
