"""Build the Linux packages and check them the way a user's machine would see them.

One session-scoped build (packaging/build_linux.sh icons bundle deb tarball, into a temporary
dist/build pair) feeds every test here. The apps run with HOME and the XDG folders pointed at
temporary directories, so nothing touches real data. Tools the checks need are Debian packages
that .ci/run installs; when one is missing the test fails and says what to install.

Set MARGINALIA_PACKAGING_REUSE=1 to test the artefacts `make package` left in dist/ instead of
building afresh (quick iteration on the checks themselves).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.helpers.system_tools import APT_HINT, require

# the first release build on a machine makes a Debian 11 root and compiles CPython (~15 min)
pytestmark = [pytest.mark.packaging, pytest.mark.timeout(2700)]

ROOT = Path(__file__).resolve().parents[2]
APP = "marginalia"
APP_ID = re.search(r'APP_ID\s*=\s*"([^"]+)"', (ROOT / "desktop_app/appinfo.py").read_text())[1]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
REPORT = ROOT / "build" / "packaging-report.txt"


def report(line: str) -> None:
    """Figures for humans (sizes, timings), in build/packaging-report.txt."""
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    with REPORT.open("a", encoding="utf-8") as f:
        f.write(line.rstrip() + "\n")


@dataclass
class Build:
    dist: Path
    build: Path
    bundle: Path
    deb: Path
    tarball: Path
    timings: dict[str, float] = field(default_factory=dict)
    # built by the release script on Debian 11 (None), or on this host (why not on Debian 11)
    not_release: str | None = None


RELEASE_SCRIPT = ROOT / "packaging/linux/build_release.sh"
# where build_release.sh keeps its Debian 11 root, fixed before the tests point HOME elsewhere
BUILD_ROOT = os.environ.get("MARGINALIA_BUILD_ROOT") or str(
    Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "marginalia" / f"debian11-{os.uname().machine}"
)
GLIBC_FLOOR = (2, 31)  # Debian 11; Ubuntu 20.04 (2.31), RHEL 9 (2.34), Mint 20 (2.31)


def release_build_blocker() -> str | None:
    """Why packaging/linux/build_release.sh cannot run here (None: it can)."""
    os_release = Path("/etc/os-release")
    if os_release.exists() and "VERSION_CODENAME=bullseye" in os_release.read_text():
        return None
    if os.geteuid() != 0:
        return "the release build needs root here (debootstrap, chroot into a Debian 11 root)"
    for tool, pkg in (("debootstrap", "debootstrap"), ("unshare", "util-linux"), ("chroot", "coreutils")):
        if shutil.which(tool) is None:
            return f"{tool} is not installed: {APT_HINT.format(pkg)}"
    return None


def isolated_env(tmp: Path, **extra: str) -> dict[str, str]:
    """The app's environment: throwaway HOME/XDG dirs and library, offscreen Qt."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "MARGINALIA_"))}
    for name in ("home", "data", "config", "cache", "state", "runtime", "library"):
        (tmp / name).mkdir(parents=True, exist_ok=True)
    (tmp / "runtime").chmod(0o700)
    env.update(
        HOME=str(tmp / "home"),
        XDG_DATA_HOME=str(tmp / "data"),
        XDG_CONFIG_HOME=str(tmp / "config"),
        XDG_CACHE_HOME=str(tmp / "cache"),
        XDG_STATE_HOME=str(tmp / "state"),
        XDG_RUNTIME_DIR=str(tmp / "runtime"),
        MARGINALIA_LIBRARY=str(tmp / "library"),
        QT_QPA_PLATFORM="offscreen",
    )
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    env.update(extra)
    return env


def run(cmd, *, timeout=300, check=True, **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=timeout, **kw)
    if check and proc.returncode != 0:
        pytest.fail(
            f"`{shlex.join(str(c) for c in cmd)}` exited {proc.returncode}\n"
            f"--- stdout ---\n{proc.stdout[-4000:]}\n--- stderr ---\n{proc.stderr[-6000:]}",
            pytrace=False,
        )
    return proc


def files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


# --- the build, once per session -----------------------------------------------------------


@pytest.fixture(scope="session")
def build(tmp_path_factory) -> Build:
    for tool, pkg in (("dpkg-deb", "dpkg"), ("objdump", "binutils"), ("strip", "binutils")):
        require(tool, pkg)
    not_release = release_build_blocker()
    if os.environ.get("MARGINALIA_PACKAGING_REUSE") == "1":
        dist, work = ROOT / "dist", ROOT / "build"
        not_release = not_release or "MARGINALIA_PACKAGING_REUSE=1: testing what dist/ holds"
    else:
        base = tmp_path_factory.mktemp("package")
        dist, work = base / "dist", base / "build"
        # xz -1 for the tarball: a third of the release level's time, ~6 % bigger
        env = dict(
            os.environ,
            DIST_DIR=str(dist),
            BUILD_DIR=str(work),
            PYTHON=sys.executable,
            MARGINALIA_BUILD_ROOT=BUILD_ROOT,
            XZ_OPT=os.environ.get("XZ_OPT", "-1"),
        )
        t0 = time.monotonic()
        if not_release is None:
            # the release workflow's own script: on Debian 11, smoke test included
            run(["bash", RELEASE_SCRIPT, "icons", "bundle", "smoke", "deb", "tarball"], env=env, cwd=ROOT, timeout=2400)
        else:
            if os.environ.get("CI"):
                pytest.fail(f"cannot run the release build: {not_release}", pytrace=False)
            print(
                f"\nrelease build not possible here ({not_release}); building on this host, "
                "so the glibc-floor and Debian 11 tests skip"
            )
            run(
                ["bash", ROOT / "packaging/build_linux.sh", "icons", "bundle", "deb", "tarball"],
                env=env,
                cwd=ROOT,
                timeout=900,
            )
        report(
            f"\n# packaging test build {time.strftime('%F %T')} "
            f"({'release script' if not_release is None else 'host'}): "
            f"{time.monotonic() - t0:.1f} s"
        )
    debs = sorted(dist.glob(f"{APP}_*.deb"))
    tars = sorted(dist.glob(f"{APP}-{VERSION}-linux-*.tar.xz"))
    assert debs and tars, f"build left no .deb/.tar.xz in {dist}: {files(dist)[:20]}"
    timings = {}
    tfile = work / "package-timings.txt"
    if tfile.exists():
        for line in tfile.read_text().splitlines():
            m = re.match(r"(\w+)\s+([\d.]+) s", line)
            if m:
                timings[m[1]] = float(m[2])
    b = Build(dist, work, dist / APP, debs[-1], tars[-1], timings, not_release)
    report(f"timings: {timings}")
    report(
        f"bundle {du_mb(b.bundle):.0f} MB, .deb {b.deb.stat().st_size / 1e6:.1f} MB, "
        f"tarball {b.tarball.stat().st_size / 1e6:.1f} MB"
    )
    return b


def du_mb(path: Path) -> float:
    return sum(p.lstat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink()) / 1e6


@pytest.fixture(scope="session")
def deb_root(build: Build, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("debroot")
    run(["dpkg-deb", "-x", build.deb, root])
    return root


# --- the bundle ------------------------------------------------------------------------------


def check_version_and_smoke(exe: Path, tmp: Path, label: str) -> float:
    """`exe --version` and `exe --smoke-test` in an isolated environment; returns smoke time."""
    env = isolated_env(tmp)
    out = run([exe, "--version"], env=env, timeout=120)
    assert out.stdout.strip() == f"{APP} {VERSION}", f"{label} --version said {out.stdout!r}"
    t0 = time.monotonic()
    out = run([exe, "--smoke-test"], env=env, timeout=180)
    elapsed = time.monotonic() - t0
    assert "OK" in out.stdout.split(), f"{label} --smoke-test did not print OK:\n{out.stdout}\n{out.stderr[-3000:]}"
    # the index writer ran as a child (the bundle's own binary, `index-worker`) and the sample
    # papers were found through the index (numpy executor over Whoosh's postings)
    assert "search index: writer process" in out.stderr, out.stderr[-3000:]
    # the isolated HOME holds whatever the app wrote: nothing went to the real one
    return elapsed


def test_bundle_runs(build: Build, tmp_path):
    elapsed = check_version_and_smoke(build.bundle / APP, tmp_path / "bundle", "bundle")
    report(f"bundle --smoke-test: {elapsed:.2f} s")


def test_bundle_cli_does_not_load_qt(build: Build, tmp_path):
    """Command-line use of the bundle loads no Qt library (packaging/hooks replaces the PySide6
    run-time hook that imported QtCore at start-up); the window still does."""
    env = isolated_env(tmp_path, LD_DEBUG="files")
    for args in (["--version"], ["list"]):
        out = run([build.bundle / APP, *args], env=env, timeout=120)
        loaded = [ln for ln in out.stderr.splitlines() if "libQt6" in ln and "file=" in ln]
        assert not loaded, f"`{APP} {' '.join(args)}` loaded Qt: {loaded[0]}"
    out = run([build.bundle / APP, "--smoke-test"], env=env, timeout=180)
    assert "libQt6Core" in out.stderr, "LD_DEBUG shows no Qt even for the window: check is blind"
    t0, c0 = time.monotonic(), os.times()
    for _ in range(5):
        run([build.bundle / APP, "--version"], env=isolated_env(tmp_path))
    c1 = os.times()
    report(
        f"bundle --version: {(time.monotonic() - t0) / 5 * 1000:.0f} ms wall, "
        f"{(c1.children_user + c1.children_system - c0.children_user - c0.children_system) / 5 * 1000:.0f} ms CPU (mean of 5)"
    )


def two_papers(folder: Path) -> Path:
    """A RIS file of two papers with words of their own (phason; reward shaping)."""
    ris = folder / "two.ris"
    ris.write_text(
        "TY  - JOUR\nTI  - Quasicrystal growth under strain\nAU  - Lindqvist, Maja\nPY  - 2026\n"
        "AB  - We grow quasicrystals under uniaxial strain and measure their phason modes.\nER  - \n\n"
        "TY  - JOUR\nTI  - Reward shaping for sparse tasks\nAU  - Okafor, Ben\nPY  - 2025\n"
        "AB  - Potential-based reward shaping speeds up reinforcement learning.\nER  - \n",
        encoding="utf-8",
    )
    return ris


def check_server_library(exe: Path, url: str, tmp: Path) -> float:
    """`exe` on a library on a PostgreSQL server: import, search, tag, and the window drawn on it
    (a screenshot: the shared window, offscreen). Returns the seconds it took."""
    env = isolated_env(tmp)
    t0 = time.monotonic()
    out = run([exe, "--library", url, "import", "--json", two_papers(tmp)], env=env, timeout=180)
    assert json.loads(out.stdout)["added"] == 2, out.stdout
    out = run([exe, "--library", url, "search", "--json", "phason"], env=env, timeout=120)
    found = json.loads(out.stdout)["papers"]
    assert [p["title"] for p in found] == ["Quasicrystal growth under strain"], out.stdout
    run([exe, "--library", url, "tag", str(found[0]["id"]), "--add", "lab/shared"], env=env, timeout=120)
    out = run([exe, "--library", url, "list", "--json", "--tag", "lab/shared"], env=env, timeout=120)
    assert [p["id"] for p in json.loads(out.stdout)["papers"]] == [found[0]["id"]], out.stdout
    shot = tmp / "server-library.png"
    run([exe, "--library", url, "gui", "--screenshot", shot, "--size", "1000x700"], env=env, timeout=180)
    assert png_size(shot) == (1000, 700)
    return time.monotonic() - t0


def test_bundle_opens_a_server_library(build: Build, pg_server: str, tmp_path):
    """psycopg and libpq in the bundle: its command line works on a throwaway PostgreSQL
    server's library (Unix socket, tests/helpers/pg_fixtures.py), and its window opens on it."""
    from tests.helpers.pg_fixtures import new_database

    elapsed = check_server_library(build.bundle / APP, new_database(pg_server), tmp_path)
    report(f"bundle on a PostgreSQL server library (import, search, tag, window): {elapsed:.1f} s")


def test_bundle_imports_and_searches(build: Build, tmp_path):
    """The bundle's command line imports a RIS file and finds its papers through the index
    (Whoosh's postings scored by the numpy executor: a bundle missing numpy or a Whoosh module
    fails here, not at a user's first search)."""
    ris = two_papers(tmp_path)
    env = isolated_env(tmp_path)
    lib = tmp_path / "library"
    run([build.bundle / APP, "--library", lib, "import", ris], env=env, timeout=180)
    for query, title in (
        ("phason", "Quasicrystal growth"),
        ("quasi*", "Quasicrystal growth"),
        ("reward AND NOT strain", "Reward shaping"),
        ('"reward shaping"', "Reward shaping"),
    ):
        out = run([build.bundle / APP, "--library", lib, "search", query], env=env, timeout=120)
        assert title in out.stdout, f"search {query!r} did not find {title!r}:\n{out.stdout}"
    out = run([build.bundle / APP, "--library", lib, "search", "strain"], env=env, timeout=120)
    assert "Reward shaping" not in out.stdout


def test_bundle_startup_vs_venv(build: Build, tmp_path):
    """Not a pass/fail figure beyond sanity: records the bundle's start-up cost."""
    venv_exe = Path(sys.executable).with_name(APP)
    if not venv_exe.exists():
        pytest.fail(f"{venv_exe} missing: the project is not installed in this venv (make test)")
    times = {}
    for label, exe in (("bundle", build.bundle / APP), ("venv", venv_exe)):
        runs = []
        for i in range(2):
            runs.append(check_version_and_smoke(exe, tmp_path / f"{label}{i}", label))
        times[label] = min(runs)
    report(f"--smoke-test best of 2: bundle {times['bundle']:.2f} s, venv {times['venv']:.2f} s")
    assert times["bundle"] < 60


def test_bundle_contents(build: Build):
    internal = build.bundle / "_internal"
    pkg = internal / "desktop_app"
    # data the app loads with importlib.resources / Alembic from disk
    assert (pkg / "migrations" / "env.py").is_file()
    assert list((pkg / "migrations" / "versions").glob("*.py")), "no Alembic revisions bundled"
    for extra in ("script.py.mako", "alembic.ini"):
        src = ROOT / "migrations" / extra
        if src.exists():
            assert (pkg / "migrations" / extra).is_file(), f"{extra} not bundled"
    assert (pkg / "resources" / "icons" / "marginalia.svg").is_file()
    for src in (ROOT / "resources").rglob("*"):
        if src.is_file() and "__pycache__" not in src.parts:
            rel = src.relative_to(ROOT / "resources")
            assert (pkg / "resources" / rel).is_file(), f"resources/{rel} not bundled"
    assert list(internal.glob(f"{APP}-{VERSION}.dist-info")), "app metadata (version) missing"
    # trimmed: Qt translations and plugins a reader never loads
    qt = internal / "PySide6" / "Qt"
    # Qt's own catalogue for the one translation the app has (standard buttons in Chinese)
    kept = {f.name for f in (qt / "translations").iterdir()} if (qt / "translations").exists() else set()
    assert kept == {"qtbase_zh_CN.qm"}, kept
    plugins = {str(p.relative_to(qt / "plugins")) for p in (qt / "plugins").rglob("*.so")}
    for dropped in (
        "platforms/libqeglfs.so",
        "platforms/libqlinuxfb.so",
        "platforms/libqvnc.so",
        "platformthemes/libqgtk3.so",
        "imageformats/libqpdf.so",
        "imageformats/libqtiff.so",
        "imageformats/libqwebp.so",
    ):
        assert dropped not in plugins, f"{dropped} should have been trimmed"
    for kept in (
        "platforms/libqxcb.so",
        "platforms/libqoffscreen.so",
        "imageformats/libqsvg.so",
        "iconengines/libqsvgicon.so",
    ):
        assert kept in plugins, f"{kept} missing from the bundle"
    # the Wayland platform plugin: libqwayland.so from Qt 6.10 on, libqwayland-generic.so (plus
    # -egl) in Qt 6.9 and earlier
    assert {"platforms/libqwayland.so", "platforms/libqwayland-generic.so"} & plugins, (
        "no Wayland platform plugin in the bundle"
    )
    assert not any(d.startswith(("tls/", "networkinformation/", "generic/")) for d in plugins)
    # nothing but the program is executable (lintian: shared-library-is-executable)
    execs = [p for p in build.bundle.rglob("*") if p.is_file() and os.access(p, os.X_OK)]
    assert execs == [build.bundle / APP], execs[:10]
    # stripped
    out = (
        run(["file", "-L", internal / "PySide6" / "Qt" / "lib" / "libQt6Core.so.6"], check=False).stdout
        if shutil.which("file")
        else "stripped"
    )
    assert "not stripped" not in out
    assert not (internal / "pytest").exists() and not (internal / "PyInstaller").exists()
    size = du_mb(build.bundle)
    parts = {
        name: sum(
            du_mb(p) if p.is_dir() else p.stat().st_size / 1e6 for pattern in patterns for p in internal.glob(pattern)
        )
        for name, patterns in PARTS.items()
    }
    report(f"bundle {size:.0f} MB; of it " + ", ".join(f"{n} {mb:.1f} MB" for n, mb in parts.items()))
    # 122 MB before numpy; numpy (11 MB) and the OpenBLAS its core links (28 MB, unstripped:
    # see build_linux.sh) came with the search executor; 174 MB with citations and translations:
    # citeproc-py, lxml.etree and citeproc's locales (~7.5 MB), the CSL styles, the catalogues;
    # 298 MB with psycopg, libpq and Python's ssl (16 MB) and scikit-learn with scipy
    # (the learned queue: 92 MB, and numpy's subpackages scipy touches: 3.6 MB)
    assert size < BUNDLE_LIMIT_MB, f"bundle grew to {size:.0f} MB"
    assert parts["psycopg + libpq + Python's ssl"] < 18, parts


# what the report breaks the bundle's size into (globs under _internal)
PARTS = {
    # psycopg's Python modules are in the archive (base_library.zip / PYZ), not counted here;
    # psycopg's wrapper imports Python's ssl, whose _ssl brings the build system's OpenSSL
    "psycopg + libpq + Python's ssl": (
        "psycopg_binary",
        "psycopg_binary.libs",
        "libssl.so*",
        "libcrypto.so*",
        "python3*/lib-dynload/_ssl.*",
    ),
    "scikit-learn + scipy (+ joblib, threadpoolctl)": (
        "sklearn",
        "scikit_learn.libs",
        "scipy",
        "scipy.libs",
        "joblib",
        "threadpoolctl*",
    ),
    "numpy": ("numpy", "numpy.libs"),
}
BUNDLE_LIMIT_MB = 310
# imported by the app only when a user reaches them (a server library; the learned queue)
LAZY_IMPORTS = (
    "psycopg",
    "psycopg_binary.pq",
    "sqlalchemy.dialects.postgresql.psycopg",
    "sklearn.linear_model",
    "sklearn.feature_extraction.text",
    "sklearn.cluster",
    "sklearn.decomposition",
)


def test_bundle_imports_what_the_app_loads_lazily(build: Build, tmp_path):
    """The PostgreSQL driver with its libpq and scikit-learn with scipy import inside the bundle
    (packaging/launcher.py --check-bundle-imports)."""
    out = run(
        [build.bundle / APP, "--check-bundle-imports", *LAZY_IMPORTS],
        env=isolated_env(tmp_path),
        timeout=180,
        check=False,
    )
    assert out.returncode == 0 and out.stdout.split("\n")[:-1] == [f"ok {m}" for m in LAZY_IMPORTS], (
        out.stdout + out.stderr[-3000:]
    )


HYGIENE_CHECKS = (
    "no dangling symlink",
    f"exactly one *.dist-info/*.egg-info for {APP} (the one the spec writes; never the "
    "editable install's marginalia.egg-info)",
    "no installer bookkeeping in *.dist-info (RECORD, INSTALLER, REQUESTED, direct_url.json)",
    "no type stubs (*.pyi), byte-code caches (__pycache__, *.pyc files on disk) or tests folders",
    "no database driver the app does not use (psycopg2, psycopg_c, MySQLdb, ...), and libpq only "
    "as psycopg-binary carries it (psycopg_binary.libs)",
    "no QtDBus Python binding, no Wayland server-buffer or non-desktop shell plugins",
)


def bundle_hygiene_problems(bundle: Path) -> list[str]:
    """Everything in `bundle` that breaks one of HYGIENE_CHECKS, one line each."""
    problems = []
    internal = bundle / "_internal"
    for p in bundle.rglob("*"):
        rel = p.relative_to(bundle)
        if p.is_symlink() and not p.exists():
            problems.append(f"dangling symlink {rel} -> {os.readlink(p)}")
        if p.suffix in (".dist-info", ".egg-info") and p.parent == internal:
            for stray in ("RECORD", "INSTALLER", "REQUESTED", "direct_url.json"):
                if (p / stray).exists():
                    problems.append(f"installer bookkeeping {rel}/{stray}")
        if p.suffix in (".pyi", ".pyc") or p.name == "__pycache__":
            problems.append(f"stray package file {rel}")
        if p.is_dir() and p.name in ("tests", "testing"):
            problems.append(f"tests folder {rel}")
        name = p.name.lower()
        if name.startswith(("psycopg2", "psycopg_c", "psycopg_pool", "mysqldb", "pymysql")):
            problems.append(f"unused database driver {rel}")
        if name.startswith("libpq") and p.resolve().parent.name != "psycopg_binary.libs":
            problems.append(f"a libpq beside psycopg-binary's own: {rel}")
    own = [
        p.name
        for p in internal.iterdir()
        if p.suffix in (".dist-info", ".egg-info") and re.split(r"[-.]", p.name, maxsplit=1)[0].lower() == APP
    ]
    if own != [f"{APP}-{VERSION}.dist-info"]:
        problems.append(f"metadata of {APP} should be {APP}-{VERSION}.dist-info only: {own}")
    pyside = internal / "PySide6"
    for unused in (
        "QtDBus.abi3.so",
        "Qt/plugins/wayland-shell-integration/libivi-shell.so",
        "Qt/plugins/wayland-graphics-integration-client/libdmabuf-server.so",
    ):
        if (pyside / unused).exists():
            problems.append(f"unused Qt part PySide6/{unused}")
    return problems


def test_bundle_hygiene(build: Build, tmp_path):
    print("bundle hygiene checks:\n  " + "\n  ".join(HYGIENE_CHECKS))
    problems = bundle_hygiene_problems(build.bundle)
    assert not problems, "bundle hygiene:\n" + "\n".join(problems[:50])
    # the checks catch what they claim to: a copy of the bundle's metadata with the faults
    fake = tmp_path / APP
    (fake / "_internal").mkdir(parents=True)
    (fake / "_internal" / f"{APP}-{VERSION}.dist-info").mkdir()
    (fake / "_internal" / f"{APP}.egg-info").mkdir()
    (fake / "_internal" / "libgone.so.1").symlink_to("PySide6/Qt/lib/libgone.so.1")
    found = "\n".join(bundle_hygiene_problems(fake))
    assert "dangling symlink _internal/libgone.so.1" in found
    assert f"{APP}.egg-info" in found


def test_bundle_carries_qt_licences(build: Build, deb_root: Path):
    """LGPL-3.0 for Qt and PySide6 (plus the GPL-3.0 it builds on) in every bundle."""
    lic = build.bundle / "_internal" / "licenses"
    lgpl = (lic / "LGPL-3.0.txt").read_text()
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in lgpl and "Version 3, 29 June 2007" in lgpl
    assert "GNU GENERAL PUBLIC LICENSE" in (lic / "GPL-3.0.txt").read_text()
    notice = (lic / "Qt-and-PySide6.txt").read_text()
    import PySide6

    assert f"PySide6 and Shiboken6 {PySide6.__version__}" in notice and "LGPL-3.0.txt" in notice
    assert "MIT License" in (lic / "Marginalia-MIT.txt").read_text()
    # the .deb: the same files in the bundle, and its copyright file points at them
    assert (deb_root / "opt" / APP / "_internal/licenses/LGPL-3.0.txt").is_file()
    copyright_ = (deb_root / "usr/share/doc" / APP / "copyright").read_text()
    assert "/usr/share/common-licenses/LGPL-3" in copyright_
    assert f"/opt/{APP}/_internal/licenses" in copyright_


# --- the glibc floor: built on Debian 11, runs on every distribution since ------------------

GLIBC_SYMBOL = re.compile(r"\bGLIBC_(\d+)\.(\d+)(?:\.\d+)?\b")
# libraries every desktop has; marginalia.spec leaves them to the system (a bundled copy
# conflicts with the system's and carries the build system's glibc floor)
SYSTEM_LIBRARIES = (
    "libstdc++.so.6",
    "libgcc_s.so.1",
    "libexpat.so.1",
    "libz.so.1",
    "libfontconfig.so.1",
    "libfreetype.so.6",
    "libglib-2.0.so.0",
    "libdbus-1.so.3",
    "libX11.so.6",
    "libxkbcommon.so.0",
)


def elf_files(root: Path) -> list[Path]:
    out = []
    for p in root.rglob("*"):
        if p.is_file() and not p.is_symlink():
            with p.open("rb") as f:
                if f.read(4) == b"\x7fELF":
                    out.append(p)
    return out


def glibc_versions(path: Path) -> set[tuple[int, int]]:
    """GLIBC_x.y versions of the symbols an ELF file imports (objdump -T, undefined ones)."""
    out = run(["objdump", "-T", path], check=False).stdout
    return {(int(m[1]), int(m[2])) for line in out.splitlines() if "*UND*" in line for m in GLIBC_SYMBOL.finditer(line)}


def require_release_build(build: Build) -> None:
    if build.not_release is not None:
        if os.environ.get("CI"):
            pytest.fail(build.not_release, pytrace=False)
        pytest.skip(f"bundle built on this host, not by the release script: {build.not_release}")


def test_bundle_glibc_floor(build: Build):
    require_release_build(build)
    elfs = elf_files(build.bundle)
    assert len(elfs) > 50, f"only {len(elfs)} ELF files in the bundle?"
    newest: dict[Path, tuple[int, int]] = {}
    for path in elfs:
        versions = glibc_versions(path)
        if versions:
            newest[path] = max(versions)
    top = max(newest.values())
    report(f"glibc floor: GLIBC_{top[0]}.{top[1]} over {len(elfs)} ELF files")
    over = sorted((v, str(p.relative_to(build.bundle))) for p, v in newest.items() if v > GLIBC_FLOOR)
    assert not over, f"{len(over)} files need glibc > {GLIBC_FLOOR[0]}.{GLIBC_FLOOR[1]}: " + ", ".join(
        f"{f} (GLIBC_{v[0]}.{v[1]})" for v, f in over[:20]
    )
    # and the .deb says so
    fields = run(["dpkg-deb", "-f", build.deb, "Depends"]).stdout
    m = re.search(r"\blibc6 \(>= (\d+)\.(\d+)\)", fields)
    assert m and (int(m[1]), int(m[2])) <= GLIBC_FLOOR, fields


def test_system_libraries_left_out(build: Build):
    names = {p.name for p in build.bundle.rglob("*")}
    carried = [lib for lib in SYSTEM_LIBRARIES if lib in names]
    assert not carried, f"the bundle carries libraries every desktop has: {carried}"
    # ...and the .deb depends on their packages instead
    depends = run(["dpkg-deb", "-f", build.deb, "Depends"]).stdout
    for pkg in ("libstdc++6", "libfontconfig1", "libfreetype6", "zlib1g", "libglib2.0-0"):
        assert re.search(rf"\b{re.escape(pkg)}\b", depends), f"{pkg} not in Depends: {depends}"


def test_release_workflow_runs_this_build():
    """The release job and this test build with one script, on the same Debian release."""
    text = (ROOT / ".github/workflows/release.yml").read_text()
    m = re.search(r"^  linux:\n(.*?)(?=^  [\w-]+:\n|\Z)", text, re.M | re.S)
    assert m, "no linux job in release.yml"
    job = m[1]
    assert re.search(r"^    container: debian:11\b", job, re.M), "the linux job must build on Debian 11"
    assert "packaging/linux/build_release.sh" in job, "the linux job must run build_release.sh"


def test_tarball_installs_and_runs_on_debian11(build: Build, tmp_path):
    """The tarball's install.sh and the installed program in a Debian 11 root (glibc 2.31)."""
    require_release_build(build)
    if Path("/etc/os-release").read_text().find("bullseye") >= 0:
        pytest.skip("this machine is Debian 11: the other tarball test covers it")
    script = (
        "set -e; t=$(mktemp -d); cd $t; tar -xf /out/dist/" + build.tarball.name + "; "
        "export HOME=$t/home XDG_DATA_HOME=$t/data XDG_CONFIG_HOME=$t/config "
        "XDG_CACHE_HOME=$t/cache XDG_STATE_HOME=$t/state MARGINALIA_LIBRARY=$t/lib "
        "QT_QPA_PLATFORM=offscreen; mkdir -p $HOME; "
        "sh */install.sh --user >/dev/null; getconf GNU_LIBC_VERSION; "
        "$HOME/.local/bin/marginalia --version; $HOME/.local/bin/marginalia --smoke-test; "
        "$HOME/.local/lib/marginalia/uninstall.sh >/dev/null; rm -rf $t"
    )
    env = dict(os.environ, DIST_DIR=str(build.dist), BUILD_DIR=str(build.build), MARGINALIA_BUILD_ROOT=BUILD_ROOT)
    out = run(["bash", RELEASE_SCRIPT, "--exec", "sh", "-c", script], env=env, timeout=600)
    lines = out.stdout.split("\n")
    assert "glibc 2.31" in lines, out.stdout
    assert f"{APP} {VERSION}" in lines and "OK" in lines, out.stdout + out.stderr[-2000:]
    report("Debian 11 root: tarball installed, --version and --smoke-test OK")


# --- the .deb --------------------------------------------------------------------------------


def test_deb_control(build: Build):
    fields = run(["dpkg-deb", "-f", build.deb]).stdout
    control = dict(re.findall(r"^(\S+): (.*)$", fields, re.M))
    assert control["Package"] == APP
    assert control["Version"].startswith(VERSION + "-") or control["Version"].startswith(
        re.sub(r"\.?(a|b|rc|dev)(\d+)", r"~\1\2", VERSION) + "-"
    )
    assert re.search(r"\blibc6 \(>= 2\.\d+\)", control["Depends"]), control["Depends"]
    for dep in ("libgl1", "libegl1", "libxcb1"):
        assert dep in control["Depends"], f"{dep} missing from Depends: {control['Depends']}"
    assert int(control["Installed-Size"]) > 50_000
    members = run(["ar", "t", build.deb]).stdout.split() if shutil.which("ar") else []
    assert not any(m.endswith(".zst") for m in members), "bookworm's lintian rejects zstd"
    report(f"Depends: {control['Depends']}")


def test_deb_layout(deb_root: Path):
    r = deb_root
    link = r / "usr/bin" / APP
    assert link.is_symlink() and os.readlink(link) == f"/opt/{APP}/{APP}"
    assert (r / "opt" / APP / APP).is_file()
    desktop = r / "usr/share/applications" / f"{APP_ID}.desktop"
    metainfo = r / "usr/share/metainfo" / f"{APP_ID}.metainfo.xml"
    assert desktop.is_file() and metainfo.is_file()
    entry = desktop.read_text()
    assert f"Icon={APP_ID}\n" in entry
    assert re.search(r"^MimeType=.*text/x-bibtex;", entry, re.M)
    assert re.search(r"^MimeType=.*application/x-research-info-systems;", entry, re.M)
    assert re.search(r"^MimeType=.*application/nbib;", entry, re.M)
    # RIS and MEDLINE types for shared-mime-info (its dpkg trigger compiles the database)
    mime = r / "usr/share/mime/packages" / f"{APP_ID}.xml"
    assert mime.read_bytes() == (ROOT / "resources/linux" / f"{APP_ID}.mime.xml").read_bytes()
    assert re.search(r"^Categories=Office;Education;Science;$", entry, re.M)
    assert f'<launchable type="desktop-id">{APP_ID}.desktop</launchable>' in metainfo.read_text()
    icons = r / "usr/share/icons/hicolor"
    assert (icons / "scalable/apps" / f"{APP_ID}.svg").is_file()
    for s in ICON_SIZES:
        png = icons / f"{s}x{s}/apps/{APP_ID}.png"
        assert png.is_file(), f"{png.relative_to(r)} missing"
        assert png_size(png) == (s, s)
    doc = r / "usr/share/doc" / APP
    copyright_ = (doc / "copyright").read_text()
    assert copyright_.startswith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/")
    assert "License: MIT" in copyright_
    assert f"({VERSION.split('rc')[0]}" in gzip.decompress((doc / "changelog.Debian.gz").read_bytes()).decode()
    man = gzip.decompress((r / "usr/share/man/man1" / f"{APP}.1.gz").read_bytes()).decode()
    assert man.lstrip().startswith(('.\\"', ".TH")) and ".SH NAME" in man
    assert (r / "usr/share/lintian/overrides" / APP).is_file()
    # no generated PNG sneaks into the source tree's resources (only the SVG is committed)
    assert not list((ROOT / "resources" / "icons").glob("*.png"))


def test_deb_extracted_app_runs(deb_root: Path, tmp_path):
    exe = deb_root / "opt" / APP / APP
    check_version_and_smoke(exe, tmp_path / "run", "extracted .deb")
    # like /usr/bin/marginalia: started through a symlink from elsewhere
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / APP).symlink_to(exe)
    out = run([tmp_path / "bin" / APP, "--version"], env=isolated_env(tmp_path / "link"))
    assert out.stdout.strip() == f"{APP} {VERSION}"


def test_validators(deb_root: Path):
    dfv = require("desktop-file-validate", "desktop-file-utils")
    asc = require("appstreamcli", "appstream")
    out = run([dfv, deb_root / "usr/share/applications" / f"{APP_ID}.desktop"])
    assert "error" not in (out.stdout + out.stderr).lower()
    run([asc, "validate", "--no-net", deb_root / "usr/share/metainfo" / f"{APP_ID}.metainfo.xml"])


def test_lintian(build: Build):
    lintian = require("lintian", "lintian")
    t0 = time.monotonic()
    out = run([lintian, "--fail-on", "error,warning", build.deb], timeout=400, check=False)
    report(f"lintian: {time.monotonic() - t0:.1f} s")
    bad = [ln for ln in out.stdout.splitlines() if ln[:2] in ("E:", "W:")]
    assert out.returncode == 0 and not bad, "lintian:\n" + "\n".join(bad or [out.stderr[-3000:]])


# --- the tarball -----------------------------------------------------------------------------


@pytest.fixture(scope="session")
def unpacked(build: Build, tmp_path_factory) -> Path:
    """The tarball unpacked once (read-only use: tests that tamper make their own tree)."""
    dest = tmp_path_factory.mktemp("tarball")
    run(["tar", "-xJf", build.tarball, "-C", dest])
    (top,) = [p for p in dest.iterdir() if p.is_dir()]
    return top


def machine_glibc() -> str:
    return run(["getconf", "GNU_LIBC_VERSION"]).stdout.split()[-1]


def installer_tree(top: Path, where: Path, glibc_min: str | None = None) -> Path:
    """A tarball tree sharing the real bundle (a symlink) with its own install.sh/GLIBC_MIN."""
    where.mkdir(parents=True)
    for name in ("install.sh", "uninstall.sh"):
        shutil.copy2(top / name, where / name)
    (where / APP).symlink_to(top / APP)
    (where / "share").symlink_to(top / "share")
    (where / "GLIBC_MIN").write_text((glibc_min or (top / "GLIBC_MIN").read_text().strip()) + "\n")
    return where


def test_tarball_install_and_uninstall(unpacked: Path, tmp_path):
    top = unpacked
    assert (top / "install.sh").is_file() and (top / APP / APP).is_file()
    glibc_min = (top / "GLIBC_MIN").read_text().strip()
    assert re.fullmatch(r"\d+\.\d+", glibc_min), glibc_min
    assert glibc_min in (top / "README").read_text()
    env = isolated_env(tmp_path / "user")
    home = Path(env["HOME"])
    data = Path(env["XDG_DATA_HOME"])
    out = run(["sh", top / "install.sh", "--user"], env=env)
    assert "Installed." in out.stdout
    appdir = home / ".local/lib" / APP
    exe = home / ".local/bin" / APP
    desktop = data / "applications" / f"{APP_ID}.desktop"
    assert exe.is_symlink() and desktop.is_file()
    assert f"Exec={appdir}/{APP} " in desktop.read_text()
    assert (data / "icons/hicolor/256x256/apps" / f"{APP_ID}.png").is_file()
    assert (data / "icons/hicolor/scalable/apps" / f"{APP_ID}.svg").is_file()
    assert (data / "metainfo" / f"{APP_ID}.metainfo.xml").is_file()
    assert (data / "man/man1" / f"{APP}.1.gz").is_file()
    assert (data / "mime/packages" / f"{APP_ID}.xml").is_file()
    manifest = (appdir / "install-manifest.txt").read_text().splitlines()
    assert str(data / "mime/packages" / f"{APP_ID}.xml") in manifest
    out = run([exe, "--version"], env=env)
    assert out.stdout.strip() == f"{APP} {VERSION}"
    check_open_with(env, data, tmp_path)
    run([appdir / "uninstall.sh"], env=env)
    assert not appdir.exists() and not exe.is_symlink() and not desktop.exists()
    assert not list(data.rglob(f"{APP_ID}*")), list(data.rglob(f"{APP_ID}*"))
    # the database was compiled again without our types
    assert not (data / "mime/application/x-research-info-systems.xml").exists()


def check_open_with(env: dict[str, str], data: Path, tmp_path: Path) -> None:
    """What a GNOME file manager asks (xdg-mime goes through gio there): the type of a .ris
    file, of RIS content without the extension, and which application opens it."""
    if not shutil.which("update-mime-database"):
        require("update-mime-database", "shared-mime-info")
    xdg_mime = require("xdg-mime", "xdg-utils")
    require("gio", "libglib2.0-bin")
    assert (data / "mime/mime.cache").is_file(), "install.sh did not run update-mime-database"
    assert f"{APP_ID}.desktop" in (data / "applications/mimeinfo.cache").read_text()
    env = dict(env, XDG_CURRENT_DESKTOP="GNOME")
    files = {
        "refs.ris": ("TY  - JOUR\nTI  - A paper\nER  - \n", "application/x-research-info-systems"),
        "refs-from-mail": ("TY  - JOUR\nTI  - A paper\nER  - \n", "application/x-research-info-systems"),
        "pubmed.nbib": ("PMID- 1\nTI  - A paper.\n", "application/nbib"),
    }
    for name, (text, want) in files.items():
        f = tmp_path / name
        f.write_text(text)
        got = run([xdg_mime, "query", "filetype", f], env=env).stdout.strip()
        assert got == want, f"xdg-mime says {name} is {got!r}, expected {want}"
    for mime in ("application/x-research-info-systems", "application/nbib", "text/x-bibtex"):
        got = run([xdg_mime, "query", "default", mime], env=env).stdout.strip()
        assert got == f"{APP_ID}.desktop", f"default for {mime}: {got!r}"


def test_tarball_refuses_what_is_in_the_way(unpacked: Path, tmp_path):
    env = isolated_env(tmp_path / "user")
    home = Path(env["HOME"])
    appdir = home / ".local/lib" / APP
    exe = home / ".local/bin" / APP
    install = ["sh", unpacked / "install.sh", "--user"]

    # a folder that is not Marginalia's: refused, with or without --force, and left alone
    appdir.mkdir(parents=True)
    (appdir / "notes.txt").write_text("mine")
    for extra in ([], ["--force"]):
        out = run([*install, *extra], env=env, check=False)
        assert out.returncode == 1, out.stdout + out.stderr
        assert f"{appdir} is in the way" in out.stderr and "--prefix" in out.stderr, out.stderr
        assert "Installed." not in out.stdout
        assert (appdir / "notes.txt").read_text() == "mine" and not exe.exists()
    shutil.rmtree(appdir)

    # what an interrupted or hand-made install leaves: our program, no uninstall.sh
    (appdir / "_internal/desktop_app").mkdir(parents=True)
    (appdir / APP).write_text("old")
    out = run(install, env=env, check=False)
    assert out.returncode == 1 and "--force" in out.stderr, out.stdout + out.stderr
    assert (appdir / APP).read_text() == "old" and not exe.exists()
    out = run([*install, "--force"], env=env)
    assert "Installed." in out.stdout
    assert run([exe, "--version"], env=env).stdout.strip() == f"{APP} {VERSION}"
    # installing again over a proper installation replaces it through its uninstall.sh
    out = run(install, env=env)
    assert "Removing the earlier installation" in out.stdout
    run([appdir / "uninstall.sh"], env=env)
    assert not appdir.exists()

    # a `marginalia` command that is not our link (pip's script, say) is not overwritten
    exe.parent.mkdir(parents=True, exist_ok=True)
    exe.write_text("#!/bin/sh\necho other\n")
    out = run(install, env=env, check=False)
    assert out.returncode == 1 and str(exe) in out.stderr, out.stdout + out.stderr
    assert exe.read_text().endswith("echo other\n") and not appdir.exists()


def test_tarball_refuses_an_older_or_unknown_c_library(unpacked: Path, tmp_path):
    have = machine_glibc()
    # a build whose floor is above this machine's glibc, as an older distribution would see it
    tree = installer_tree(unpacked, tmp_path / "newer-build", glibc_min="99.0")
    env = isolated_env(tmp_path / "user")
    appdir = Path(env["HOME"]) / ".local/lib" / APP
    out = run(["sh", tree / "install.sh", "--user"], env=env, check=False)
    assert out.returncode == 1, out.stdout + out.stderr
    assert f"this system has glibc {have}" in out.stderr and "needs glibc 99.0" in out.stderr
    assert not appdir.exists()
    # musl (Alpine): no getconf GNU_LIBC_VERSION, and ldd says musl
    fake = tmp_path / "fakebin"
    fake.mkdir()
    (fake / "getconf").write_text("#!/bin/sh\necho 'getconf: Unrecognized variable' >&2\nexit 1\n")
    (fake / "ldd").write_text("#!/bin/sh\necho 'musl libc (x86_64)' >&2\necho 'Version 1.2.4' >&2\nexit 1\n")
    for f in fake.iterdir():
        f.chmod(0o755)
    tree = installer_tree(unpacked, tmp_path / "on-musl")
    musl_env = dict(env, PATH=f"{fake}{os.pathsep}{env['PATH']}")
    out = run(["sh", tree / "install.sh", "--user"], env=musl_env, check=False)
    assert out.returncode == 1 and "musl" in out.stderr, out.stdout + out.stderr
    assert not appdir.exists()
    # the floor equal to this machine's glibc installs
    tree = installer_tree(unpacked, tmp_path / "same", glibc_min=have)
    run(["sh", tree / "install.sh", "--user"], env=env)
    run([appdir / "uninstall.sh"], env=env)


# --- Windows installer script ----------------------------------------------------------------


def test_nsis_script_compiles(tmp_path):
    require("makensis", "nsis")
    out_exe = tmp_path / "Marginalia-check-win64-setup.exe"
    run(
        ["bash", ROOT / "packaging/windows/check_nsis.sh", out_exe],
        env=dict(os.environ, PYTHON=sys.executable, BUILD_DIR=str(tmp_path / "build")),
    )
    assert out_exe.read_bytes()[:2] == b"MZ"


# --- the real window under Xvfb, started from the desktop entry -------------------------------


def exec_argv(desktop: Path, root: Path, library: Path) -> list[str]:
    """The entry's Exec line as argv: field codes dropped, the program resolved inside the
    extracted root (through /usr/bin's symlink), --library put in front of the rest."""
    line = next(ln for ln in desktop.read_text().splitlines() if ln.startswith("Exec="))
    argv = [a for a in shlex.split(line[len("Exec=") :]) if not re.fullmatch(r"%[fFuUdDnNickvm]", a)]
    prog = argv[0]
    path = Path(prog) if prog.startswith("/") else Path("/usr/bin") / prog
    target = root / path.relative_to("/")
    if target.is_symlink():
        link = os.readlink(target)
        target = root / link.lstrip("/") if link.startswith("/") else target.parent / link
    assert target.is_file(), f"Exec program {prog} not found in the package ({target})"
    return [str(target), "--library", str(library), *argv[1:]]


def find_window(env: dict[str, str], title: str) -> str | None:
    """Id of a viewable top-level window whose name contains `title`, else None."""
    tree = run(["xwininfo", "-root", "-tree"], env=env, check=False, timeout=20).stdout
    for m in re.finditer(r"^\s*(0x[0-9a-f]+) \"([^\"]*)\":.*?(\d+)x(\d+)\+", tree, re.M):
        wid, name, w, h = m[1], m[2], int(m[3]), int(m[4])
        if title in name and w >= 200 and h >= 150:
            info = run(["xwininfo", "-id", wid], env=env, check=False, timeout=20).stdout
            if "IsViewable" in info:
                return wid
    return None


def pixel_stats(png: Path) -> tuple[float, int]:
    """(variance of grey levels, number of distinct colours) over a sample grid, via Qt."""
    from PySide6.QtGui import QImage

    img = QImage(str(png))
    assert not img.isNull(), f"{png} does not load"
    greys, colours = [], set()
    for y in range(0, img.height(), 4):
        for x in range(0, img.width(), 4):
            rgb = img.pixel(x, y) & 0xFFFFFF
            colours.add(rgb)
            greys.append(((rgb >> 16) & 255) * 0.299 + ((rgb >> 8) & 255) * 0.587 + (rgb & 255) * 0.114)
    mean = sum(greys) / len(greys)
    return sum((g - mean) ** 2 for g in greys) / len(greys), len(colours)


def test_desktop_entry_starts_real_window_under_xvfb(deb_root: Path, tmp_path):
    xvfb = require("Xvfb", "xvfb")
    require("xauth", "xauth")
    require("xwininfo", "x11-utils")
    require("import", "imagemagick")
    desktop = deb_root / "usr/share/applications" / f"{APP_ID}.desktop"
    library = tmp_path / "library"
    argv = exec_argv(desktop, deb_root, library)
    env = isolated_env(tmp_path / "env")
    # fill the library with the bundled sample (the packaged CLI's import), so the window
    # shows papers rather than the empty-library page
    samples = sorted((Path(argv[0]).parent / "_internal/desktop_app/resources/sample").glob("*.txt"))
    assert samples, "the bundled sample abstracts are missing"
    run([argv[0], "--library", library, "import", *samples], env=env, timeout=180)
    env.pop("QT_QPA_PLATFORM")  # the real xcb platform
    # Xvfb picks a free display and writes its number to the pipe once it listens
    rfd, wfd = os.pipe()
    server = subprocess.Popen(
        [xvfb, "-displayfd", str(wfd), "-screen", "0", "1600x1000x24", "-nolisten", "tcp", "-noreset"],
        pass_fds=(wfd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(wfd)
    app = None
    log = tmp_path / "app.log"
    shot = tmp_path / "xvfb-window.png"
    try:
        with os.fdopen(rfd) as r:
            display = r.readline().strip()
        assert display, "Xvfb did not report a display"
        env["DISPLAY"] = f":{display}"
        t0 = time.monotonic()
        with log.open("w") as logf:
            app = subprocess.Popen(argv, env=env, stdout=logf, stderr=subprocess.STDOUT)
        wid = None
        while time.monotonic() - t0 < 60 and app.poll() is None:
            wid = find_window(env, "Marginalia")
            if wid:
                break
            time.sleep(0.2)
        if not wid:
            pytest.fail(
                f"no 'Marginalia' window within 60 s (exit {app.poll()}); argv {argv}\n{log.read_text()[-4000:]}",
                pytrace=False,
            )
        report(f"Xvfb: window mapped {time.monotonic() - t0:.2f} s after the Exec line ran")
        props = (
            run(["xprop", "-id", wid, "WM_CLASS", "_NET_WM_ICON"], env=env, check=False, timeout=20).stdout
            if shutil.which("xprop")
            else "_NET_WM_ICON(CARDINAL)"
        )
        # the window icon comes from the bundled SVG (through Qt's svg icon engine plugin)
        assert "_NET_WM_ICON(CARDINAL)" in props, f"window has no icon:\n{props[:500]}"
        report(f"Xvfb: {props.splitlines()[0] if props else ''}")
        # the first paint can lag the map: poll the screen until it shows something
        variance, colours = 0.0, 0
        while time.monotonic() - t0 < 90:
            run(["import", "-window", "root", shot], env=env, timeout=30)
            variance, colours = pixel_stats(shot)
            if variance > 50 and colours > 8:
                break
            time.sleep(0.3)
        assert shot.is_file()
        assert app.poll() is None, f"app exited early:\n{log.read_text()[-4000:]}"
        assert variance > 50 and colours > 8, f"screenshot looks blank (variance {variance:.1f}, {colours} colours)"
        keep = ROOT / "build" / "screenshots" / "xvfb-window.png"
        keep.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, keep)
    finally:
        for proc in (app, server):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
