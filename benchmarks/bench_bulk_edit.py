"""Bulk edit benchmark (offscreen Qt): the GUI thread's longest stall while every paper of an
N-paper library is marked read from the bulk panel, then while that is undone.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_bulk_edit.py [--size 10000]

Opens a copy of the cached library (``common.cached_library``, built once, untimed) in a main
window with throw-away settings, selects all papers (the bulk panel shows), waits until the
window's start-up workers are done (index check, backup, the first paper's related papers), then:

1. clicks the panel's "Read" button;
2. presses Undo (the undo stack's own ``undo()``, as Ctrl+Z does).

Each step is timed from the click until the edit is done (the library says so, the window has
its refresh behind it) plus a quiet half second, with a 5 ms QTimer ticking in the GUI thread:
the longest gap between two ticks is the longest stall the user could feel. Printed per step:
wall (``perf_counter``), CPU of all threads (``process_time``) and of the GUI thread alone
(``thread_time``) side by side, and the longest stall. Target: stall ≤ 100 ms at 10,000 papers.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import cached_library, environment, ms, verdict

TARGET_STALL_MS = 100.0
TICK_MS = 5
QUIET_S = 0.5  # after the edit is done: its refresh and the panel's shown afresh count too


class StallMeter:
    """A QTimer every TICK_MS in the GUI thread; the longest gap between ticks while armed."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.timer = QTimer()
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._tick)
        self.last = time.perf_counter()
        self.longest = 0.0
        self.timer.start()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, now - self.last)
        self.last = now

    def arm(self) -> None:
        self.last = time.perf_counter()
        self.longest = 0.0


def run_step(app, meter: StallMeter, start: Callable[[], None], done: Callable[[], bool]) -> dict[str, float]:  # noqa: ANN001
    """Start a step from the event loop, pump until ``done``, then QUIET_S more."""
    from PySide6.QtCore import QTimer

    for _ in range(20):
        app.processEvents()
    meter.arm()
    w0, c0, g0 = time.perf_counter(), time.process_time(), time.thread_time()
    QTimer.singleShot(0, start)
    app.processEvents()
    deadline = time.monotonic() + 600
    while not done() and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.001)
    wall, cpu, gui = time.perf_counter() - w0, time.process_time() - c0, time.thread_time() - g0
    quiet = time.perf_counter() + QUIET_S
    while time.perf_counter() < quiet:
        app.processEvents()
        time.sleep(0.001)
    return {"wall": wall, "cpu": cpu, "gui_cpu": gui, "stall": meter.longest}


def _profiled(run: Callable[..., dict[str, float]]) -> Callable[..., dict[str, float]]:
    """``run`` under cProfile in the GUI thread, its slowest calls printed after it."""
    import cProfile
    import pstats

    def profiled(*args: object) -> dict[str, float]:
        prof = cProfile.Profile()
        prof.enable()
        try:
            return run(*args)
        finally:
            prof.disable()
            pstats.Stats(prof).sort_stats("cumulative").print_stats(30)

    return profiled


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=10_000)
    ap.add_argument(
        "--profile", action="store_true", help="also print the GUI thread's cProfile of each step (the slowest calls)"
    )
    args = ap.parse_args(argv)
    print(f"bulk edit: mark all read, then undo, {args.size:,} papers ({environment()})")
    cached = cached_library(args.size)
    tmp = tempfile.TemporaryDirectory(prefix="bench-bulk-")
    folder = Path(tmp.name) / "library"
    shutil.copytree(cached, folder)

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from desktop_app.gui.jobs import running_jobs
    from desktop_app.gui.launch import close_window, open_main_window

    app = QApplication.instance() or QApplication([])
    settings = QSettings(str(Path(tmp.name) / "settings.ini"), QSettings.Format.IniFormat)
    win = open_main_window(folder, settings)
    win.resize(1400, 900)
    win.show()
    deadline = time.monotonic() + 600
    while not (win.files.index_ready and not win.model.partial) and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    for _ in range(50):
        app.processEvents()
    win.table.setFocus()
    win.table.selectAll()
    while not win.bulk.bulk_shown() and time.monotonic() < deadline:
        app.processEvents()
    # the window's own start-up work (index check, backup, the first paper's related papers)
    # finished first: the steps measure the bulk edit, not a semantic space being fitted
    while running_jobs(win) and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    n = len(win.table.selected_ids())
    lib, stack = win.library, win.undo_stack
    unread = lib.papers.status_counts()["unread"]
    print(f"  {n:,} papers selected, {unread:,} of them unread")

    def idle() -> bool:
        busy = getattr(win.edits, "busy", None)
        return not (busy() if callable(busy) else False)

    meter = StallMeter()
    step = _profiled(run_step) if args.profile else run_step
    steps = {
        "mark read": step(
            app, meter, win.bulk.panel.status_buttons["read"].click, lambda: stack.index() == 1 and idle()
        ),
    }
    assert lib.papers.status_counts()["read"] == n, "not all marked read"
    steps["undo"] = step(app, meter, stack.undo, lambda: stack.index() == 0 and idle())
    assert lib.papers.status_counts()["unread"] == unread, "the undo did not restore the statuses"
    for name, r in steps.items():
        print(
            f"  {name:>9}: wall {ms(r['wall'])} · CPU {ms(r['cpu'])} (all threads; "
            f"{r['cpu'] / r['wall']:.2f}× wall) · GUI thread CPU {ms(r['gui_cpu'])} · "
            f"longest GUI stall {ms(r['stall'])}"
        )
    worst = max(r["stall"] for r in steps.values()) * 1000
    print(
        f"  {verdict(worst <= TARGET_STALL_MS)}  longest stall {worst:.1f} ms (target ≤ {TARGET_STALL_MS:.0f} ms"
        f"{'' if args.size == 10_000 else ', set for 10,000 papers'})"
    )
    close_window(win)
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
