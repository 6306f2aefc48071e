"""The window on a shared (PostgreSQL) library: another desk's edit appears within 2 s, the
reader says who changed the paper, a read-only role gets the banner, the recent list keeps no
password, File → Connect tests a connection. Another desk is another process (the CLI)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from PySide6.QtCore import QSettings

from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from tests.helpers.shared import ROOT

pytestmark = pytest.mark.postgresql


def other_desk(url: str, *args: str, actor: str = "lin") -> None:
    done = subprocess.run(
        [sys.executable, "-m", "desktop_app", "--library", url, *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "MARGINALIA_ACTOR": actor},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


@pytest.fixture
def shared_window(qtbot, settings: QSettings, pg_url: str):
    from desktop_app.gui.launch import close_window, open_shared_window

    with Library.open(pg_url) as lib:
        lib.imports.from_records(
            [
                (
                    "t.bib",
                    ParseResult(
                        "bibtex",
                        [
                            Record(
                                title="Scaling RL with Verifiable Rewards",
                                abstract="Reinforcement learning with rewards.",
                                year=2026,
                            ),
                            Record(title="Diffusion for Graphs", abstract="A diffusion model over graphs.", year=2025),
                        ],
                    ),
                )
            ]
        )
    win = open_shared_window(pg_url, settings)
    qtbot.addWidget(win)
    qtbot.waitUntil(lambda: win.files.index_ready, timeout=60000)
    yield win
    close_window(win)


def test_an_edit_at_another_desk_appears_within_two_seconds(shared_window, pg_url: str, qtbot) -> None:
    win = shared_window
    win.elsewhere_timer.stop()  # only the LISTEN wake-up may bring the change
    pid = win.current_id()
    assert pid is not None
    row = win.model.row_of(pid) if hasattr(win.model, "row_of") else None
    other_desk(pg_url, "tag", str(pid), "--add", "from-lin")
    committed = time.monotonic()
    qtbot.waitUntil(lambda: "from-lin" in win.reader.tags.tags(), timeout=2000)
    assert time.monotonic() - committed <= 2.0
    assert "from-lin" in win.library.papers.rows([pid])[pid].tags
    qtbot.waitUntil(lambda: win.reader.last_change.isVisible(), timeout=2000)
    assert win.reader.last_change.text().startswith("tagged by lin, ")
    other_desk(pg_url, "note", str(pid), "--set", "lin's note, typed at the other desk")
    qtbot.waitUntil(lambda: win.reader.notes.edit.toPlainText() == "lin's note, typed at the other desk", timeout=2000)
    assert row is None or row == win.model.row_of(pid)


def test_typing_over_another_desks_note_keeps_both(shared_window, pg_url: str, qtbot) -> None:
    win = shared_window
    win.elsewhere_timer.stop()
    pid = win.current_id()
    notes = win.reader.notes
    qtbot.keyClicks(notes.edit, "mine")  # unsaved typing when the other desk's note arrives
    other_desk(pg_url, "note", str(pid), "--set", "theirs")
    qtbot.waitUntil(notes.banner.isVisible, timeout=2000)
    assert notes.edit.toPlainText() == "mine"  # the typing stays
    assert notes.flush()
    assert win.library.notes.text(pid) == "mine"
    assert "theirs" in [t for _, t in win.library.notes.revisions(pid)]


def test_a_read_only_role_gets_the_banner(qtbot, settings: QSettings, pg_url: str) -> None:
    import psycopg
    from PySide6.QtWidgets import QLabel

    from desktop_app.gui.launch import close_window, open_shared_window

    with Library.open(pg_url) as lib:
        lib.imports.from_records([("t.bib", ParseResult("bibtex", [Record(title="A", abstract="An abstract.")]))])
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE ROLE viewer LOGIN")
        conn.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO viewer")
    win = open_shared_window(pg_url.replace("postgres@", "viewer@", 1), settings)
    qtbot.addWidget(win)
    qtbot.waitUntil(lambda: win.files.index_ready, timeout=60000)  # its own index, built from what it may read
    try:
        assert win.library.read_only
        assert win.findChild(QLabel, "readOnlyBanner") is not None
        assert "(read-only)" in win.windowTitle()
        assert not win.reader.tags.isEnabled() or win.reader.read_only
    finally:
        close_window(win)


def test_a_missing_grant_is_one_message_in_the_window(
    qtbot, settings: QSettings, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A role that may write papers and notes but not the tag tables; tagging in the
    window says which GRANT is missing (before: a traceback), and nothing is tagged."""
    import psycopg
    from PySide6.QtWidgets import QMessageBox

    from desktop_app.gui.launch import close_window, open_shared_window

    with Library.open(pg_url) as lib:
        lib.imports.from_records([("t.bib", ParseResult("bibtex", [Record(title="A", abstract="An abstract.")]))])
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS tagless")
        conn.execute("CREATE ROLE tagless LOGIN")
        conn.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO tagless")
        conn.execute("GRANT INSERT, UPDATE ON paper, note, change_log TO tagless")
        conn.execute("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO tagless")
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text, *a: warned.append(text))
    win = open_shared_window(pg_url.replace("postgres@", "tagless@", 1), settings)
    qtbot.addWidget(win)
    qtbot.waitUntil(lambda: win.files.index_ready, timeout=60000)
    try:
        assert not win.library.read_only
        pid = win.library.query("").ids[0]
        win.edits.add_tags([pid], ["rl"])
        assert warned == [
            "the role 'tagless' may not write table tag: a library owner runs GRANT SELECT, "
            "INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO tagless"
        ]
        assert win.library.papers.get(pid).tags == []
    finally:
        close_window(win)


def test_the_recent_list_keeps_no_password(settings: QSettings) -> None:
    from desktop_app.gui import libraries

    libraries.remember_library(settings, "postgresql://lin:hunter2@db.lab/papers?sslmode=require")
    assert libraries.recent_libraries(settings) == ["postgresql://lin@db.lab/papers?sslmode=require"]
    settings.sync()
    with open(settings.fileName(), encoding="utf-8") as fh:
        assert "hunter2" not in fh.read()


def test_connect_dialog_tests_the_connection(qtbot, pg_url: str) -> None:
    from desktop_app.gui.shared_desk import ConnectDialog, url_of

    dialog = ConnectDialog()
    qtbot.addWidget(dialog)
    dialog.address.setText(pg_url)
    assert dialog.test()
    assert dialog.result.text().startswith("connected as postgres to lib")
    dialog.address.setText(pg_url.replace("@/lib", "@/nosuchdb", 1))
    assert not dialog.test()
    assert "cannot connect" in dialog.result.text() and "nosuchdb" in dialog.result.text()
    assert url_of("lab") == "postgresql:///?service=lab"
    assert url_of("host=db.lab dbname=papers") == "postgresql:///?host=db.lab&dbname=papers"  # never a service
    assert dialog.findChildren(type(dialog.address))[0].echoMode() == dialog.address.EchoMode.Normal


def test_the_reader_line_says_who_what_and_when() -> None:
    from datetime import UTC, datetime, timedelta

    from desktop_app.core.changelog.changes import ChangeRow
    from desktop_app.gui.shared_desk import describe_row

    now = datetime.now(UTC)
    assert (
        describe_row(ChangeRow(1, now - timedelta(minutes=5), "lin", "tags.add", 1), now) == "tagged by lin, 5 min ago"
    )
    assert (
        describe_row(ChangeRow(2, now - timedelta(hours=3), "", "papers.set_status", 1), now)
        == "status set by someone, 3 h ago"
    )
    assert (
        describe_row(ChangeRow(3, now - timedelta(days=2), "ana", "notes.set", 1), now)
        == "note edited by ana, 2 days ago"
    )
    assert describe_row(ChangeRow(4, now, "ana", "retitle.x", 1), now) == "edited by ana, just now"
