"""Several processes writing one paper's note at once lose no acknowledged text.

Each writer is a process of its own with its own connection (as the CLI and a window are);
a text counts as acknowledged once ``notes.set``/``notes.append`` returned for it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_app.core.library import Library
from tests.helpers.shared import ROOT

WRITERS = int(os.environ.get("MARGINALIA_NOTE_WRITERS", "8"))
ROUNDS = int(os.environ.get("MARGINALIA_NOTE_ROUNDS", "6"))  # `make soak` runs 50


def run_writers(folder: Path, paper: int, mode: str, tmp_path: Path) -> list[str]:
    start = tmp_path / f"start-{mode}"
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.core.note_writers",
                str(folder),
                str(paper),
                str(w),
                str(ROUNDS),
                mode,
                str(start),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(WRITERS)
    ]
    start.touch()
    acknowledged: list[str] = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err[-2000:]
        acknowledged += out.splitlines()
    return acknowledged


@pytest.fixture
def paper_in(tmp_path: Path) -> tuple[Path, int]:
    folder = tmp_path / "lib"
    with Library.open(folder) as lib:
        lib.imports.from_records([("test", _one_record())])
        return folder, lib.query("").ids[0]


def _one_record():
    from desktop_app.core.records import ParseResult, Record

    return ParseResult("bibtex", [Record(title="Concurrent notes", abstract="An abstract.")])


def test_concurrent_set_keeps_every_text_in_the_note_or_its_revisions(
    paper_in: tuple[Path, int], tmp_path: Path
) -> None:
    folder, pid = paper_in
    acknowledged = run_writers(folder, pid, "set", tmp_path)
    assert len(acknowledged) == WRITERS * ROUNDS
    with Library.open(folder) as lib:
        kept = {lib.papers.get(pid).note} | {text for _, text in lib.notes.revisions(pid)}
    lost = [text for text in acknowledged if text not in kept]
    assert lost == [], f"{len(lost)} of {len(acknowledged)} acknowledged texts lost"


def test_concurrent_appends_all_end_up_in_the_note(paper_in: tuple[Path, int], tmp_path: Path) -> None:
    folder, pid = paper_in
    acknowledged = run_writers(folder, pid, "append", tmp_path)
    with Library.open(folder) as lib:
        lines = lib.papers.get(pid).note.splitlines()
    lost = [text for text in acknowledged if text not in lines]
    assert lost == [], f"{len(lost)} of {len(acknowledged)} appended texts lost"
    assert len(lines) == len(acknowledged) == WRITERS * ROUNDS


def test_cli_append_is_atomic(paper_in: tuple[Path, int]) -> None:
    """`marginalia note ID --append` from several processes at once: every line survives."""
    folder, pid = paper_in
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "desktop_app",
                "--library",
                str(folder),
                "note",
                str(pid),
                "--append",
                f"cli line {n}",
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(4)
    ]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err[-2000:]
    with Library.open(folder) as lib:
        assert sorted(lib.papers.get(pid).note.splitlines()) == [f"cli line {n}" for n in range(4)]
