"""Guard against a Qt binding that leaks references to None.

PySide6 6.12.0 drops one reference to ``None`` on every void method called from Python; on
Python < 3.12 (where None is not immortal) the app then aborts with "Fatal Python error:
none_dealloc" after some tens of thousands of paints — about 15,000 table rows scrolled.
The benchmarks found it; pyproject pins a release without the fault. This test fails if an
upgrade brings it back.
"""

from __future__ import annotations

import os
import subprocess
import sys

CHILD = r"""
import sys
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication, QWidget
app = QApplication([])
w = QWidget()
img = QImage(8, 8, QImage.Format.Format_ARGB32)
p = QPainter(img)
before = sys.getrefcount(None)
for _ in range(20000):
    w.update(); p.save(); p.restore()
after = sys.getrefcount(None)
p.end()
print(after - before)
"""


def test_void_calls_keep_none_alive() -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    res = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120, env=env)
    assert res.returncode == 0, f"the binding crashed: {res.stderr[-500:]}"
    assert abs(int(res.stdout.strip())) < 100, f"None lost {res.stdout.strip()} references in 60,000 calls"


def test_scrolling_a_long_table_with_tag_chips(make_window, library_dir, qtbot) -> None:
    """Paint thousands of rows (the tag-chip delegate makes several void calls per cell)."""
    from desktop_app.core.library import Library
    from desktop_app.core.records import ParseResult, Record

    with Library.open(library_dir) as lib:
        recs = [
            Record(abstract=f"Abstract {i} about topic {i % 13}.", title=f"Paper {i}", tags=["a/b", "c"])
            for i in range(3000)
        ]
        lib.imports.from_records([("t", ParseResult("csv", recs))])
    win = make_window(library_dir)
    before = sys.getrefcount(None)
    bar = win.table.verticalScrollBar()
    for value in range(0, bar.maximum() + 1, max(1, bar.pageStep())):
        bar.setValue(value)
        win.table.viewport().repaint()
    assert sys.version_info >= (3, 12) or sys.getrefcount(None) > before - 1000
