"""Closing the window while a worker of one of its dialogs or views still runs (the topics of a
100,000-paper list take 20 s): the worker is cancelled and waited for. A QThread destroyed while it
runs ends the process with Qt's "QThread: Destroyed while thread is still running"."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from PySide6.QtWidgets import QDialog

from desktop_app.gui.jobs import SerialJob, running_jobs_within


def test_closing_cancels_and_waits_for_a_dialogs_worker(make_window, library_dir: Path, qtbot) -> None:
    win = make_window(library_dir)
    dialog = QDialog(win)  # a view of its own, as the topics view is
    other = QDialog()  # another window's: not this window's to wait for
    started, saw_cancel = threading.Event(), threading.Event()

    def work(_progress, cancelled) -> str:
        started.set()
        while not cancelled():
            time.sleep(0.01)
        saw_cancel.set()
        return "cancelled"

    inside, outside = SerialJob(dialog), SerialJob(other)
    inside.start(work, lambda _r: None, lambda _m: None, again=lambda: None)
    assert started.wait(5)
    assert inside.job in running_jobs_within(win)
    outside.start(lambda _p, c: (time.sleep(0.3), "done")[1], lambda _r: None, lambda _m: None, again=lambda: None)
    assert outside.job not in running_jobs_within(win)  # another window's job is not this one's
    job = inside.job
    make_window.close(win)
    assert saw_cancel.is_set() and job is not None and job.isFinished()
    qtbot.waitUntil(lambda: outside.job is None, timeout=5000)
