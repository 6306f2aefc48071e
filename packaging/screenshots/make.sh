#!/bin/sh
# The README's screenshots, made with `marginalia gui --screenshot` on a demo library: the
# NeurIPS 2026 sample (../shared/seeds) plus a BibTeX file with authors and DOIs
# (../shared/corpus). Run from the project root: sh packaging/screenshots/make.sh
set -eu
OUT=packaging/screenshots
PY=${PY:-.venv/bin/python}
SHARED=${SHARED:-../shared}
LIB=$(mktemp -d)
trap 'rm -rf "$LIB"' EXIT INT TERM
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
m() { "$PY" -m desktop_app --library "$LIB" "$@"; }
m import "$SHARED"/seeds/* >/dev/null
m import "$SHARED"/corpus/bibtex/jabref__testjabref.bib >/dev/null
# a paper with authors for the editor and the context menu: the corpus entry with a DOI
WITH_AUTHORS=$(m list --query 'Salcedo' --json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["papers"][0]["id"])')
m tag 1 2 3 --add rl/rlvr >/dev/null
m status 1 2 3 4 5 6 read >/dev/null
m status 7 8 9 skimmed >/dev/null
m rate 1 2 4 >/dev/null
m rate 3 5 >/dev/null
m note 1 --set "First pass: the reward is verifiable, the gains small." >/dev/null
shot() { name=$1; shift; m gui --screenshot "$OUT/$name.png" "$@" >/dev/null && echo "$OUT/$name.png"; }
shot theme-light --theme light --select 1
shot theme-dark --theme dark --select 1
shot context-menu --view context-menu --theme light
shot metadata-editor --view metadata-editor --select "$WITH_AUTHORS" --theme light
shot duplicates --view duplicates --theme light
shot note-history --view note-history --select 1 --theme light
shot settings --view settings --theme light
shot bulk --view bulk --theme dark
shot triage --view triage --theme light
shot related --view related --select 1 --theme light
shot statistics --view statistics --theme light
shot map --view map --theme light
