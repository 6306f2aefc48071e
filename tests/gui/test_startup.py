"""Start-up paints first: the first page from a LIMIT query, the whole list, the
sidebar's counts and the index check after the first paint; Whoosh and the query parser only at
the first text search; the reader, count and chips one event-loop turn after the table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Run in a fresh interpreter: which modules are loaded when the window's first paint is done,
# and after the first text search.
_PROBE = r"""
import gc, json, sys
default_thresholds = gc.get_threshold()
from PySide6.QtCore import QSettings, QThread
from desktop_app.gui.main_window import MainWindow

QUERY_MODULES = ("whoosh", "desktop_app.core.search.query")
HEAVY = QUERY_MODULES + ("alembic", "importlib_metadata")


def loaded(names):
    return sorted(n for n in names if any(m == n or m.startswith(n + ".") for m in sys.modules))


seen = {}
finish = MainWindow._finish_start


def spy(self):
    seen["at_first_paint"] = loaded(HEAVY)
    seen["rows_at_first_paint"] = self.model.rowCount()
    seen["gc_at_first_paint"] = [gc.isenabled(), gc.get_freeze_count()]
    finish(self)


MainWindow._finish_start = spy
from desktop_app.gui.app import application
from desktop_app.gui.launch import close_window, open_main_window

app = application()
win = open_main_window(sys.argv[1], QSettings(sys.argv[2], QSettings.Format.IniFormat))
while not (win.start_stage.done and win.files.index_ready):
    app.processEvents()
    QThread.msleep(5)
seen["rows"] = win.model.rowCount()
seen["gc_after"] = [gc.isenabled(), list(gc.get_threshold()) == list(default_thresholds)]
seen["frozen"] = gc.get_freeze_count()
seen["after_start_query_modules"] = loaded(("desktop_app.core.search.query",))
win.on_sidebar_filter("status", "unread")
win.on_sidebar_filter("all", "")
seen["after_filters_query_modules"] = loaded(("desktop_app.core.search.query",))
win.search.set_text("learning")
win.on_query_typed("learning")
seen["after_text_search"] = loaded(QUERY_MODULES)
seen["rows_found"] = win.model.rowCount()
close_window(win)
print(json.dumps(seen))
"""


def test_whoosh_and_the_query_parser_wait_for_the_first_text_search(seeded_dir: Path, tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, str(seeded_dir), str(tmp_path / "s.ini")],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
        check=True,
    )
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["rows_at_first_paint"] == 76
    assert seen["at_first_paint"] == []  # no Whoosh, no query parser, no Alembic before the paint
    assert seen["rows"] == 76
    # what the core built is out of the collector's way before the window loads, and what the
    # window built after its first paint; the collector itself runs as usual
    enabled, frozen_at_paint = seen["gc_at_first_paint"]
    assert enabled and frozen_at_paint > 50_000
    assert seen["gc_after"] == [True, True] and seen["frozen"] > frozen_at_paint
    assert seen["after_filters_query_modules"] == []  # the sidebar's filters are SQL alone
    assert seen["after_text_search"] == ["desktop_app.core.search.query", "whoosh"]
    assert 0 < seen["rows_found"] < 76


def test_the_first_page_then_the_whole_list(
    make_window, seeded_dir: Path, monkeypatch: pytest.MonkeyPatch, qtbot
) -> None:
    import desktop_app.gui.main_window as mw

    monkeypatch.setattr(mw, "FIRST_PAGE", 20)
    pages: list[tuple[int, bool]] = []
    show = mw.MainWindow._show_first_page

    def spy(self) -> None:
        show(self)
        pages.append((self.model.rowCount(), self.model.partial))

    monkeypatch.setattr(mw.MainWindow, "_show_first_page", spy)
    win = make_window(seeded_dir)
    assert pages == [(20, True)]
    qtbot.waitUntil(lambda: win.start_stage.done and not win.follow_pending(), timeout=5000)
    assert win.model.rowCount() == 76 and not win.model.partial
    assert win.model.ids == win.library.query("").ids  # the same order as any refresh
    assert "76" in win.search.count.text()
    assert win.current_id() == win.model.ids[0]


def test_the_remembered_paper_further_down_is_selected_after_the_whole_list(
    make_window, seeded_dir: Path, monkeypatch: pytest.MonkeyPatch, qtbot
) -> None:
    import desktop_app.gui.main_window as mw

    win = make_window(seeded_dir)
    far = win.model.paper_id(60)
    win.select_paper(far)
    make_window.close(win)
    monkeypatch.setattr(mw, "FIRST_PAGE", 20)
    again = make_window(seeded_dir)
    qtbot.waitUntil(lambda: again.start_stage.done, timeout=5000)
    assert again.current_id() == far
    qtbot.waitUntil(lambda: not again.follow_pending(), timeout=3000)
    assert again.reader.paper.id == far


def test_completing_a_partial_list(seeded_dir: Path, qtbot) -> None:
    from desktop_app.core.library import Library
    from desktop_app.gui.paper_model import PaperTableModel

    with Library.open(seeded_dir) as lib:
        ids = lib.query("").ids
        model = PaperTableModel(lib)
        model.set_ids(ids[:10], partial=True)
        assert model.data(model.index(3, 0)) == lib.papers.get(ids[3]).title
        inserted: list[tuple[int, int]] = []
        model.rowsInserted.connect(lambda _p, a, b: inserted.append((a, b)))
        assert model.complete(ids) is True  # appended: the view keeps its selection and scroll
        assert inserted == [(10, 75)] and model.rowCount() == 76 and not model.partial
        assert model.row_of(ids[70]) == 70
        assert model.data(model.index(70, 0)) == lib.papers.get(ids[70]).title
        model.set_ids(ids[:10], partial=True)
        assert model.complete(list(reversed(ids))) is False  # changed meanwhile: a reset
        assert model.paper_id(0) == ids[-1] and model.rowCount() == 76


def test_the_reader_count_and_chips_follow_the_table(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    qtbot.waitUntil(lambda: not win.follow_pending(), timeout=3000)
    second = win.model.paper_id(1)
    win.select_paper(second)
    assert win.current_id() == second  # the table at once
    assert win.follow.pending("reader")  # the reader one turn later
    qtbot.waitUntil(lambda: win.reader.paper is not None and win.reader.paper.id == second, timeout=3000)
    win.on_sidebar_filter("status", "unread")
    assert win.follow.pending("count") and win.follow.pending("chips")
    qtbot.waitUntil(lambda: not win.follow_pending(), timeout=3000)
    assert win.search.count.text()
    win.select_paper(win.model.paper_id(0))
    win.focus_reader()  # a key that needs the reader brings it up to date at once
    assert not win.follow_pending() and win.reader.paper.id == win.model.paper_id(0)


def test_coalescer_runs_each_update_once_in_order(qtbot) -> None:
    from desktop_app.gui.deferred import Coalescer

    calls: list[str] = []
    c = Coalescer({"a": lambda: calls.append("a"), "b": lambda: calls.append("b")})
    c.later("b")
    c.later("a", "b")
    assert calls == [] and c.pending()
    qtbot.waitUntil(lambda: not c.pending(), timeout=1000)
    assert calls == ["a", "b"]
    c.later("a")
    c.cancel("a")
    assert not c.pending()
    with pytest.raises(KeyError):
        c.later("nope")


def test_the_first_keystroke_warms_the_search_once_in_a_worker(
    make_window, seeded_dir: Path, monkeypatch: pytest.MonkeyPatch, qtbot
) -> None:
    """The query parser, the executor and the shown list are made ready while the search box's
    debounce runs, off the GUI thread, once; the search typed then finds what it should."""
    import threading

    from desktop_app.core.library import Library

    calls: list[tuple[str, dict]] = []
    warm = Library.warm_search

    def spy(self, **filters) -> None:
        calls.append((threading.current_thread().name, filters))
        warm(self, **filters)

    monkeypatch.setattr(Library, "warm_search", spy)
    win = make_window(seeded_dir)
    qtbot.waitUntil(lambda: win.files.index_ready, timeout=60000)
    qtbot.keyClicks(win.search.box, "reward")
    qtbot.waitUntil(lambda: bool(calls), timeout=10000)
    win.search.apply_now()
    qtbot.waitUntil(lambda: 0 < win.model.rowCount() < 76, timeout=10000)
    assert len(calls) == 1
    thread, filters = calls[0]
    assert thread != threading.main_thread().name
    assert filters["sort"] == win.sort_key and filters["status"] == win.state.status


def test_a_window_closed_before_its_first_paint_starts_nothing_on_its_closed_library(
    seeded_dir: Path, settings, qtbot
) -> None:
    """The rest of start-up (the index check, the whole list, the leftovers' clean-up) waits for
    the first paint or a fallback timer; a window closed before either never runs it. Run on the
    closed library, the index check's failure (its server gone) opened a warning over the closed
    window, which was deleted under the warning's event loop: Python aborted."""
    from desktop_app.gui.launch import BACKUP_AFTER_MS, close_window, open_main_window
    from desktop_app.gui.main_window import FIRST_PAINT_FALLBACK_MS

    win = open_main_window(seeded_dir, settings)
    qtbot.addWidget(win)
    lib = win.library
    called: list[str] = []
    for name in ("ensure_index", "clean_leftovers"):
        setattr(lib, name, lambda *_args, name=name, **_kwargs: called.append(name))
    assert not win.start_stage.done  # no event processed yet: not painted
    close_window(win)
    qtbot.wait(max(FIRST_PAINT_FALLBACK_MS, BACKUP_AFTER_MS) + 300)
    assert called == []
    assert win.files.index_job is None
