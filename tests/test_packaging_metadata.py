"""The wheel is whole: every package of the source tree (found, not listed), and the data files
the app reads at run time (migrations, catalogues, styles, icons, the sample)."""

from __future__ import annotations

import json
import re
import runpy
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.helpers.wheel_build import ROOT, build_wheel, copy_sources, wheel_names

# the mapping pyproject.toml keeps: package folder in the wheel -> folder in the source tree
MAPPED = {"desktop_app/migrations": "migrations", "desktop_app/resources": "resources"}


def source_files() -> set[str]:
    """Every file the installed app may read, under its name in the wheel."""
    out = {
        str(p.relative_to(ROOT))
        for p in (ROOT / "desktop_app").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    for inside, folder in MAPPED.items():
        out |= {
            f"{inside}/{p.relative_to(ROOT / folder)}"
            for p in (ROOT / folder).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
        }
    return out


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("wheel")
    return build_wheel(copy_sources(base / "src"), base / "dist")


def test_every_package_folder_is_found() -> None:
    packages = runpy.run_path(str(ROOT / "setup.py"), run_name="setup_probe")["discover_packages"]()
    for folder in sorted({p.parent for p in (ROOT / "desktop_app").rglob("*.py")}):
        if "__pycache__" not in folder.parts:
            assert ".".join(folder.relative_to(ROOT).parts) in packages
    assert "desktop_app.core.store" in packages
    assert {"desktop_app.migrations", "desktop_app.migrations.versions", "desktop_app.resources"} <= set(packages)
    assert not [p for p in packages if "__pycache__" in p]


def test_the_wheel_holds_every_source_and_data_file(wheel: Path) -> None:
    names = wheel_names(wheel)
    missing = sorted(source_files() - names)
    assert not missing, f"not in the wheel: {missing[:20]}"
    for needed in (
        "desktop_app/core/store/engine.py",
        "desktop_app/migrations/env.py",
        "desktop_app/migrations/script.py.mako",
        "desktop_app/resources/i18n/marginalia_zh_CN.qm",
        "desktop_app/resources/icons/marginalia.svg",
        "desktop_app/py.typed",
    ):
        assert needed in names, needed
    assert [n for n in names if n.startswith("desktop_app/resources/csl/") and n.endswith(".csl")]
    assert [n for n in names if n.startswith("desktop_app/resources/sample/") and n.endswith(".txt")]
    assert [n for n in names if n.startswith("desktop_app/migrations/versions/") and n.endswith(".py")]
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/", "packaging/"))]
    with zipfile.ZipFile(wheel) as z:
        entry_points = z.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert "marginalia = desktop_app.cli:main" in entry_points
    assert "marginalia-gui = desktop_app.cli:gui_main" in entry_points


def test_a_new_subpackage_is_picked_up_without_a_list(tmp_path: Path) -> None:
    """What another change adds (desktop_app/core/insights/, say) reaches the wheel, with or
    without an __init__.py."""
    src = copy_sources(tmp_path / "src")
    with_init = src / "desktop_app" / "core" / "insights_probe"
    with_init.mkdir()
    (with_init / "__init__.py").write_text('"""probe"""\n', encoding="utf-8")
    (with_init / "model.py").write_text("VALUE = 1\n", encoding="utf-8")
    without_init = src / "desktop_app" / "gui" / "pages_probe"
    without_init.mkdir()
    (without_init / "page.py").write_text("VALUE = 2\n", encoding="utf-8")
    names = wheel_names(build_wheel(src, tmp_path / "dist"))
    assert {
        "desktop_app/core/insights_probe/__init__.py",
        "desktop_app/core/insights_probe/model.py",
        "desktop_app/gui/pages_probe/page.py",
    } <= names


def test_the_flatpak_installs_the_postgresql_driver_and_every_dependency() -> None:
    """The Flatpak's wheel list (packaging/flatpak/python3-dependencies.json, read as JSON, so
    this runs without flatpak-builder): every pinned dependency and psycopg with psycopg-binary
    (its libpq), as the PyInstaller bundles carry them."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    module = json.loads((ROOT / "packaging/flatpak/python3-dependencies.json").read_text(encoding="utf-8"))
    installed = " ".join(module["build-commands"]).split()
    wheels = {}
    for name in (a for a in installed if a.endswith(".whl")):
        dist, version = name.split("-")[:2]
        wheels[re.sub(r"[-_.]+", "-", dist).lower()] = version
    pins = [*project["dependencies"], *project["optional-dependencies"]["postgresql"]]
    assert any(p.startswith("psycopg[binary]==") for p in pins)
    for pin in pins:
        name, extras, version = re.match(r"([A-Za-z0-9_.-]+)(\[[^\]]*\])?==([^;\s]+)", pin).groups()
        wanted = [name] + (["psycopg-binary"] if name == "psycopg" and extras == "[binary]" else [])
        for dist in wanted:
            key = re.sub(r"[-_.]+", "-", dist).lower()
            assert wheels.get(key) == version, f"{dist} {version}: the Flatpak has {wheels.get(key)}"
    sources = {s["url"].rsplit("/", 1)[1] for s in module["sources"]}
    assert sources == {a for a in installed if a.endswith(".whl")}
