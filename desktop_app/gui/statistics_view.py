"""View → Statistics: reading progress, papers by tag, venue, year and rating, drawn with QPainter.

PySide6-Essentials has no QtCharts, so the charts are small widgets of their own: an area chart
of the read papers over time, stacked bars of the papers marked per day, horizontal bars for the
top tags and venues, vertical bars for years and ratings. Colours come from ``theme.colors()`` at
each paint, so a theme change repaints them. The numbers are counted by ``lib.insights.statistics()`` in a
worker (~0.2 s at 100,000 papers) while the dialog shows a busy bar.

Imported only when the dialog is first opened (main_window.py): nothing of it is on the start-up
path. Tag and venue names come from imported files; they are drawn with ``drawText`` as plain text.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desktop_app.core.insights.statistics import DayProgress, LibraryStatistics
from desktop_app.gui import theme
from desktop_app.gui.jobs import Job, keep_while_running

_PAD = 8


def _tr(text: str) -> str:
    return QCoreApplication.translate("StatisticsView", text)


def nice_step(top: float, ticks: int = 4) -> int:
    """A round step (1, 2, 5 × 10^k) giving about ``ticks`` gridlines up to ``top``."""
    if top <= ticks:
        return 1
    raw = top / ticks
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * mag:
            return int(m * mag)
    return int(10 * mag)


def _axis_top(value: int) -> tuple[int, int]:
    """(top of the axis, step): the smallest multiple of a nice step at or above ``value``."""
    step = nice_step(max(value, 1))
    return max(step, math.ceil(max(value, 1) / step) * step), step


def _number(n: int) -> str:
    from PySide6.QtCore import QLocale

    return QLocale().toString(int(n))


class Chart(QWidget):
    """A titled chart area; subclasses draw their data in :meth:`plot_rect`."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self.empty_text = _tr("Nothing to show yet")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumHeight(220)
        self.setMinimumWidth(320)

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(460, 240)

    def has_data(self) -> bool:
        return False

    def left_margin(self, fm: QFontMetrics) -> int:
        return fm.horizontalAdvance("000,000") + _PAD

    def bottom_margin(self, fm: QFontMetrics) -> int:
        return fm.height() + _PAD

    def plot_rect(self) -> QRect:
        """Where the data is drawn (inside the axes)."""
        fm = self.fontMetrics()
        top = fm.height() + 2 * _PAD
        left = self.left_margin(fm)
        return QRect(
            left,
            top,
            max(10, self.width() - left - 2 * _PAD),
            max(10, self.height() - top - self.bottom_margin(fm) - _PAD),
        )

    def paintEvent(self, _event: object) -> None:  # noqa: N802
        k = theme.colors()
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor(k.base))
        p.setPen(QPen(QColor(k.border), 1))
        p.drawRect(self.rect().adjusted(0, 0, -1, -1))
        title_font = self.font()
        title_font.setBold(True)
        p.setFont(title_font)
        p.setPen(QColor(k.text))
        p.drawText(
            QRect(_PAD, _PAD // 2, self.width() - 2 * _PAD, self.fontMetrics().height() + _PAD),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            self.title,
        )
        p.setFont(self.font())
        if not self.has_data():
            p.setPen(QColor(k.muted))
            below_title = self.rect().adjusted(_PAD, self.fontMetrics().height() + 2 * _PAD, -_PAD, -_PAD)
            p.drawText(below_title, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.empty_text)
        else:
            self.draw(p, self.plot_rect(), k)
        p.end()

    def draw(self, p: QPainter, r: QRect, k: theme.Colors) -> None:
        raise NotImplementedError

    # shared pieces
    def value_axis(self, p: QPainter, r: QRect, k: theme.Colors, top: int, step: int) -> None:
        """Horizontal gridlines with their numbers on the left."""
        fm = self.fontMetrics()
        for v in range(0, top + 1, step):
            y = r.bottom() - r.height() * v / top
            p.setPen(QPen(QColor(k.border), 1, Qt.PenStyle.DotLine if v else Qt.PenStyle.SolidLine))
            p.drawLine(QPointF(r.left(), y), QPointF(r.right(), y))
            p.setPen(QColor(k.muted))
            p.drawText(
                QRectF(0, y - fm.height() / 2, r.left() - 4, fm.height()),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                _number(v),
            )


class ProgressChart(Chart):
    """The read papers at the end of each day (an area), from the first logged day to today."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(_tr("Papers read, in all"), parent)
        self.empty_text = _tr("No status changes recorded yet: mark papers skimmed or read")
        self.days: list[DayProgress] = []

    def set_data(self, days: Sequence[DayProgress]) -> None:
        self.days = list(days)
        self.update()

    def has_data(self) -> bool:
        return bool(self.days)

    def draw(self, p: QPainter, r: QRect, k: theme.Colors) -> None:
        top, step = _axis_top(max(d.read_total for d in self.days))
        self.value_axis(p, r, k, top, step)
        values = [d.read_total for d in self.days]
        if len(values) == 1:  # one day: its level across the chart
            values *= 2
        n = len(values)

        def point(i: int, v: int) -> QPointF:
            return QPointF(r.left() + r.width() * i / (n - 1), r.bottom() - r.height() * v / top)

        line = QPainterPath(point(0, values[0]))
        for i, v in enumerate(values[1:], 1):
            line.lineTo(point(i, v))
        area = QPainterPath(line)
        area.lineTo(point(n - 1, 0))
        area.lineTo(point(0, 0))
        area.closeSubpath()
        fill = QColor(k.accent)
        fill.setAlpha(90 if k.dark else 60)
        p.fillPath(area, fill)
        p.setPen(QPen(QColor(k.accent), 2))
        p.drawPath(line)
        _date_labels(p, r, k, self.fontMetrics(), [d.day for d in self.days])


class DailyChart(Chart):
    """Papers that became read (and skimmed, stacked above) on each day."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(_tr("Papers marked per day"), parent)
        self.empty_text = _tr("No status changes recorded yet: mark papers skimmed or read")
        self.days: list[DayProgress] = []

    def set_data(self, days: Sequence[DayProgress]) -> None:
        self.days = list(days)
        self.update()

    def has_data(self) -> bool:
        return bool(self.days)

    def draw(self, p: QPainter, r: QRect, k: theme.Colors) -> None:
        top, step = _axis_top(max(d.read + d.skimmed for d in self.days))
        self.value_axis(p, r, k, top, step)
        n = len(self.days)
        slot = r.width() / n
        width = max(1.0, slot * 0.7)
        # skimmed: the accent lightened, toward the text in the dark (toward the base it vanishes)
        read = QColor(k.accent)
        skimmed = QColor(theme.mix(k.accent, k.text, 0.5) if k.dark else theme.mix(k.accent, k.base, 0.55))
        for i, d in enumerate(self.days):
            x = r.left() + slot * i + (slot - width) / 2
            h_read = r.height() * d.read / top
            h_skim = r.height() * d.skimmed / top
            p.fillRect(QRectF(x, r.bottom() - h_read, width, h_read), read)
            p.fillRect(QRectF(x, r.bottom() - h_read - h_skim, width, h_skim), skimmed)
        _date_labels(p, r, k, self.fontMetrics(), [d.day for d in self.days])
        _legend(p, r, k, self.fontMetrics(), [(_tr("read"), read), (_tr("skimmed"), skimmed)])


class HBarChart(Chart):
    """Horizontal bars with their names on the left: the top tags or venues."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.items: list[tuple[str, int]] = []

    def set_data(self, items: Sequence[tuple[str, int]]) -> None:
        self.items = list(items)
        fm = self.fontMetrics()
        rows = max(len(self.items), 3)
        self.setFixedHeight(fm.height() + 3 * _PAD + rows * (fm.height() + 4) + _PAD)
        self.update()

    def has_data(self) -> bool:
        return bool(self.items)

    def left_margin(self, fm: QFontMetrics) -> int:
        return min(self.width() // 3, fm.horizontalAdvance("M" * 16)) + 2 * _PAD

    def bottom_margin(self, fm: QFontMetrics) -> int:
        return _PAD

    def draw(self, p: QPainter, r: QRect, k: theme.Colors) -> None:
        fm = self.fontMetrics()
        top = max(c for _, c in self.items)
        row = r.height() / len(self.items)
        bar = QColor(k.accent)
        count_width = fm.horizontalAdvance(_number(top)) + _PAD
        for i, (name, count) in enumerate(self.items):
            y = r.top() + row * i
            p.setPen(QColor(k.text))
            label = fm.elidedText(name or "—", Qt.TextElideMode.ElideRight, r.left() - 2 * _PAD)
            p.drawText(
                QRectF(_PAD, y, r.left() - 2 * _PAD, row),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                label,
            )
            w = (r.width() - count_width) * count / top
            p.fillRect(QRectF(r.left(), y + row * 0.15, max(w, 1.0), row * 0.7), bar)
            p.setPen(QColor(k.muted))
            p.drawText(
                QRectF(r.left() + w + 4, y, count_width, row),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                _number(count),
            )


class VBarChart(Chart):
    """Vertical bars with a label under each: papers by year, by rating."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.items: list[tuple[str, int]] = []
        self.highlight_last = False

    def set_data(self, items: Sequence[tuple[str, int]]) -> None:
        self.items = list(items)
        self.update()

    def has_data(self) -> bool:
        return any(c for _, c in self.items)

    def draw(self, p: QPainter, r: QRect, k: theme.Colors) -> None:
        fm = self.fontMetrics()
        top, step = _axis_top(max(c for _, c in self.items))
        self.value_axis(p, r, k, top, step)
        n = len(self.items)
        slot = r.width() / n
        width = max(1.0, slot * 0.7)
        every = max(1, math.ceil(max(fm.horizontalAdvance(lbl) for lbl, _ in self.items) / max(slot - 4, 1)))
        for i, (label, count) in enumerate(self.items):
            x = r.left() + slot * i + (slot - width) / 2
            h = r.height() * count / top
            p.fillRect(QRectF(x, r.bottom() - h, width, h), QColor(k.accent))
            if i % every == 0 or i == n - 1 and n % every == 1:
                p.setPen(QColor(k.muted))
                p.drawText(
                    QRectF(r.left() + slot * i - slot * (every - 1) / 2, r.bottom() + 2, slot * every, fm.height()),
                    Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                    label,
                )


def _date_labels(p: QPainter, r: QRect, k: theme.Colors, fm: QFontMetrics, days: list[date]) -> None:
    """The first and last day under the x axis, and a few between when they fit."""
    from PySide6.QtCore import QDate, QLocale

    def text(d: date) -> str:
        return QLocale().toString(QDate(d.year, d.month, d.day), QLocale.FormatType.ShortFormat)

    n = len(days)
    width = fm.horizontalAdvance(text(days[-1])) + 2 * _PAD
    fits = max(1, min(n, r.width() // max(width, 1)))
    picks = sorted({round(i * (n - 1) / max(fits - 1, 1)) for i in range(fits)}) if n > 1 else [0]
    p.setPen(QColor(k.muted))
    for i in picks:
        x = r.left() + (r.width() * i / (n - 1) if n > 1 else r.width() / 2)
        align = (
            Qt.AlignmentFlag.AlignLeft
            if i == 0
            else Qt.AlignmentFlag.AlignRight
            if i == n - 1
            else Qt.AlignmentFlag.AlignHCenter
        )
        left = x if i == 0 else x - width if i == n - 1 else x - width / 2
        p.drawText(QRectF(left, r.bottom() + 2, width, fm.height()), align | Qt.AlignmentFlag.AlignTop, text(days[i]))


def _legend(p: QPainter, r: QRect, k: theme.Colors, fm: QFontMetrics, entries: list[tuple[str, QColor]]) -> None:
    """Colour swatches and names at the top right, above the plot."""
    x: float = r.right()
    y = r.top() - fm.height() - 4
    for name, color in reversed(entries):
        w = fm.horizontalAdvance(name)
        x -= w
        p.setPen(QColor(k.muted))
        p.drawText(QRectF(x, y, w, fm.height()), Qt.AlignmentFlag.AlignVCenter, name)
        x -= fm.height() * 0.8 + 4
        p.fillRect(QRectF(x, y + fm.height() * 0.15, fm.height() * 0.7, fm.height() * 0.7), color)
        x -= 2 * _PAD


class StatisticsDialog(QDialog):
    """The statistics of the window's library; counted in a worker each time it is opened."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.setObjectName("statisticsDialog")
        self.setWindowTitle(self.tr("Statistics"))
        self.window_ = window
        self.stats: LibraryStatistics | None = None
        self.job: Job | None = None
        self.resize(980, 760)

        outer = QVBoxLayout(self)
        self.summary = QLabel(self)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        self.summary.setObjectName("statisticsSummary")
        outer.addWidget(self.summary)
        self.busy = QProgressBar(self)
        self.busy.setRange(0, 0)
        self.busy.setTextVisible(False)
        self.busy.setMaximumHeight(6)
        outer.addWidget(self.busy)

        self.charts_widget = QWidget()
        self.charts_widget.setObjectName("statisticsCharts")
        grid = QGridLayout(self.charts_widget)
        grid.setSpacing(10)
        self.progress_chart = ProgressChart()
        self.daily_chart = DailyChart()
        self.tag_chart = HBarChart(self.tr("Papers by tag (top 20)"))
        self.venue_chart = HBarChart(self.tr("Papers by venue (top 20)"))
        self.year_chart = VBarChart(self.tr("Papers by year"))
        self.rating_chart = VBarChart(self.tr("Ratings"))
        grid.addWidget(self.progress_chart, 0, 0)
        grid.addWidget(self.daily_chart, 0, 1)
        grid.addWidget(self.year_chart, 1, 0)
        grid.addWidget(self.rating_chart, 1, 1)
        grid.addWidget(self.tag_chart, 2, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.venue_chart, 2, 1, Qt.AlignmentFlag.AlignTop)
        grid.setRowStretch(3, 1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.charts_widget)
        outer.addWidget(scroll, 1)

        buttons = QHBoxLayout()
        self.refresh_button = QPushButton(self.tr("Refresh"), self)
        self.refresh_button.clicked.connect(self.refresh)
        self.save_button = QPushButton(self.tr("Save as PNG…"), self)
        self.save_button.setObjectName("saveStatisticsPng")
        self.save_button.clicked.connect(self.save_dialog)
        self.save_button.setEnabled(False)
        close = QPushButton(self.tr("Close"), self)
        close.clicked.connect(self.close)
        buttons.addWidget(self.refresh_button)
        buttons.addStretch(1)
        buttons.addWidget(self.save_button)
        buttons.addWidget(close)
        outer.addLayout(buttons)

    def charts(self) -> list[Chart]:
        return [
            self.progress_chart,
            self.daily_chart,
            self.year_chart,
            self.rating_chart,
            self.tag_chart,
            self.venue_chart,
        ]

    # ---- counting ------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Count again in a worker (the dialog stays usable; the busy bar shows meanwhile)."""
        if self.job is not None and self.job.isRunning():
            return
        self.busy.show()
        self.summary.setText(self.tr("Counting…"))
        lib = self.window_.library  # type: ignore[attr-defined]
        job = Job(lambda _progress, _cancelled: lib.insights.statistics(), self)
        job.succeeded.connect(self.show_statistics)
        job.failed.connect(self._failed)
        keep_while_running(self, job)
        self.job = job
        job.start()

    def _failed(self, message: str) -> None:
        self.busy.hide()
        self.summary.setText(self.tr("The statistics could not be counted: {0}").format(message))

    def show_statistics(self, st: LibraryStatistics) -> None:
        self.stats = st
        self.busy.hide()
        self.summary.setText(
            self.tr(
                "{0} papers: {1} read, {2} skimmed, {3} unread. {4} rated, {5} tagged, {6} with notes, {7} highlights."
            ).format(
                *map(
                    _number,
                    (
                        st.papers,
                        st.by_status.get("read", 0),
                        st.by_status.get("skimmed", 0),
                        st.by_status.get("unread", 0),
                        st.rated,
                        st.tagged,
                        st.with_notes,
                        st.highlights,
                    ),
                )
            )
        )
        self.progress_chart.set_data(st.progress)
        self.daily_chart.set_data(st.progress)
        self.tag_chart.set_data(st.by_tag)
        self.venue_chart.set_data(st.by_venue)
        self.year_chart.set_data([(str(y), c) for y, c in st.by_year])
        self.rating_chart.set_data([(self.tr("unrated") if r == 0 else "★" * r, c) for r, c in st.ratings.items()])
        self.save_button.setEnabled(True)

    # ---- saving --------------------------------------------------------------------------------
    def save_png(self, path: str | Path) -> bool:
        """Write the charts (all of them, as laid out) to a PNG file."""
        return self.charts_widget.grab().save(str(path), "PNG")

    def save_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self,
            self.tr("Save statistics as PNG"),
            str(Path.home() / "marginalia-statistics.png"),
            self.tr("PNG images (*.png)"),
        )
        if not path:
            return
        if not path.lower().endswith(".png"):
            path += ".png"
        if not self.save_png(path):
            QMessageBox.warning(self, self.tr("Statistics"), self.tr("Could not write {0}").format(path))

    def closeEvent(self, event: object) -> None:  # noqa: N802
        if self.job is not None and self.job.isRunning():
            self.job.wait()
        super().closeEvent(event)  # type: ignore[arg-type]


def show_statistics(window: QMainWindow) -> StatisticsDialog:
    """Open (or bring back) the window's statistics dialog and count again."""
    dialog = window.findChild(StatisticsDialog)
    if dialog is None:
        dialog = StatisticsDialog(window)
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    dialog.refresh()
    return dialog


def screenshot_view(window: QMainWindow) -> QWidget:
    """For ``gui --screenshot --view statistics``: the dialog once its numbers are counted."""
    from PySide6.QtCore import QDeadlineTimer
    from PySide6.QtWidgets import QApplication

    dialog = show_statistics(window)
    deadline = QDeadlineTimer(30_000)
    while dialog.stats is None and not deadline.hasExpired():
        QApplication.processEvents()
        if dialog.job is not None:
            dialog.job.wait(20)
    QApplication.processEvents()
    return dialog
