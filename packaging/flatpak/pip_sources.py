#!/usr/bin/env python3
"""Write the Flatpak modules that install Marginalia's Python dependencies as pinned wheels.

    python3 packaging/flatpak/pip_sources.py [--python-version 3.13]

Downloads (with pip, from PyPI) the wheels of pyproject.toml's dependencies for the runtime's
Python and x86_64, plus the build tools pip needs to install the app itself, and writes
packaging/flatpak/python3-dependencies.json: a flatpak-builder module whose sources are the
wheel files, each with its PyPI URL and sha256 (flatpak-builder checks them; the build itself
runs offline). Re-run it after changing a pin in pyproject.toml or the runtime version in
org.marginalia.Marginalia.yml (KDE 6.10 is based on freedesktop-sdk 25.08: Python 3.13).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).with_name("python3-dependencies.json")
INSTALLER_EXTRA = "postgresql"  # psycopg[binary]: psycopg with the libpq of psycopg-binary
BUILD_TOOLS = ["setuptools==80.9.0", "wheel==0.45.1"]  # pyproject's build-system, offline
PLATFORMS = ["manylinux_2_34_x86_64", "manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64", "any"]


def download(requirements: list[str], dest: Path, python_version: str, deps: bool) -> list[Path]:
    tag = "cp" + python_version.replace(".", "")
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--quiet",
        "--dest",
        str(dest),
        "--only-binary",
        ":all:",
        "--python-version",
        python_version,
        "--implementation",
        "cp",
        "--abi",
        tag,
        "--abi",
        "abi3",
        "--abi",
        "none",
    ]
    for p in PLATFORMS:
        cmd += ["--platform", p]
    if not deps:
        cmd.append("--no-deps")
    subprocess.run([*cmd, *requirements], check=True)
    return sorted(dest.glob("*.whl"))


def source(wheel: Path) -> dict[str, str]:
    data = wheel.read_bytes()
    # PyPI stores a file under the BLAKE2b-256 digest of its content
    b2 = hashlib.blake2b(data, digest_size=32).hexdigest()
    return {
        "type": "file",
        "url": f"https://files.pythonhosted.org/packages/{b2[:2]}/{b2[2:4]}/{b2[4:]}/{wheel.name}",
        "sha256": hashlib.sha256(data).hexdigest(),
    }


def module(runtime: list[Path], tools: list[Path]) -> dict:
    """One module: the app's dependencies for good, the build tools only until the app module
    has been built (flatpak-builder applies `cleanup` after the last module)."""
    pip = "pip3 install --no-index --no-deps --no-build-isolation --prefix=${FLATPAK_DEST} "
    return {
        "name": "python3-dependencies",
        "buildsystem": "simple",
        "build-commands": [pip + " ".join(w.name for w in runtime), pip + " ".join(w.name for w in tools)],
        "cleanup": [
            "/bin/wheel",
            "/lib/python3*/site-packages/setuptools*",
            "/lib/python3*/site-packages/_distutils_hack",
            "/lib/python3*/site-packages/distutils-precedence.pth",
            "/lib/python3*/site-packages/pkg_resources",
            "/lib/python3*/site-packages/wheel*",
        ],
        "sources": [source(w) for w in [*runtime, *tools]],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python-version", default="3.13")
    args = ap.parse_args()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    # the installers carry the PostgreSQL driver (a lab's shared library) as every bundle does
    deps = project["dependencies"] + project["optional-dependencies"][INSTALLER_EXTRA]
    with tempfile.TemporaryDirectory() as tmp:
        runtime = download(deps, Path(tmp) / "runtime", args.python_version, deps=True)
        tools = download(BUILD_TOOLS, Path(tmp) / "tools", args.python_version, deps=False)
        OUT.write_text(json.dumps(module(runtime, tools), indent=2) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(runtime)} wheels, {len(tools)} build tools")
    return 0


if __name__ == "__main__":
    sys.exit(main())
