#!/usr/bin/env python3
"""Compute a .deb `Depends:` line for a self-contained (PyInstaller) bundle.

    python3 packaging/linux/debdeps.py BUNDLE_DIR [--report FILE]

Every ELF file in the bundle is read with `objdump`: its DT_NEEDED libraries, minus the ones
the bundle carries itself, are the host libraries the bundle needs; `ldconfig -p` finds them
and `dpkg -S` names the packages that own them. The libc6 floor is the newest GLIBC_x.y symbol
version any bundled ELF file references (`objdump -T`). Prints the Depends value on stdout.

A needed library that is not installed here is mapped by Debian's soname naming rule
(libfoo.so.1 -> libfoo1) when `apt-cache show` knows that package; failing that the script
exits 1 and names the library (install its package on the build host and rebuild).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

GLIBC_RE = re.compile(r"\bGLIBC_(\d+(?:\.\d+)+)\b")
# Libraries every glibc system has: they map to libc6, whose floor comes from symbol versions.
LIBC_SONAMES = {
    "libc.so.6",
    "libm.so.6",
    "libpthread.so.0",
    "libdl.so.2",
    "librt.so.1",
    "libutil.so.1",
    "libresolv.so.2",
    "ld-linux-x86-64.so.2",
    "ld-linux-aarch64.so.1",
}


def is_elf(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def elf_info(path: Path) -> tuple[list[str], set[str]]:
    """(DT_NEEDED names, GLIBC versions referenced by undefined dynamic symbols)."""
    p = subprocess.run(["objdump", "-p", str(path)], capture_output=True, text=True)
    needed = [ln.split()[1] for ln in p.stdout.splitlines() if ln.strip().startswith("NEEDED")]
    t = subprocess.run(["objdump", "-T", str(path)], capture_output=True, text=True)
    versions = set()
    for ln in t.stdout.splitlines():
        if "*UND*" in ln:
            versions.update(GLIBC_RE.findall(ln))
    return needed, versions


def ldconfig_paths() -> dict[str, str]:
    """soname -> path for this machine's word size, from the ld.so cache."""
    out = subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True, text=True).stdout
    want64 = sys.maxsize > 2**32
    found: dict[str, str] = {}
    for ln in out.splitlines()[1:]:
        m = re.match(r"\s*(\S+)\s+\(([^)]*)\)\s+=>\s+(\S+)", ln)
        if not m:
            continue
        name, flags, path = m.groups()
        is64 = "64" in flags
        if is64 == want64 and name not in found:
            found[name] = path
    return found


def owners(paths: list[str]) -> dict[str, str]:
    """path -> Debian package owning it (tries the /usr-merged twin and the real path too)."""
    result: dict[str, str] = {}
    candidates: dict[str, str] = {}
    for p in paths:
        alts = [p, os.path.realpath(p)]
        for a in list(alts):
            alts.append(a[4:] if a.startswith("/usr/") else "/usr" + a)
        for a in alts:
            candidates.setdefault(a, p)
    out = subprocess.run(["dpkg", "-S", *candidates], capture_output=True, text=True).stdout
    for ln in out.splitlines():
        if ": " not in ln:
            continue
        pkgs, path = ln.split(": ", 1)
        orig = candidates.get(path.strip())
        if orig and orig not in result:
            result[orig] = pkgs.split(",")[0].strip().split(":")[0]
    return result


def package_by_soname(lib: str) -> str | None:
    """Debian's naming rule for a library not installed here: libfoo-bar.so.1 -> libfoo-bar1
    (libfoo2.so.3 -> libfoo2-3), confirmed with `apt-cache show`."""
    m = re.fullmatch(r"(lib[\w+.-]+?)\.so\.(\d+)(?:\.\d+)*", lib)
    if not m:
        return None
    stem, major = m.groups()
    pkg = (f"{stem}-{major}" if stem[-1].isdigit() else f"{stem}{major}").lower().replace("_", "-")
    ok = subprocess.run(["apt-cache", "show", "--no-all-versions", pkg], capture_output=True)
    return pkg if ok.returncode == 0 and ok.stdout.strip() else None


def version_key(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def compute(bundle: Path) -> tuple[str, list[str]]:
    files = [p for p in bundle.rglob("*") if p.is_file() and not p.is_symlink() and is_elf(p)]
    provided = {p.name for p in bundle.rglob("*") if p.is_file()}
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        infos = dict(zip(files, ex.map(elf_info, files), strict=True))
    needers: dict[str, list[str]] = {}
    glibc: set[str] = set()
    for f, (needed, versions) in infos.items():
        glibc |= versions
        for lib in needed:
            if lib not in provided:
                needers.setdefault(lib, []).append(str(f.relative_to(bundle)))
    report = [f"{len(files)} ELF files; host libraries needed: {len(needers)}"]
    cache = ldconfig_paths()
    libc_floor = max(glibc, key=version_key) if glibc else None
    deps: set[str] = set()
    missing = []
    paths = {}
    for lib in sorted(needers):
        if lib in LIBC_SONAMES:
            deps.add("libc6")
            continue
        if lib not in cache:
            pkg = package_by_soname(lib)
            if pkg is None:
                missing.append(lib)
            else:
                deps.add(pkg)
                report.append(
                    f"  {lib:32} {pkg:24} <- {needers[lib][0]} (not installed here;"
                    " package named by soname, found with apt-cache)"
                )
            continue
        paths[lib] = cache[lib]
    owner = owners(sorted(set(paths.values())))
    for lib, path in sorted(paths.items()):
        pkg = owner.get(path)
        if pkg is None:
            missing.append(f"{lib} ({path}: no package owns it)")
            continue
        deps.add(pkg)
        report.append(f"  {lib:32} {pkg:24} <- {needers[lib][0]}")
    for m in missing:
        report.append(f"  MISSING {m} <- {needers.get(m.split()[0], ['?'])[0]}")
    if missing:
        raise SystemExit("debdeps: needed libraries not found on this machine:\n" + "\n".join(report))
    items = []
    for pkg in sorted(deps):
        if pkg == "libc6" and libc_floor:
            items.append(f"libc6 (>= {libc_floor})")
        else:
            items.append(pkg)
    report.append(f"  libc6 floor from symbol versions: GLIBC_{libc_floor}")
    return ", ".join(items), report


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("bundle", type=Path)
    ap.add_argument("--report", type=Path, help="write which ELF file needs which library")
    args = ap.parse_args()
    depends, report = compute(args.bundle)
    if args.report:
        args.report.write_text("\n".join(report) + "\n")
    print(depends)
    return 0


if __name__ == "__main__":
    sys.exit(main())
