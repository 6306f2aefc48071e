"""Build Marginalia's wheel from a copy of the source tree, and install it into a fresh venv.

The copy keeps an earlier ``build/lib`` (setuptools reuses it) or a file nobody committed from
reaching the wheel: only what setup.py and pyproject.toml describe goes in.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

from tests.helpers.shared import ROOT

SOURCES = ("desktop_app", "migrations", "resources", "pyproject.toml", "setup.py", "README.md", "LICENSE")


def _skip(folder: str, names: list[str]) -> list[str]:
    """Caches, and a worktree's links into the mapped folders (a clone has none)."""
    return [
        n
        for n in names
        if n in ("__pycache__",) or n.endswith((".pyc", ".egg-info")) or (Path(folder) / n).is_symlink()
    ]


def copy_sources(dest: Path) -> Path:
    dest.mkdir(parents=True)
    for name in SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=_skip)
        else:
            shutil.copy2(src, dest / name)
    return dest


def build_wheel(source: Path, out: Path) -> Path:
    """``pip wheel --no-deps --no-build-isolation`` (offline: this venv's setuptools)."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--quiet",
            "--wheel-dir",
            str(out),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"pip wheel failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    (wheel,) = out.glob("marginalia-*.whl")
    return wheel


def wheel_names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as z:
        return set(z.namelist())


def fresh_venv(where: Path, wheel: Path) -> Path:
    """A new venv holding the wheel, outside the source tree; the dependencies are this venv's
    (its site-packages on the path through a .pth file: its own .pth files, among them the
    editable install's, are not run, so only the wheel's copy of desktop_app can be found).
    Returns the venv's bin folder."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True, timeout=120)
    python = where / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(purelib) / "marginalia-dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--no-index",
            "--quiet",
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"pip install failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return where / "bin"
