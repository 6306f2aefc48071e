#!/usr/bin/env bash
# Compile packaging/windows/marginalia.nsi on Linux against a placeholder payload, with
# warnings as errors: a syntax and logic check of the Windows installer script. The real
# installer is built on a Windows runner (.github/workflows/release.yml) from the real bundle.
#
#   packaging/windows/check_nsis.sh [OUT.exe]      (default: build/nsis-check/Marginalia-check-win64-setup.exe)
#
# Needs makensis (Debian: apt-get install nsis) and the project venv (icon rendering).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
PYTHON=${PYTHON:-$ROOT/.venv/bin/python}
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
OUT=${1:-$BUILD_DIR/nsis-check/Marginalia-check-win64-setup.exe}

command -v makensis >/dev/null 2>&1 \
    || { echo "check_nsis.sh: makensis not found: apt-get install -y --no-install-recommends nsis" >&2; exit 1; }

VERSION=$("$PYTHON" -c 'import tomllib; print(tomllib.load(open("pyproject.toml","rb"))["project"]["version"])')
# VIProductVersion wants four numbers: 1.2.0rc1 -> 1.2.0.0
VERSION_NUM=$(sed -E 's/^([0-9]+)\.([0-9]+)\.([0-9]+).*/\1.\2.\3.0/' <<<"$VERSION")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
payload="$work/payload"
mkdir -p "$payload/_internal/desktop_app"
printf 'MZ placeholder\n' > "$payload/marginalia.exe"
printf 'MZ placeholder\n' > "$payload/marginalia-gui.exe"
printf 'placeholder\n' > "$payload/_internal/desktop_app/__init__.py"
ICON="$BUILD_DIR/icons/marginalia.ico"
[ -f "$ICON" ] || "$PYTHON" packaging/gen_icons.py --out "$BUILD_DIR/icons" >/dev/null

mkdir -p "$(dirname "$OUT")"
rm -f "$OUT"
makensis -WX -V2 -NOCD \
    -DVERSION="$VERSION" -DVERSION_NUM="$VERSION_NUM" -DPAYLOAD="$payload" \
    -DICON="$ICON" -DOUTFILE="$OUT" packaging/windows/marginalia.nsi
head -c 2 "$OUT" | grep -q MZ || { echo "check_nsis.sh: $OUT is not a Windows executable" >&2; exit 1; }
echo "check_nsis.sh: OK, $(du -h "$OUT" | cut -f1) $OUT"
