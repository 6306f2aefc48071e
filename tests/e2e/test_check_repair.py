"""`marginalia check` finds an index that disagrees with the database; `check --repair` fixes it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from desktop_app.core.library import Library
from tests.helpers.shared import ROOT, SEEDS

pytestmark = pytest.mark.shared  # every test here reads ../shared


def marginalia(library: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "desktop_app", "--library", str(library), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_check_reports_and_repair_rebuilds_a_wrong_index(tmp_path: Path) -> None:
    folder = tmp_path / "lib"
    with Library.open(folder) as lib:
        lib.imports.from_files(SEEDS[:1])
        victim = lib.query("").ids[0]
        live = lib.papers.count()
        # a damaged segment as a search sees it: one paper gone, one stranger in its place, the
        # count unchanged (so the check at open passes)
        doc = _doc_of(lib, victim)
        doc.pid = 999_999
        lib.index.index.update([doc], [victim])
        assert victim not in lib.index.index.all_pids()
        assert lib.index.index.doc_count() == live

    bad = marginalia(folder, "check")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "search index differs from the database: 1 missing" in bad.stdout
    assert "Traceback" not in bad.stderr

    fixed = marginalia(folder, "check", "--repair")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "rebuilding the search index" in fixed.stdout
    assert f"ok: {live} papers, database and index agree" in fixed.stdout

    with Library.open(folder) as lib:
        assert victim in lib.index.index.all_pids()


def test_a_search_repairs_a_silently_wrong_index(tmp_path: Path) -> None:
    folder = tmp_path / "lib"
    with Library.open(folder) as lib:
        lib.imports.from_files(SEEDS[:1])
        victim = lib.query("").ids[0]
        word = lib.papers.get(victim).abstract_text.split()[3]
        doc = _doc_of(lib, victim)
        doc.pid = 999_999
        lib.index.index.update([doc], [victim])
    found = marginalia(folder, "search", word, "--json")
    assert found.returncode == 0, found.stderr
    assert "search index differs from the database: 1 missing, 1 extra; rebuilding it" in found.stderr
    assert f'"id": {victim},' in found.stdout


def _doc_of(lib: Library, pid: int):
    from desktop_app.core.search.index import IndexDoc

    p = lib.papers.get(pid)
    return IndexDoc(
        pid=pid,
        title=p.title,
        abstract=p.abstract_text,
        authors=" ".join(p.authors),
        note=p.note,
        highlight="",
        venue=p.venue or "",
        year=p.year,
        uid=p.uid,
    )
