"""Before the window starts on X11: does Qt's xcb platform plugin find every library it needs?

Qt's own message when one is missing blames ``libxcb-cursor0`` whatever is missing, and the app
then aborts. This asks ``ldd`` instead and prints the one command that installs what is missing
on the user's distribution (apt, dnf, pacman, zypper). No Qt is imported here.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path

# soname -> package, per package manager (a soname not listed falls back to its Debian-style name)
PACKAGES: dict[str, dict[str, str]] = {
    "libxcb-icccm.so.4": {"dnf": "xcb-util-wm", "pacman": "xcb-util-wm"},
    "libxcb-keysyms.so.1": {"dnf": "xcb-util-keysyms", "pacman": "xcb-util-keysyms"},
    "libxcb-cursor.so.0": {"dnf": "xcb-util-cursor", "pacman": "xcb-util-cursor"},
    "libxcb-image.so.0": {"dnf": "xcb-util-image", "pacman": "xcb-util-image"},
    "libxcb-render-util.so.0": {"dnf": "xcb-util-renderutil", "pacman": "xcb-util-renderutil"},
    "libxcb-util.so.1": {"dnf": "xcb-util", "pacman": "xcb-util", "apt": "libxcb-util1"},
    "libxkbcommon-x11.so.0": {"dnf": "libxkbcommon-x11", "pacman": "libxkbcommon-x11"},
    "libxkbcommon.so.0": {"dnf": "libxkbcommon", "pacman": "libxkbcommon"},
    "libEGL.so.1": {"apt": "libegl1", "dnf": "libglvnd-egl", "pacman": "libglvnd", "zypper": "libEGL1"},
    "libGL.so.1": {"apt": "libgl1", "dnf": "libglvnd-glx", "pacman": "libglvnd", "zypper": "libGL1"},
    "libOpenGL.so.0": {"apt": "libopengl0", "dnf": "libglvnd-opengl", "pacman": "libglvnd", "zypper": "libOpenGL0"},
    "libfontconfig.so.1": {"dnf": "fontconfig", "pacman": "fontconfig"},
    "libfreetype.so.6": {"dnf": "freetype", "pacman": "freetype2"},
    "libdbus-1.so.3": {"dnf": "dbus-libs", "pacman": "dbus"},
    "libX11-xcb.so.1": {"dnf": "libX11-xcb", "pacman": "libx11"},
}
INSTALL = {
    "apt": "sudo apt-get install -y {}",
    "dnf": "sudo dnf install -y {}",
    "pacman": "sudo pacman -S --needed {}",
    "zypper": "sudo zypper install -y {}",
}
_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.M)


def debian_name(soname: str) -> str:
    """libxcb-icccm.so.4 -> libxcb-icccm4; libdbus-1.so.3 -> libdbus-1-3 (Debian's naming)."""
    base, _, version = soname.partition(".so.")
    version = version.split(".")[0]
    if not version:
        return base
    return f"{base}-{version}" if base[-1].isdigit() else f"{base}{version}"


def package_for(soname: str, manager: str) -> str:
    known = PACKAGES.get(soname, {})
    if manager in known:
        return known[manager]
    if manager in ("apt", "zypper"):
        return debian_name(soname)
    return soname  # dnf/pacman: unknown soname; `dnf provides` finds it, we say the soname


def package_manager(os_release: str | None = None) -> str | None:
    """apt, dnf, pacman or zypper, from /etc/os-release (ID and ID_LIKE)."""
    if os_release is None:
        try:
            os_release = Path("/etc/os-release").read_text(encoding="utf-8")
        except OSError:
            os_release = ""
    ids = " ".join(re.findall(r'^(?:ID|ID_LIKE)="?([^"\n]*)"?', os_release, re.M)).lower().split()
    for names, manager in (
        (("debian", "ubuntu"), "apt"),
        (("fedora", "rhel", "centos"), "dnf"),
        (("arch",), "pacman"),
        (("suse", "opensuse"), "zypper"),
    ):
        if any(i in names or any(n in i for n in names) for i in ids):
            return manager
    for manager, tool in (("apt", "apt-get"), ("dnf", "dnf"), ("pacman", "pacman"), ("zypper", "zypper")):
        if shutil.which(tool):
            return manager
    return None


def missing_libraries(ldd_output: str) -> list[str]:
    """The sonames ``ldd`` reports as "not found", each once, in order."""
    return list(dict.fromkeys(_NOT_FOUND.findall(ldd_output)))


def xcb_plugin() -> Path | None:
    spec = find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    plugin = Path(next(iter(spec.submodule_search_locations))) / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return plugin if plugin.is_file() else None


def _ldd(path: Path) -> str:
    try:
        return subprocess.run(["ldd", str(path)], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return ""  # no ldd: nothing to say; Qt will speak for itself


def _cache_file() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("Marginalia", appauthor=False)) / "xcb-plugin-ok"


def _cache_key(plugin: Path) -> str | None:
    """The plugin and the dynamic linker's cache as they are now (a package installed or
    removed changes ``/etc/ld.so.cache``)."""
    try:
        ld_cache = Path("/etc/ld.so.cache").stat().st_mtime_ns
        return f"{plugin}|{plugin.stat().st_mtime_ns}|{ld_cache}"
    except OSError:
        return None


def _passed_before(key: str) -> bool:
    try:
        return _cache_file().read_text(encoding="utf-8") == key
    except OSError:
        return False


def _remember_pass(key: str) -> None:
    path = _cache_file()
    with contextlib.suppress(OSError):  # only a shortcut for the next start
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(key, encoding="utf-8")


def uses_xcb(env: dict[str, str]) -> bool:
    """Will Qt pick the xcb plugin? Linux, a DISPLAY, and not asked for another platform."""
    platform = env.get("QT_QPA_PLATFORM", "")
    if platform:
        return platform.split(":")[0].split(";")[0] == "xcb"
    return bool(env.get("DISPLAY")) and env.get("XDG_SESSION_TYPE", "") != "wayland"


def platform_problem(
    env: dict[str, str] | None = None, ldd: Callable[[Path], str] = _ldd, os_release: str | None = None
) -> str | None:
    """A message naming what the xcb plugin lacks and the command that installs it, or None."""
    env = dict(os.environ) if env is None else env
    if not sys.platform.startswith("linux") or not uses_xcb(env):
        return None
    plugin = xcb_plugin()
    if plugin is None:
        return None
    key = _cache_key(plugin)
    if key is not None and ldd is _ldd and _passed_before(key):
        return None  # same plugin, same system libraries: ldd (about 13 ms) is not run again
    missing = missing_libraries(ldd(plugin))
    if not missing:
        if key is not None and ldd is _ldd:
            _remember_pass(key)
        return None
    manager = package_manager(os_release)
    lines = [
        f"Marginalia cannot open its window: Qt's X11 plugin needs {', '.join(missing)}, "
        "which this system does not have."
    ]
    if manager:
        packages = " ".join(dict.fromkeys(package_for(s, manager) for s in missing))
        lines.append("Install them with:")
        lines.append("    " + INSTALL[manager].format(packages))
    else:
        lines.append("Install the packages that provide them with your distribution's package manager.")
    return "\n".join(lines)


# Qt platforms that need a display server (X11 or Wayland); any other asked for in
# QT_QPA_PLATFORM (offscreen, minimal, vnc, eglfs, linuxfb, ...) draws without one
DISPLAY_SERVER_PLATFORMS = ("xcb", "wayland")
NO_SESSION = (
    "marginalia: no graphical session here (neither DISPLAY nor WAYLAND_DISPLAY is set), "
    "so the window cannot open; the command line works without one: marginalia --help"
)


def no_graphical_session(env: dict[str, str] | None = None, platform: str = sys.platform) -> bool:
    """True when the window has nowhere to go: not Windows or macOS, no X11 or Wayland display
    in the environment, and QT_QPA_PLATFORM names only display-server platforms (or nothing)."""
    env = dict(os.environ) if env is None else env
    if platform.startswith(("win32", "cygwin", "darwin")):
        return False
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or env.get("WAYLAND_SOCKET"):
        return False
    # "wayland;xcb" lists fallbacks; "xcb:option=value" passes options to the plugin
    asked = [p.split(":")[0].strip() for p in env.get("QT_QPA_PLATFORM", "").split(";") if p.strip()]
    return all(name.startswith(DISPLAY_SERVER_PLATFORMS) for name in asked)
