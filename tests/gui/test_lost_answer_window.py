"""A window's edit whose COMMIT answer is lost (tests/helpers/lossy_proxy.py drops the connection
after the server committed it): the window takes the server for gone and keeps the edit in its
outbox, with its id; when the server answers again the outbox sends it, and it is not applied a
second time: one highlight, one list entry, and Undo takes away the one there is."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSettings
from sqlalchemy import func, select

from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from desktop_app.core.store import tables as t
from tests.helpers.lossy_proxy import LossyProxy, lossy_proxy
from tests.helpers.offline_server import undo_texts
from tests.helpers.pg_fixtures import new_database

pytestmark = pytest.mark.postgresql


@pytest.fixture
def proxied(pg_server: str) -> Iterator[tuple[str, LossyProxy]]:
    url = new_database(pg_server)
    with Library.open(url) as lib:
        records = [Record(title=f"Paper {i} on lenses", abstract=f"Thin lenses focus light {i}.") for i in range(3)]
        lib.imports.from_records([("t.bib", ParseResult("bibtex", records))])
        lib.lists.create("To read")
    with lossy_proxy(pg_server) as proxy:
        yield proxy.url_of(url), proxy


def _count(win, table) -> int:
    with win.library.store.read() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def test_an_edit_whose_answer_was_lost_is_sent_again_and_applied_once(
    qtbot, settings: QSettings, proxied: tuple[str, LossyProxy]
) -> None:
    from desktop_app.gui.launch import close_window, open_shared_window

    url, proxy = proxied
    win = open_shared_window(url, settings)
    qtbot.addWidget(win)
    try:
        qtbot.waitUntil(lambda: win.files.index_ready, timeout=60000)
        win.elsewhere_timer.stop()
        win.follow.flush()
        pid = win.current_id()
        assert pid is not None

        for edit, table, text in (
            (lambda: win.edits.add_highlight(pid, 0, 4, "yellow", "lens"), t.highlight, "Highlight"),
            (lambda: win.edits.add_to_list("To read", [pid]), t.reading_list_item, "Add 1 paper to To read"),
        ):
            proxy.lose_next_commit_answer()
            lost = len(proxy.lost)
            edit()
            assert len(proxy.lost) == lost + 1  # the server committed it; the window was not told
            [waiting] = win.edits.outbox
            assert waiting.described is not None and waiting.described.edit_id  # sent again with its id
            qtbot.waitUntil(lambda: not win.edits.outbox, timeout=30000)  # the server answers again
            assert _count(win, table) == 1, text
            assert undo_texts(win)[-1] == text
            win.undo_stack.undo()
            assert _count(win, table) == 0, text
            win.undo_stack.redo()  # a redo is an edit of its own: made again
            assert _count(win, table) == 1, text
    finally:
        close_window(win)
