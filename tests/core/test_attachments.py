"""Attached files: copies land in files/<id>/ atomically and under a free name, links stay where
they are, removals are soft (undoable) or hard (the file goes once committed), and the files
travel with the JSON document, the backups and ``marginalia check``."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from desktop_app.cli import main
from desktop_app.core import attachment_files as af
from desktop_app.core import attachments as attachments_module
from desktop_app.core.errors import LibraryError
from desktop_app.core.library import Library
from desktop_app.core.store import backups
from desktop_app.core.store import migrate as db

PDF = b"%PDF-1.4\n% a small paper\n" + bytes(range(256)) * 40 + b"\n%%EOF\n"


def _pdf(folder: Path, name: str = "paper.pdf", body: bytes = PDF) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(body)
    return path


def _files(folder: Path) -> list[str]:
    root = folder / "files"
    return sorted(str(p.relative_to(folder)) for p in root.rglob("*") if p.is_file()) if root.exists() else []


def test_a_copy_lands_in_files_with_its_hash_and_the_source_untouched(seed_library: Library, tmp_path: Path) -> None:
    src = _pdf(tmp_path / "downloads")
    change = seed_library.attachments.add(3, src)
    assert change.kind == "attachments" and change.paper_ids == (3,)
    [v] = seed_library.attachments.for_paper(3)
    assert (v.kind, v.path, v.name, v.size) == ("copy", "files/3/paper.pdf", "paper.pdf", len(PDF))
    assert v.sha256 == hashlib.sha256(PDF).hexdigest()
    assert v.location == seed_library.folder / "files" / "3" / "paper.pdf" and v.exists
    assert v.location.read_bytes() == PDF and src.read_bytes() == PDF
    assert _files(seed_library.folder) == ["files/3/paper.pdf"]  # no temporary file left
    assert seed_library.attachments.for_paper(4) == []


def test_name_collisions_get_a_number_and_never_overwrite(seed_library: Library, tmp_path: Path) -> None:
    lib = seed_library
    stray = _pdf(lib.folder / "files" / "5", "paper.pdf", b"a file nobody attached")  # on disk, not in the db
    lib.attachments.add(5, _pdf(tmp_path / "a"))
    lib.attachments.add(5, _pdf(tmp_path / "b", body=PDF + b"v2"))
    assert [v.path for v in lib.attachments.for_paper(5)] == ["files/5/paper (2).pdf", "files/5/paper (3).pdf"]
    assert stray.read_bytes() == b"a file nobody attached"
    assert (lib.folder / "files/5/paper (3).pdf").read_bytes() == PDF + b"v2"


def test_a_link_records_where_the_file_is(seed_library: Library, tmp_path: Path) -> None:
    src = _pdf(tmp_path / "papers", "kept here.pdf")
    seed_library.attachments.add(2, src, mode="link")
    [v] = seed_library.attachments.for_paper(2)
    assert (v.kind, v.path, v.location, v.exists) == ("link", str(src), src, True)
    assert _files(seed_library.folder) == []


def test_bad_requests_change_nothing(seed_library: Library, tmp_path: Path) -> None:
    src = _pdf(tmp_path)
    with pytest.raises(LibraryError, match="no paper with id 9999"):
        seed_library.attachments.add(9999, src)
    with pytest.raises(LibraryError, match="not a file"):
        seed_library.attachments.add(1, tmp_path)
    with pytest.raises(LibraryError, match="copy or a link"):
        seed_library.attachments.add(1, src, mode="move")
    assert not (seed_library.folder / "files").exists()


def test_a_rolled_back_add_leaves_no_file(
    seed_library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(*_a: object, **_k: object) -> int:
        raise LibraryError("disk said no")

    monkeypatch.setattr(attachments_module, "insert_row", fail)
    with pytest.raises(LibraryError, match="disk said no"):
        seed_library.attachments.add(1, _pdf(tmp_path))
    assert _files(seed_library.folder) == []


def test_safe_names_and_copy_paths() -> None:
    assert af.safe_name("../../etc/passwd") == "passwd"
    assert af.safe_name("C:\\Users\\me\\a:b?.pdf") == "a_b_.pdf"
    assert af.safe_name(".hidden.pdf") == "hidden.pdf"
    assert af.safe_name("") == af.safe_name("..") == "attachment"
    long = af.safe_name("x" * 500 + ".pdf")
    assert len(long) <= af.NAME_MAX and long.endswith(".pdf")
    assert af.is_copy_path("files/12/paper.pdf")
    for bad in ("files/../x.pdf", "/etc/passwd", "files/12/../../x", "files/a/x.pdf", "elsewhere/1/x.pdf"):
        assert not af.is_copy_path(bad), bad


def test_soft_removal_is_undone_and_hard_removal_deletes_the_copy(seed_library: Library, tmp_path: Path) -> None:
    lib = seed_library
    aid = lib.attachments.add(1, _pdf(tmp_path)).detail.attachment_id
    where = lib.attachments.get(aid).location
    lib.attachments.remove(aid)
    assert lib.attachments.for_paper(1) == [] and where.exists()
    assert [v.removed for v in lib.attachments.for_paper(1, removed=True)] == [True]
    lib.attachments.restore(aid)
    assert [v.id for v in lib.attachments.for_paper(1)] == [aid]
    lib.attachments.remove(aid, hard=True)
    assert lib.attachments.for_paper(1, removed=True) == []
    assert not where.exists() and not where.parent.exists()
    with pytest.raises(LibraryError):
        lib.attachments.get(aid)


def test_a_file_is_deleted_only_when_the_transaction_commits(seed_library: Library, tmp_path: Path) -> None:
    doomed = _pdf(tmp_path, "x.pdf")
    with pytest.raises(RuntimeError), seed_library.store.write() as tx:
        tx.after_commit.append(doomed.unlink)
        raise RuntimeError("rolled back")
    assert doomed.exists()
    with seed_library.store.write() as tx:
        tx.after_commit.append(doomed.unlink)
    assert not doomed.exists()


def test_hard_removal_of_a_link_keeps_the_users_file(seed_library: Library, tmp_path: Path) -> None:
    src = _pdf(tmp_path)
    aid = seed_library.attachments.add(1, src, mode="link").detail.attachment_id
    seed_library.attachments.remove(aid, hard=True)
    assert src.read_bytes() == PDF


def test_check_reports_missing_and_changed_files_with_the_paper(seed_library: Library, tmp_path: Path) -> None:
    lib = seed_library
    assert lib.integrity_check() == []
    a = lib.attachments.get(lib.attachments.add(7, _pdf(tmp_path, "gone.pdf")).detail.attachment_id)
    b = lib.attachments.get(lib.attachments.add(8, _pdf(tmp_path, "edited.pdf")).detail.attachment_id)
    assert lib.integrity_check() == []
    a.location.unlink()
    b.location.write_bytes(PDF[:-3] + b"XYZ")  # same size, other bytes
    problems = lib.integrity_check()
    assert problems == [
        "paper 7: attached file 'gone.pdf' (files/7/gone.pdf) is missing",
        "paper 8: attached file 'edited.pdf' (files/8/edited.pdf) has changed since it was attached",
    ]


def test_cli_attach_list_and_check(
    library_dir: Path, seed_paths: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lib_arg = ["--library", str(library_dir)]
    assert main([*lib_arg, "import", str(seed_paths[0])]) == 0
    src = _pdf(tmp_path)
    assert main([*lib_arg, "attach", "1", str(src)]) == 0
    assert main([*lib_arg, "attach", "1", str(src), "--link"]) == 0
    capsys.readouterr()
    assert main([*lib_arg, "attachments", "1", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(a["kind"], a["path"], a["exists"]) for a in listed] == [
        ("copy", "files/1/paper.pdf", True),
        ("link", str(src), True),
    ]
    src.unlink()
    assert main([*lib_arg, "check"]) == 1
    assert f"paper 1: attached file 'paper.pdf' ({src}) is missing" in capsys.readouterr().out
    assert main([*lib_arg, "attach", "424242", str(tmp_path)]) == 1


def _export_json(folder: Path, out: Path) -> dict:
    out.parent.mkdir(parents=True, exist_ok=True)
    assert main(["--library", str(folder), "export", "--format", "json", "-o", str(out)]) == 0
    return json.loads(out.read_text("utf-8"))


def test_json_export_and_restore_bring_the_copies_along(seed_library: Library, tmp_path: Path) -> None:
    lib = seed_library
    lib.attachments.add(4, _pdf(tmp_path / "in", "a.pdf"))
    lib.attachments.add(4, _pdf(tmp_path / "in", "b.pdf", PDF + b"b"), mode="link")
    uid = lib.papers.get(4).uid
    lib.close()
    moved = tmp_path / "moved"
    doc = _export_json(seed_library.folder, moved / "library.json")
    [paper] = [p for p in doc["papers"] if p["uid"] == uid]
    assert [(a["kind"], a["name"]) for a in paper["attachments"]] == [("copy", "a.pdf"), ("link", "b.pdf")]
    assert all(not p["attachments"] for p in doc["papers"] if p["uid"] != uid)
    shutil.copytree(seed_library.folder / "files", moved / "files")  # the user moves the folder along

    with Library.open(tmp_path / "other") as other:
        # the link points outside the library folder: linked once the user accepts the backup's links
        report = other.imports.from_files([str(moved / "library.json")])
        assert report.files[0].refused_links == 1
        report = other.imports.from_files([str(moved / "library.json")], accept_links=True)
        pid = next(i for i in other.query("").ids if other.papers.get(i).uid == uid)
        views = other.attachments.for_paper(pid)
        assert [(v.kind, v.name, v.exists) for v in views] == [("copy", "a.pdf", True), ("link", "b.pdf", True)]
        assert views[0].location.parent == other.folder / "files" / str(pid)
        assert views[0].location.read_bytes() == PDF
        other.imports.from_files([str(moved / "library.json")], accept_links=True)  # again: nothing doubled
        assert len(other.attachments.for_paper(pid)) == 2
        assert other.integrity_check() == []


def test_json_restore_without_the_files_keeps_them_as_missing(seed_library: Library, tmp_path: Path) -> None:
    lib = seed_library
    lib.attachments.add(4, _pdf(tmp_path / "in", "a.pdf"))
    lib.close()
    doc = _export_json(lib.folder, tmp_path / "doc" / "library.json")
    [paper] = [p for p in doc["papers"] if p["attachments"]]
    paper["attachments"].append(
        {"kind": "copy", "path": "files/1/../../../../etc/passwd", "name": "passwd", "size": 1, "sha256": "0" * 64}
    )
    (tmp_path / "doc" / "library.json").write_text(json.dumps(doc), "utf-8")
    with Library.open(tmp_path / "other") as other:
        other.imports.from_files([str(tmp_path / "doc" / "library.json")])
        pid = next(i for i in other.query("").ids if other.papers.get(i).uid == paper["uid"])
        views = other.attachments.for_paper(pid)
        assert [(v.name, v.exists) for v in views] == [("a.pdf", False), ("passwd", False)]
        assert all(v.location is not None and other.folder in v.location.parents for v in views)
        assert [p for p in other.integrity_check() if f"paper {pid}:" in p and "missing" in p] != []


def test_backups_keep_the_copies_and_a_restore_brings_them_back(seed_library: Library, tmp_path: Path) -> None:
    lib = seed_library
    v = lib.attachments.get(lib.attachments.add(6, _pdf(tmp_path)).detail.attachment_id)
    made = lib.backups.make()
    blob = lib.folder / "backups" / "files" / v.sha256
    assert blob.read_bytes() == PDF
    made = lib.backups.make()  # stored once however many backups name it (rotation kept this newer one)
    assert [p.name for p in (lib.folder / "backups" / "files").iterdir()] == [v.sha256]
    lib.attachments.remove(v.id, hard=True)
    assert not v.location.exists()
    lib.close()
    backups.restore(lib.folder, made)
    assert v.location.read_bytes() == PDF
    with Library.open(lib.folder) as again:
        assert [a.exists for a in again.attachments.for_paper(6)] == [True]
        assert again.integrity_check() == []


def test_blobs_no_backup_names_are_pruned(seed_library: Library, tmp_path: Path) -> None:
    lib = seed_library
    aid = lib.attachments.add(6, _pdf(tmp_path)).detail.attachment_id
    made = lib.backups.make()
    assert len(list((lib.folder / "backups" / "files").iterdir())) == 1
    lib.attachments.remove(aid, hard=True)
    made.unlink()  # as rotation would
    lib.backups.make()
    assert list((lib.folder / "backups" / "files").iterdir()) == []


def test_upgrade_from_0004_keeps_papers_and_adds_attachments(library_dir: Path, tmp_path: Path) -> None:
    library_dir.mkdir(parents=True)
    path = library_dir / "library.sqlite"
    db.migrate(path, library_dir / "backups", "0004")
    con = sqlite3.connect(path)
    with con:
        con.execute(
            "INSERT INTO paper (id, uid, title, title_source, abstract, abstract_text, authors_json, extra_json, "
            "raw, content_hash, status, rating, added_at, updated_at) VALUES (1, 'u1', 'Old paper', 'given', "
            "'An abstract.', 'An abstract.', '[]', '{}', '', '', 'read', 4, '2026-11-01 10:00:00', "
            "'2026-11-01 10:00:00')"
        )
    assert "attachment" not in {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
    con.close()
    with Library.open(library_dir) as lib:
        assert db.current_revision(path) == db.SCHEMA_HEAD  # 0005 (attachments) and any later
        assert any(f"before-{db.SCHEMA_HEAD}" in p.name for p in (library_dir / "backups").iterdir())
        p = lib.papers.get(1)
        assert (p.title, p.status, p.rating) == ("Old paper", "read", 4)
        lib.attachments.add(1, _pdf(tmp_path))
        assert [v.path for v in lib.attachments.for_paper(1)] == ["files/1/paper.pdf"]


def test_programs_are_recognised(tmp_path: Path) -> None:
    assert af.looks_like_program(_pdf(tmp_path, "setup.exe", b"whatever"))
    assert af.looks_like_program(_pdf(tmp_path, "paper.pdf", b"#!/bin/sh\nrm -rf ~\n"))
    assert af.looks_like_program(_pdf(tmp_path, "x.desktop", b"[Desktop Entry]"))
    assert not af.looks_like_program(_pdf(tmp_path, "real.pdf"))
