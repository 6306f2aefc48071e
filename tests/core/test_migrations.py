"""Migrations keep every row: 0002 recreates ``paper`` (a batch copy-and-rename), which with
foreign keys on would cascade-delete every child row. The runner turns them off, runs all of it in
one real transaction, checks references before the commit, backs up first, and refuses a
database written by a newer version."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from importlib.resources import files
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, event

from desktop_app.core.errors import DatabaseTooNew, LibraryError
from desktop_app.core.library import Library
from desktop_app.core.store import migrate as db
from tests.helpers.old_library import NOW, connect, db_0001
from tests.helpers.shared import SEEDS

TABLES = (
    "import_batch",
    "paper",
    "paper_identity",
    "tag",
    "paper_tag",
    "note",
    "note_revision",
    "highlight",
    "reading_list",
    "reading_list_item",
    "saved_search",
    "index_queue",
)
CHILD_TABLES = ("paper_identity", "paper_tag", "note", "note_revision", "highlight", "reading_list_item")


def _snapshot(path: Path, paper_columns: list[str]) -> dict[str, list[tuple]]:
    con = connect(path)
    try:
        out = {}
        for t in TABLES:
            cols = ", ".join(paper_columns) if t == "paper" else "*"
            out[t] = con.execute(f"SELECT {cols} FROM {t} ORDER BY rowid").fetchall()
        return out
    finally:
        con.close()


def _columns(path: Path, table: str) -> list[str]:
    con = sqlite3.connect(path)
    try:
        return [r[1] for r in con.execute(f"PRAGMA table_info({table})")]
    finally:
        con.close()


@pytest.mark.shared
def test_upgrade_keeps_every_row(library_dir: Path) -> None:
    path, roles = db_0001(library_dir)
    cols = _columns(path, "paper")
    assert "opened_at" not in cols
    own_keys = dict(connect(path).execute("SELECT id, bibtex_key FROM paper").fetchall())
    cols.remove("bibtex_key")  # 0008 fills in the citation keys (checked below)
    before = _snapshot(path, cols)
    counts = {t: len(rows) for t, rows in before.items()}
    assert all(counts[t] > 0 for t in TABLES if t != "index_queue"), counts

    with Library.open(library_dir) as lib:
        assert db.current_revision(path) == db.head_revision() == db.SCHEMA_HEAD
        assert lib.migration_backup and f"before-{db.SCHEMA_HEAD}" in lib.migration_backup
        after = _snapshot(path, cols)
        for t in TABLES:
            assert after[t] == before[t], f"rows of {t} changed"
        assert "opened_at" in _columns(path, "paper")
        con = sqlite3.connect(path)
        keys = dict(con.execute("SELECT id, bibtex_key FROM paper").fetchall())
        assert all(keys.values()) and len({k.lower() for k in keys.values()}) == len(keys)
        assert all(keys[pid] == key for pid, key in own_keys.items() if key), "a paper's own key changed"
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        con.close()

        # the library reads the kept rows, and the index is built from them
        races, fprm = roles["races"], roles["fprm"]
        p = lib.papers.get(races)
        assert (p.title, p.title_source, p.status, p.rating) == ("RACES (mine)", "edited", "skimmed", 5)
        assert p.tags == ["rl", "rl/env"] and p.lists == ["Queue"]
        assert [h.quote for h in p.highlights] == ["composable building blocks", "300 individual environments"]
        assert [t for _, t in lib.notes.revisions(races)] == ["second draft", "first draft"]
        assert lib.papers.count() == 75
        assert lib.query("note:quokka").ids == [races]
        assert lib.query("highlight:composable").ids == [races]
        assert lib.query("", list_name="Queue", sort="position").ids == [fprm, races]
        assert set(lib.query("tag:rl").ids) == {races}
        assert lib.searches.all() == [("mine", "tag:rl AND NOT status:read")]
        assert {t.name: t.color for t in lib.tags.all()}["rl"] == "#1f77b4"
        lib.papers.mark_opened(races)  # the new column is usable
        lib.papers.restore([roles["deleted"]])
        assert lib.papers.get(roles["deleted"]).note == "trashed but noted"
        assert lib.integrity_check() == []

    backups = list((library_dir / "backups").glob(f"library-*-before-{db.SCHEMA_HEAD}.sqlite"))
    assert len(backups) == 1
    assert db.current_revision(backups[0]) == "0001"
    assert _snapshot(backups[0], cols) == before  # the backup holds the old database, whole

    with Library.open(library_dir) as lib:  # at head: no second migration, no second backup
        assert lib.migration_backup is None
    assert len(list((library_dir / "backups").iterdir())) == 1


@pytest.mark.shared
def test_control_the_batch_recreate_with_foreign_keys_on_deletes_child_rows(tmp_path: Path) -> None:
    """Why the runner turns foreign keys off: run the same 0002 through a plain engine with
    ``PRAGMA foreign_keys=ON`` and the DROP of the old ``paper`` cascades to every child table."""
    path, _ = db_0001(tmp_path / "control")
    cols = _columns(path, "paper")
    before = {t: len(rows) for t, rows in _snapshot(path, cols).items()}

    engine = create_engine(f"sqlite:///{path}")

    @event.listens_for(engine, "connect")
    def _fk_on(dbapi_conn, _record) -> None:
        dbapi_conn.execute("PRAGMA foreign_keys=ON")

    cfg = db.alembic_config()
    with engine.begin() as conn:
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
    engine.dispose()

    assert db.current_revision(path) == "0002"
    after = {t: len(rows) for t, rows in _snapshot(path, cols).items()}
    assert after["paper"] == before["paper"] == 76  # the papers were copied ...
    for t in CHILD_TABLES:  # ... but everything hanging off them went with the old table
        assert before[t] > 0 and after[t] == 0, (t, before[t], after[t])
    assert after["tag"] == before["tag"] and after["reading_list"] == before["reading_list"]


def test_database_from_a_newer_version_is_refused_untouched(library_dir: Path) -> None:
    with Library.open(library_dir) as lib:
        lib.imports.from_files(SEEDS[:1])
    path = library_dir / "library.sqlite"
    con = sqlite3.connect(path)
    with con:
        con.execute("UPDATE alembic_version SET version_num='9999'")
    con.close()
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    backups_before = sorted((library_dir / "backups").glob("*")) if (library_dir / "backups").exists() else []

    with pytest.raises(DatabaseTooNew) as info:
        Library.open(library_dir)
    message = str(info.value)
    assert "newer version" in message and "9999" in message and "\n" not in message
    assert isinstance(info.value, LibraryError)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    after = sorted((library_dir / "backups").glob("*")) if (library_dir / "backups").exists() else []
    assert after == backups_before
    assert db.current_revision(path) == "9999"


def test_migration_transaction_rolls_back_ddl(tmp_path: Path) -> None:
    path = tmp_path / "ddl.sqlite"
    sqlite3.connect(path).execute("CREATE TABLE keep (a)").connection.close()

    engine = db.make_migration_engine(path)
    with pytest.raises(RuntimeError), engine.connect() as conn, conn.begin():
        conn.exec_driver_sql("CREATE TABLE half_done (a)")
        conn.exec_driver_sql("DROP TABLE keep")
        raise RuntimeError("migration failed half way")
    engine.dispose()

    # control: pysqlite's own transaction handling would have committed the DDL at once
    plain = create_engine(f"sqlite:///{path}")
    with pytest.raises(RuntimeError), plain.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE leaked (a)")
        raise RuntimeError("migration failed half way")
    plain.dispose()

    con = sqlite3.connect(path)
    names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    con.close()
    assert names == {"keep", "leaked"}


FAILING_REVISION = '''
"""a revision that fails after changing the schema"""
import sqlalchemy as sa
from alembic import op

revision = "0099"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("half_done", sa.Column("id", sa.Integer(), primary_key=True))
    with op.batch_alter_table("paper", recreate="always") as batch:
        batch.drop_column("raw")
    op.execute("DELETE FROM note")
    raise RuntimeError("0099 failed half way")


def downgrade() -> None:
    pass
'''


@pytest.mark.shared
def test_failing_migration_leaves_the_database_as_it_was(
    library_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = db_0001(library_dir)
    with Library.open(library_dir):
        pass
    cols = _columns(path, "paper")
    before = _snapshot(path, cols)

    scripts = tmp_path / "migrations"
    shutil.copytree(Path(str(files("desktop_app.migrations"))), scripts, ignore=shutil.ignore_patterns("__pycache__"))
    (scripts / "versions" / "0099_fails.py").write_text(FAILING_REVISION.replace("{head}", db.SCHEMA_HEAD), "utf-8")

    def config() -> Config:
        cfg = Config()
        cfg.set_main_option("script_location", str(scripts))
        return cfg

    monkeypatch.setattr(db, "alembic_config", config)
    head = db.SCHEMA_HEAD
    monkeypatch.setattr(db, "SCHEMA_HEAD", "0099")
    with pytest.raises(RuntimeError, match="0099 failed half way"):
        db.migrate(path, library_dir / "backups")

    assert db.current_revision(path) == head
    assert _columns(path, "paper") == cols  # "raw" is still there
    assert _snapshot(path, cols) == before  # notes too
    con = sqlite3.connect(path)
    assert con.execute("SELECT name FROM sqlite_master WHERE name='half_done'").fetchone() is None
    con.close()
    assert any(f"before-{head}" in p.name for p in (library_dir / "backups").iterdir())


@pytest.mark.shared
def test_broken_references_stop_the_migration(library_dir: Path) -> None:
    path, _ = db_0001(library_dir)
    con = connect(path, fk=False)
    with con:
        con.execute("INSERT INTO note (paper_id, text, updated_at) VALUES (9999, 'orphan', ?)", (NOW,))
    con.close()
    with pytest.raises(LibraryError, match="migration would break 1 references"):
        Library.open(library_dir)
    assert db.current_revision(path) == "0001"
    assert "opened_at" not in _columns(path, "paper")


def test_a_file_that_is_not_a_library_is_refused_untouched(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage"
    garbage.mkdir()
    (garbage / "library.sqlite").write_bytes(bytes(range(256)) * 20)
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    con = sqlite3.connect(foreign / "library.sqlite")
    with con:
        con.execute("CREATE TABLE paper (x)")
        con.execute("INSERT INTO paper VALUES ('theirs')")
    con.close()
    for folder, fragment in (
        (garbage, "is not a readable Marginalia library"),
        (foreign, "database of another program"),
    ):
        path = folder / "library.sqlite"
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        with pytest.raises(LibraryError, match=fragment) as info:
            Library.open(folder)
        assert "\n" not in str(info.value)
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
        assert not (folder / "backups").exists() and not (folder / "index").exists()


def test_migration_backups_rotate_and_are_whole_copies(library_dir: Path) -> None:
    """Backups made before a migration keep the newest BACKUPS_KEPT (the periodic ones rotate
    by day, week and month: tests/core/test_backups.py)."""
    with Library.open(library_dir) as lib:
        lib.imports.from_files(SEEDS[:1])
        count = lib.papers.count()
    made = [
        db.backup(library_dir / "library.sqlite", library_dir / "backups", f"before-n{i:02d}")
        for i in range(db.BACKUPS_KEPT + 3)
    ]
    kept = sorted((library_dir / "backups").glob("library-*.sqlite"))
    assert kept == sorted(made[-db.BACKUPS_KEPT :])
    con = sqlite3.connect(kept[-1])
    assert con.execute("SELECT count(*) FROM paper").fetchone() == (count,)
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    con.close()


def test_schema_head_constant_is_the_alembic_head() -> None:
    """db.SCHEMA_HEAD lets an up-to-date library open without importing Alembic."""
    from desktop_app.core.store import migrate as db

    assert db.head_revision() == db.SCHEMA_HEAD
