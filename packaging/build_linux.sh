#!/usr/bin/env bash
# Build Marginalia's Linux artefacts into dist/ (run by `make package`):
#   dist/marginalia/                                  PyInstaller one-folder bundle
#   dist/marginalia_<version>-<rev>_<arch>.deb         Debian package (bundle in /opt/marginalia)
#   dist/marginalia-<version>-linux-<machine>.tar.xz   bundle + install.sh for other distributions
#
# Usage: packaging/build_linux.sh [STEP...]      (no step: all of them, in this order)
#   icons    render resources/icons/marginalia.svg to PNG sizes, .ico, .icns   (build/icons)
#   bundle   PyInstaller from packaging/marginalia.spec, then permissions     (dist/marginalia)
#   smoke    the bundle's --version and --smoke-test, offscreen, on a throwaway HOME
#   deb      the .deb (Depends computed from the bundle's ELF files)
#   tarball  the .tar.xz (GLIBC_MIN beside install.sh: the bundle's glibc floor)
#   check    desktop-file-validate, appstreamcli validate, man warnings, lintian
#
# Environment:
#   PYTHON=.venv/bin/python    interpreter with the project and PyInstaller installed
#   DIST_DIR=dist BUILD_DIR=build
#   DEB_COMPRESS=gzip|xz|none  (default gzip: fast for CI; use xz for releases)
#   DEB_REVISION=1~debian12    Debian revision: 1, then the build system (the bundle carries
#                              that system's libraries, so its glibc is the floor)
#   XZ_OPT=-6                  the tarball's xz level (default -6 for releases: ~4 min on a
#                              busy 2-core machine; -1 takes a third of that, ~10 % bigger)
#   SKIP_LINTIAN=1             the check step leaves lintian out (~45 s)
# Step timings are appended to $BUILD_DIR/package-timings.txt.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
PYTHON=${PYTHON:-$ROOT/.venv/bin/python}
DIST_DIR=$(mkdir -p "${DIST_DIR:-$ROOT/dist}" && cd "${DIST_DIR:-$ROOT/dist}" && pwd)
BUILD_DIR=$(mkdir -p "${BUILD_DIR:-$ROOT/build}" && cd "${BUILD_DIR:-$ROOT/build}" && pwd)
DEB_COMPRESS=${DEB_COMPRESS:-gzip}
DEB_REVISION=${DEB_REVISION:-1~$(. /etc/os-release && echo "${ID}${VERSION_ID:-}")}
MAINTAINER="Marginalia developers <marginalia@users.noreply.github.com>"

APP=marginalia
APP_ID=$(sed -n 's/^APP_ID *= *"\([^"]*\)".*/\1/p' desktop_app/appinfo.py)
VERSION=$("$PYTHON" - <<'EOF'
import tomllib, importlib.metadata as md
project = tomllib.load(open("pyproject.toml", "rb"))["project"]
print(project.get("version") or md.version(project["name"]))
EOF
)
# PEP 440 -> Debian: 1.2.0rc1 / 1.2.0.dev3 sort before 1.2.0 with a tilde
DEB_VERSION="$(sed -E 's/\.?(a|b|rc|dev)([0-9]+)/~\1\2/g' <<<"$VERSION")-$DEB_REVISION"
DEB_ARCH=$(dpkg --print-architecture 2>/dev/null || echo amd64)
MACHINE=$(uname -m)
BUNDLE="$DIST_DIR/$APP"
DEB="$DIST_DIR/${APP}_${DEB_VERSION}_${DEB_ARCH}.deb"
TARBALL="$DIST_DIR/$APP-$VERSION-linux-$MACHINE.tar.xz"
ICONS="$BUILD_DIR/icons"
LINUX_RES="$ROOT/resources/linux"
TIMINGS="$BUILD_DIR/package-timings.txt"
ICON_SIZES="16 24 32 48 64 128 256 512"
# packages whose wheels auditwheel repaired with patchelf: left unstripped (see step_bundle)
AUDITWHEEL_REPAIRED="numpy scipy sklearn psycopg_binary"
# imported by the smoke step (packaging/launcher.py --check-bundle-imports)
BUNDLE_IMPORTS="psycopg psycopg_binary.pq sqlalchemy.dialects.postgresql.psycopg sklearn.linear_model
    sklearn.feature_extraction.text sklearn.cluster sklearn.decomposition"
# a fixed timestamp (last commit) for reproducible archives and the changelog date
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
export SOURCE_DATE_EPOCH

say() { printf '\033[1m== %s\033[0m\n' "$*"; }
die() { printf 'build_linux.sh: %s\n' "$*" >&2; exit 1; }

[ -n "$APP_ID" ] || die "no APP_ID in desktop_app/appinfo.py"
for f in "$APP_ID.desktop" "$APP_ID.metainfo.xml" "$APP_ID.mime.xml" "$APP.1"; do
    [ -f "$LINUX_RES/$f" ] || die "missing resources/linux/$f (named after APP_ID $APP_ID)"
done

step_icons() {
    "$PYTHON" packaging/gen_icons.py --out "$ICONS"
}

step_bundle() {
    rm -rf "$BUNDLE"
    "$PYTHON" -m PyInstaller --noconfirm --log-level WARN \
        --distpath "$DIST_DIR" --workpath "$BUILD_DIR/pyinstaller" packaging/marginalia.spec
    # strip the libraries (symbols, .comment and .note: lintian), except those of the wheels
    # auditwheel repaired (numpy, scipy, scikit-learn, psycopg-binary, and the libraries they
    # carry in <name>.libs): it rewrote them with patchelf and an older strip (Debian 11's) breaks
    # them ("ELF load command address/offset not page-aligned"); lintian-overrides says so
    local repaired=() name
    for name in $AUDITWHEEL_REPAIRED; do
        repaired+=(-not -path "$BUNDLE/_internal/$name/*")
    done
    find "$BUNDLE/_internal" -type f -name '*.so*' "${repaired[@]}" -not -path "$BUNDLE/_internal/*.libs/*" -print0 \
        | xargs -0 -P "$(nproc)" -n 16 strip --remove-section=.comment --remove-section=.note
    # PyInstaller copies libraries with their exec bits; only the program itself needs one
    find "$BUNDLE" -type d -exec chmod 755 {} +
    find "$BUNDLE" -type f -exec chmod 644 {} +
    chmod 755 "$BUNDLE/$APP"
    echo "bundle: $(du -sh "$BUNDLE" | cut -f1) in $BUNDLE"
}

# run_app BINARY ARGS...: the app with a throwaway HOME/XDG dirs, offscreen
run_app() {
    local tmp rc=0
    tmp=$(mktemp -d)
    env HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" \
        XDG_CACHE_HOME="$tmp/cache" XDG_STATE_HOME="$tmp/state" XDG_RUNTIME_DIR="$tmp/run" \
        MARGINALIA_LIBRARY="$tmp/library" QT_QPA_PLATFORM=offscreen "$@" || rc=$?
    rm -rf "$tmp"
    return $rc
}

step_smoke() {
    [ -x "$BUNDLE/$APP" ] || die "no bundle at $BUNDLE; run the bundle step first"
    local out
    out=$(run_app "$BUNDLE/$APP" --version 2>&1) \
        || die "'$APP --version' failed in the bundle:"$'\n'"$out"
    [ "$out" = "$APP $VERSION" ] || die "'$APP --version' printed '$out', expected '$APP $VERSION'"
    echo "--version: $out"
    out=$(run_app "$BUNDLE/$APP" --smoke-test 2>&1) \
        || die "'$APP --smoke-test' failed in the bundle:"$'\n'"$out"
    grep -qx "OK" <<<"$out" || die "'$APP --smoke-test' did not print OK:"$'\n'"$out"
    echo "--smoke-test: OK"
    # what the app imports lazily: the PostgreSQL driver with its libpq, scikit-learn on scipy
    # shellcheck disable=SC2086  # $BUNDLE_IMPORTS is a list of module names, split on purpose
    out=$(run_app "$BUNDLE/$APP" --check-bundle-imports $BUNDLE_IMPORTS 2>&1) \
        || die "the bundle cannot import what the app needs:"$'\n'"$out"
    echo "imports: $BUNDLE_IMPORTS"
}

# release notes must name this version (software centres show them)
check_metainfo_release() {
    grep -q "<release version=\"$VERSION\"" "$LINUX_RES/$APP_ID.metainfo.xml" \
        || die "resources/linux/$APP_ID.metainfo.xml has no <release version=\"$VERSION\"> entry"
}

# stage_share DEST: desktop entry, metainfo, MIME types, icons, man page under DEST (a
# usr/share tree). The MIME definitions go to mime/packages/<app id>.xml, the name
# shared-mime-info and Flatpak expect (update-mime-database compiles them on the target).
stage_share() {
    local share=$1 size
    [ -f "$ICONS/png/16.png" ] || step_icons
    install -Dm644 "$LINUX_RES/$APP_ID.desktop" "$share/applications/$APP_ID.desktop"
    install -Dm644 "$LINUX_RES/$APP_ID.metainfo.xml" "$share/metainfo/$APP_ID.metainfo.xml"
    install -Dm644 "$LINUX_RES/$APP_ID.mime.xml" "$share/mime/packages/$APP_ID.xml"
    install -Dm644 resources/icons/marginalia.svg "$share/icons/hicolor/scalable/apps/$APP_ID.svg"
    for size in $ICON_SIZES; do
        install -Dm644 "$ICONS/png/$size.png" "$share/icons/hicolor/${size}x${size}/apps/$APP_ID.png"
    done
    install -d -m755 "$share/man/man1"
    gzip -9n < "$LINUX_RES/$APP.1" > "$share/man/man1/$APP.1.gz"
    chmod 644 "$share/man/man1/$APP.1.gz"
}

step_deb() {
    [ -x "$BUNDLE/$APP" ] || die "no bundle at $BUNDLE; run the bundle step first"
    check_metainfo_release
    local root="$BUILD_DIR/deb/root" depends size
    rm -rf "$BUILD_DIR/deb"
    mkdir -p "$root/opt" "$root/usr/bin" "$root/DEBIAN"
    cp -a "$BUNDLE" "$root/opt/$APP"
    ln -s "/opt/$APP/$APP" "$root/usr/bin/$APP"   # the bootloader finds _internal via /proc/self/exe
    stage_share "$root/usr/share"
    install -Dm644 packaging/linux/copyright "$root/usr/share/doc/$APP/copyright"
    python3 packaging/linux/debchangelog.py "$LINUX_RES/$APP_ID.metainfo.xml" "$DEB_REVISION" \
        "$MAINTAINER" | gzip -9n > "$root/usr/share/doc/$APP/changelog.Debian.gz"
    chmod 644 "$root/usr/share/doc/$APP/changelog.Debian.gz"
    install -Dm644 packaging/linux/lintian-overrides "$root/usr/share/lintian/overrides/$APP"

    depends=$(python3 packaging/linux/debdeps.py "$BUNDLE" --report "$BUILD_DIR/deb/depends.txt")
    echo "Depends: $depends"
    size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
    cat > "$root/DEBIAN/control" <<EOF
Package: $APP
Version: $DEB_VERSION
Architecture: $DEB_ARCH
Maintainer: $MAINTAINER
Installed-Size: $size
Depends: $depends
Recommends: fonts-dejavu-core | fonts-liberation2, fonts-noto-cjk
Section: science
Priority: optional
Description: desktop reading room for paper abstracts
 Marginalia opens lists of paper abstracts (a conference's accepted papers,
 a BibTeX or RIS file, an arXiv export) for reading one by one: tag, rate,
 write notes, highlight spans, filter, keep ordered reading lists and export
 them. Local-first: one folder on disk holds the whole library; no account,
 no server, no network.
 .
 This package ships a self-contained build (Python, Qt and libraries) in
 /opt/marginalia.
EOF
    (cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z \
        | xargs -0 md5sum > DEBIAN/md5sums)
    find "$root" -type d -exec chmod 755 {} +
    chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
    local z=()
    case "$DEB_COMPRESS" in
        gzip) z=(-Zgzip -z6) ;;
        xz) z=(-Zxz -z6) ;;
        none) z=(-Znone) ;;
        *) die "DEB_COMPRESS must be gzip, xz or none" ;;
    esac
    rm -f "$DIST_DIR"/${APP}_*.deb
    dpkg-deb --root-owner-group "${z[@]}" --build "$root" "$DEB" >/dev/null
    echo "deb: $(du -h "$DEB" | cut -f1) $DEB"
}

step_tarball() {
    [ -x "$BUNDLE/$APP" ] || die "no bundle at $BUNDLE; run the bundle step first"
    local name="$APP-$VERSION-linux-$MACHINE" stage="$BUILD_DIR/tarball" glibc_min
    rm -rf "$stage"
    mkdir -p "$stage/$name"
    cp -a "$BUNDLE" "$stage/$name/$APP"
    stage_share "$stage/$name/share"
    install -Dm644 packaging/linux/copyright "$stage/$name/share/doc/$APP/copyright"
    install -m755 packaging/linux/install.sh packaging/linux/uninstall.sh "$stage/$name/"
    # the bundle's glibc floor (the newest GLIBC_x.y symbol version it references): install.sh
    # refuses a machine with an older glibc instead of installing a program that cannot start
    glibc_min=$(python3 packaging/linux/debdeps.py "$BUNDLE" | sed -n 's/.*libc6 (>= \([0-9.]*\)).*/\1/p')
    [ -n "$glibc_min" ] || die "could not compute the bundle's glibc floor (packaging/linux/debdeps.py)"
    echo "$glibc_min" > "$stage/$name/GLIBC_MIN"
    chmod 644 "$stage/$name/GLIBC_MIN"
    cat > "$stage/$name/README" <<EOF
Marginalia $VERSION for Linux ($MACHINE, glibc $glibc_min or newer)

  ./install.sh          install for this user (~/.local), with a menu entry
  sudo ./install.sh     install for everybody (/opt/marginalia, /usr/local)
  ./install.sh --help   more options; --uninstall removes it again

Or run it in place: ./$APP/$APP
EOF
    rm -f "$DIST_DIR"/$APP-*-linux-*.tar.gz "$DIST_DIR"/$APP-*-linux-*.tar.xz
    # xz's multi-threaded mode (-T0) splits by block size, not by core count: the archive
    # stays the same on any machine. XZ_OPT (xz's own variable) sets the level.
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
        -C "$stage" -cf - "$name" | XZ_OPT=${XZ_OPT:--6} xz -T0 > "$TARBALL"
    echo "tarball: $(du -h "$TARBALL" | cut -f1) $TARBALL (glibc >= $glibc_min)"
}

need_tool() {
    command -v "$1" >/dev/null 2>&1 || die "$1 not found: apt-get install -y --no-install-recommends $2 (.ci/run installs it)"
}

step_check() {
    need_tool desktop-file-validate desktop-file-utils
    need_tool appstreamcli appstream
    need_tool man man-db
    check_metainfo_release
    desktop-file-validate "$LINUX_RES/$APP_ID.desktop"
    appstreamcli validate --no-net --explain "$LINUX_RES/$APP_ID.metainfo.xml"
    local warn
    warn=$(LC_ALL=C.UTF-8 MANROFFSEQ='' man --warnings -E UTF-8 -l -Tutf8 -Z "$LINUX_RES/$APP.1" 2>&1 >/dev/null)
    [ -z "$warn" ] || die "man page warnings:"$'\n'"$warn"
    if [ "${SKIP_LINTIAN:-0}" != 1 ]; then
        need_tool lintian lintian
        [ -f "$DEB" ] || die "no $DEB; run the deb step first"
        # errors and warnings fail the build; info tags are printed for the record
        lintian --fail-on error,warning --info --display-info "$DEB"
    fi
    echo "checks passed"
}

timed() {
    local name=$1 t0 t1
    say "$name"
    t0=$(date +%s.%N)
    "step_$name"
    t1=$(date +%s.%N)
    printf '%-8s %6.1f s\n' "$name" "$(python3 -c "print($t1 - $t0)")" | tee -a "$TIMINGS"
}

steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(icons bundle smoke deb tarball check)
for s in "${steps[@]}"; do
    declare -F "step_$s" >/dev/null || die "unknown step '$s' (icons bundle smoke deb tarball check)"
done
echo "# $(date -u +%FT%TZ) $APP $VERSION: ${steps[*]}" >> "$TIMINGS"
for s in "${steps[@]}"; do timed "$s"; done
