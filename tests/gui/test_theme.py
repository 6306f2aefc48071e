"""Light and dark themes: WCAG contrast measured from the rendered pixels of the sidebar, the tag
chips (table and reader), the status buttons and the note's Preview toggle; View → Theme."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QImage, QPalette
from PySide6.QtWidgets import QApplication, QToolButton, QTreeWidgetItem, QWidget

from desktop_app.core.library import Library
from desktop_app.gui import preferences, theme
from desktop_app.gui.theme import contrast_ratio, readable, relative_luminance, text_on

YELLOW = "#ffff00"  # the dialog's pure yellow: white text on it before (lightness 0.5)
NAVY = "#1a237e"  # one that needs white text


# ---- the pure functions ------------------------------------------------------------------------
def test_contrast_ratio_matches_known_wcag_values() -> None:
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#ffffff", "#000000") == pytest.approx(21.0)  # symmetric
    assert contrast_ratio("#777777", "#777777") == pytest.approx(1.0)
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the classic near miss
    assert contrast_ratio("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)  # the lightest grey at AA
    assert contrast_ratio("#ff0000", "#ffffff") == pytest.approx(4.0, abs=0.01)
    assert contrast_ratio("#0000ff", "#ffffff") == pytest.approx(8.59, abs=0.01)
    assert contrast_ratio((255, 255, 255), "#fff") == pytest.approx(1.0)
    assert relative_luminance("#ffffff") == pytest.approx(1.0)
    assert relative_luminance("#000") == 0.0


def test_text_on_any_fill_reaches_aa() -> None:
    assert text_on(YELLOW) == "#000000"  # not white on yellow
    assert text_on(NAVY) == "#ffffff"
    steps = range(0, 256, 17)
    worst = min(contrast_ratio(text_on((r, g, b)), (r, g, b)) for r in steps for g in steps for b in steps)
    assert worst >= 4.5


def test_readable_nudges_a_colour_to_aa_only_when_needed() -> None:
    assert readable("#1f2328", "#ffffff") == "#1f2328"
    fixed = readable("#9a9a9a", "#ffffff")
    assert contrast_ratio(fixed, "#ffffff") >= 4.5
    assert contrast_ratio(readable("#555555", "#202124"), "#202124") >= 4.5


@pytest.mark.parametrize("dark", [False, True])
def test_every_derived_text_colour_reaches_aa(dark: bool) -> None:
    k = theme.derive(theme.make_palette(dark))
    pairs = [
        (k.text, k.base),
        (k.muted, k.base),
        (k.muted, k.window),
        (k.button_text, k.button),
        (k.on_accent, k.accent),
        (k.sidebar_text, k.sidebar),
        (k.sidebar_heading, k.sidebar),
        (k.selection_text, k.selection),
        (k.chip_text, k.chip),
        (k.filter_chip_text, k.filter_chip),
        (k.note_box_text, k.note_box),
        (k.error, k.base),
    ]
    assert k.dark is dark
    for fg, bg in pairs:
        assert contrast_ratio(fg, bg) >= 4.5, (fg, bg)


# ---- measured from pixels ----------------------------------------------------------------------
def _pixels(image: QImage) -> list[tuple[int, int, int]]:
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    out = []
    for y in range(image.height()):
        for x in range(image.width()):
            c = image.pixelColor(x, y)
            out.append((c.red(), c.green(), c.blue()))
    return out


def measured_contrast(image: QImage) -> float:
    """The background is the commonest pixel; the text is the pixel farthest from it in
    luminance; their contrast ratio (1 when there is no text at all)."""
    pixels = _pixels(image)
    assert pixels, "nothing rendered"
    background = Counter(pixels).most_common(1)[0][0]
    bl = relative_luminance(background)
    text = max(pixels, key=lambda p: abs(relative_luminance(p) - bl))
    return contrast_ratio(text, background)


def _inner(widget: QWidget, dx: int, dy: int) -> QImage:
    image = widget.grab().toImage()
    return image.copy(QRect(dx, dy, image.width() - 2 * dx, image.height() - 2 * dy))


@pytest.fixture
def themed_dir(seeded_dir: Path) -> Path:
    with Library.open(seeded_dir) as lib:
        ids = lib.query("").ids
        lib.tags.add(ids[:4], ["to-read"])
        lib.tags.recolor("to-read", YELLOW)
        lib.tags.add(ids[:2], ["deep"])
        lib.tags.recolor("deep", NAVY)
        lib.tags.add(ids[:1], ["plain"])  # no colour: the theme's neutral chip
    return seeded_dir


@pytest.fixture
def reset_theme():
    """The theme manager belongs to the application: later tests get the system theme back."""
    yield
    m = theme.manager()
    m.override = None
    m.set_choice("system")


def _sidebar_item(win, label: str) -> QTreeWidgetItem:
    found = [
        it for it in win.sidebar._iter() if it is not win.sidebar.invisibleRootItem() and it.text(0).startswith(label)
    ]
    assert found, label
    return found[0]


def _sidebar_text(win, label: str) -> QImage:
    rect = win.sidebar.visualItemRect(_sidebar_item(win, label))
    return win.sidebar.viewport().grab(rect.adjusted(0, 1, 0, -1)).toImage()


def _table_chip(win, pid: int, fill: str) -> QImage:
    """The chip of that fill in the paper's Tags cell, cut out by its fill colour."""
    model = win.model
    col = next(c for c in range(model.columnCount()) if model.headerData(c, Qt.Orientation.Horizontal) == "Tags")
    win.table.setColumnWidth(col, 320)  # room for every chip
    QApplication.processEvents()
    index = model.index(model.row_of(pid), col)
    image = win.table.viewport().grab(win.table.visualRect(index)).toImage().convertToFormat(QImage.Format.Format_RGB32)
    want = tuple(int(fill[i : i + 2], 16) for i in (1, 3, 5))
    xs, ys = [], []
    for y in range(image.height()):
        for x in range(image.width()):
            c = image.pixelColor(x, y)
            if (c.red(), c.green(), c.blue()) == want:
                xs.append(x)
                ys.append(y)
    assert xs, f"no chip of {fill} in the Tags cell"
    top, bottom = min(ys), max(ys)
    h = bottom - top + 1
    # within the rounded ends, the chip's fill and its text only
    return image.copy(QRect(min(xs) + h // 2, top + 1, max(xs) - min(xs) - h, h - 2))


def _reader_chip(win, name: str) -> QToolButton:
    chips = [
        c for c in win.reader.tags.findChildren(QToolButton, "tagChip") if c.isVisible() and c.text().startswith(name)
    ]
    assert len(chips) == 1, name
    return chips[0]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_contrast_measured_from_pixels(
    make_window, themed_dir: Path, settings, qtbot, reset_theme, scheme: str
) -> None:
    preferences.put(settings, preferences.THEME, scheme)
    win = make_window(themed_dir)
    win.resize(1400, 900)
    pid = win.library.query("tag:to-read").ids[0]
    assert win.select_paper(pid)
    qtbot.waitUntil(lambda: win.reader.paper is not None and win.reader.paper.id == pid, timeout=5000)
    QApplication.processEvents()

    window_bg = win.palette().color(QPalette.ColorRole.Window)
    assert theme.is_dark(win.palette()) is (scheme == "dark")
    assert (relative_luminance(window_bg) < 0.1) is (scheme == "dark")  # the scheme really applied
    measured: dict[str, float] = {}
    # the sidebar: a heading, the selected entry ("All papers") and an unselected one
    for label in ("Tags", "All papers", "Unread"):
        measured[f"sidebar {label}"] = measured_contrast(_sidebar_text(win, label))
    # tag chips: the user's yellow and navy, and one without a colour, in the table and the reader
    measured["table chip yellow"] = measured_contrast(_table_chip(win, pid, YELLOW))
    measured["table chip navy"] = measured_contrast(_table_chip(win, pid, NAVY))
    for name in ("to-read", "deep", "plain"):
        chip = _reader_chip(win, name)
        measured[f"reader chip {name}"] = measured_contrast(_inner(chip, chip.height() // 2, 3))
    # the status buttons, checked and not
    status = win.reader.status
    win.reader.status.set_status("unread")
    QApplication.processEvents()
    for name, button in status.buttons.items():
        state = "checked" if button.isChecked() else "unchecked"
        measured[f"status {name} {state}"] = measured_contrast(_inner(button, 2, 2))
    win.reader.status.set_status("skimmed")
    QApplication.processEvents()
    measured["status skimmed checked"] = measured_contrast(_inner(status.buttons["skimmed"], 2, 2))
    measured["status unread unchecked"] = measured_contrast(_inner(status.buttons["unread"], 2, 2))
    # the note's Preview toggle, off and on
    toggle = win.reader.notes.preview_button
    measured["preview off"] = measured_contrast(_inner(toggle, 2, 2))
    toggle.setChecked(True)
    QApplication.processEvents()
    measured["preview on"] = measured_contrast(_inner(toggle, 2, 2))
    toggle.setChecked(False)

    low = {k: round(v, 2) for k, v in measured.items() if v < 4.5}
    assert not low, f"{scheme}: below WCAG AA 4.5:1: {low}"


def test_user_highlights_keep_dark_text_in_the_dark_theme(
    make_window, themed_dir: Path, settings, qtbot, reset_theme
) -> None:
    preferences.put(settings, preferences.THEME, "dark")
    with Library.open(themed_dir) as lib:
        pid = lib.query("").ids[0]
        words = lib.papers.get(pid).abstract_text.split()
        lib.highlights.add_quote(pid, " ".join(words[2:6]), "yellow", "")
    win = make_window(themed_dir)
    assert win.select_paper(pid)
    qtbot.waitUntil(lambda: win.reader.paper is not None and win.reader.paper.id == pid, timeout=5000)
    html = win.reader.abstract.document().toHtml()
    doc = win.reader.abstract.document()
    # the highlighted span's text colour is dark, the rest of the abstract follows the palette
    from PySide6.QtGui import QTextCursor

    h = win.reader.paper.highlights[0]
    cur = QTextCursor(doc)
    cur.setPosition(h.start + 1)
    inside = cur.charFormat()
    cur.setPosition(max(0, h.start - 1) if h.start > 1 else h.end + 2)
    outside = cur.charFormat()
    assert contrast_ratio(inside.foreground().color(), inside.background().color()) >= 4.5, html[:200]
    text = (
        outside.foreground().color()
        if outside.foreground().style() != Qt.BrushStyle.NoBrush
        else win.reader.abstract.palette().color(QPalette.ColorRole.Text)
    )
    base = win.reader.abstract.palette().color(QPalette.ColorRole.Base)
    assert contrast_ratio(text, base) >= 4.5


def test_view_theme_menu_applies_live_and_saves(make_window, themed_dir: Path, settings, qtbot, reset_theme) -> None:
    win = make_window(themed_dir)
    win.resize(1400, 900)
    pid = win.library.query("").ids[0]
    assert win.select_paper(pid)
    qtbot.waitUntil(lambda: win.reader.paper is not None and win.reader.paper.id == pid, timeout=5000)
    menu = win.findChild(QWidget, "themeMenu")
    actions = {a.objectName(): a for a in menu.actions()}
    assert set(actions) == {"theme_system", "theme_light", "theme_dark"}
    assert all(a.isCheckable() for a in actions.values())
    assert actions["theme_system"].isChecked()
    actions["theme_dark"].trigger()
    assert actions["theme_dark"].isChecked() and not actions["theme_system"].isChecked()
    assert preferences.theme(settings) == "dark"
    assert theme.is_dark(win.palette()) and theme.is_dark(win.sidebar.palette())
    QApplication.processEvents()
    # what keeps colours of its own follows at once: the abstract, the sidebar's headings, the chips
    abstract = win.reader.abstract.viewport()
    assert measured_contrast(abstract.grab(QRect(0, 0, abstract.width(), 80)).toImage()) >= 4.5
    assert measured_contrast(_sidebar_text(win, "Tags")) >= 4.5
    qtbot.waitUntil(
        lambda: any(c.isVisible() for c in win.reader.tags.findChildren(QToolButton, "tagChip")), timeout=3000
    )  # the chips are made again, shown on a later event-loop turn
    chip = _reader_chip(win, "plain")
    assert measured_contrast(_inner(chip, chip.height() // 2, 3)) >= 4.5
    assert QApplication.style().name().lower() in ("fusion", "")  # "" once wrapped by the style sheet
    actions["theme_light"].trigger()
    assert preferences.theme(settings) == "light" and not theme.is_dark(win.palette())
    actions["theme_system"].trigger()
    assert preferences.theme(settings) == "system"


def test_the_theme_follows_the_system_scheme_when_it_changes(qapp, reset_theme) -> None:
    m = theme.manager()
    m.set_choice("system")
    before = theme.generation()
    qapp.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Dark)  # as the platform does
    QApplication.processEvents()
    assert theme.generation() == before + 1  # applied again, from the (offscreen: light) palette
    m.set_choice("dark")
    before = theme.generation()
    qapp.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Light)
    QApplication.processEvents()
    assert theme.generation() == before  # an explicit choice ignores the system


def test_system_follows_a_dark_scheme_the_style_does_not(qapp, monkeypatch, reset_theme) -> None:
    """A desktop in dark mode whose Qt style keeps a light palette: the dark palette is used, and
    the platform's own style and palette come back when the desktop turns light again."""
    m = theme.manager()
    m.set_choice("system")
    assert not theme.is_dark(QApplication.palette())  # offscreen: a light platform palette
    monkeypatch.setattr(theme, "system_scheme", lambda: Qt.ColorScheme.Dark)
    qapp.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    QApplication.processEvents()
    assert theme.is_dark(QApplication.palette()) and theme.colors().dark and m.forced
    monkeypatch.setattr(theme, "system_scheme", lambda: Qt.ColorScheme.Light)
    qapp.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Light)
    QApplication.processEvents()
    assert not theme.is_dark(QApplication.palette()) and not theme.colors().dark and not m.forced
