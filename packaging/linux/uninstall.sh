#!/bin/sh
# Remove a Marginalia installation made by the tarball's install.sh.
# Lives in the installed program folder; removes the files listed in install-manifest.txt and
# then the folder itself. The user's libraries and settings are left alone.
set -eu

APP=marginalia
appdir=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
manifest="$appdir/install-manifest.txt"
quiet=""
[ "${1:-}" = "--quiet" ] && quiet=1

# refuse to delete anything that does not look like our own program folder
if [ ! -f "$manifest" ] || [ ! -e "$appdir/$APP" ] || [ "$(basename "$appdir")" != "$APP" ]; then
    echo "uninstall.sh: $appdir is not a Marginalia installation made by install.sh" >&2
    exit 1
fi

datadirs=""; mimedirs=""
while IFS= read -r f; do
    [ -n "$f" ] || continue
    case "$f" in /*) ;; *) continue ;; esac  # absolute paths only
    if [ -L "$f" ] || [ -f "$f" ]; then rm -f "$f"; fi
    case "$f" in */applications/*.desktop) datadirs="$datadirs ${f%/applications/*}" ;; esac
    case "$f" in */mime/packages/*.xml) mimedirs="$mimedirs ${f%/packages/*}" ;; esac
done < "$manifest"

rm -rf "$appdir"

for d in $datadirs; do
    if command -v update-desktop-database >/dev/null 2>&1; then
        update-desktop-database -q "$d/applications" 2>/dev/null || true
    fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$d/icons/hicolor/index.theme" ]; then
        gtk-update-icon-cache -q -t "$d/icons/hicolor" 2>/dev/null || true
    fi
done
# recompile the MIME database without our types (RIS, MEDLINE)
for d in $mimedirs; do
    if command -v update-mime-database >/dev/null 2>&1 && [ -d "$d/packages" ]; then
        update-mime-database "$d" 2>/dev/null || true
    fi
done
[ -n "$quiet" ] || echo "Marginalia removed from $appdir (your libraries are kept)."
