"""``marginalia trash list|restore|empty``, as real subprocesses (no terminal:
``empty`` refuses without ``--yes``) and in-process for the question asked on a terminal."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from desktop_app.cli import main
from desktop_app.core.library import Library
from tests.helpers.cli import ok, run, user_error

PDF = b"%PDF-1.4\n% a trashed paper's file\n%%EOF\n"


def _trash_some(folder: Path, known: dict[str, int], tmp_path: Path) -> tuple[list[int], Path]:
    """Move three papers to the trash (RACES last, with an attached copy); their ids, the copy."""
    src = tmp_path / "races.pdf"
    src.write_bytes(PDF)
    with Library.open(folder) as lib:
        change = lib.attachments.add(known["races"], src)
        copy = folder / lib.attachments.get(change.detail.attachment_id).path
        ids = [known["rlvr"], known["fprm"], known["races"]]
        lib.papers.delete(ids[:2])
        lib.papers.delete(ids[2:])
    return ids, copy


def test_trash_list_restore_and_empty(seeded: dict[str, int], library_dir: Path, tmp_path: Path) -> None:
    ids, copy = _trash_some(library_dir, seeded, tmp_path)
    listed = ok(run(library_dir, "trash", "list"))
    lines = listed.stdout.splitlines()
    assert len(lines) == 3 and lines[0].split()[0] == str(seeded["races"])  # newest first
    assert "Recursive Automated Composition" in lines[0]
    assert listed.stderr.strip() == "3 papers in the trash"
    doc = json.loads(ok(run(library_dir, "trash", "list", "--json")).stdout)
    assert doc["total"] == 3 and sorted(p["id"] for p in doc["papers"]) == sorted(ids)
    assert set(doc["papers"][0]) == {"id", "title", "year", "venue", "deleted_at"}

    assert ok(run(library_dir, "trash", "restore", ids[0])).stdout.strip() == "restored 1 paper from the trash"
    refused = run(library_dir, "trash", "empty")  # no terminal, no --yes: nothing happens
    assert refused.returncode == 2 and "--yes" in refused.stderr and "Traceback" not in refused.stderr
    assert "2 papers for good" in refused.stderr
    assert copy.is_file()
    emptied = ok(run(library_dir, "trash", "empty", "--yes"))
    assert emptied.stdout.strip() == "deleted 2 papers for good and 1 attached file"
    assert not copy.exists()
    assert ok(run(library_dir, "trash", "list")).stderr.strip() == "0 papers in the trash"
    assert ok(run(library_dir, "trash", "empty")).stdout.strip() == "the trash is empty"
    checked = ok(run(library_dir, "check"))
    assert checked.stdout.startswith("ok: 74 papers")
    with Library.open(library_dir) as lib:
        assert lib.papers.count() == 74 and lib.trash.count() == 0
        assert ids[0] in lib.query("").ids


def test_trash_restore_refuses_bad_ids_and_changes_nothing(
    seeded: dict[str, int], library_dir: Path, tmp_path: Path
) -> None:
    ids, _copy = _trash_some(library_dir, seeded, tmp_path)
    live = next(i for i in range(1, 80) if i not in ids)
    user_error(run(library_dir, "trash", "restore", ids[0], live), f"not in the trash: paper {live}")
    user_error(run(library_dir, "trash", "restore", ids[0], 99999), "no paper with id 99999")
    bad = run(library_dir, "trash", "restore", "x")
    assert bad.returncode == 2 and "invalid int value" in bad.stderr
    with Library.open(library_dir) as lib:
        assert sorted(lib.trash.ids()) == sorted(ids)


def test_check_reports_a_copy_left_in_files(seeded: dict[str, int], library_dir: Path) -> None:
    stray = library_dir / "files" / str(seeded["races"]) / "left.pdf"
    stray.parent.mkdir(parents=True)
    stray.write_bytes(PDF)
    found = run(library_dir, "check")
    assert found.returncode == 1
    assert (
        f"files/{seeded['races']}/left.pdf is in the library's files/ folder but no paper refers to it" in found.stdout
    )


class _Terminal:
    """stdin and stdout that say they are a terminal."""

    def __init__(self, stream: object) -> None:
        self._stream = stream

    def isatty(self) -> bool:
        return True

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


@pytest.mark.parametrize(("answer", "code", "left"), [("n", 1, 2), ("", 1, 2), ("y", 0, 0)])
def test_trash_empty_asks_on_a_terminal(
    seeded: dict[str, int],
    library_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture,
    answer: str,
    code: int,
    left: int,
) -> None:
    with Library.open(library_dir) as lib:
        lib.papers.delete([seeded["races"], seeded["rlvr"]])
    asked: list[str] = []
    monkeypatch.setattr(sys, "stdin", _Terminal(sys.stdin))
    monkeypatch.setattr(sys, "stdout", _Terminal(sys.stdout))
    monkeypatch.setattr("builtins.input", lambda prompt: asked.append(prompt) or answer)
    assert main(["--library", str(library_dir), "trash", "empty"]) == code
    assert asked == ["Delete the 2 papers in the trash for good? This cannot be undone. [y/N] "]
    with Library.open(library_dir) as lib:
        assert lib.trash.count() == left
    err = capsys.readouterr().err
    assert ("nothing deleted" in err) == (code == 1)


def test_the_help_names_the_trash_commands(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit):
        main(["trash", "--help"])
    out = capsys.readouterr().out
    assert all(word in out for word in ("list", "restore", "empty", "for good"))


def test_delete_moves_papers_to_the_trash_all_or_none(seeded: dict[str, int], library_dir: Path) -> None:
    a, b = seeded["races"], seeded["rlvr"]
    user_error(run(library_dir, "delete", str(a), "999999"), "no paper with id 999999")
    with Library.open(library_dir) as lib:
        assert lib.trash.count() == 0  # an unknown id: nothing moved
    out = ok(run(library_dir, "delete", str(a), str(b)))
    assert out.stdout.strip() == f"moved 2 papers to the trash; `marginalia trash restore {a} {b}` brings them back"
    with Library.open(library_dir) as lib:
        assert sorted(i.id for i in lib.trash.items()) == sorted([a, b])
        assert a not in lib.query("").ids
    user_error(run(library_dir, "delete", str(a)), f"no paper with id {a}")  # in the trash already
    ok(run(library_dir, "trash", "restore", str(a), str(b)))
    with Library.open(library_dir) as lib:
        assert lib.trash.count() == 0 and a in lib.query("").ids
