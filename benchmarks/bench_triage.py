"""Triage benchmark (offscreen Qt): key → next paper shown, at 100,000 papers.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_triage.py [--size 100000] [--presses 200]

Opens the cached library (built once, untimed: ``common.cached_library``) in a main window with
throw-away settings, enters triage on All papers, then presses → ``--presses`` times with
``QTest.keyClick`` on the triage view. Each press is timed from the key until the view has
repainted (``repaint()``, synchronous) — wall (``perf_counter``) and CPU (``process_time``, all
threads) — then the event loop runs untimed until idle, as it does between a reader's presses
(that is when the next paper is prefetched). Target: p95 ≤ 50 ms wall.

``--decisions``: on a copy of the library, one keep and one skip are recorded first, then the
presses are the decision keys (y and x in turn): each decides, shows the next paper and starts a
re-rank of the learned order in the background (the first one also builds the tf-idf features),
so the presses are timed while re-ranks run. Target the same.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import cached_library, environment, ms, percentile, verdict

TARGET_P95_MS = 50.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=100_000)
    ap.add_argument("--presses", type=int, default=200)
    ap.add_argument("--decisions", action="store_true", help="press y/x (decide) while the queue re-ranks")
    args = ap.parse_args(argv)
    print(f"triage: key → next paper shown, {args.size:,} papers, {args.presses} presses ({environment()})")
    folder = cached_library(args.size)
    copy = None
    if args.decisions:
        import shutil

        copy = tempfile.TemporaryDirectory(prefix="bench-triage-")
        shutil.copytree(folder, Path(copy.name) / "library")
        folder = Path(copy.name) / "library"
        from desktop_app.core.library import Library

        with Library.open(folder) as lib:
            ids = lib.query("").ids
            lib.triage.decide(ids[-1:], "keep")
            lib.triage.decide(ids[-2:-1], "skip")

    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from desktop_app.gui.launch import close_window, open_main_window

    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
        win = open_main_window(folder, settings)
        win.show()
        deadline = time.monotonic() + 600
        while not win.files.index_ready and time.monotonic() < deadline:
            app.processEvents()
            time.sleep(0.01)
        for _ in range(50):
            app.processEvents()
        t0 = time.perf_counter()
        assert win.triage.enter(), "nothing to triage"
        view = win.triage.view
        view.repaint()
        enter_s = time.perf_counter() - t0
        app.processEvents()
        walls: list[float] = []
        cpus: list[float] = []
        keys = [Qt.Key.Key_Y, Qt.Key.Key_X] if args.decisions else [Qt.Key.Key_Right]
        if os.environ.get("BENCH_TRIAGE_KEYS") == "status":  # a baseline: status keys write too, no re-rank
            keys = [Qt.Key.Key_S, Qt.Key.Key_R]
        busy_presses = 0
        for n in range(args.presses):
            before = view.current_id()
            busy_presses += view.ranker.busy()
            w0, c0 = time.perf_counter(), time.process_time()
            QTest.keyClick(view, keys[n % len(keys)])
            view.repaint()
            walls.append(time.perf_counter() - w0)
            cpus.append(time.process_time() - c0)
            assert view.current_id() != before, "the key did not move on"
            app.processEvents()  # untimed: the prefetch of the next paper
        print(f"  entering triage ({len(view.ids):,} papers in the list): {ms(enter_s)}")
        if args.decisions:
            print(
                f"  {busy_presses} of {args.presses} presses came while a re-rank was running; "
                f"{view.ranker.runs} re-ranks finished during the run"
            )
        for name, values in (("wall", walls), ("CPU", cpus)):
            print(
                f"  key → next paper shown, {name}: p50 {ms(statistics.median(values))}, "
                f"p95 {ms(percentile(values, 95))}, max {ms(max(values))}"
            )
        p95 = percentile(walls, 95) * 1000
        print(f"  {verdict(p95 <= TARGET_P95_MS)}  p95 wall {p95:.1f} ms (target ≤ {TARGET_P95_MS:.0f} ms)")
        view.leave()
        close_window(win)
    if copy is not None:
        copy.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
