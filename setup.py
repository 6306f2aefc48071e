"""Package discovery for setuptools (the rest of the configuration is in pyproject.toml).

pyproject.toml maps the top-level ``migrations/`` and ``resources/`` folders into the package
(``[tool.setuptools.package-dir]``); setuptools' ``packages.find`` cannot follow such a mapping,
so the packages are found here: every package under ``desktop_app/`` (a new subpackage is
picked up without a list to keep), plus each mapped folder and the folders inside it.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from setuptools import find_namespace_packages, setup

ROOT = Path(__file__).resolve().parent
TOP = "desktop_app"
CACHES = ["__pycache__", "*.__pycache__"]


def package_dirs() -> dict[str, str]:
    """pyproject's package-dir mapping: package name -> folder, relative to the project."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return dict(config["tool"]["setuptools"]["package-dir"])


def discover_packages() -> list[str]:
    """The code's packages (folders holding Python files, ``__init__.py`` or not) and every folder of the mapped data
    packages (``desktop_app.resources.icons`` and the like, so their files are package data)."""
    code = ROOT / TOP
    found = [TOP] + [
        f"{TOP}.{p}"
        for p in find_namespace_packages(str(code), exclude=CACHES)
        if any((code / p.replace(".", "/")).glob("*.py"))
    ]
    for package, folder in package_dirs().items():
        if package == TOP:
            continue
        subs = find_namespace_packages(str(ROOT / folder), exclude=CACHES)
        found += [package] + [f"{package}.{sub}" for sub in subs]
    return sorted(set(found))


if __name__ == "__main__":
    setup(packages=discover_packages())
