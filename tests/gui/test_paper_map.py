"""View → Map on a real window: points and topic names painted in light and dark, a click shows
the paper, a lasso selects the papers inside (the bulk panel shows), Save as PNG, keyboard, the
colour modes, 0/1/2 papers, a topic renamed in the Topics dialog shown on the map."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QColor, QImage

from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record


def _open_map(win, qtbot):
    from desktop_app.gui.paper_map import MapDialog

    win.findChild(QAction, "mapAction").trigger()
    dialog = win.findChild(MapDialog)
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: not dialog.busy(), timeout=60000)
    qtbot.waitExposed(dialog)
    return dialog


def _hover(view, at: QPointF) -> None:
    """A mouse move without a button (QTest's mouseMove reaches no widget offscreen then)."""
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    QApplication.sendEvent(
        view,
        QMouseEvent(
            QEvent.Type.MouseMove,
            at,
            view.mapToGlobal(at),
            Qt.MouseButton.NoButton,
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
        ),
    )


def _pixels(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    return np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine() // 4, 4)[..., :3]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_map_paints_points_and_topic_names(make_window, seeded_dir: Path, qtbot, scheme: str) -> None:
    from desktop_app.gui import theme

    theme.manager().set_override(scheme)
    win = make_window(seeded_dir)
    win.show()
    qtbot.waitExposed(win)
    dialog = _open_map(win, qtbot)
    view = dialog.view
    assert view.point_count() == 76 and "76 papers" in dialog.summary.text()
    k = theme.colors()
    assert k.dark is (scheme == "dark")
    image = view.render_points()  # the points' layer
    px = _pixels(image)
    background = np.array([QColor(k.base).red(), QColor(k.base).green(), QColor(k.base).blue()])
    ratio = image.devicePixelRatio()
    xy = view.screen_points()
    on = [(x, y) for x, y in xy if 2 < x < view.width() - 2 and 2 < y < view.height() - 2]
    assert len(on) == 76
    differs = [np.abs(px[int(y * ratio), int(x * ratio)].astype(int) - background).sum() > 60 for x, y in on]
    assert all(differs)  # every point is painted
    image = view.grab().toImage()  # the widget as shown: points, names
    px = _pixels(image)
    assert (
        np.mean([np.abs(px[int(y * ratio), int(x * ratio)].astype(int) - background).sum() > 60 for x, y in on]) >= 0.8
    )  # a few points sit under a name's box
    # a topic's name: its box at the topic's centre has text pixels of the text colour
    text = np.array([QColor(k.text).red(), QColor(k.text).green(), QColor(k.text).blue()])
    pmap = view.data.pmap
    for centre in view.to_screen(pmap.centres[:1]):
        x, y = int(centre[0] * ratio), int(centre[1] * ratio)
        patch = px[y - 6 : y + 6, x - 30 : x + 30].astype(int)
        near_text = (np.abs(patch - text).sum(axis=2) < 120).sum()
        assert near_text >= 15, near_text
    # the points' colours contrast with the background
    for colour in view._palette:
        assert theme.contrast_ratio(colour.name(), k.base) >= 3.0


def test_click_shows_the_paper_and_a_lasso_selects(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    win.show()
    qtbot.waitExposed(win)
    dialog = _open_map(win, qtbot)
    view = dialog.view
    pmap = view.data.pmap
    xy = view.screen_points()
    # a point away from the names' boxes
    row = max(range(len(xy)), key=lambda r: np.linalg.norm(xy[r] - view.to_screen(pmap.centres)[pmap.topic[r]]))
    pid = int(pmap.ids[row])
    _hover(view, QPointF(*xy[row]))
    assert view._hover == row
    assert dialog.hint.text() == win.library.papers.get(pid).title  # the hovered title, as plain text
    qtbot.mouseClick(
        view, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(int(xy[row][0]), int(xy[row][1]))
    )
    assert win.current_id() == pid

    # a lasso around the first topic's disc (Shift+drag)
    number = 0
    centre = view.to_screen(pmap.centres[[number]])[0]
    radius = float(pmap.radii[number]) * view._pixels_per_unit() + 6
    ring = [
        QPoint(int(centre[0] + radius * np.cos(a)), int(centre[1] + radius * np.sin(a)))
        for a in np.linspace(0, 2 * np.pi, 24)
    ]
    wanted = sorted(int(i) for i in pmap.ids[pmap.topic == number])
    got: list[list[int]] = []
    view.papersLassoed.connect(got.append)
    shift = Qt.KeyboardModifier.ShiftModifier
    qtbot.mousePress(view, Qt.MouseButton.LeftButton, shift, ring[0])
    for p in ring[1:]:
        qtbot.mouseMove(view, p)
    qtbot.mouseRelease(view, Qt.MouseButton.LeftButton, shift, ring[-1])
    assert got and sorted(got[0]) == wanted
    assert sorted(win.table.selected_ids()) == wanted
    qtbot.waitUntil(win.bulk.bulk_shown, timeout=3000)

    # the lasso button: a plain drag draws a lasso too
    dialog.lasso_button.click()
    assert view.lasso_mode
    assert sorted(view.ids_in([QPointF(p) for p in ring])) == wanted


def test_keyboard_save_and_colour_modes(make_window, seeded_dir: Path, qtbot, tmp_path: Path) -> None:
    win = make_window(seeded_dir)
    win.show()
    qtbot.waitExposed(win)
    dialog = _open_map(win, qtbot)
    view = dialog.view
    view.setFocus()
    qtbot.waitUntil(view.hasFocus, timeout=3000)
    before = view.to_screen(np.zeros((1, 2)))[0].copy()
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert view.to_screen(np.zeros((1, 2)))[0][0] < before[0]  # the map moved left: the view went right
    scale = view._scale
    qtbot.keyClick(view, Qt.Key.Key_Plus)
    assert view._scale > scale
    qtbot.keyClick(view, Qt.Key.Key_Minus)
    qtbot.keyClick(view, Qt.Key.Key_0)
    assert view._scale == 1.0
    qtbot.keyClick(view, Qt.Key.Key_Return)
    nearest = int(view.data.pmap.ids[view.nearest_to_centre()])
    assert win.current_id() == nearest

    path = tmp_path / "map.png"
    assert dialog.save_png(str(path))
    saved = QImage(str(path))
    assert not saved.isNull() and saved.width() >= view.width() and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    ids = view.data.pmap.ids.tolist()
    dialog.colour_by.setCurrentIndex(dialog.colour_by.findData("decision"))
    assert view.mode == "decision" and len(set(view._colours.tolist())) == 1  # all undecided
    win.edits.set_decision("keep", ids[:3])  # the map reads the new decisions in a worker
    qtbot.waitUntil(lambda: (view.data.facets.decisions[:3] == 1).all(), timeout=10000)
    assert len(set(view._colours.tolist())) == 2  # keep and undecided
    dialog.colour_by.setCurrentIndex(dialog.colour_by.findData("tag"))
    assert view.mode == "tag" and view._legend


def _small_library(folder: Path, n: int) -> Path:
    texts = [
        ("Clonidine for pain after tonsillectomy", "Oral clonidine compared with fentanyl in children."),
        ("Graph neural networks for molecules", "Message passing networks predict molecular properties."),
    ]
    with Library.open(folder) as lib:
        records = [Record(title=t, abstract=a) for t, a in texts[:n]]
        if records:
            lib.imports.from_records([("test", ParseResult(format="csv", records=records))])
    return folder


@pytest.mark.parametrize("n", [0, 1, 2])
def test_zero_one_or_two_papers_give_a_message(make_window, library_dir: Path, qtbot, n: int) -> None:
    win = make_window(_small_library(library_dir, n))
    win.show()
    qtbot.waitExposed(win)
    dialog = _open_map(win, qtbot)
    view = dialog.view
    assert view.point_count() == n and view.message
    assert ("No papers" in view.message) if n == 0 else ("Too few" in view.message)
    assert dialog.save_button.isEnabled() is (n > 0)
    view.grab()  # paints without an error


def test_a_topic_renamed_in_the_topics_dialog_is_the_maps_and_the_tags(
    make_window, seeded_dir: Path, qtbot, monkeypatch
) -> None:
    from PySide6.QtWidgets import QInputDialog

    from desktop_app.gui.paper_map import MapDialog
    from desktop_app.gui.topics_view import TopicsDialog

    win = make_window(seeded_dir)
    win.show()
    qtbot.waitExposed(win)
    win.findChild(QAction, "topicsAction").trigger()
    topics = win.findChild(TopicsDialog)
    qtbot.waitUntil(lambda: topics.topics is not None and not topics.busy(), timeout=60000)
    first = topics.topics.topics[0]
    item = topics.tree.topLevelItem(0)
    topics.tree.setCurrentItem(item)
    topics.tree.setFocus()
    qtbot.keyClick(topics.tree, Qt.Key.Key_F2)  # edits the name in place
    editor = topics.tree.viewport().focusWidget()
    assert editor is not None and editor is not topics.tree
    editor.selectAll()
    qtbot.keyClicks(editor, "Learning  theory")
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # the delegate commits a moment later
    qtbot.waitUntil(lambda: first.name != topics.topics.names_given.get(1, first.name), timeout=3000)
    assert first.name == "Learning theory" and item.text(0) == "Learning theory"

    topics.map_button.click()
    dialog = win.findChild(MapDialog)
    qtbot.waitUntil(lambda: not dialog.busy() and dialog.view.data is not None, timeout=60000)
    assert dialog.view.data.pmap.topics.topics[0].name == "Learning theory"
    assert dialog.view.point_count() == sum(t.size for t in topics.topics.topics)

    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: (k.get("text", ""), True))
    topics.save_as_tag()  # the name offered is the user's
    assert sorted(win.library.query('tag:"topics/Learning theory"').ids) == sorted(first.ids)

    # a second set (Recompute, or the map from View → Map) keeps the user's name
    win.findChild(QAction, "mapAction").trigger()
    qtbot.waitUntil(lambda: not dialog.busy(), timeout=60000)
    assert "Learning theory" in [t.name for t in dialog.view.data.pmap.topics.topics]


def test_a_large_list_is_mapped_in_a_child_process(make_window, seeded_dir: Path, qtbot, monkeypatch) -> None:
    from desktop_app.core.insights import child_worker
    from desktop_app.gui.topics_view import TopicsDialog

    monkeypatch.delenv("MARGINALIA_MAP_WORKER", raising=False)
    monkeypatch.setattr(child_worker, "PROCESS_ABOVE", 10)  # 76 papers count as a large list here
    calls: list[str] = []
    real = child_worker.run_in_child
    monkeypatch.setattr(child_worker, "run_in_child", lambda work, *a: (calls.append(work.__name__), real(work, *a))[1])
    win = make_window(seeded_dir)
    win.show()
    qtbot.waitExposed(win)
    dialog = _open_map(win, qtbot)
    assert calls == ["map_of_library"] and dialog.view.point_count() == 76
    assert dialog.view.data.facets.titles[0] == win.library.papers.get(int(dialog.view.data.pmap.ids[0])).title
    win.findChild(QAction, "topicsAction").trigger()
    topics = win.findChild(TopicsDialog)
    qtbot.waitUntil(lambda: topics.topics is not None and not topics.busy(), timeout=60000)
    assert calls[-1] == "topics_of_library" and sum(t.size for t in topics.topics.topics) == 76


def test_the_screenshot_view_waits_for_the_map(make_window, seeded_dir: Path) -> None:
    from desktop_app.gui.paper_map import MapDialog, screenshot_view

    win = make_window(seeded_dir)
    dialog = screenshot_view(win)
    assert isinstance(dialog, MapDialog) and not dialog.busy() and dialog.view.point_count() == 76
    assert not dialog.grab().isNull()
