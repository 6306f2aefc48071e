"""No job starts within a window that has closed. A timer of the closed window (the related
papers' delay after a selection) that started one left it running when the window was deleted,
and Qt ended the process ("QThread: Destroyed while thread is still running")."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtWidgets import QWidget

from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from desktop_app.gui import related_panel
from desktop_app.gui.jobs import Job, close_jobs_of


def test_a_job_within_a_closed_window_does_not_start(qtbot) -> None:
    window, elsewhere = QWidget(), QWidget()
    qtbot.addWidget(window)
    qtbot.addWidget(elsewhere)
    dialog = QWidget(window)  # a dialog's or a view's job is within its window too
    ran: list[str] = []
    close_jobs_of(window)
    late = Job(lambda _p, _c: ran.append("late"), dialog)
    late.start()
    assert not late.isRunning() and late.is_cancelled()
    other = Job(lambda _p, _c: ran.append("other"), elsewhere)
    other.start()
    assert other.wait(5000)
    assert ran == ["other"]


def test_a_window_closed_before_its_related_papers_start_is_deleted_safely(
    make_window, library_dir: Path, qtbot, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    with Library.open(library_dir) as lib:
        records = [Record(title=f"Lens study {n}", abstract=f"Grinding lenses, case {n}.") for n in range(8)]
        lib.imports.from_records([("t.bib", ParseResult("bibtex", records))])
    started = threading.Event()

    def slow_work(*args: object) -> dict[str, object]:
        started.set()
        time.sleep(2.0)  # still running when the window is deleted, were it started
        return {"cancelled": True}

    monkeypatch.setattr(related_panel, "_work", slow_work)
    win = make_window(library_dir)
    make_window.close(win)  # the related papers' delay is still running: its timer fires after this
    qtbot.wait(related_panel.DELAY_MS + 600)
    assert not started.is_set(), "a job started within the closed window"
    request.node.qt_widgets = [(w, f) for w, f in request.node.qt_widgets if w() is not win]
    shiboken6.delete(win)  # with a job of it running, this ended the process
