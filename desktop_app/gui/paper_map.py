"""View → Map: every paper of the shown list a point placed by similarity (``lib.insights.paper_map``),
coloured by topic, decision or tag, with the topics' names at their centres.

:class:`MapView` paints numpy arrays into a cached image, redrawn only when the view, the
colours or the size change: up to 3,000 points as smooth round dots (``QPainter.drawPoints`` on a
``QPolygonF`` filled in place from the array, no QPointF objects), more as square dots written
straight into the image's pixels with numpy (a frame of 100,000 points in about 17 ms of CPU,
benchmarks/bench_map.py). Hit tests use a k-d tree built in
the worker. Mouse: wheel zooms, drag pans, Shift+drag (or the lasso button) draws a lasso, a
click shows the paper. Keyboard: arrows pan, + and - zoom, 0 fits, Enter shows the paper
nearest the cross in the middle. Titles are painted as plain text, never as HTML.

:class:`MapDialog` computes the map in a worker (the GUI thread only paints) and hands clicks
and lassos to the window's table, so the reader and the bulk panel follow.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPolygonF,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.gui import i18n, theme
from desktop_app.gui.jobs import Job, SerialJob, keep_while_running
from desktop_app.gui.topic_names import user_names

if TYPE_CHECKING:
    from scipy.spatial import cKDTree

    from desktop_app.core.insights.paper_map import Facets, PaperMap
    from desktop_app.core.insights.topics import TopicSet
    from desktop_app.gui.window_protocol import WindowLike

MODES = ("topic", "decision", "tag")
HIT_PIXELS = 8  # a point within this many pixels of the mouse is under it
ZOOM_STEP = 1.25
MAX_ZOOM = 200.0
PAN_STEP = 0.1  # an arrow key pans a tenth of the view
DEFAULT_FILE = "map.png"  # a file name, not a text to translate
# categorical colours (Tableau 10, then their lighter forms), nudged to 3:1 on the background
TOPIC_COLOURS = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#17becf",
    "#a0cbe8",
    "#ffbe7d",
    "#8cd17d",
    "#b6992d",
    "#f1ce63",
    "#86bcb6",
    "#d37295",
    "#fabfd2",
    "#d4a6c8",
    "#79706e",
)
DECISION_COLOURS = {"keep": "#2e9d4a", "maybe": "#e3a21a", "skip": "#d93f35"}


@dataclass
class MapData:
    """What the worker hands the view: the map, its facets and the tree for hit tests."""

    pmap: PaperMap
    facets: Facets
    tree: cKDTree | None


def build(
    library: object, ids: list[int], topics: TopicSet | None, cancelled: Callable[[], bool] = lambda: False
) -> MapData:
    """The work of a map (in a worker): layout and facets (in a child process for a large list:
    ``core/insights/child_worker.py``), then the k-d tree."""
    from scipy.spatial import cKDTree

    from desktop_app.core.insights import child_worker

    if child_worker.in_child_process(len(ids)):
        pmap, facets = child_worker.map_in_child(child_worker.location_of(library), ids, topics, cancelled)
    else:
        pmap = library.insights.paper_map(ids, topics)  # type: ignore[attr-defined]
        facets = library.insights.map_facets(pmap.ids)  # type: ignore[attr-defined]
    tree = cKDTree(pmap.xy.astype(np.float64)) if len(pmap) else None
    return MapData(pmap, facets, tree)


def _stamp(image: QImage, pixels: np.ndarray, argb: np.ndarray, size: int) -> None:
    """Square dots of ``size`` pixels at ``pixels`` (n, 2, device pixels) in colours ``argb``,
    written into ``image`` (ARGB32) with numpy: later points over earlier ones, as drawPoints
    would, in a third of its time at 100,000 points."""
    h, w = image.height(), image.width()
    words = np.frombuffer(image.bits(), np.uint32).reshape(h, image.bytesPerLine() // 4)
    ix = np.floor(pixels[:, 0]).astype(np.int64) - size // 2
    iy = np.floor(pixels[:, 1]).astype(np.int64) - size // 2
    for dy in range(size):
        for dx in range(size):
            x, y = ix + dx, iy + dy
            ok = (x >= 0) & (x < w) & (y >= 0) & (y < h)
            words[y[ok], x[ok]] = argb[ok]


def _polygon(points: np.ndarray) -> QPolygonF:
    """A QPolygonF of ``points`` (n, 2), written in place: no QPointF per point."""
    import shiboken6

    poly = QPolygonF()
    poly.resize(len(points))
    if len(points):
        # the stubs say a VoidPtr takes only an int and has no buffer: it takes an address (the
        # polygon's QPointF array, writable) and is a buffer
        buffer = shiboken6.VoidPtr(poly.data(), len(points) * 16, True)  # type: ignore[call-arg, arg-type]
        np.frombuffer(buffer, np.float64).reshape(-1, 2)[:] = points  # type: ignore[call-overload]
    return poly


class MapView(QWidget):
    """The canvas: points, names, the hovered title, the lasso."""

    paperActivated = Signal(int)  # noqa: N815 - Qt's signal names  # a click or Enter on a paper
    papersLassoed = Signal(list)  # noqa: N815  # the ids inside a lasso
    hovered = Signal(str)  # the title under the mouse (or the cross), "" for none

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("paperMap")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setMinimumSize(320, 240)
        self.setAccessibleName(self.tr("Map of the papers"))
        self.setAccessibleDescription(
            self.tr("Arrows pan, + and - zoom, 0 fits, Enter shows the paper at the cross; Shift+drag draws a lasso")
        )
        self.data: MapData | None = None
        self.mode = "topic"
        self.lasso_mode = False
        self.message = ""
        self._scale = 1.0  # zoom: 1 fits the map
        self._centre = np.zeros(2)  # the map coordinate at the middle of the widget
        self._cache: QImage | None = None
        self._colours = np.empty(0, np.int16)  # per point: an index into _palette
        self._palette: list[QColor] = []
        self._legend: list[tuple[str, QColor]] = []
        self._hover: int | None = None  # a row of the map's arrays
        self._press: QPointF | None = None
        self._last: QPointF | None = None
        self._lasso: list[QPointF] = []
        self._dragging = False
        theme.follow(self, self._restyle)

    # ---- data ------------------------------------------------------------------------------
    def set_data(self, data: MapData | None, message: str = "") -> None:
        self.data = data
        self.message = message
        self._hover = None
        self.fit()
        self._recolour()

    def set_facets(self, facets: Facets) -> None:
        """New decisions and tags for the same points (the library changed)."""
        if self.data is not None and len(facets.titles) == len(self.data.pmap):
            self.data.facets = facets
            self._recolour()

    def set_mode(self, mode: str) -> None:
        self.mode = mode if mode in MODES else "topic"
        self._recolour()

    def point_count(self) -> int:
        return 0 if self.data is None else len(self.data.pmap)

    # ---- colours ---------------------------------------------------------------------------
    def _restyle(self) -> None:
        self._recolour()

    def _on_base(self, colour: str) -> QColor:
        return QColor(theme.readable(colour, theme.colors().base, 3.0))

    def _recolour(self) -> None:
        """Each point's colour index and the legend for the current mode."""
        k = theme.colors()
        other = QColor(theme.mix(k.muted, k.base, 0.25))
        self._legend = []
        if self.data is None:
            self._colours, self._palette = np.empty(0, np.int16), []
        elif self.mode == "decision":
            f = self.data.facets
            from desktop_app.core.store.column_types import DECISIONS

            self._palette = [other] + [self._on_base(DECISION_COLOURS[d]) for d in DECISIONS]
            self._colours = f.decisions.astype(np.int16)
            self._legend = [(i18n.decision_label(d), self._palette[n + 1]) for n, d in enumerate(DECISIONS)]
            self._legend.append((i18n.decision_label(None), other))
        elif self.mode == "tag":
            f = self.data.facets
            self._palette = [other] + [
                self._on_base(TOPIC_COLOURS[n % len(TOPIC_COLOURS)]) for n in range(len(f.tag_names))
            ]
            self._colours = (f.tags + 1).astype(np.int16)
            self._legend = [(name, self._palette[n + 1]) for n, name in enumerate(f.tag_names)]
            self._legend.append((self.tr("other or no tag"), other))
        else:
            count = len(self.data.pmap.topics.topics)
            self._palette = [self._on_base(TOPIC_COLOURS[n % len(TOPIC_COLOURS)]) for n in range(count)]
            self._colours = self.data.pmap.topic.astype(np.int16)
        self._invalidate()

    # ---- the view --------------------------------------------------------------------------
    def fit(self) -> None:
        self._scale, self._centre = 1.0, np.zeros(2)
        self._invalidate()

    def zoom(self, factor: float, at: QPointF | None = None) -> None:
        """Zoom by ``factor`` keeping the map point under ``at`` (default: the middle) in place."""
        new = float(np.clip(self._scale * factor, 0.5, MAX_ZOOM))
        if at is not None:
            before = self.to_map(np.array([[at.x(), at.y()]]))[0]
            self._scale = new
            after = self.to_map(np.array([[at.x(), at.y()]]))[0]
            self._centre = self._centre + (before - after)
        else:
            self._scale = new
        self._invalidate()

    def pan_pixels(self, dx: float, dy: float) -> None:
        self._centre = self._centre + np.array([-dx, dy]) / self._pixels_per_unit()
        self._invalidate()

    def _pixels_per_unit(self) -> float:
        return max(1.0, 0.46 * min(self.width(), self.height())) * self._scale

    def to_screen(self, xy: np.ndarray) -> np.ndarray:
        """Map coordinates (n, 2) to widget pixels (y grows downwards)."""
        s = self._pixels_per_unit()
        out = (np.asarray(xy, np.float64) - self._centre) * s
        out[:, 1] = -out[:, 1]
        screen: np.ndarray = out + np.array([self.width() / 2, self.height() / 2])
        return screen

    def to_map(self, pixels: np.ndarray) -> np.ndarray:
        s = self._pixels_per_unit()
        out = np.asarray(pixels, np.float64) - np.array([self.width() / 2, self.height() / 2])
        out[:, 1] = -out[:, 1]
        coordinates: np.ndarray = out / s + self._centre
        return coordinates

    def screen_points(self) -> np.ndarray:
        """Where each point is drawn, in widget pixels (for tests and the lasso)."""
        if self.data is None:
            return np.empty((0, 2))
        return self.to_screen(self.data.pmap.xy)

    def _invalidate(self) -> None:
        self._cache = None
        self.update()

    # ---- hit tests -------------------------------------------------------------------------
    def row_at(self, pos: QPointF, pixels: float = HIT_PIXELS) -> int | None:
        """The row of the point nearest ``pos`` within ``pixels``, or None."""
        if self.data is None or self.data.tree is None:
            return None
        here = self.to_map(np.array([[pos.x(), pos.y()]]))[0]
        distance, row = self.data.tree.query(here, distance_upper_bound=pixels / self._pixels_per_unit())
        return None if not np.isfinite(distance) else int(row)

    def nearest_to_centre(self) -> int | None:
        if self.data is None or self.data.tree is None:
            return None
        return int(self.data.tree.query(self._centre)[1])

    def ids_in(self, polygon: list[QPointF]) -> list[int]:
        """The ids of the points inside ``polygon`` (widget pixels): the polygon is filled into
        a mask the size of the widget, and each point reads its pixel."""
        if self.data is None or len(polygon) < 3:
            return []
        mask = QImage(max(self.width(), 1), max(self.height(), 1), QImage.Format.Format_Grayscale8)
        mask.fill(0)
        p = QPainter(mask)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(255, 255, 255))
        p.drawPolygon(QPolygonF(polygon))
        p.end()
        pixels = np.frombuffer(mask.constBits(), np.uint8).reshape(mask.height(), mask.bytesPerLine())
        xy = np.floor(self.screen_points()).astype(np.int64)
        inside = (xy[:, 0] >= 0) & (xy[:, 0] < mask.width()) & (xy[:, 1] >= 0) & (xy[:, 1] < mask.height())
        rows = np.flatnonzero(inside)
        rows = rows[pixels[xy[rows, 1], xy[rows, 0]] > 0]
        return [int(i) for i in self.data.pmap.ids[rows]]

    def _set_hover(self, row: int | None) -> None:
        if row != self._hover:
            self._hover = row
            self.update()
            self.hovered.emit("" if row is None or self.data is None else self.data.facets.titles[row])

    # ---- painting --------------------------------------------------------------------------
    def _point_style(self, n: int) -> tuple[float, bool, Qt.PenCapStyle]:
        """(size in pixels, antialiased, cap) for ``n`` points: round and smooth while cheap."""
        if n <= 3_000:
            return 7.0, True, Qt.PenCapStyle.RoundCap
        if n <= 30_000:
            return 4.0, False, Qt.PenCapStyle.SquareCap
        return 3.0, False, Qt.PenCapStyle.SquareCap

    def render_points(self) -> QImage:
        """The points alone on the background, at the widget's size (the cached layer)."""
        k = theme.colors()
        ratio = self.devicePixelRatioF()
        image = QImage(
            max(1, round(self.width() * ratio)),
            max(1, round(self.height() * ratio)),
            QImage.Format.Format_ARGB32_Premultiplied,
        )
        image.setDevicePixelRatio(ratio)
        image.fill(QColor(k.base))
        if self.data is None or not len(self.data.pmap):
            return image
        xy = self.screen_points()
        size, smooth, cap = self._point_style(len(xy))
        visible = (
            (xy[:, 0] > -size)
            & (xy[:, 0] < self.width() + size)
            & (xy[:, 1] > -size)
            & (xy[:, 1] < self.height() + size)
        )
        if not smooth:  # many points: square dots written straight into the image's pixels
            _stamp(image, xy[visible] * ratio, self._argb()[self._colours[visible]], max(1, round(size * ratio)))
            return image
        p = QPainter(image)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, smooth)
        for index in np.unique(self._colours[visible]) if len(self._colours) else []:
            pen = QPen(self._palette[int(index)] if int(index) < len(self._palette) else QColor(k.muted))
            pen.setWidthF(size)
            pen.setCapStyle(cap)
            p.setPen(pen)
            p.drawPoints(_polygon(xy[visible & (self._colours == index)]))
        p.end()
        return image

    def _argb(self) -> np.ndarray:
        """The palette as 0xAARRGGBB words (what an ARGB32 image holds), one more for a stray index."""
        words = [c.rgba() for c in self._palette] + [QColor(theme.colors().muted).rgba()]
        return np.array(words, dtype=np.uint32)

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802
        if self._cache is None or self._cache.deviceIndependentSize().toSize() != self.size():
            self._cache = self.render_points()
        k = theme.colors()
        p = QPainter(self)
        p.drawImage(0, 0, self._cache)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if self.data is not None and len(self.data.pmap):
            self._paint_names(p, k)
            self._paint_legend(p, k)
            self._paint_hover(p, k)
        if self.message:
            self._paint_message(p, k)
        if self._lasso:
            pen = QPen(QColor(k.text))
            pen.setWidthF(1.5)
            pen.setStyle(Qt.PenStyle.DashLine)
            p.setPen(pen)
            fill = QColor(k.accent)
            fill.setAlpha(40)
            p.setBrush(fill)
            p.drawPolygon(QPolygonF(self._lasso))
        if self.hasFocus():
            self._paint_cross(p, k)
        p.end()

    def _label(self, p: QPainter, k: theme.Colors, text: str, centre: QPointF, bold: bool = True) -> QRectF:
        """``text`` on a rounded box of the background colour, centred on ``centre``: readable
        over any points in either theme."""
        font = QFont(self.font())
        font.setBold(bold)
        metrics = QFontMetricsF(font)
        w, h = metrics.horizontalAdvance(text) + 10, metrics.height() + 4
        box = QRectF(centre.x() - w / 2, centre.y() - h / 2, w, h)
        fill = QColor(k.base)
        fill.setAlpha(215)
        p.setPen(QPen(QColor(k.border), 1))
        p.setBrush(fill)
        p.drawRoundedRect(box, 4, 4)
        p.setFont(font)
        p.setPen(QColor(k.text))
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
        return box

    def _paint_names(self, p: QPainter, k: theme.Colors) -> None:
        assert self.data is not None
        pmap = self.data.pmap
        centres = self.to_screen(pmap.centres) if len(pmap.centres) else np.empty((0, 2))
        placed: list[QRectF] = []
        for n in sorted(range(len(pmap.topics.topics)), key=lambda n: -pmap.topics.topics[n].size):
            topic = pmap.topics.topics[n]
            if topic.size == 0 or not np.isfinite(centres[n]).all():
                continue
            at = QPointF(*centres[n])
            if any(b.contains(at) for b in placed):  # a larger topic's name is there already
                continue
            placed.append(self._label(p, k, topic.name, at))

    def _paint_legend(self, p: QPainter, k: theme.Colors) -> None:
        if not self._legend:
            return
        font = QFont(self.font())
        metrics = QFontMetricsF(font)
        line = metrics.height() + 2
        w = max(metrics.horizontalAdvance(name) for name, _c in self._legend) + 30
        box = QRectF(8, 8, w, line * len(self._legend) + 8)
        fill = QColor(k.base)
        fill.setAlpha(225)
        p.setPen(QPen(QColor(k.border), 1))
        p.setBrush(fill)
        p.drawRoundedRect(box, 4, 4)
        p.setFont(font)
        for n, (name, colour) in enumerate(self._legend):
            y = box.top() + 4 + n * line
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(colour)
            p.drawEllipse(QRectF(box.left() + 8, y + line / 2 - 5, 10, 10))
            p.setPen(QColor(k.text))
            p.drawText(QRectF(box.left() + 24, y, w - 26, line), Qt.AlignmentFlag.AlignVCenter, name)

    def _paint_hover(self, p: QPainter, k: theme.Colors) -> None:
        if self._hover is None or self.data is None:
            return
        at = self.to_screen(self.data.pmap.xy[[self._hover]])[0]
        p.setPen(QPen(QColor(k.text), 2))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(QPointF(*at), 7, 7)
        title = self.data.facets.titles[self._hover] or self.tr("(no title)")
        metrics = QFontMetricsF(self.font())
        text = metrics.elidedText(title, Qt.TextElideMode.ElideRight, max(120.0, self.width() * 0.6))
        box = self._label(p, k, text, QPointF(at[0], at[1] - 22), bold=False)
        if box.left() < 4 or box.right() > self.width() - 4 or box.top() < 4:  # keep it inside
            dx = max(4 - box.left(), 0) - max(box.right() - self.width() + 4, 0)
            dy = 44 if box.top() < 4 else 0
            self._label(p, k, text, QPointF(at[0] + dx, at[1] - 22 + dy), bold=False)

    def _paint_message(self, p: QPainter, k: theme.Colors) -> None:
        p.setPen(QColor(k.muted))
        p.setFont(self.font())
        p.drawText(
            QRectF(self.rect()).adjusted(20, 20, -20, -20),
            Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom | Qt.TextFlag.TextWordWrap,
            self.message,
        )

    def _paint_cross(self, p: QPainter, k: theme.Colors) -> None:
        c = QPointF(self.width() / 2, self.height() / 2)
        pen = QPen(QColor(theme.readable(k.accent, k.base, 3.0)), 2)
        p.setPen(pen)
        p.drawLine(c + QPointF(-9, 0), c + QPointF(9, 0))
        p.drawLine(c + QPointF(0, -9), c + QPointF(0, 9))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(QRectF(self.rect()).adjusted(1, 1, -1, -1))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._invalidate()

    # ---- mouse -----------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        self._press = self._last = event.position()
        self._dragging = False
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        self._lasso = [event.position()] if (self.lasso_mode or shift) else []
        return None

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        pos = event.position()
        if self._press is not None:
            if (pos - self._press).manhattanLength() > 4:
                self._dragging = True
            if self._lasso:
                self._lasso.append(pos)
                self.update()
            elif self._dragging and self._last is not None:
                self.pan_pixels(pos.x() - self._last.x(), pos.y() - self._last.y())
            self._last = pos
            return
        self._set_hover(self.row_at(pos))

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() != Qt.MouseButton.LeftButton or self._press is None:
            return super().mouseReleaseEvent(event)
        lasso, dragged = self._lasso, self._dragging
        self._press, self._last, self._lasso, self._dragging = None, None, [], False
        if lasso and dragged:
            self.papersLassoed.emit(self.ids_in([*lasso, event.position()]))
            self.update()
        elif not dragged:
            row = self.row_at(event.position())
            if row is not None and self.data is not None:
                self.paperActivated.emit(int(self.data.pmap.ids[row]))
        self.update()
        return None

    def leaveEvent(self, event: object) -> None:  # noqa: N802
        self._set_hover(None)
        super().leaveEvent(event)  # type: ignore[arg-type]

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802
        steps = event.angleDelta().y() / 120
        if steps:
            self.zoom(ZOOM_STEP**steps, event.position())

    # ---- keyboard --------------------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        key = event.key()
        step = PAN_STEP * min(self.width(), self.height())
        pans: dict[int, tuple[float, float]] = {  # event.key() is an int
            Qt.Key.Key_Left: (step, 0),
            Qt.Key.Key_Right: (-step, 0),
            Qt.Key.Key_Up: (0, step),
            Qt.Key.Key_Down: (0, -step),
        }
        if key in pans:
            self.pan_pixels(*pans[key])
            self._set_hover(self.nearest_to_centre())
        elif key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom(ZOOM_STEP)
        elif key in (Qt.Key.Key_Minus, Qt.Key.Key_Underscore):
            self.zoom(1 / ZOOM_STEP)
        elif key == Qt.Key.Key_0:
            self.fit()
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            row = self.nearest_to_centre()
            if row is not None and self.data is not None:
                self._set_hover(row)
                self.paperActivated.emit(int(self.data.pmap.ids[row]))
        else:
            super().keyPressEvent(event)

    # ---- saving ----------------------------------------------------------------------------
    def save_png(self, path: str) -> bool:
        """The map as shown (points, names, legend), written to ``path`` as a PNG."""
        # QImage.save takes the format as text too (its stub says bytes)
        saved: bool = self.grab().toImage().save(path, "PNG")  # type: ignore[call-overload]
        return saved


class MapDialog(QDialog):
    """The map of the window's shown list, computed in a worker."""

    def __init__(self, window: WindowLike) -> None:
        super().__init__(window.window())
        self.setObjectName("mapDialog")
        self.setWindowTitle(self.tr("Map"))
        self.window_ = window
        self.resize(980, 720)
        self.worker = SerialJob(self)  # one layout at a time; the latest request made meanwhile runs after it
        self._facets_job: Job | None = None
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        self.summary = QLabel(self)
        self.summary.setObjectName("mapSummary")
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        top.addWidget(self.summary, 1)
        colour_label = QLabel(self.tr("&Colour by:"), self)
        self.colour_by = QComboBox(self)
        self.colour_by.setObjectName("mapColourBy")
        for mode, label in zip(MODES, (self.tr("Topic"), self.tr("Decision"), self.tr("Tag")), strict=True):
            self.colour_by.addItem(label, mode)
        colour_label.setBuddy(self.colour_by)
        top.addWidget(colour_label)
        top.addWidget(self.colour_by)
        self.lasso_button = QPushButton(self.tr("&Lasso"), self)
        self.lasso_button.setCheckable(True)
        self.lasso_button.setToolTip(self.tr("Drag around papers to select them (or Shift+drag at any time)"))
        top.addWidget(self.lasso_button)
        self.fit_button = QPushButton(self.tr("&Fit"), self)
        self.fit_button.setToolTip(self.tr("Show the whole map (0)"))
        top.addWidget(self.fit_button)
        self.save_button = QPushButton(self.tr("Save as &PNG…"), self)
        top.addWidget(self.save_button)
        for button in (self.lasso_button, self.fit_button, self.save_button):
            button.setAutoDefault(False)  # Enter belongs to the map (the paper at the cross)
        lay.addLayout(top)
        self.view = MapView(self)
        lay.addWidget(self.view, 1)
        self.hint = QLabel(self)
        self.hint.setObjectName("mapHint")
        self.hint.setTextFormat(Qt.TextFormat.PlainText)
        self.hint.setText(self._keys_hint())
        lay.addWidget(self.hint)

        self.colour_by.currentIndexChanged.connect(lambda _i: self.view.set_mode(self.colour_by.currentData()))
        self.lasso_button.toggled.connect(self._lasso_toggled)
        self.fit_button.clicked.connect(self.view.fit)
        self.save_button.clicked.connect(self.save_dialog)
        self.view.paperActivated.connect(self.show_paper)
        self.view.papersLassoed.connect(self.select_papers)
        self.view.hovered.connect(self._hovered)
        window.edits.changed.connect(self._library_changed)

    # ---- computing ---------------------------------------------------------------------------
    def compute(self, topics: TopicSet | None = None) -> None:
        """The map of the window's shown list (on ``topics`` when given), in a worker."""
        ids = topics_ids(topics) if topics is not None else list(self.window_.model.ids)
        library = self.window_.library
        if self.worker.start(
            lambda _p, cancelled: build(library, ids, topics, cancelled),
            self._done,
            self._failed,
            again=lambda: self.compute(topics),
        ):
            self.summary.setText(self.tr("Placing {0} by similarity…").format(i18n.papers(len(ids))))
            self.save_button.setEnabled(False)

    def busy(self) -> bool:
        return self.worker.busy()

    def _failed(self, message: str) -> None:
        self.view.set_data(None, self.tr("No map: {0}").format(message.splitlines()[0]))
        self.summary.setText(self.tr("No map"))

    def _done(self, result: object) -> None:
        data: MapData = result  # type: ignore[assignment]
        pmap = data.pmap
        pmap.topics.keep_names(user_names(self.window_.window()))
        message = ""
        if not len(pmap):
            message = self.tr("No papers to map: the shown list is empty.")
        elif len(pmap) < 3:
            message = self.tr("Too few papers to tell topics apart: a map needs at least 3.")
        elif pmap.message:
            message = pmap.message
        self.view.set_data(data if len(pmap) else None, message)
        self.save_button.setEnabled(bool(len(pmap)))
        topics = len(pmap.topics.topics)
        self.summary.setText(
            self.tr("{0} in {1} topics").format(i18n.papers(len(pmap)), i18n.number(topics))
            if len(pmap)
            else self.tr("No papers")
        )

    def refresh_names(self) -> None:
        """Show the names the user gave (after a rename in the Topics dialog)."""
        if self.view.data is not None:
            self.view.data.pmap.topics.keep_names(user_names(self.window_.window()))
        self.view.update()

    def _library_changed(self, _change: object) -> None:
        """Decisions and tags changed: new colours for the same points, read in a worker."""
        data = self.view.data
        if not self.isVisible() or data is None or self._facets_job is not None:
            return
        library, ids = self.window_.library, cast("Sequence[int]", data.pmap.ids)  # an int64 array, read as one
        job = Job(lambda _p, _c: library.insights.map_facets(ids), self.window_.window())
        job.succeeded.connect(lambda facets: self.view.set_facets(facets))
        job.finished.connect(lambda: setattr(self, "_facets_job", None))
        keep_while_running(self.window_.window(), job)
        self._facets_job = job
        job.start()

    # ---- acting ------------------------------------------------------------------------------
    def _lasso_toggled(self, on: bool) -> None:
        self.view.lasso_mode = on

    def _hovered(self, title: str) -> None:
        self.hint.setText(title or self._keys_hint())

    def _keys_hint(self) -> str:
        return self.tr("Wheel or +/- zooms, drag or arrows pan, a click or Enter shows the paper, Shift+drag selects")

    def show_paper(self, pid: int) -> None:
        """Show the paper in the window (its row selected, the reader follows)."""
        if not self.window_.select_paper(pid):
            self.window_.status_message(self.tr("That paper is not in the table's list now"))

    def select_papers(self, ids: list[int]) -> None:
        """Select the lassoed papers in the table: the bulk panel acts on them."""
        n = self.window_.table.select_ids(ids) if ids else 0
        self.window_.status_message(self.tr("Selected {0} from the map").format(i18n.papers(n)))

    def save_png(self, path: str) -> bool:
        return self.view.save_png(path)

    def save_dialog(self) -> None:
        path, _filter = QFileDialog.getSaveFileName(
            self, self.tr("Save the map as PNG"), DEFAULT_FILE, self.tr("PNG images (*.png)")
        )
        if not path:
            return
        if not path.lower().endswith(".png"):
            path += ".png"
        if self.save_png(path):
            self.window_.status_message(self.tr("Saved the map to {0}").format(path))
        else:
            self.window_.status_message(self.tr("Could not write {0}").format(path))


def topics_ids(topics: TopicSet) -> list[int]:
    return sorted({pid for t in topics.topics for pid in t.ids})


def show_map(window: WindowLike, topics: TopicSet | None = None) -> MapDialog:
    """Open (or bring back) the map of the shown list (or of ``topics``), computed anew."""
    dialog = window.window().findChild(MapDialog)
    if dialog is None:
        dialog = MapDialog(window)
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    dialog.view.setFocus(Qt.FocusReason.OtherFocusReason)  # the keys work at once
    dialog.compute(topics)
    return dialog


def screenshot_view(window: WindowLike) -> QWidget:
    """For ``gui --screenshot --view map``: the map of the shown list once it is placed."""
    from PySide6.QtCore import QDeadlineTimer
    from PySide6.QtWidgets import QApplication

    dialog = show_map(window)
    deadline = QDeadlineTimer(60_000)
    while dialog.busy() and not deadline.hasExpired():
        QApplication.processEvents()
        if dialog.worker.job is not None:
            dialog.worker.job.wait(20)
    QApplication.processEvents()
    return dialog
