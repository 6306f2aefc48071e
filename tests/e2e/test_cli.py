"""The ``marginalia`` command line, run as real subprocesses on the seed abstracts.

Each subprocess costs about a second, so commands are few and combined; commands that only read
(or fail before writing) run in parallel."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from desktop_app.core.library import Library
from tests.helpers.cli import cli_env, ok, run, run_parallel, user_error
from tests.helpers.shared import SEEDS

ROOT = Path(__file__).resolve().parents[2]
RACES_TITLE = "RACES: Recursive Automated Composition for Environment Scaling"
PAPER_KEYS = {
    "id",
    "uid",
    "title",
    "title_source",
    "abstract",
    "abstract_text",
    "authors",
    "venue",
    "year",
    "tags",
    "status",
    "rating",
    "note",
}


@pytest.mark.shared
def test_import_json_report_duplicates_and_library_env(tmp_path: Path) -> None:
    folder = tmp_path / "from-env"
    # no --library: MARGINALIA_LIBRARY picks the folder
    first = ok(run(None, "import", "--json", *SEEDS, env=cli_env(str(folder))))
    report = json.loads(first.stdout)
    assert {"added", "duplicates", "failed", "files"} <= set(report)
    assert (report["added"], report["duplicates"], report["failed"]) == (76, 0, 0)
    assert [f["path"] for f in report["files"]] == [str(p) for p in SEEDS]
    assert sum(f["added"] for f in report["files"]) == 76
    assert all({"path", "format", "added", "duplicates", "failed"} <= set(f) for f in report["files"])
    assert (folder / "library.sqlite").is_file()

    again = ok(run(folder, "import", "--json", *SEEDS))
    report = json.loads(again.stdout)
    assert (report["added"], report["duplicates"], report["failed"]) == (0, 76, 0)
    with Library.open(folder) as lib:
        assert lib.papers.count() == 76


def test_paper_commands(seeded: dict[str, int], library_dir: Path, tmp_path: Path) -> None:
    lib = library_dir
    races, rlvr, fprm = seeded["races"], seeded["rlvr"], seeded["fprm"]
    note_file = tmp_path / "note.md"
    note_file.write_text("# From a file\n\nA *platypus* note.\n", "utf-8")
    with Library.open(lib) as l0:
        old_abstract = l0.papers.get(races).abstract
    new_abstract = tmp_path / "abstract.txt"
    new_abstract.write_text("Revised. " + old_abstract, "utf-8")

    # writes, one after another
    ok(run(lib, "tag", races, rlvr, "--add", "rl/rlvr", "--add", "scratch", "--remove", "scratch"))
    ok(run(lib, "status", rlvr, "read"))
    ok(run(lib, "rate", races, rlvr, "4"))
    ok(run(lib, "note", races, "--set", "first quokka"))
    ok(run(lib, "note", races, "--append", "then a wombat"))
    ok(run(lib, "note", rlvr, "--file", note_file))
    hl = ok(
        run(lib, "highlight", races, "--quote", "composable building blocks", "--comment", "lego", "--color", "green")
    )
    hl_id = int(hl.stdout.strip())
    moved = ok(run(lib, "abstract", races, "--file", new_abstract))
    assert moved.stdout.strip() == "1 highlights placed, 0 orphaned"

    # reads, all at once
    note, show, search, listed, listed_text, title_search = run_parallel(
        lib,
        ["note", races],
        ["show", races, "--json"],
        ["search", "rl/* AND NOT status:read", "--json"],
        ["list", "--tag", "rl", "--not-tag", "rl/rlvr", "--json"],
        ["list", "--tag", "rl", "--sort", "id"],
        ["search", '"Recursive Automated Composition"'],
    )
    assert ok(note).stdout == "first quokka\nthen a wombat\n"

    paper = json.loads(ok(show).stdout)
    assert set(paper) >= PAPER_KEYS
    assert paper["id"] == races and len(paper["uid"]) >= 16
    assert (paper["title"], paper["title_source"]) == (RACES_TITLE, "derived")
    assert paper["abstract"].startswith("Revised. ") and "\\textbf{R}ecursive" in paper["abstract"]
    assert paper["abstract_text"].startswith("Revised. ") and "\\textbf" not in paper["abstract_text"]
    assert (paper["venue"], paper["year"], paper["authors"]) == ("NeurIPS", 2026, [])
    assert (paper["tags"], paper["status"], paper["rating"]) == (["rl/rlvr"], "unread", 4)
    assert paper["note"] == "first quokka\nthen a wombat"
    [h] = paper["highlights"]
    assert (h["id"], h["quote"], h["comment"], h["color"], h["orphaned"]) == (
        hl_id,
        "composable building blocks",
        "lego",
        "green",
        False,
    )
    assert paper["abstract_text"][h["start"] : h["end"]] == "composable building blocks"

    found = json.loads(ok(search).stdout)
    assert found["total"] == 1 and [p["id"] for p in found["papers"]] == [races]
    assert "score" in found["papers"][0] and set(found["papers"][0]) >= PAPER_KEYS

    assert json.loads(ok(listed).stdout) == {"total": 0, "papers": []}  # both carry rl/rlvr
    rows = ok(listed_text).stdout.strip().splitlines()
    assert [int(r.split()[0]) for r in rows] == sorted([races, rlvr])
    assert "2 of 2 papers" in listed_text.stderr
    assert str(races) == ok(title_search).stdout.split()[0]

    with Library.open(lib) as l1:  # what the CLI wrote is what the library holds
        p = l1.papers.get(rlvr)
        assert (p.status, p.rating, p.tags) == ("read", 4, ["rl/rlvr"])
        assert p.note == note_file.read_text("utf-8")
        assert [t for _, t in l1.notes.revisions(races)] == ["first quokka"]
        assert l1.query("note:platypus").ids == [rlvr]
        assert l1.papers.get(fprm).tags == []


def test_reading_list_commands(seeded: dict[str, int], library_dir: Path) -> None:
    lib = library_dir
    races, rlvr, fprm = seeded["races"], seeded["rlvr"], seeded["fprm"]
    ok(run(lib, "reading-list", "create", "Train", "--description", "for the trip"))
    ok(run(lib, "reading-list", "add", "Train", races, rlvr, fprm))
    ok(run(lib, "reading-list", "move", "Train", fprm, "1"))  # 1-based
    show, listed, dup = run_parallel(
        lib,
        ["reading-list", "show", "Train", "--json"],
        ["list", "--list", "train", "--sort", "position", "--json"],
        ["reading-list", "add", "Nope", races],
    )
    shown = json.loads(ok(show).stdout)
    assert (shown["name"], shown["description"]) == ("Train", "for the trip")
    assert [(p["id"], p["position"]) for p in shown["papers"]] == [(fprm, 1), (races, 2), (rlvr, 3)]
    assert set(shown["papers"][0]) >= PAPER_KEYS
    assert [p["id"] for p in json.loads(ok(listed).stdout)["papers"]] == [fprm, races, rlvr]
    user_error(dup, "no reading list named 'Nope'")

    ok(run(lib, "reading-list", "delete", "Train"))
    gone = run(lib, "reading-list", "show", "Train")
    user_error(gone, "no reading list named 'Train'")
    with Library.open(lib) as l1:
        assert l1.lists.all() == [] and l1.papers.count() == 76


def test_export_reindex_check_backup(seeded: dict[str, int], library_dir: Path, tmp_path: Path) -> None:
    lib = library_dir
    races = seeded["races"]
    out_json, out_md = tmp_path / "all.json", tmp_path / "races.md"
    marker = lib / "index" / "old-index-marker"
    marker.write_text("x")

    exp_json, exp_md = run_parallel(
        lib,
        ["export", "--format", "json", "-o", out_json],
        ["export", "--format", "md", "-o", out_md, "--query", "title:RACES"],
    )
    ok(exp_json)
    ok(exp_md)
    data = json.loads(out_json.read_text("utf-8"))
    assert len(data["papers"]) == 76
    assert len({p["uid"] for p in data["papers"]}) == 76
    races_json = next(p for p in data["papers"] if p["id"] == races)
    assert races_json["title"] == RACES_TITLE and races_json["venue"] == "NeurIPS"
    md = out_md.read_text("utf-8")
    assert RACES_TITLE in md and "Recursive Automated Composition for Environment Scaling" in md
    assert "\\textbf" not in md
    assert "1 papers written" in exp_md.stderr or "1 paper written" in exp_md.stderr

    reindex = ok(run(lib, "reindex"))
    assert "index rebuilt: 76 papers" in reindex.stderr
    assert not marker.exists()  # a new folder was swapped in
    assert sorted(p.name for p in lib.iterdir() if p.name.startswith("index")) == ["index"]

    check, backup, search = run_parallel(lib, ["check"], ["backup"], ["search", "RACES", "--json"])
    assert ok(check).stdout.splitlines()[0] == "ok: 76 papers, database and index agree"
    assert ok(check).stdout.splitlines()[1] in (
        "no backup yet (run `marginalia backup`)",
        "newest backup: less than a minute old",
    )  # ran beside `backup`
    copy = Path(ok(backup).stdout.strip())
    assert copy.parent == lib / "backups" and copy.is_file()
    con = sqlite3.connect(copy)
    assert con.execute("SELECT count(*) FROM paper").fetchone() == (76,)
    con.close()
    assert json.loads(ok(search).stdout)["papers"][0]["id"] == races

    # a broken reference makes check fail (exit 1) and say what is wrong
    con = sqlite3.connect(lib / "library.sqlite")
    with con:
        con.execute("PRAGMA foreign_keys=OFF")
        con.execute("INSERT INTO note (paper_id, text, updated_at) VALUES (99999, 'orphan', '2026-01-01')")
    con.close()
    bad = run(lib, "check")
    assert bad.returncode == 1 and "1 broken references" in bad.stdout and "Traceback" not in bad.stderr


def test_user_errors_exit_1_with_one_line(seeded: dict[str, int], library_dir: Path, tmp_path: Path) -> None:
    lib = library_dir
    races = seeded["races"]
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(bytes(range(256)) * 8)
    newer = tmp_path / "newer"
    with Library.open(newer):
        pass
    con = sqlite3.connect(newer / "library.sqlite")
    with con:
        con.execute("UPDATE alembic_version SET version_num='9999'")
    con.close()
    not_a_library = tmp_path / "not-a-library"
    not_a_library.mkdir()
    (not_a_library / "library.sqlite").write_bytes(bytes(range(256)) * 8)

    cases = {
        ("show", 99999): "no paper with id 99999",
        ("import", tmp_path / "missing.bib"): "no such file",
        ("search", "frobnicate:x"): "unknown field 'frobnicate:'",
        ("search", "(reasoning OR rl"): "unbalanced parentheses",
        ("list", "--query", "status:finished"): "status is one of unread, skimmed, read",
        ("status", races, "finished"): "status is one of unread, skimmed, read, not 'finished'",
        ("rate", races, "9"): "a rating is a whole number from 0 to 5, not '9'",
        ("tag", races): "say --add TAG or --remove TAG",
        ("note", races, "--file", tmp_path / "missing.md"): "No such file or directory",
        ("highlight", races, "--quote", "words that are not there"): "does not occur",
    }
    *results, unreadable, too_new, damaged = run_parallel(
        lib, *[list(c) for c in cases], ["import", "--json", garbage], (newer, ["list"]), (not_a_library, ["list"])
    )
    for (command, fragment), proc in zip(cases.items(), results, strict=True):
        user_error(proc, fragment)
        assert proc.stdout == "", command
    assert unreadable.returncode == 1 and "Traceback" not in unreadable.stderr
    report = json.loads(unreadable.stdout)
    assert (report["added"], report["failed"]) == (0, 1)
    assert report["files"][0]["errors"]
    user_error(too_new, "newer version of Marginalia")
    user_error(damaged, "is not a readable Marginalia library")

    with Library.open(lib) as l1:  # nothing above changed the library
        p = l1.papers.get(races)
        assert (p.status, p.rating, p.tags, p.note, p.highlights) == ("unread", 0, [], "", [])
        assert l1.papers.count() == 76


def test_the_cli_writes_while_a_library_is_open_elsewhere(tmp_path, seed_paths) -> None:
    """The window (here: a Library with its background index thread) stays open while the CLI
    tags and writes a note; the open library sees both, and neither corrupts the other."""
    import sys as _sys

    from desktop_app.core.library import Library

    lib_dir = tmp_path / "lib"
    with Library.open(lib_dir) as lib:
        lib.imports.from_files(seed_paths[:1])
    env = dict(__import__("os").environ, QT_QPA_PLATFORM="offscreen")
    open_lib = Library.open(lib_dir, background_index=True)
    try:
        pid = open_lib.query("").ids[0]
        for args in (["tag", str(pid), "--add", "from-cli"], ["note", str(pid), "--set", "quokka sighting"]):
            res = subprocess.run(
                [_sys.executable, "-m", "desktop_app", "--library", str(lib_dir), *args],
                capture_output=True,
                text=True,
                timeout=120,
                env=env,
            )
            assert res.returncode == 0, res.stderr
        assert open_lib.papers.get(pid).tags == ["from-cli"]
        assert open_lib.query("note:quokka").ids == [pid]
        open_lib.notes.set(pid, "quokka and wombat")  # and the open library can still write
        open_lib.flush_index()
        assert open_lib.query("wombat").ids == [pid]
    finally:
        open_lib.close()
    with Library.open(lib_dir) as lib:
        assert lib.integrity_check() == []
