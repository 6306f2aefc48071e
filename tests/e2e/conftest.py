"""Fixtures for the command-line tests: the seeds imported once per module, copied per test."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from desktop_app.core.library import Library
from tests.helpers.library import FPRM_WORDS, RACES_WORDS, RLVR_WORDS, find_paper
from tests.helpers.shared import SEEDS


@pytest.fixture(scope="module")
def cli_template(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> tuple[Path, dict[str, int]]:
    """The seeds imported once, in-process (the import command is tested on its own); through
    ``shared_dir`` it is skipped without ../shared."""
    folder = tmp_path_factory.mktemp("cli-template") / "library"
    with Library.open(folder) as lib:
        assert lib.imports.from_files(SEEDS).added == 76
        ids = {
            "races": find_paper(lib, RACES_WORDS),
            "rlvr": find_paper(lib, RLVR_WORDS),
            "fprm": find_paper(lib, FPRM_WORDS),
        }
    return folder, ids


@pytest.fixture
def seeded(cli_template: tuple[Path, dict[str, int]], library_dir: Path) -> dict[str, int]:
    """A copy of the seeded library in this test's own folder; the ids of three known papers."""
    shutil.copytree(cli_template[0], library_dir)
    return dict(cli_template[1])
