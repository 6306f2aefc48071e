"""The wheel as a lab installs it (`pip install marginalia-*.whl`), run from a fresh venv outside
the source tree: import the seeds, search, the window's smoke test, and a library made by an
older version opened (and migrated) by the installed copy."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.helpers.shared import SEEDS, SHARED_MISSING
from tests.helpers.wheel_build import ROOT, build_wheel, copy_sources, fresh_venv

pytestmark = pytest.mark.packaging


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a fresh venv holding the wheel built from a copy of the tree."""
    base = tmp_path_factory.mktemp("wheel-install")
    wheel = build_wheel(copy_sources(base / "src"), base / "dist")
    return fresh_venv(base / "venv", wheel)


def run(bin_dir: Path, tmp: Path, *args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    """The installed `marginalia`, from a folder outside the tree, with a throwaway HOME."""
    home = tmp / "home"
    home.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "MARGINALIA_", "PYTHON", "VIRTUAL_ENV"))}
    env.update(
        HOME=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_CACHE_HOME=str(home / "cache"),
        QT_QPA_PLATFORM="offscreen",
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
    )
    done = subprocess.run(
        [bin_dir / "marginalia", *args], cwd=home, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"marginalia {' '.join(args)}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def test_the_installed_copy_is_the_wheel_not_the_tree(installed: Path) -> None:
    where = subprocess.run(
        [installed / "python", "-c", "import desktop_app.core.store.engine as m; print(m.__file__)"],
        cwd=installed,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert where.returncode == 0, where.stderr
    path = Path(where.stdout.strip())
    assert path.is_relative_to(installed.parent), path
    assert not path.is_relative_to(ROOT)


def test_import_the_seeds_and_search(installed: Path, tmp_path: Path) -> None:
    if not SEEDS:
        pytest.skip(SHARED_MISSING)
    lib = tmp_path / "lib"
    report = json.loads(run(installed, tmp_path, "--library", str(lib), "import", "--json", *map(str, SEEDS)).stdout)
    assert report["added"] == 76, report
    found = json.loads(
        run(installed, tmp_path, "--library", str(lib), "search", "--json", "reinforcement learning").stdout
    )
    assert found["total"] > 0
    assert any("reinforcement" in (p["abstract"] or "").lower() for p in found["papers"])
    none = json.loads(run(installed, tmp_path, "--library", str(lib), "search", "--json", "quokkaxyz").stdout)
    assert none["total"] == 0


def test_the_window_smoke_test(installed: Path, tmp_path: Path) -> None:
    done = run(installed, tmp_path, "--library", str(tmp_path / "fresh"), "gui", "--smoke-test")
    assert done.stdout.split()[0] == "OK", done.stdout
    # the migrations, the catalogues and the sample came from the wheel: the sample papers
    # were imported into the fresh library and found through the index
    assert (tmp_path / "fresh" / "library.sqlite").exists()
    done = run(installed, tmp_path, "--smoke-test")
    assert done.stdout.split()[0] == "OK"
    assert "search index: writer process" in done.stderr


def test_a_library_made_by_an_older_version(installed: Path, tmp_path: Path) -> None:
    if not SEEDS:
        pytest.skip(SHARED_MISSING)
    from tests.helpers.old_library import db_0001

    folder = tmp_path / "old"
    _, roles = db_0001(folder)  # schema 0001, filled the way that version wrote its rows
    listed = json.loads(run(installed, tmp_path, "--library", str(folder), "list", "--json").stdout)
    assert listed["total"] == 75  # the one in the trash stays there
    titles = {p["id"]: p["title"] for p in listed["papers"]}
    assert titles[roles["races"]] == "RACES (mine)"
    tagged = json.loads(run(installed, tmp_path, "--library", str(folder), "list", "--json", "--tag", "rl").stdout)
    assert [p["id"] for p in tagged["papers"]] == [roles["races"]]
    note = run(installed, tmp_path, "--library", str(folder), "note", str(roles["races"])).stdout
    assert "quokka" in note
    assert list((folder / "backups").iterdir()), "no backup before the migration"
