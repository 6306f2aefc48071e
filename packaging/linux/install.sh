#!/bin/sh
# Install Marginalia from the Linux tarball (any distribution with glibc, X11 or Wayland).
#
#   ./install.sh              per user (default when not root): ~/.local
#   sudo ./install.sh         system-wide (default when root):  /opt/marginalia + /usr/local
#   ./install.sh --prefix DIR app in DIR/lib/marginalia, links and menu entries under DIR
#   ./install.sh --uninstall  remove what an earlier run installed (same options)
#   ./install.sh --force      replace a program folder left by an earlier Marginalia that
#                             has no uninstall.sh (never a folder that is not Marginalia's)
#
# Installs the program folder, a `marginalia` command, a desktop menu entry, icons, MIME
# types, AppStream metadata and the man page, and records every file it writes outside the
# program folder in <app>/install-manifest.txt; <app>/uninstall.sh removes exactly those.
# Refuses a machine whose C library is older than the build's (GLIBC_MIN beside this script).
set -eu

APP=marginalia
APP_ID=org.marginalia.Marginalia
HERE=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)

usage() { sed -n '2,15s/^# \{0,1\}//p' "$0"; exit "${1:-0}"; }
die() { echo "install.sh: $*" >&2; exit 1; }

mode=""; prefix=""; action=install; force=""
while [ $# -gt 0 ]; do
    case "$1" in
        --user) mode=user ;;
        --system) mode=system ;;
        --prefix) [ $# -ge 2 ] || usage 2; prefix=$2; shift ;;
        --prefix=*) prefix=${1#--prefix=} ;;
        --uninstall) action=uninstall ;;
        --force) force=1 ;;
        -h|--help) usage 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage 2 ;;
    esac
    shift
done
[ -n "$mode" ] || { if [ "$(id -u)" = 0 ]; then mode=system; else mode=user; fi; }

if [ -n "$prefix" ]; then
    case "$prefix" in /*) ;; *) prefix="$(pwd)/$prefix" ;; esac
    appdir="$prefix/lib/$APP"; bindir="$prefix/bin"; datadir="$prefix/share"
elif [ "$mode" = system ]; then
    appdir="/opt/$APP"; bindir=/usr/local/bin; datadir=/usr/local/share
else
    : "${HOME:?HOME is not set}"
    appdir="$HOME/.local/lib/$APP"; bindir="$HOME/.local/bin"
    datadir="${XDG_DATA_HOME:-$HOME/.local/share}"
fi

if [ "$action" = uninstall ]; then
    if [ -x "$appdir/uninstall.sh" ]; then exec "$appdir/uninstall.sh"; fi
    echo "install.sh: nothing installed in $appdir" >&2; exit 1
fi

[ -x "$HERE/$APP/$APP" ] || die "run me from the unpacked tarball"

# --- the C library: the bundle links glibc and needs at least the version it was built against
# version_ge A B: A >= B for dotted numbers (2.31 vs 2.36)
version_ge() {
    [ "$(printf '%s\n%s\n' "$1" "$2" | sort -t. -k1,1n -k2,2n -k3,3n | head -n1)" = "$2" ]
}
# the machine's glibc version, "musl", or "" when it cannot be told
libc_version() {
    v=$(getconf GNU_LIBC_VERSION 2>/dev/null) && [ -n "$v" ] && { echo "${v##* }"; return; }
    out=$(ldd --version 2>&1 | head -n 2) || true
    case "$out" in
        *musl*) echo musl ;;
        *GLIBC*|*"GNU libc"*|*"GNU C Library"*) printf '%s\n' "$out" | head -n1 | awk '{print $NF}' ;;
        *) echo "" ;;
    esac
}
if [ -f "$HERE/GLIBC_MIN" ]; then
    need=$(cat "$HERE/GLIBC_MIN")
    have=$(libc_version)
    case "$have" in
        musl)
            die "this system uses the musl C library (Alpine Linux or similar); this build of Marginalia needs glibc $need or newer and cannot run here. Use the Flatpak build (marginalia-*.flatpak) instead." ;;
        "")
            echo "install.sh: warning: cannot tell this system's C library (neither 'getconf GNU_LIBC_VERSION' nor 'ldd --version' names glibc); Marginalia needs glibc $need or newer." >&2 ;;
        *)
            version_ge "$have" "$need" \
                || die "this system has glibc $have, but this build of Marginalia needs glibc $need or newer (it would not start). Use the Flatpak build (marginalia-*.flatpak) or a newer distribution." ;;
    esac
fi

if command -v dpkg >/dev/null 2>&1 && dpkg -S "$appdir" >/dev/null 2>&1; then
    die "$appdir belongs to the Debian package; remove it first (apt remove $APP)"
fi

# --- what is in the way: only ever remove a program folder that is Marginalia's own
looks_like_ours() {  # an earlier Marginalia bundle: its program and _internal/desktop_app
    [ -f "$1/$APP" ] && [ -d "$1/_internal/desktop_app" ]
}
if [ -x "$appdir/uninstall.sh" ] && [ -f "$appdir/install-manifest.txt" ] && looks_like_ours "$appdir"; then
    echo "Removing the earlier installation in $appdir"
    "$appdir/uninstall.sh" --quiet
elif [ -L "$appdir" ] || [ -e "$appdir" ]; then
    if [ -d "$appdir" ] && [ ! -L "$appdir" ] && [ -z "$(ls -A "$appdir")" ]; then
        rmdir "$appdir"   # an empty folder: nothing to lose
    elif looks_like_ours "$appdir" && [ ! -L "$appdir" ]; then
        [ -n "$force" ] || die "$appdir holds an earlier Marginalia without its uninstall.sh (an older or interrupted installation). Run again with --force to replace it, or choose another place with --prefix DIR."
        echo "Replacing the earlier Marginalia in $appdir (--force)"
        rm -rf "$appdir"
    else
        die "$appdir is in the way and is not a Marginalia installation, so it is left alone (--force does not replace it). Move it away, or choose another place with --prefix DIR."
    fi
fi
if [ -e "$bindir/$APP" ] && [ ! -L "$bindir/$APP" ]; then
    [ -n "$force" ] || die "$bindir/$APP exists and is not a link to a Marginalia installation (another install, e.g. pip's?). Remove it, run again with --force to replace it, or choose --prefix DIR."
fi

echo "Installing Marginalia into $appdir"
mkdir -p "$(dirname "$appdir")"
tmpdir="$appdir.new.$$"
trap 'rm -rf "$tmpdir"' EXIT
cp -R "$HERE/$APP" "$tmpdir"
mv "$tmpdir" "$appdir"
trap - EXIT
cp "$HERE/uninstall.sh" "$appdir/uninstall.sh"
chmod 755 "$appdir/uninstall.sh"
manifest="$appdir/install-manifest.txt"
: > "$manifest"

put() {  # put SRC DEST MODE: install one file and record it
    mkdir -p "$(dirname "$2")"
    cp "$1" "$2"
    chmod "$3" "$2"
    echo "$2" >> "$manifest"
}

mkdir -p "$bindir"
ln -sfn "$appdir/$APP" "$bindir/$APP"
echo "$bindir/$APP" >> "$manifest"

# menu entry: Exec/TryExec with the absolute path, so it works even if bindir is not on PATH
desktop="$datadir/applications/$APP_ID.desktop"
mkdir -p "$(dirname "$desktop")"
sed -e "s|^Exec=$APP |Exec=$appdir/$APP |" -e "s|^Exec=$APP\$|Exec=$appdir/$APP|" \
    -e "s|^TryExec=$APP\$|TryExec=$appdir/$APP|" \
    "$HERE/share/applications/$APP_ID.desktop" > "$desktop"
chmod 644 "$desktop"
echo "$desktop" >> "$manifest"

put "$HERE/share/metainfo/$APP_ID.metainfo.xml" "$datadir/metainfo/$APP_ID.metainfo.xml" 644
(cd "$HERE/share" && find icons -type f) | while read -r icon; do
    put "$HERE/share/$icon" "$datadir/$icon" 644
done
put "$HERE/share/man/man1/$APP.1.gz" "$datadir/man/man1/$APP.1.gz" 644
# MIME types for RIS and MEDLINE files (freedesktop.org's database has none), so "Open with"
# offers Marginalia for them
put "$HERE/share/mime/packages/$APP_ID.xml" "$datadir/mime/packages/$APP_ID.xml" 644

if command -v update-desktop-database >/dev/null 2>&1; then
    update-desktop-database -q "$datadir/applications" 2>/dev/null || true
fi
if command -v update-mime-database >/dev/null 2>&1; then
    update-mime-database "$datadir/mime" 2>/dev/null || true
else
    echo "(update-mime-database not found: install shared-mime-info so .ris/.nbib files are recognised.)"
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$datadir/icons/hicolor/index.theme" ]; then
    gtk-update-icon-cache -q -t "$datadir/icons/hicolor" 2>/dev/null || true
fi

# Chinese, Japanese and Korean titles and abstracts need a CJK font, else they are drawn as boxes
if command -v fc-list >/dev/null 2>&1 && [ -z "$(fc-list :lang=zh family 2>/dev/null | head -n 1)" ]; then
    echo "(No Chinese font found: CJK titles and abstracts would show as boxes. Install one:"
    echo " fonts-noto-cjk on Debian/Ubuntu, google-noto-sans-cjk-fonts on Fedora, noto-fonts-cjk on Arch.)"
fi
echo "Installed. Start it from the applications menu or with: $bindir/$APP"
case ":$PATH:" in *":$bindir:"*) ;; *) echo "(Add $bindir to PATH to type just '$APP'.)" ;; esac
echo "Uninstall with: $appdir/uninstall.sh"
