"""Library folders whose names SQLite URLs would misread: spaces, ``?``, ``#``, ``%``, non-ASCII.

Before the fix ``sqlite:///.../lib ?#% ü 论文/library.sqlite`` put the database at ``.../lib ``
(outside the folder, one file for every such library) and ``backup`` copied an empty file."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.core.library import Library
from desktop_app.core.store.migrate import backup
from tests.helpers.library import papers_in

ODD_NAMES = ["lib ?#% ü 论文", "lib ?#% ü 论文 2", "100% #1?x=y", "a%20b", "file:lib"]


def test_odd_folder_names_keep_their_own_database(
    tmp_path: Path, seed_paths: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # "file:lib" relative: must not be taken for a URI either
    folders = [
        tmp_path / ODD_NAMES[0],
        tmp_path / ODD_NAMES[1],
        tmp_path / ODD_NAMES[2],
        tmp_path / ODD_NAMES[3],
        Path(ODD_NAMES[4]),
    ]
    added = []
    for n, folder in enumerate(folders):
        with Library.open(folder) as lib:  # the first stays empty; the others hold 1, 2, ... seed files
            report = lib.imports.from_files(seed_paths[:n]) if n else None
            assert report is None or (report.added and not report.failed), report
            added.append(report.added if report else 0)
    assert len(set(added)) == len(folders)  # each library holds a different number of papers
    # every database is inside its own folder, and nothing else was made next to them
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(ODD_NAMES)
    for n, folder in enumerate(folders):
        assert (folder / "library.sqlite").is_file()
        assert papers_in(folder / "library.sqlite") == added[n], folder
        with Library.open(folder) as lib:  # reopened: the same papers, searchable
            assert lib.papers.count() == added[n]
            assert lib.query("").total == added[n]
            assert (lib.query("the").total > 0) == (added[n] > 0)  # the full-text index is there too
            made = backup(lib.db_path, lib.folder / "backups", "manual")
        assert made.parent == (folder / "backups").absolute()
        assert papers_in(made) == added[n]


def test_backup_refuses_a_missing_database(tmp_path: Path) -> None:
    from desktop_app.core.errors import LibraryError

    with pytest.raises(LibraryError, match="no library database"):
        backup(tmp_path / "lib ?#%" / "library.sqlite", tmp_path / "lib ?#%" / "backups", "manual")
    assert not (tmp_path / "lib ?#%" / "library.sqlite").exists()


def test_alembic_command_line_url_with_odd_characters(tmp_path: Path) -> None:
    """migrations/env.py run by the `alembic` tool: a percent-encoded URL names the file exactly."""
    from urllib.parse import quote

    from alembic import command

    from desktop_app.core.store.migrate import SCHEMA_HEAD, alembic_config, current_revision

    folder = tmp_path / "dev ?#% ü"
    folder.mkdir()
    cfg = alembic_config()
    cfg.set_main_option("sqlalchemy.url", "sqlite:///" + quote(str(folder / "dev.sqlite")).replace("%", "%%"))
    command.upgrade(cfg, "head")
    assert current_revision(folder / "dev.sqlite") == SCHEMA_HEAD
    assert sorted(p.name for p in tmp_path.iterdir()) == [folder.name]
