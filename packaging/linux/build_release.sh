#!/usr/bin/env bash
# The Linux release build: the bundle, the .deb and the tarball, built on Debian 11 so that they
# run wherever glibc is 2.31 or newer (Debian 11+, Ubuntu 20.04+, Mint 20+, RHEL 9, Fedora 32+).
# The release workflow's `linux` job runs exactly this script (in a debian:11 container), and so
# does tests/e2e/test_packaging.py (in a Debian 11 root made with debootstrap).
#
#   packaging/linux/build_release.sh [STEP...]
#   packaging/linux/build_release.sh --exec CMD [ARG...]   run CMD in the Debian 11 root, with
#                                    DIST_DIR at /out/dist (tests run the built bundle there)
#
# STEPs are build_linux.sh's (default: icons bundle smoke deb tarball); the outputs land in
# $DIST_DIR (default dist/) and $BUILD_DIR (default build/) as with build_linux.sh.
#
# Where it runs:
#   * on Debian 11 (glibc 2.31): in place. As root it installs the Debian packages it needs.
#   * anywhere else: in a Debian 11 root kept at $MARGINALIA_BUILD_ROOT (default
#     ~/.cache/marginalia/debian11-<arch>), made with debootstrap on first use (root needed:
#     apt-get install debootstrap). The source tree (git's files) is copied in, DIST_DIR and
#     BUILD_DIR are bind-mounted, and everything happens in a private mount namespace, so no
#     mount outlives the build.
#
# Python: Debian 11 ships Python 3.9 and the app needs 3.11, so the build compiles CPython from
# Debian 12's python3.11 source package: upstream 3.11.2 plus Debian's bug and security fixes
# (not its layout patches), --enable-shared (PyInstaller needs libpython), into
# /opt/marginalia-python of the build system, once (a stamp names the source version).
# Then a venv with the project's pinned dependencies and PyInstaller, then build_linux.sh.
#
# Environment: DIST_DIR, BUILD_DIR, DEB_COMPRESS, SOURCE_DATE_EPOCH (passed on to build_linux.sh);
#   MARGINALIA_BUILD_ROOT, DEBIAN_MIRROR (default http://deb.debian.org/debian).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SUITE=bullseye          # Debian 11: glibc 2.31
GLIBC_FLOOR=2.31
PY_SOURCE_SUITE=bookworm
PY_PACKAGE=python3.11
PY_PREFIX=/opt/marginalia-python
VENV=/opt/marginalia-venv
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
EXEC=0
if [ "${1:-}" = --exec ]; then EXEC=1; shift; [ $# -gt 0 ] || { echo "build_release.sh: --exec needs a command" >&2; exit 2; }; fi
STEPS=("$@")
[ ${#STEPS[@]} -gt 0 ] || STEPS=(icons bundle smoke deb tarball)

say() { printf '\033[1m== build_release: %s\033[0m\n' "$*"; }
die() { printf 'build_release.sh: %s\n' "$*" >&2; exit 1; }

# Build dependencies, and the libraries Qt loads at run time (the smoke test runs here too).
# These libraries stay out of the bundle (every desktop has them; see marginalia.spec's
# SYSTEM_LIBS) but PyInstaller must find them to analyse the Qt plugins.
BUILD_DEBS="build-essential pkg-config ca-certificates xz-utils binutils file dpkg-dev
  libsqlite3-dev zlib1g-dev libffi-dev libbz2-dev liblzma-dev libssl-dev uuid-dev
  libglib2.0-0 libfontconfig1 libfreetype6 libxkbcommon0 libxkbcommon-x11-0 libdbus-1-3
  libx11-6 libx11-xcb1 libxcb1 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0
  libxcb-randr0 libxcb-shape0 libxcb-xfixes0 libxcb-xkb1 libxcb-sync1 libxcb-render0
  libxcb-shm0 libxcb-cursor0 libegl1 libgl1 libopengl0 libgssapi-krb5-2 fonts-dejavu-core"

glibc_version() { getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}'; }

on_build_system() {
    [ -r /etc/os-release ] && [ "$(. /etc/os-release && echo "${VERSION_CODENAME:-}")" = "$SUITE" ]
}

# --- on Debian 11 -------------------------------------------------------------------------

install_debs() {
    local missing
    # shellcheck disable=SC2086
    missing=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' $BUILD_DEBS 2>/dev/null \
        | awk '$1 != "ii" {print $2}'; for p in $BUILD_DEBS; do
            dpkg-query -W "$p" >/dev/null 2>&1 || echo "$p"; done)
    missing=$(echo "$missing" | sort -u | xargs)
    [ -n "$missing" ] || return 0
    [ "$(id -u)" = 0 ] || die "missing Debian packages (run as root to install them): $missing"
    say "apt-get install $missing"
    # a build killed while dpkg ran (in the cached Debian 11 root, say) leaves it half-configured:
    # finish that first, or apt-get refuses everything
    DEBIAN_FRONTEND=noninteractive dpkg --configure -a >/dev/null 2>&1 || true
    apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

# The python3.11 source from Debian 12, fetched with apt into a scratch apt state.
fetch_python_source() {
    local dir=$1 state="$1/apt"
    mkdir -p "$state/lists/partial"
    printf 'deb-src %s %s main\n' "$MIRROR" "$PY_SOURCE_SUITE" > "$state/sources.list"
    local opts=(-o "Dir::Etc::SourceList=$state/sources.list" -o Dir::Etc::SourceParts=/dev/null
                -o "Dir::State::Lists=$state/lists" -o APT::Sandbox::User=root)
    apt-get "${opts[@]}" update -qq
    (cd "$dir" && apt-get "${opts[@]}" source --download-only -qq "$PY_PACKAGE/$PY_SOURCE_SUITE")
}

build_python() {
    local stamp="$PY_PREFIX/.marginalia-source"
    local src dsc version
    src=$(mktemp -d /tmp/marginalia-python.XXXXXX)
    fetch_python_source "$src"
    dsc=$(ls "$src"/${PY_PACKAGE}_*.dsc)
    version=$(sed -n 's/^Version: //p' "$dsc")
    if [ -x "$PY_PREFIX/bin/python3.11" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$version" ]; then
        echo "Python from $PY_PACKAGE $version already built in $PY_PREFIX"
        rm -rf "$src"
        return 0
    fi
    say "CPython from $PY_PACKAGE $version (Debian $PY_SOURCE_SUITE) into $PY_PREFIX"
    (
        cd "$src"
        tar xf ${PY_PACKAGE}_*.orig.tar.*
        tar xf ${PY_PACKAGE}_*.debian.tar.*
        cd Python-*/
        # Debian's series starts with its own file layout (dist-packages, multiarch names,
        # sysconfig schemes...), which a relocatable bundle must not have; the fixes (crashes,
        # CVEs) come after the last layout patch.
        local applying=0 patch
        while read -r patch _; do
            case "$patch" in ''|'#'*) continue ;; esac
            if [ $applying = 1 ]; then
                patch -p1 -s --no-backup-if-mismatch < "../debian/patches/$patch" \
                    || die "Debian's $patch does not apply"
            fi
            [ "$patch" = ntpath-import.diff ] && applying=1
        done < ../debian/patches/series
        [ $applying = 1 ] || die "Debian's patch series changed (no ntpath-import.diff): check the list"
        # CVE-2026-4224's backport includes an internal header in pyexpat.c, which Debian builds
        # into the interpreter; built as a shared module (as here) it must say it is core code,
        # the way upstream's other modules do
        if grep -q '#include "pycore_' Modules/pyexpat.c && ! grep -q Py_BUILD_CORE Modules/pyexpat.c; then
            sed -i '1i #ifndef Py_BUILD_CORE_BUILTIN\n#  define Py_BUILD_CORE_MODULE 1\n#endif' Modules/pyexpat.c
        fi
        ./configure --quiet --prefix="$PY_PREFIX" --enable-shared --with-ensurepip=install \
            LDFLAGS="-Wl,-rpath,$PY_PREFIX/lib" >/dev/null
        make -s -j"$(nproc)" >/dev/null 2>"$src/make.log" || { tail -30 "$src/make.log"; exit 1; }
        rm -rf "$PY_PREFIX"
        make -s install >/dev/null 2>>"$src/make.log" || { tail -30 "$src/make.log"; exit 1; }
    )
    "$PY_PREFIX/bin/python3.11" -c 'import sqlite3, zlib, ssl, lzma, bz2, ctypes, pyexpat' \
        || die "the Python built in $PY_PREFIX lacks a module the build needs"
    echo "$version" > "$stamp"
    rm -rf "$src"
}

build_here() {
    [ "$(glibc_version)" = "$GLIBC_FLOOR" ] || die "expected glibc $GLIBC_FLOOR on $SUITE, found $(glibc_version)"
    install_debs
    build_python
    say "venv $VENV with the project's pinned dependencies"
    [ -x "$VENV/bin/python" ] || "$PY_PREFIX/bin/python3.11" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
    # a copy of the source, so the build writes nothing into it (build/, *.egg-info)
    local stage
    stage=$(mktemp -d /tmp/marginalia-src.XXXXXX)
    (cd "$ROOT" && tar --exclude=./.git --exclude=./.venv --exclude=./build --exclude=./dist \
        --exclude='*.egg-info' -cf - .) | tar -xf - -C "$stage"
    "$VENV/bin/python" -m pip install --quiet "${stage}[package]"
    rm -rf "$stage"
    # the venv first on PATH: build_linux.sh's helper scripts run with `python3` (Debian 11 has
    # no Python installed here)
    PATH="$VENV/bin:$PATH" PYTHON="$VENV/bin/python" bash "$ROOT/packaging/build_linux.sh" "${STEPS[@]}"
}

# --- anywhere else: a Debian 11 root --------------------------------------------------------

make_root() {
    local dir=$1
    [ -x "$dir/usr/bin/apt-get" ] && return 0
    [ "$(id -u)" = 0 ] || die "building for glibc $GLIBC_FLOOR needs a Debian 11 root: run as root (debootstrap, chroot)"
    command -v debootstrap >/dev/null || die "debootstrap not found: apt-get install -y debootstrap"
    say "debootstrap $SUITE into $dir (once; ~2 min)"
    rm -rf "$dir.partial"
    mkdir -p "$(dirname "$dir")"
    debootstrap --variant=minbase --include=ca-certificates "$SUITE" "$dir.partial" "$MIRROR" \
        > "$dir.partial.log" 2>&1 || { tail -20 "$dir.partial.log"; die "debootstrap failed"; }
    printf 'deb %s %s main\ndeb %s %s-updates main\n' "$MIRROR" "$SUITE" "$MIRROR" "$SUITE" \
        > "$dir.partial/etc/apt/sources.list"
    mv "$dir.partial" "$dir"
    rm -f "$dir.partial.log"
}

# enter_root DIR DIST BUILD CMD...: CMD chrooted in DIR, in a private mount namespace (so the
# mounts go away with it), with /proc, /dev, and DIST and BUILD at /out/dist and /out/build
enter_root() {
    # shellcheck disable=SC2016  # the script is expanded by the inner bash, from its arguments
    unshare --mount --propagation private -- bash -euo pipefail -c '
        dir=$1; shift; dist=$1; shift; build=$1; shift
        mount -t proc proc "$dir/proc"
        mount --rbind /dev "$dir/dev"
        mount --bind "$dist" "$dir/out/dist"
        mount --bind "$build" "$dir/out/build"
        exec chroot "$dir" "$@"' _ "$@"
}

build_in_root() {
    local dir=${MARGINALIA_BUILD_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/marginalia/debian11-$(uname -m)}
    local dist build epoch
    dist=$(mkdir -p "${DIST_DIR:-$ROOT/dist}" && cd "${DIST_DIR:-$ROOT/dist}" && pwd)
    build=$(mkdir -p "${BUILD_DIR:-$ROOT/build}" && cd "${BUILD_DIR:-$ROOT/build}" && pwd)
    epoch=${SOURCE_DATE_EPOCH:-$(git -C "$ROOT" log -1 --format=%ct 2>/dev/null || date +%s)}
    command -v unshare >/dev/null || die "unshare (util-linux) not found"
    if [ $EXEC = 1 ]; then
        [ -x "$dir/opt/marginalia-python/bin/python3.11" ] || die "no build in $dir yet: run a build first"
        mkdir -p "$dir/out/dist" "$dir/out/build"
        enter_root "$dir" "$dist" "$build" /usr/bin/env -i \
            PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
            LANG=C.UTF-8 "${STEPS[@]}"
        return
    fi
    make_root "$dir"
    # the source as git has it (tracked and new files, with their working-tree contents)
    say "source into $dir/src"
    rm -rf "$dir/src" && mkdir -p "$dir/src" "$dir/out/dist" "$dir/out/build"
    if git -C "$ROOT" rev-parse --show-toplevel >/dev/null 2>&1; then
        (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard \
            | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$dir/src"
    else
        (cd "$ROOT" && tar --exclude=./.venv --exclude=./build --exclude=./dist -cf - .) | tar -xf - -C "$dir/src"
    fi
    # the host's certificate authorities (pip reaches PyPI through them) and name service
    cp -L /etc/ssl/certs/ca-certificates.crt "$dir/etc/ssl/host-ca-certificates.crt" 2>/dev/null || true
    cp -L /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
    local ca=/etc/ssl/host-ca-certificates.crt
    [ -s "$dir$ca" ] || ca=/etc/ssl/certs/ca-certificates.crt
    say "building inside $SUITE ($dir)"
    enter_root "$dir" "$dist" "$build" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 TERM=dumb DIST_DIR=/out/dist BUILD_DIR=/out/build \
        SOURCE_DATE_EPOCH="$epoch" DEB_COMPRESS="${DEB_COMPRESS:-gzip}" \
        DEB_REVISION="${DEB_REVISION:-1~debian11}" SKIP_LINTIAN="${SKIP_LINTIAN:-}" XZ_OPT="${XZ_OPT:-}" \
        PIP_CERT=$ca SSL_CERT_FILE=$ca REQUESTS_CA_BUNDLE=$ca PIP_DISABLE_PIP_VERSION_CHECK=1 \
        PIP_DEFAULT_TIMEOUT=180 DEBIAN_MIRROR="$MIRROR" \
        bash /src/packaging/linux/build_release.sh "${STEPS[@]}"
}

if on_build_system; then
    if [ $EXEC = 1 ]; then exec "${STEPS[@]}"; fi
    build_here
else
    build_in_root
fi
