"""kill -9 at random moments during import, bulk tag, note writes, reindex and export.

Each trial copies a seeded library, starts a worker process that acknowledges every piece of work
once it is stored, kills it after a random delay, reopens the library and checks: nothing
acknowledged is lost, nothing is half-written, the database passes its integrity check and the
index agrees with it. ``MARGINALIA_FAULT_TRIALS`` sets the number of trials (`make soak`: 200).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from desktop_app.core.library import Library
from tests.helpers.library import papers_in
from tests.helpers.shared import ROOT, SEEDS

TRIALS = int(os.environ.get("MARGINALIA_FAULT_TRIALS", "10"))
KINDS = ("import", "tag", "note", "reindex", "export")


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> Path:
    folder = tmp_path_factory.mktemp("template") / "lib"
    with Library.open(folder) as lib:
        lib.imports.from_files(SEEDS[:1])
    return folder


@pytest.fixture(scope="module")
def import_adds(template: Path, tmp_path_factory: pytest.TempPathFactory) -> int:
    """How many papers the import under test adds when it completes."""
    folder = tmp_path_factory.mktemp("whole") / "lib"
    shutil.copytree(template, folder)
    with Library.open(folder) as lib:
        return lib.imports.from_files([SEEDS[-1]]).added


def run_trial(template: Path, work: Path, kind: str, rng: random.Random) -> dict:
    folder = work / "lib"
    shutil.copytree(template, folder)
    extra = ""
    if kind == "import":
        extra = str(SEEDS[-1])
    elif kind == "export":
        extra = str(work / "export.json")
    before = papers_in(folder / "library.sqlite")
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.e2e.fault_worker", str(folder), kind, extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
    time.sleep(rng.uniform(0.0, 1.5))
    os.kill(proc.pid, signal.SIGKILL)
    out, _ = proc.communicate(timeout=60)
    acks = [int(line.split()[1]) for line in out.splitlines() if line.startswith("ack ")]
    return {"folder": folder, "acks": acks, "before": before, "extra": extra}


def check_trial(kind: str, t: dict, import_adds: int = 0) -> None:
    folder, acks = t["folder"], t["acks"]
    with Library.open(folder) as lib:  # opening repairs the index if the kill left it behind
        assert lib.integrity_check() == [], f"{kind}: {lib.integrity_check()}"
        ids = lib.query("").ids
        if kind == "import":
            # one transaction: all of a file's papers or none; acknowledged ones are there
            added = lib.papers.count() - t["before"]
            assert added in (0, import_adds), f"{added} of {import_adds} papers: a half import"
            if acks:
                assert added == import_adds
        elif kind == "tag":
            for tag in lib.tags.all():
                assert tag.count == len(ids), f"half-tagged {tag.name}"  # all papers or none
            names = {tag.name for tag in lib.tags.all()}
            assert all(f"fault/t{n}" in names for n in acks)
        elif kind == "note":
            pid = ids[0]
            kept = {lib.papers.get(pid).note} | {text for _, text in lib.notes.revisions(pid)}
            assert all(f"note text {n}" in kept for n in acks)
        elif kind == "export":
            path = Path(t["extra"])
            # the file on disk is always a whole export, never a torn one (a kill during a write
            # can leave the hidden temporary file beside it: the old export is untouched)
            assert path.exists() or not acks
            if path.exists():
                document = json.loads(path.read_text("utf-8"))
                assert len(document["papers"]) == len(ids)


@pytest.mark.parametrize("trial", range(TRIALS))
def test_kill_at_a_random_moment_loses_nothing(template: Path, import_adds: int, tmp_path: Path, trial: int) -> None:
    rng = random.Random(trial)
    kind = KINDS[trial % len(KINDS)]
    t = run_trial(template, tmp_path, kind, rng)
    check_trial(kind, t, import_adds)
