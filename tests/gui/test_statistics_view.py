"""View → Statistics: opened from the menu, counted in a worker, charts painted in light and
dark, saved as PNG; the module is not loaded until the dialog is opened."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QAction, QColor, QImage

from desktop_app.core.library import Library

ROOT = Path(__file__).resolve().parents[2]


def _edit(folder: Path) -> None:
    with Library.open(folder) as lib:
        for pid in range(1, 11):
            lib.papers.update_metadata(pid, {"venue": "ICML", "year": 2024})
        lib.tags.add(list(range(1, 21)), ["rl"])
        lib.tags.add([1, 2], ["survey"])
        lib.papers.set_rating([1, 2, 3], 4)
        lib.papers.set_status([4, 5], "read")
        lib.papers.set_status([6], "skimmed")


def _open(win, qtbot):
    win.findChild(QAction, "statisticsAction").trigger()
    from desktop_app.gui.statistics_view import StatisticsDialog

    dialog = win.findChild(StatisticsDialog)
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.stats is not None, timeout=20000)
    return dialog


def _accent_pixels(chart, accent: QColor) -> int:
    """Pixels of the accent colour (the bars, the line) inside the chart's plot area."""
    img = chart.grab().toImage()
    r = chart.plot_rect()
    n = 0
    for y in range(r.top(), r.bottom(), 2):
        for x in range(r.left(), r.right(), 2):
            c = img.pixelColor(x, y)
            if abs(c.red() - accent.red()) + abs(c.green() - accent.green()) + abs(c.blue() - accent.blue()) < 30:
                n += 1
    return n


def _series_pixels(chart, base: QColor, border: QColor) -> int:
    """Pixels inside the plot area that are neither the background nor a gridline: the data."""
    img = chart.grab().toImage()
    r = chart.plot_rect().adjusted(2, 2, -2, -2)  # not the axis line itself

    def far(c: QColor, d: QColor) -> bool:
        return abs(c.red() - d.red()) + abs(c.green() - d.green()) + abs(c.blue() - d.blue()) > 40

    return sum(
        far(c, base) and far(c, border)
        for c in (img.pixelColor(x, y) for y in range(r.top(), r.bottom(), 2) for x in range(r.left(), r.right(), 2))
    )


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_opens_from_the_view_menu_and_paints_every_chart(make_window, seeded_dir: Path, qtbot, choice: str) -> None:
    from desktop_app.gui import theme

    _edit(seeded_dir)
    win = make_window(seeded_dir)
    theme.manager().set_choice(choice)
    dialog = _open(win, qtbot)
    st = dialog.stats
    assert (st.papers, st.by_status["read"], st.by_tag[0], st.by_venue[0]) == (76, 2, ("rl", 20), ("NeurIPS", 66))
    assert "76 papers: 2 read, 1 skimmed, 73 unread" in dialog.summary.text()
    k = theme.colors()
    assert k.dark == (choice == "dark")
    accent = QColor(k.accent)
    for chart in dialog.charts():
        assert chart.has_data(), chart.title
        assert _series_pixels(chart, QColor(k.base), QColor(k.border)) > 100, chart.title
        # the chart's own background is the theme's base colour, not a fixed white
        assert chart.grab().toImage().pixelColor(3, chart.height() // 2) == QColor(k.base)
    assert _accent_pixels(dialog.year_chart, accent) > 100  # bars in the theme's accent


def test_an_empty_library_shows_empty_charts_without_failing(make_window, library_dir: Path, qtbot) -> None:
    win = make_window(library_dir)
    dialog = _open(win, qtbot)
    assert dialog.stats.papers == 0
    from desktop_app.gui import theme

    accent = QColor(theme.colors().accent)
    for chart in dialog.charts():
        assert not chart.has_data()
        assert _accent_pixels(chart, accent) == 0
        chart.grab()  # paints the "nothing yet" text


def test_save_as_png_writes_a_valid_png(
    make_window, seeded_dir: Path, qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _edit(seeded_dir)
    win = make_window(seeded_dir)
    dialog = _open(win, qtbot)
    assert dialog.save_button.isEnabled()
    target = tmp_path / "stats"  # no suffix: ".png" is added
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), "")))
    dialog.save_button.click()
    written = tmp_path / "stats.png"
    assert written.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    img = QImage(str(written))
    assert not img.isNull()
    assert (img.width(), img.height()) == (dialog.charts_widget.width(), dialog.charts_widget.height())


def test_a_status_change_in_the_window_shows_after_refresh(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    dialog = _open(win, qtbot)
    assert dialog.stats.progress == []
    win.library.papers.set_status([1, 2, 3], "read")
    dialog.stats = None
    dialog.refresh_button.click()
    qtbot.waitUntil(lambda: dialog.stats is not None, timeout=20000)
    assert [(d.read, d.read_total) for d in dialog.stats.progress] == [(3, 3)]


_PROBE = r"""
import json, sys
from PySide6.QtCore import QSettings, QThread
from desktop_app.gui.app import application
from desktop_app.gui.launch import close_window, open_main_window

app = application()
win = open_main_window(sys.argv[1], QSettings(sys.argv[2], QSettings.Format.IniFormat))
while not (win.start_stage.done and win.files.index_ready):
    app.processEvents()
    QThread.msleep(5)
mods = ("desktop_app.gui.statistics_view", "desktop_app.core.insights.statistics")
seen = {"at_start": [m for m in mods if m in sys.modules]}
win._show_statistics()
seen["after_open"] = [m for m in mods if m in sys.modules]
close_window(win)
print(json.dumps(seen))
"""


def test_statistics_are_not_loaded_at_start(seeded_dir: Path, tmp_path: Path) -> None:
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
    assert seen == {
        "at_start": [],
        "after_open": ["desktop_app.gui.statistics_view", "desktop_app.core.insights.statistics"],
    }
