"""The pre-flight check of Qt's X11 plugin: what is missing, and the command that installs it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_app.platform_check import (
    debian_name,
    missing_libraries,
    package_manager,
    platform_problem,
    xcb_plugin,
)
from tests.helpers.shared import ROOT

# what ldd printed for the plugin on a fresh Debian 12 desktop (the two libraries the issue names)
LDD_DEBIAN12 = """\
\tlinux-vdso.so.1 (0x00007ffd5a9f6000)
\tlibQt6XcbQpa.so.6 => /opt/marginalia/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f6f1c400000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f6f1c3f0000)
\tlibxcb-icccm.so.4 => not found
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f6f1c000000)
"""
OS = {
    "apt": 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n',
    "apt-ubuntu": "ID=ubuntu\nID_LIKE=debian\n",
    "dnf": 'ID="rhel"\nID_LIKE="fedora"\n',
    "pacman": "ID=arch\n",
    "zypper": 'ID="opensuse-leap"\nID_LIKE="suse opensuse"\n',
}
X11 = {"DISPLAY": ":0", "XDG_SESSION_TYPE": "x11"}


def test_missing_sonames_are_read_from_ldd() -> None:
    assert missing_libraries(LDD_DEBIAN12) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    assert missing_libraries(LDD_DEBIAN12.replace("not found", "/lib/x.so (0x1)")) == []


def test_debian_package_names() -> None:
    assert debian_name("libxcb-icccm.so.4") == "libxcb-icccm4"
    assert debian_name("libxkbcommon-x11.so.0") == "libxkbcommon-x11-0"
    assert debian_name("libdbus-1.so.3") == "libdbus-1-3"


@pytest.mark.parametrize(
    ("release", "command"),
    [
        ("apt", "sudo apt-get install -y libxcb-icccm4 libxcb-keysyms1"),
        ("apt-ubuntu", "sudo apt-get install -y libxcb-icccm4 libxcb-keysyms1"),
        ("dnf", "sudo dnf install -y xcb-util-wm xcb-util-keysyms"),
        ("pacman", "sudo pacman -S --needed xcb-util-wm xcb-util-keysyms"),
        ("zypper", "sudo zypper install -y libxcb-icccm4 libxcb-keysyms1"),
    ],
)
def test_the_message_names_the_libraries_and_one_install_command(release: str, command: str) -> None:
    if not sys.platform.startswith("linux") or xcb_plugin() is None:
        pytest.skip("Qt's xcb plugin exists only on Linux")
    message = platform_problem(X11, ldd=lambda _p: LDD_DEBIAN12, os_release=OS[release])
    assert message is not None
    assert "libxcb-icccm.so.4, libxcb-keysyms.so.1" in message
    assert "libxcb-cursor" not in message  # present: not blamed, unlike Qt's own message
    assert message.splitlines()[-1].strip() == command


def test_no_message_when_nothing_is_missing_or_xcb_is_not_used() -> None:
    assert platform_problem(X11, ldd=lambda _p: LDD_DEBIAN12.replace("not found", "/x (0x1)")) is None
    assert platform_problem({"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"}, ldd=lambda _p: LDD_DEBIAN12) is None
    assert platform_problem({"DISPLAY": ":0", "XDG_SESSION_TYPE": "wayland"}, ldd=lambda _p: LDD_DEBIAN12) is None
    assert platform_problem({}, ldd=lambda _p: LDD_DEBIAN12) is None  # no display at all


def test_package_manager_from_os_release() -> None:
    assert package_manager(OS["apt"]) == "apt"
    assert package_manager(OS["dnf"]) == "dnf"
    assert package_manager(OS["zypper"]) == "zypper"


def test_this_machine_has_what_the_plugin_needs() -> None:
    """On this machine (CI installs Qt's xcb libraries) the real ldd finds nothing missing."""
    if not sys.platform.startswith("linux") or xcb_plugin() is None or shutil.which("ldd") is None:
        pytest.skip("needs Linux, ldd and Qt's xcb plugin")
    problem = platform_problem({"QT_QPA_PLATFORM": "xcb"})
    if problem and "CI" not in os.environ:
        pytest.skip(f"this machine lacks Qt's X11 libraries (.ci/run installs them): {problem}")
    assert problem is None


def test_the_cli_stops_with_the_message_before_qt_aborts(tmp_path: Path) -> None:
    """A plugin whose ldd says a library is missing: `marginalia` prints the command, exits 1."""
    if not sys.platform.startswith("linux") or xcb_plugin() is None:
        pytest.skip("Qt's xcb plugin exists only on Linux")
    fake_ldd = tmp_path / "ldd"
    fake_ldd.write_text("#!/bin/sh\nprintf '\\tlibxcb-icccm.so.4 => not found\\n'\n")
    fake_ldd.chmod(0o755)
    env = {
        "PATH": f"{tmp_path}:/usr/bin:/bin",
        "DISPLAY": ":99",
        "QT_QPA_PLATFORM": "xcb",
        "HOME": str(tmp_path),
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(
        [sys.executable, "-m", "desktop_app", "--library", str(tmp_path / "lib")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert "needs libxcb-icccm.so.4" in done.stderr
    assert "install" in done.stderr.splitlines()[-1]
    assert "Traceback" not in done.stderr


def test_a_passed_check_is_remembered_until_the_system_libraries_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ldd runs once; the next start reuses the result while plugin and ld.so.cache are the same."""
    import desktop_app.platform_check as pc

    if not sys.platform.startswith("linux") or xcb_plugin() is None or not Path("/etc/ld.so.cache").exists():
        pytest.skip("needs Linux with ld.so.cache and Qt's xcb plugin")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    calls: list[Path] = []
    real = pc._ldd

    def counting(path: Path) -> str:
        calls.append(path)
        return real(path)

    monkeypatch.setattr(pc, "_ldd", counting)
    env = {"QT_QPA_PLATFORM": "xcb"}
    first = pc.platform_problem(env, ldd=pc._ldd)
    if first is not None:
        pytest.skip(f"this machine lacks Qt's X11 libraries: {first}")
    assert pc.platform_problem(env, ldd=pc._ldd) is None
    assert len(calls) == 1
    (tmp_path / "cache" / "Marginalia" / "xcb-plugin-ok").write_text("another system", encoding="utf-8")
    assert pc.platform_problem(env, ldd=pc._ldd) is None
    assert len(calls) == 2
