"""What the command line loads, and how it ends when its reader goes away.

Every non-GUI command runs in a real subprocess whose loaded modules are written to a file at the
end: none may load Qt (``--version`` and ``--help`` not even the database or the search index).
``marginalia list | head`` must end quietly when ``head`` closes the pipe."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from desktop_app import __version__
from desktop_app.cli import EXIT_BROKEN_PIPE
from tests.helpers.cli import run_listing_modules

ROOT = Path(__file__).resolve().parents[2]

HEAVY = ("sqlalchemy", "sqlmodel", "whoosh", "alembic", "platformdirs", "importlib.metadata")


def _env() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    env.pop("QT_QPA_PLATFORM", None)
    return env


def _modules_after(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess, set[str]]:
    return run_listing_modules(_env(), tmp_path, *args)


def _roots(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules} | {m for m in modules if m == "importlib.metadata"}


def test_the_version_constant_is_pyprojects() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert __version__ == project["version"]


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["list", "--help"]])
def test_version_and_help_load_neither_qt_nor_the_library(tmp_path: Path, args: list[str]) -> None:
    res, modules = _modules_after(tmp_path, *args)
    assert res.returncode == 0, res.stderr
    assert ("marginalia " + __version__ in res.stdout) if args == ["--version"] else "usage:" in res.stdout
    loaded = _roots(modules) & {"PySide6", "shiboken6", *HEAVY}
    assert not loaded, f"`marginalia {' '.join(args)}` loaded {sorted(loaded)}"


def test_no_command_but_the_window_loads_qt(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    bib = tmp_path / "two.bib"
    bib.write_text(
        "@article{a, title={Sparse attention for long documents}, year={2021},\n"
        "  abstract={We study sparse attention.}}\n"
        "@article{b, title={Dense retrieval without labels}, year={2022},\n"
        "  abstract={Retrieval with contrastive pretraining.}}\n",
        "utf-8",
    )
    note = tmp_path / "abstract.txt"
    note.write_text("A new abstract about sparse attention.", "utf-8")
    commands = [
        ["import", str(bib)],
        ["list"],
        ["list", "--json"],
        ["search", "attention"],
        ["show", "1"],
        ["tag", "1", "--add", "nlp"],
        ["status", "1", "read"],
        ["rate", "1", "4"],
        ["title", "2", "Dense"],
        ["note", "1", "--set", "good"],
        ["note", "1"],
        ["highlight", "1", "--quote", "sparse attention"],
        ["abstract", "2", "--file", str(note)],
        ["reading-list", "create", "week"],
        ["reading-list", "add", "week", "1", "2"],
        ["reading-list", "show", "week"],
        ["reading-list", "ls"],
        ["export", "--format", "bib", "-o", str(tmp_path / "out.bib")],
        ["export", "--format", "json", "-o", "-"],
        ["export", "--format", "html", "-o", str(tmp_path / "o.html")],
        ["reindex"],
        ["check"],
        ["backup"],
        ["restore"],
        ["imports"],
        ["undo-import", "1"],
    ]
    for args in commands:
        res, modules = _modules_after(tmp_path, "--library", str(lib), *args)
        assert res.returncode == 0, (args, res.stderr)
        qt = {m for m in modules if m.split(".")[0] in ("PySide6", "shiboken6")}
        assert not qt, f"`marginalia {' '.join(args)}` loaded {sorted(qt)[:5]}"
    assert (tmp_path / "out.bib").read_text("utf-8").count("@") == 2


@pytest.fixture(scope="module")
def big_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A library of 3,000 papers, made through the Library API from a generated RIS file."""
    from desktop_app.core.library import Library

    folder = tmp_path_factory.mktemp("big")
    ris = folder / "many.ris"
    ris.write_text(
        "".join(
            f"TY  - JOUR\nTI  - Paper number {i} on topic {i % 37} with quirk {i * 7919 % 10007}\n"
            f"AU  - Author, A{i}\nPY  - {1990 + i % 35}\nAB  - An abstract of paper {i} about topic {i % 37}.\n"
            f"ER  - \n\n"
            for i in range(3000)
        ),
        "utf-8",
    )
    with Library.open(folder / "lib") as lib:
        assert lib.imports.from_files([ris]).added == 3000
    return folder / "lib"


@pytest.mark.parametrize(
    "args",
    [["list"], ["list", "--json"], ["search", "abstract", "--limit", "3000"], ["export", "--format", "ris", "-o", "-"]],
)
def test_a_reader_that_stops_early_gets_no_complaint(big_library: Path, args: list[str]) -> None:
    """Like ``marginalia list | head -1``: read one line, close the pipe; the command must end
    quietly (no "Broken pipe", no traceback) with the SIGPIPE-like status."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "desktop_app", "--library", str(big_library), *args],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    first = proc.stdout.readline()
    proc.stdout.close()
    stderr = proc.stderr.read().decode("utf-8")
    code = proc.wait(timeout=120)
    assert first.strip()
    assert stderr == "", stderr
    assert code == EXIT_BROKEN_PIPE, code  # the output is far larger than a pipe holds


def test_a_shell_pipeline_into_head(big_library: Path) -> None:
    """The same through a real shell pipeline: ``marginalia list | head -n 3``."""
    cmd = f"'{sys.executable}' -m desktop_app --library '{big_library}' list | head -n 3"
    res = subprocess.run(
        ["bash", "-o", "pipefail", "-c", cmd + "; echo status=${PIPESTATUS[0]} >&2"],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    assert len(res.stdout.splitlines()) == 3
    assert res.stderr.strip() == f"status={EXIT_BROKEN_PIPE}", res.stderr


# what `search`, `list` and `show` must not load: Qt, Alembic, the file formats and their parsers,
# the highlight anchoring, the identity rules, PostgreSQL's dialect
NOT_ON_READ_PATHS = (
    "PySide6",
    "shiboken6",
    "alembic",
    "diff_match_patch",
    "pylatexenc",
    "rapidfuzz",
    "sqlalchemy.dialects.postgresql",
    "desktop_app.gui",
    "desktop_app.core.formats",
    "desktop_app.core.importing.imports",
    "desktop_app.core.importing.writer",
    "desktop_app.core.exports",
    "desktop_app.core.highlights",
    "desktop_app.core.anchoring",
    "desktop_app.core.sameness",
    "desktop_app.core.duplicates",
    "desktop_app.core.text",
)


@pytest.mark.parametrize(
    "args", [["search", "attention"], ["search", "tag:none OR spar*"], ["list"], ["list", "--json"], ["show", "1"]]
)
def test_search_list_and_show_load_only_what_they_use(tmp_path: Path, args: list[str]) -> None:
    from desktop_app.core.library import Library

    lib_dir = tmp_path / "lib"
    bib = tmp_path / "two.bib"
    bib.write_text(
        "@article{a, title={Sparse attention for long documents}, year={2021},\n"
        "  abstract={We study sparse attention.}}\n",
        "utf-8",
    )
    with Library.open(lib_dir) as lib:
        assert lib.imports.from_files([bib]).added == 1
    res, modules = _modules_after(tmp_path, "--library", str(lib_dir), *args)
    assert res.returncode == 0, res.stderr
    assert "Sparse attention" in res.stdout
    loaded = sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in NOT_ON_READ_PATHS))
    assert not loaded, f"`marginalia {' '.join(args)}` loaded {loaded[:8]}"
    if args[0] == "show":  # the database only: the index is neither checked nor loaded
        assert not {"whoosh", "numpy"} & _roots(modules)
