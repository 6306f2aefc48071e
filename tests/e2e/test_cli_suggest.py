"""`marginalia search` offers "did you mean"; `marginalia retitle` re-derives derived titles."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from desktop_app.core.library import Library
from tests.helpers.cli import ok, run, run_parallel
from tests.helpers.library import find_paper
from tests.helpers.shared import SEEDS

pytestmark = pytest.mark.shared  # every test here reads ../shared

RACES_TITLE = "RACES: Recursive Automated Composition for Environment Scaling"


def test_search_offers_a_correction_and_retitle_lists_then_applies(tmp_path: Path) -> None:
    folder = tmp_path / "lib"
    with Library.open(folder) as lib:
        assert lib.imports.from_files(list(SEEDS)).added == 76
        races = find_paper(lib, "Recursive Automated Composition")
        fprm = find_paper(lib, "Fixed-Point Reasoning Model")
        lib.papers.set_title(fprm, "My own title")
    con = sqlite3.connect(folder / "library.sqlite")  # as an older algorithm had derived it
    with con:
        con.execute("UPDATE paper SET title = 'Reinforcement Learning (RL) has emerged' WHERE id = ?", (races,))
    con.close()

    as_json, plain, fine, preview = run_parallel(
        folder,
        ["search", "reinforcment lerning", "--json"],
        ["search", "title:transformr"],
        ["search", "reinforcement learning", "--json"],
        ["retitle"],
    )
    data = json.loads(ok(as_json).stdout)
    assert (data["total"], data["papers"], data["did_you_mean"]) == (0, [], "reinforcement learning")
    assert "Did you mean: title:transformer?" in ok(plain).stderr.splitlines()
    data = json.loads(ok(fine).stdout)
    assert data["total"] >= 3 and data["did_you_mean"] is None
    assert ok(preview).stdout == f"{races}\tReinforcement Learning (RL) has emerged\n\t-> {RACES_TITLE}\n"
    assert "1 derived titles would change" in preview.stderr

    assert "1 derived titles changed" in ok(run(folder, "retitle", "--apply")).stderr
    shown = json.loads(ok(run(folder, "show", races, "--json")).stdout)
    assert (shown["title"], shown["title_source"]) == (RACES_TITLE, "derived")
    again = ok(run(folder, "retitle"))
    assert again.stdout == "" and "0 derived titles" in again.stderr
    assert json.loads(ok(run(folder, "show", fprm, "--json")).stdout)["title"] == "My own title"
