"""The command line on libraries in odd folders, read-only libraries, and a full disk:
real subprocesses; each failure is one line on stderr with exit 1, never a traceback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from desktop_app.core.library import Library
from tests.helpers.cli import run, run_parallel
from tests.helpers.library import find_paper, papers_in
from tests.helpers.shared import SEEDS

RLVR_WORDS = "shrinkage issue of RLVR"


def _one_line_error(proc, text: str) -> None:
    assert proc.returncode == 1, (proc.args, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"marginalia: {text}"), (proc.args, proc.stderr)


@pytest.mark.shared
def test_odd_folder_names_import_list_backup(tmp_path: Path) -> None:
    one, two = tmp_path / "lib ?#% ü 论文", tmp_path / "lib ?#% ü 论文 #2"
    first, second = run_parallel(one, ["import", SEEDS[0]], (two, ["import", *SEEDS[:2]]))
    assert first.returncode == 0 and second.returncode == 0, (first.stderr, second.stderr)
    listed_one, listed_two, backup = run_parallel(one, ["list", "--json"], (two, ["list", "--json"]), ["backup"])
    n1, n2 = json.loads(listed_one.stdout)["total"], json.loads(listed_two.stdout)["total"]
    assert 0 < n1 < n2
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([one.name, two.name])
    assert papers_in(one / "library.sqlite") == n1 and papers_in(two / "library.sqlite") == n2
    assert backup.returncode == 0, backup.stderr
    copy = Path(backup.stdout.strip())
    assert copy.parent == one / "backups" and papers_in(copy) == n1


@pytest.mark.shared
def test_read_only_library_on_the_command_line(tmp_path: Path) -> None:
    folder = tmp_path / "ro lib"
    with Library.open(folder) as lib:
        lib.imports.from_files(SEEDS)
        pid = find_paper(lib, RLVR_WORDS)
    before = (folder / "library.sqlite").read_bytes()
    out = tmp_path / "out.bib"
    ro = ["--read-only"]
    listed, search, show, export, tag, note, reindex, backup = run_parallel(
        tmp_path,
        (folder, [*ro, "list", "--json"]),
        (folder, [*ro, "search", "RLVR", "--json"]),
        (folder, [*ro, "show", pid]),
        (folder, [*ro, "export", "--format", "bib", "-o", out]),
        (folder, [*ro, "tag", pid, "--add", "x"]),
        (folder, [*ro, "note", pid, "--set", "y"]),
        (folder, [*ro, "reindex"]),
        (folder, [*ro, "backup"]),
    )
    assert json.loads(listed.stdout)["total"] == 76, listed.stderr
    assert pid in [p["id"] for p in json.loads(search.stdout)["papers"]], search.stderr
    assert show.returncode == 0 and "RLVR" in show.stdout
    assert export.returncode == 0 and out.read_text("utf-8").count("@") >= 76
    for proc in (tag, note, reindex, backup):
        _one_line_error(proc, "the library is read-only")
    assert (folder / "library.sqlite").read_bytes() == before
    assert not (folder / "backups").exists()

    shutil.rmtree(folder / "index")
    listed, search = run_parallel(folder, [*ro, "list", "--tag", "nothing"], [*ro, "search", "RLVR"])
    assert listed.returncode == 0, listed.stderr
    _one_line_error(search, "the search index is missing and the library is read-only")
    assert not (folder / "index").exists()


def test_read_only_without_a_library(tmp_path: Path) -> None:
    proc = run(tmp_path / "none", "--read-only", "list")
    _one_line_error(proc, f"{tmp_path / 'none'} holds no Marginalia library")


@pytest.mark.shared
def test_full_disk_on_the_command_line(tmp_path: Path, monkeypatch, capsys) -> None:
    """SQLite's own "database or disk is full" (PRAGMA max_page_count), in process."""
    from sqlalchemy import event

    import desktop_app.core.library as library_module
    from desktop_app.cli import main

    folder = tmp_path / "full ?#%"
    with Library.open(folder) as lib:
        lib.imports.from_files(SEEDS[:1])
        count = lib.papers.count()
    pages = (folder / "library.sqlite").stat().st_size // 4096
    real = library_module.make_engine

    def limited(*args: object, **kwargs: object):
        engine = real(*args, **kwargs)
        event.listen(engine, "connect", lambda con, _rec: con.execute(f"PRAGMA max_page_count = {pages + 2}"))
        return engine

    monkeypatch.setattr(library_module, "make_engine", limited)
    capsys.readouterr()
    assert main(["--library", str(folder), "import", *map(str, SEEDS[1:])]) == 1
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [f"marginalia: no space left on {folder}; nothing was written"]
    monkeypatch.undo()
    with Library.open(folder) as lib:
        assert lib.papers.count() == count
        assert lib.integrity_check() == []
