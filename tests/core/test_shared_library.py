"""A library shared on PostgreSQL (core/shared_library.py, core/changelog/changes.py): opened by URL with
the same migrations, the change log, two desks in two processes, the note conflict kept, the
read-only role, ``share`` and back. A throwaway server (initdb + pg_ctl, Unix socket) runs them;
without PostgreSQL they skip with the reason (fail with CI set)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from desktop_app.core.changelog.changes import ChangeFeed, ChangeRow, describe
from desktop_app.core.errors import LibraryError, LibraryReadOnly
from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record

ROOT = Path(__file__).resolve().parents[2]
RECORDS = [
    Record(
        title="Scaling RL with Verifiable Rewards",
        abstract="Reinforcement learning with rewards.",
        authors=["Lin, Wei"],
        year=2026,
        doi="10.1/a",
        venue="NeurIPS",
    ),
    Record(
        title="Diffusion for Graphs",
        abstract="A diffusion model over graphs.",
        year=2025,
        authors=["Ng, A."],
        venue="ICML",
    ),
]


def _seed(lib: Library) -> list[int]:
    return sorted(lib.imports.from_records([("t.bib", ParseResult("bibtex", list(RECORDS)))]).paper_ids)


def _cli(url: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """The other desk: a separate process running the command line on the same server."""
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "desktop_app", "--library", url, *args],
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


def test_open_by_url_runs_the_migrations_and_the_library_api(pg_url: str) -> None:
    from desktop_app.core.store.migrate import SCHEMA_HEAD, revision_of

    with Library.open(pg_url) as lib:
        assert lib.server is not None and lib.store.dialect.name == "postgresql"
        assert revision_of(lib.store.engine) == SCHEMA_HEAD  # the same Alembic revisions as SQLite
        a, b = _seed(lib)
        lib.tags.add([a], ["rl"])
        lib.papers.set_status([a], "read")
        lib.notes.set(b, "graphs note about zebras")
        assert lib.query("zebras").ids == [b]  # the desk's own Whoosh index
        assert lib.query("tag:rl status:read").ids == [a]
        index_dir = lib.index.index.folder
        assert "Marginalia" in str(index_dir) and ".cache" in str(index_dir)  # the user cache
        assert lib.folder.parent.name == "shared" and str(lib.folder).startswith(os.environ["XDG_DATA_HOME"])
    with Library.open(pg_url) as again:  # at head: opened without a migration, same index
        assert again.papers.get(a).tags == ["rl"] and again.index.index.folder == index_dir


def test_every_facade_write_is_logged_with_who_and_what(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with Library.open(pg_url) as lib:
        a, b = _seed(lib)
        feed = ChangeFeed(lib.store, lib.server.feed.head())  # lib.server.feed is the index's: drained at each write
        lib.tags.add([a, b], ["rl"])
        lib.papers.set_rating([b], 4)
        lib.notes.append(a, "x")
        lib.tags.rename("rl", "reinforcement")  # no paper row: one library-wide row
        rows = feed.pull()
        assert [(r.kind, r.paper_id) for r in rows] == [
            ("tags.add", a),
            ("tags.add", b),
            ("papers.set_rating", b),
            ("notes.append", a),
            ("tags.rename", None),
        ]
        assert {r.actor for r in rows} == {"postgres"}  # the database role
        assert [r.seq for r in rows] == sorted(r.seq for r in rows)
        last = lib.server.feed.last_change(a)
        assert last is not None and last.kind == "notes.append"
        assert describe(last).startswith("note edited by postgres, just now")
    monkeypatch.setenv("MARGINALIA_ACTOR", "Lin")  # a configured display name wins over the role
    with Library.open(pg_url) as lib:
        lib.papers.set_status([a], "read")
        assert lib.server.feed.last_change(a).actor == "Lin"


def test_the_log_is_written_in_the_write_transaction(pg_url: str) -> None:
    with Library.open(pg_url) as lib:
        a, _ = _seed(lib)
        head = lib.server.feed.head()
        with pytest.raises(LibraryError), lib.store.write() as tx:
            tx.require_papers([a])
            raise LibraryError("rolled back")
        assert lib.server.feed.head() == head  # no row for a write that did not happen


def test_seq_order_is_commit_order(pg_url: str) -> None:
    """A later writer cannot take a seq until the earlier one commits, so a reader pulling
    "after the last seq seen" never skips a change that commits late."""
    with Library.open(pg_url, ensure_index=False) as lib:
        a, b = _seed(lib)
        feed = ChangeFeed(lib.store, lib.server.feed.head())
        writing = lib.store.write()
        first = writing.__enter__()  # holds its log rows uncommitted
        first.require_papers([a])
        from desktop_app.core.changelog.changes import log_write

        log_write(first.conn, first.d, first.touched, first.now, "one")  # what the commit would write
        first.touched.clear()
        done = threading.Event()

        def second() -> None:
            lib.tags.add([b], ["later"])
            done.set()

        thread = threading.Thread(target=second)
        thread.start()
        assert not done.wait(0.5)  # blocked behind the first's uncommitted seq
        assert feed.pull() == []  # nothing visible yet
        writing.__exit__(None, None, None)  # commits
        thread.join(10)
        assert done.is_set()
        rows = feed.pull()
        assert [(r.actor, r.paper_id) for r in rows] == [("one", a), ("postgres", b)]


def test_another_desk_sees_an_edit_within_two_seconds(pg_url: str) -> None:
    """Two processes: this one listens; a CLI process tags and writes the note."""
    with Library.open(pg_url) as lib:
        a, _ = _seed(lib)
        got: list[tuple[float, list[ChangeRow]]] = []
        arrived = threading.Event()

        def on_changes(rows: list[ChangeRow]) -> None:
            got.append((time.monotonic(), rows))
            if any(r.kind == "notes.set" for r in rows):
                arrived.set()

        lib.follow(on_changes)
        _cli(pg_url, "tag", str(a), "--add", "remote", env={"MARGINALIA_ACTOR": "lin"})
        start = time.monotonic()
        _cli(pg_url, "note", str(a), "--set", "written at the other desk: okapi")
        committed = time.monotonic()  # the CLI process has exited: its write is committed
        assert arrived.wait(5), "no change arrived"
        at = next(t for t, rows in got if any(r.kind == "notes.set" for r in rows))
        assert at - committed <= 2.0, f"arrived {at - committed:.2f} s after the commit"
        assert at - start < 30
        assert lib.query("okapi").ids == [a]  # this desk's index was updated from the log
        kinds = [(r.kind, r.actor) for _, rows in got for r in rows]
        assert ("tags.add", "lin") in kinds
        assert lib.papers.get(a).tags == ["remote"]


def test_a_stale_note_save_keeps_both_texts_across_processes(pg_url: str) -> None:
    with Library.open(pg_url) as lib:
        a, _ = _seed(lib)
        lib.notes.set(a, "v1")
        base = lib.notes.text(a)  # the editor opens the note here
        _cli(pg_url, "note", str(a), "--set", "theirs, from the other desk")
        change = lib.notes.set(a, "mine, typed meanwhile", base=base)
        assert change.detail.conflict == "theirs, from the other desk"  # the banner's text
        texts = [v.text for v in lib.notes.history(a)]
        assert texts[:2] == ["mine, typed meanwhile", "theirs, from the other desk"]


def test_concurrent_writers_lose_nothing(pg_url: str) -> None:
    """Two processes append to the same (new) note and tag the same paper at once: every line
    and every tag survives (appends read inside the write, under a per-paper lock; tags commute)."""
    with Library.open(pg_url) as lib:
        a, _ = _seed(lib)
    script = (
        "import sys\nfrom desktop_app.core.library import Library\n"
        "lib = Library.open(sys.argv[1], ensure_index=False)\n"
        "for i in range(15):\n"
        "    lib.notes.append(int(sys.argv[2]), f'{sys.argv[3]}-{i}')\n"
        "    lib.tags.add([int(sys.argv[2])], [f'{sys.argv[3]}-{i % 3}'])\n"
        "    lib.papers.set_status([int(sys.argv[2])], 'read')\n"
        "lib.close()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", script, pg_url, str(a), who], env=env) for who in ("A", "B")]
    assert [p.wait(180) for p in procs] == [0, 0]
    with Library.open(pg_url, ensure_index=False) as lib:
        lines = lib.notes.text(a).splitlines()
        assert sorted(lines) == sorted(f"{w}-{i}" for w in "AB" for i in range(15))
        assert sorted(lib.papers.get(a).tags) == sorted(f"{w}-{i}" for w in "AB" for i in range(3))


def test_a_role_that_may_only_read_opens_read_only(pg_url: str) -> None:
    import psycopg

    with Library.open(pg_url) as lib:
        a, _ = _seed(lib)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE ROLE reader LOGIN")
        conn.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader")
    reader_url = pg_url.replace("postgres@", "reader@", 1)
    with Library.open(reader_url) as ro:
        assert ro.read_only
        assert ro.papers.get(a).title.startswith("Scaling")
        assert ro.query("diffusion").total == 1  # its own index, built from what it may read
        with pytest.raises(LibraryReadOnly):
            ro.tags.add([a], ["x"])


def test_share_copies_a_folder_library_and_json_brings_it_back(pg_url: str, tmp_path: Path) -> None:
    from desktop_app.exporting import export_to_file
    from desktop_app.sharing import share

    with Library.open(tmp_path / "local") as local:
        a, b = _seed(local)
        local.tags.add([a], ["rl/rlvr"])
        local.tags.set_color("rl/rlvr", "#aa0000") if hasattr(local.tags, "set_color") else None
        local.papers.set_status([a], "read")
        local.papers.set_rating([b], 3)
        local.notes.set(a, "first")
        local.notes.set(a, "second")
        local.highlights.add_quote(b, "diffusion", comment="key")
        local.lists.create("Group meeting")
        local.lists.add("Group meeting", [b, a])
        report, where = share(local, pg_url)
        assert report.added == 2 and "postgres@" in where
        export_to_file(local, "json", tmp_path / "before.json")
    with pytest.raises(LibraryError, match="holds 2 papers already"), Library.open(tmp_path / "local") as local:
        share(local, pg_url)
    with Library.open(pg_url) as shared:
        export_to_file(shared, "json", tmp_path / "shared.json")
    with Library.open(tmp_path / "back") as back:
        back.imports.restore_json(tmp_path / "shared.json")
        export_to_file(back, "json", tmp_path / "after.json")

    def comparable(path: Path) -> dict:
        doc = json.loads(path.read_text("utf-8"))
        for key in ("exported", "exported_at", "generator"):
            doc.pop(key, None)
        for p in doc.get("papers", []):
            p.pop("id", None)
            p.pop("added", None)
            p.pop("added_at", None)
            p.pop("modified", None)
            p.pop("updated_at", None)
        return doc

    before, after = comparable(tmp_path / "before.json"), comparable(tmp_path / "after.json")
    assert before == after


def test_cli_share_and_list_by_url(pg_url: str, tmp_path: Path) -> None:
    with Library.open(tmp_path / "local") as local:
        _seed(local)
    done = subprocess.run(
        [sys.executable, "-m", "desktop_app", "--library", str(tmp_path / "local"), "share", "--to", pg_url],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("copied 2 papers to postgresql://postgres@/")
    listed = _cli(pg_url, "list")
    assert "Scaling RL" in listed.stdout and "Diffusion" in listed.stdout
    _cli(pg_url, "tag", "1", "--add", "rl", env={"MARGINALIA_ACTOR": "lin"})
    assert "last change: tagged by lin, just now" in _cli(pg_url, "show", "1").stdout


def test_passwords_are_never_kept() -> None:
    from desktop_app.core.shared_library import has_password, redact

    assert (
        redact("postgresql://lin:s3cret@db.lab:5432/papers?sslmode=require")
        == "postgresql://lin@db.lab:5432/papers?sslmode=require"
    )
    assert redact("postgresql://db/papers?user=lin&password=x") == "postgresql://db/papers?user=lin"
    assert redact("postgresql:///?service=lab") == "postgresql:///?service=lab"
    assert has_password("postgresql://lin:s@h/d") and not has_password("postgresql://lin@h/d")


def test_without_psycopg_the_message_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)
    with pytest.raises(LibraryError, match=r"marginalia\[postgresql\]"):
        Library.open("postgresql://nobody@/nothing")
