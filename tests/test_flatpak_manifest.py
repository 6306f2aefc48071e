"""The Flatpak manifest (packaging/flatpak/) parses and agrees with the rest of the project.

Building it needs the KDE runtime from Flathub, which only the release workflow's `flatpak` job
reaches; here `flatpak-builder --show-manifest` parses the manifest (and the module file it
includes) the way a build would, and the checks below compare it with pyproject.toml and
resources/linux: app id, command, desktop entry, metainfo, MIME types, pinned wheels. The app
module's `pip install .` is run for real, offline, into a temporary prefix.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.helpers.system_tools import require

ROOT = Path(__file__).resolve().parents[1]
FLATPAK = ROOT / "packaging" / "flatpak"
MANIFEST = FLATPAK / "org.marginalia.Marginalia.yml"
APP_ID = re.search(r'APP_ID\s*=\s*"([^"]+)"', (ROOT / "desktop_app/appinfo.py").read_text())[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
WHEEL_RE = re.compile(r"^(?P<name>[^-]+)-(?P<version>[^-]+)-(?P<py>[^-]+)-(?P<abi>[^-]+)-(?P<plat>.+)\.whl$")


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


@pytest.fixture(scope="module")
def manifest() -> dict:
    fb = require("flatpak-builder", "flatpak-builder")
    proc = subprocess.run([fb, "--show-manifest", str(MANIFEST)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def module(manifest: dict, name: str) -> dict:
    (mod,) = [m for m in manifest["modules"] if m["name"] == name]
    return mod


def test_identity_runtime_and_permissions(manifest):
    assert manifest["id"] == APP_ID
    assert MANIFEST.name == f"{APP_ID}.yml"
    assert manifest["command"] in PYPROJECT["project"]["scripts"]
    assert manifest["runtime"] == "org.kde.Platform" and manifest["sdk"] == "org.kde.Sdk"
    assert re.fullmatch(r"6\.\d+", manifest["runtime-version"]), manifest["runtime-version"]
    args = manifest["finish-args"]
    for needed in ("--socket=wayland", "--socket=fallback-x11", "--share=ipc", "--device=dri", "--filesystem=home"):
        assert needed in args, f"{needed} missing from finish-args {args}"
    assert "--socket=x11" not in args, "fallback-x11 only: X11 when there is no Wayland"
    assert not [a for a in args if a.startswith("--share=network")], "the app needs no network"


def test_pinned_wheels_with_checksums(manifest):
    deps = module(manifest, "python3-dependencies")
    wheels = {}
    for src in deps["sources"]:
        assert src["type"] == "file"
        assert src["url"].startswith("https://files.pythonhosted.org/packages/"), src["url"]
        assert re.fullmatch(r"[0-9a-f]{64}", src["sha256"]), src
        m = WHEEL_RE.match(src["url"].rsplit("/", 1)[1])
        assert m, src["url"]
        wheels[norm(m["name"])] = m
    # every runtime dependency of pyproject.toml, at its pinned version
    for req in PYPROJECT["project"]["dependencies"]:
        name, version = re.match(r"([A-Za-z0-9_.-]+)==([^;\s]+)", req).groups()
        assert norm(name) in wheels, f"{name} has no wheel in python3-dependencies.json"
        assert wheels[norm(name)]["version"] == version, (
            f"{name}: pyproject pins {version}, the Flatpak has {wheels[norm(name)]['version']}"
            " (re-run packaging/flatpak/pip_sources.py)"
        )
    # compiled wheels are for one Python (the runtime's) and x86_64 Linux
    pythons = {w["abi"] for w in wheels.values() if re.fullmatch(r"cp3\d+", w["abi"])}
    assert len(pythons) <= 1, f"wheels for several Pythons: {pythons}"
    for w in wheels.values():
        assert w["plat"] == "any" or "x86_64" in w["plat"], w.group(0)
    # every wheel that is a source is installed, and nothing else
    installed = " ".join(deps["build-commands"]).split()
    names = {src["url"].rsplit("/", 1)[1] for src in deps["sources"]}
    assert names == {a for a in installed if a.endswith(".whl")}
    assert all("--no-index" in c for c in deps["build-commands"]), "the build must be offline"


def test_app_module_installs_our_desktop_files(manifest):
    app = module(manifest, "marginalia")
    (src,) = app["sources"]
    assert src["type"] == "dir" and (FLATPAK / src["path"]).resolve() == ROOT
    installed = {}
    for cmd in app["build-commands"]:
        argv = shlex.split(cmd.replace("${FLATPAK_ID}", APP_ID).replace("${FLATPAK_DEST}", "/app"))
        if argv[0] != "install":
            continue
        paths = [a for a in argv[1:] if not a.startswith("-")]
        if "-t" in argv:
            dest = argv[argv.index("-t") + 1]
            srcs = [p for p in paths if p != dest]
            for s in srcs:
                installed[f"{dest}/{Path(s).name}"] = s
        else:
            installed[paths[1]] = paths[0]
    for dest, s in installed.items():
        assert (ROOT / s).is_file(), f"{s} (installed as {dest}) does not exist"
    share = "/app/share"
    assert installed[f"{share}/applications/{APP_ID}.desktop"] == f"resources/linux/{APP_ID}.desktop"
    assert installed[f"{share}/metainfo/{APP_ID}.metainfo.xml"] == f"resources/linux/{APP_ID}.metainfo.xml"
    # Flatpak exports a MIME package only under the app id's name
    assert installed[f"{share}/mime/packages/{APP_ID}.xml"] == f"resources/linux/{APP_ID}.mime.xml"
    assert f"{share}/icons/hicolor/scalable/apps/{APP_ID}.svg" in installed
    assert f"{share}/licenses/{APP_ID}/LGPL-3.0.txt" in installed
    # the desktop entry starts the manifest's command and claims the MIME types we define
    entry = (ROOT / "resources/linux" / f"{APP_ID}.desktop").read_text()
    exec_line = re.search(r"^Exec=(\S+)", entry, re.M)[1]
    assert exec_line == manifest["command"]
    claimed = set(re.search(r"^MimeType=(.*)$", entry, re.M)[1].strip(";").split(";"))
    defined = set(
        re.findall(r'<mime-type type="([^"]+)"', (ROOT / "resources/linux" / f"{APP_ID}.mime.xml").read_text())
    )
    assert claimed == defined
    metainfo = (ROOT / "resources/linux" / f"{APP_ID}.metainfo.xml").read_text()
    assert f"<id>{APP_ID}</id>" in metainfo
    assert f'<launchable type="desktop-id">{APP_ID}.desktop</launchable>' in metainfo


def test_app_module_pip_install_works_offline(manifest, tmp_path):
    """The app module's `pip3 install ... .`, run with this interpreter on a copy of the tree."""
    import setuptools

    # pyproject's SPDX `license = "MIT"` needs setuptools 77 (the Flatpak brings 80.9); a venv
    # made by `python -m venv` may carry an older one, which only build isolation replaces
    if int(setuptools.__version__.split(".")[0]) < 77:
        pytest.skip(
            f"setuptools {setuptools.__version__} in this interpreter; the offline "
            "install (--no-build-isolation) needs >= 77: pip install 'setuptools>=77'"
        )
    app = module(manifest, "marginalia")
    cmd = shlex.split(app["build-commands"][0].replace("${FLATPAK_DEST}", str(tmp_path / "app")))
    assert cmd[:2] == ["pip3", "install"] and cmd[-1] == "."
    skip = set(app["sources"][0]["skip"])
    src = tmp_path / "src"

    def ignore(folder: str, names: list[str]) -> list[str]:
        here = Path(folder)
        return [
            n
            for n in names
            if (here == ROOT and n in skip)
            or n in ("__pycache__", "marginalia.egg-info")
            # a worktree's git-excluded links (the editable mapping); a clone has none
            or (here == ROOT / "desktop_app" and (here / n).is_symlink())
        ]

    shutil.copytree(ROOT, src, symlinks=True, ignore=ignore)
    # --ignore-installed: without it pip first uninstalls the marginalia installed in this
    # interpreter (the developer's editable install), --prefix or not
    proc = subprocess.run(
        [sys.executable, "-m", "pip", *cmd[1:-1], "--ignore-installed", "."],
        cwd=src,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    site = next((tmp_path / "app" / "lib").glob("python3*/site-packages"))
    assert (site / "desktop_app" / "migrations" / "env.py").is_file()
    assert (site / "desktop_app" / "resources" / "linux" / f"{APP_ID}.mime.xml").is_file()
    assert (tmp_path / "app" / "bin" / manifest["command"]).is_file()
    assert "Uninstalling" not in proc.stdout, proc.stdout
