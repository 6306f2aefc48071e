#!/bin/sh
# Install Marginalia from the Linux tarball (any distribution with glibc, X11 or Wayland).
#
#   ./install.sh              per user (default when not root): ~/.local
#   sudo ./install.sh         system-wide (default when root):  /opt/marginalia + /usr/local
#   ./install.sh --prefix DIR app in DIR/lib/marginalia, links and menu entries under DIR
#   ./install.sh --uninstall  remove what an earlier run installed (same options)
#
# Installs the program folder, a `marginalia` command, a desktop menu entry, icons,
# AppStream metadata and the man page, and records every file it writes outside the program
# folder in <app>/install-manifest.txt; <app>/uninstall.sh removes exactly those.
set -eu

APP=marginalia
APP_ID=org.marginalia.Marginalia
HERE=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)

usage() { sed -n '2,12s/^# \{0,1\}//p' "$0"; exit "${1:-0}"; }

mode=""; prefix=""; action=install
while [ $# -gt 0 ]; do
    case "$1" in
        --user) mode=user ;;
        --system) mode=system ;;
        --prefix) [ $# -ge 2 ] || usage 2; prefix=$2; shift ;;
        --prefix=*) prefix=${1#--prefix=} ;;
        --uninstall) action=uninstall ;;
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

[ -x "$HERE/$APP/$APP" ] || { echo "install.sh: run me from the unpacked tarball" >&2; exit 1; }
if command -v dpkg >/dev/null 2>&1 && dpkg -S "$appdir" >/dev/null 2>&1; then
    echo "install.sh: $appdir belongs to the Debian package; remove it first (apt remove $APP)" >&2
    exit 1
fi
if [ -x "$appdir/uninstall.sh" ]; then
    echo "Removing the earlier installation in $appdir"
    "$appdir/uninstall.sh" --quiet
fi

echo "Installing Marginalia into $appdir"
mkdir -p "$(dirname "$appdir")"
tmpdir="$appdir.new.$$"
rm -rf "$tmpdir"
cp -R "$HERE/$APP" "$tmpdir"
mv "$tmpdir" "$appdir"
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

if command -v update-desktop-database >/dev/null 2>&1; then
    update-desktop-database -q "$datadir/applications" 2>/dev/null || true
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$datadir/icons/hicolor/index.theme" ]; then
    gtk-update-icon-cache -q -t "$datadir/icons/hicolor" 2>/dev/null || true
fi

echo "Installed. Start it from the applications menu or with: $bindir/$APP"
case ":$PATH:" in *":$bindir:"*) ;; *) echo "(Add $bindir to PATH to type just '$APP'.)" ;; esac
echo "Uninstall with: $appdir/uninstall.sh"
