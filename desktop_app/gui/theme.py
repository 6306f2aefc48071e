"""Light and dark: the palette, and every custom colour and the style sheet derived from it.

The choice is "system" (follow ``QStyleHints.colorScheme`` and its changes), "light" or "dark"
(the Fusion style with a complete palette of our own, the same on every platform, offscreen
included). Whatever the choice, the application's style sheet and the few colours painted by
hand (tag chips, greyed cells, the abstract's text) are computed from the palette in effect, so
no light colour is ever left on a dark background.

Contrast follows WCAG 2: :func:`contrast_ratio` of two colours, :func:`text_on` a fill (black or
white, whichever reads better: at least 4.58:1 on any fill), :func:`readable` a preferred text
colour nudged until it reaches 4.5:1.

Only QtCore and QtGui at import (QtWidgets is loaded by the application anyway, and only asked
for when the theme is applied or its menu built): start-up stays quick.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette

from desktop_app.gui import preferences
from desktop_app.gui.focus_style import FOCUS
from desktop_app.gui.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication, QMenu, QWidget

THEMES = preferences.THEMES  # "system", "light", "dark"
LABELS = {
    "system": QT_TRANSLATE_NOOP("Theme", "System"),
    "light": QT_TRANSLATE_NOOP("Theme", "Light"),
    "dark": QT_TRANSLATE_NOOP("Theme", "Dark"),
}
AA = 4.5  # WCAG AA for normal text

Rgb = tuple[int, int, int]


# ---- contrast (pure) -------------------------------------------------------------------------
def _rgb(color: str | QColor | Rgb) -> Rgb:
    if isinstance(color, tuple):
        return color
    if isinstance(color, str):
        c = color.strip().lstrip("#")
        if len(c) == 3:
            c = "".join(ch * 2 for ch in c)
        if len(c) != 6:
            raise ValueError(f"not a #rgb or #rrggbb colour: {color!r}")
        return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)
    return color.red(), color.green(), color.blue()


def relative_luminance(color: str | QColor | Rgb) -> float:
    """WCAG 2 relative luminance of an sRGB colour, 0 (black) to 1 (white)."""

    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = _rgb(color)
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast_ratio(c1: str | QColor | Rgb, c2: str | QColor | Rgb) -> float:
    """WCAG 2 contrast ratio of two colours: 1 (same) to 21 (black on white)."""
    a, b = relative_luminance(c1), relative_luminance(c2)
    hi, lo = max(a, b), min(a, b)
    return (hi + 0.05) / (lo + 0.05)


def text_on(fill: str | QColor | Rgb) -> str:
    """Black or white, whichever contrasts more with ``fill`` (never below 4.58:1)."""
    return "#000000" if contrast_ratio(fill, "#000000") >= contrast_ratio(fill, "#ffffff") else "#ffffff"


def _hex(rgb: Rgb) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def mix(c1: str | QColor | Rgb, c2: str | QColor | Rgb, t: float) -> str:
    """``c1`` moved ``t`` (0..1) of the way to ``c2``, as #rrggbb."""
    a, b = _rgb(c1), _rgb(c2)
    return _hex(tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True)))  # type: ignore[arg-type]


def readable(fg: str | QColor | Rgb, bg: str | QColor | Rgb, minimum: float = AA) -> str:
    """``fg`` if it reaches ``minimum`` contrast on ``bg``, else ``fg`` moved towards black or
    white (whichever suits ``bg``) just far enough."""
    if contrast_ratio(fg, bg) >= minimum:
        return _hex(_rgb(fg))
    target = text_on(bg)
    for step in range(1, 21):
        c = mix(fg, target, step / 20)
        if contrast_ratio(c, bg) >= minimum:
            return c
    return target


# ---- palettes --------------------------------------------------------------------------------
_R = QPalette.ColorRole
_G = QPalette.ColorGroup

_LIGHT = {
    _R.Window: "#f2f3f5",
    _R.WindowText: "#1f2328",
    _R.Base: "#ffffff",
    _R.AlternateBase: "#f6f8fa",
    _R.ToolTipBase: "#fffbe6",
    _R.ToolTipText: "#1f2328",
    _R.PlaceholderText: "#6b7075",
    _R.Text: "#1f2328",
    _R.Button: "#f7f8fa",
    _R.ButtonText: "#1f2328",
    _R.BrightText: "#ffffff",
    _R.Light: "#ffffff",
    _R.Midlight: "#e3e5e8",
    _R.Mid: "#c4c7cc",
    _R.Dark: "#9aa0a6",
    _R.Shadow: "#5f6368",
    _R.Highlight: "#1967d2",
    _R.HighlightedText: "#ffffff",
    _R.Link: "#1967d2",
    _R.LinkVisited: "#7b1fa2",
    _R.Accent: "#1967d2",
}
_DARK = {
    _R.Window: "#26272b",
    _R.WindowText: "#e8eaed",
    _R.Base: "#17181a",
    _R.AlternateBase: "#1f2023",
    _R.ToolTipBase: "#303134",
    _R.ToolTipText: "#e8eaed",
    _R.PlaceholderText: "#9aa0a6",
    _R.Text: "#e8eaed",
    _R.Button: "#33353a",
    _R.ButtonText: "#e8eaed",
    _R.BrightText: "#ffffff",
    _R.Light: "#4a4d52",
    _R.Midlight: "#3c4043",
    _R.Mid: "#5f6368",
    _R.Dark: "#141517",
    _R.Shadow: "#000000",
    _R.Highlight: "#3367b5",
    _R.HighlightedText: "#ffffff",
    _R.Link: "#8ab4f8",
    _R.LinkVisited: "#c58af9",
    _R.Accent: "#3367b5",
}
_DISABLED = {  # (light, dark) for the roles that change when disabled
    _R.WindowText: ("#9aa0a6", "#6f7378"),
    _R.Text: ("#9aa0a6", "#6f7378"),
    _R.ButtonText: ("#9aa0a6", "#6f7378"),
    _R.Highlight: ("#c4c7cc", "#4a4d52"),
    _R.HighlightedText: ("#5f6368", "#9aa0a6"),
    _R.Base: ("#f6f7f9", "#1c1d20"),
    _R.Button: ("#eef0f2", "#26282b"),
    _R.PlaceholderText: ("#b0b4b9", "#5f6368"),
}


def make_palette(dark: bool) -> QPalette:
    """A complete palette (every role, every group) for the light or the dark scheme."""
    pal = QPalette()
    for role, value in (_DARK if dark else _LIGHT).items():
        color = QColor(value)
        for group in (_G.Active, _G.Inactive, _G.Disabled):
            pal.setColor(group, role, color)
    for role, pair in _DISABLED.items():
        pal.setColor(_G.Disabled, role, QColor(pair[1 if dark else 0]))
    return pal


def is_dark(palette: QPalette) -> bool:
    """The palette is a dark one: its window is darker than its text."""
    return relative_luminance(palette.color(_R.Window)) < relative_luminance(palette.color(_R.WindowText))


# ---- the colours everything else uses ----------------------------------------------------------
@dataclass(frozen=True)
class Colors:
    """Custom colours, each derived from a palette (see :func:`derive`)."""

    dark: bool
    window: str
    base: str
    text: str
    muted: str  # secondary text (metadata, dates), AA on the base and on the window
    border: str
    button: str
    button_text: str
    accent: str  # the highlight colour: checked buttons
    on_accent: str
    sidebar: str
    sidebar_text: str
    sidebar_heading: str
    selection: str  # the selected row (table, sidebar): soft, the text stays the text colour
    selection_text: str
    chip: str  # a tag chip without a colour of its own
    chip_text: str
    filter_chip: str
    filter_chip_text: str
    note_box: str  # a reading-list item's note above the abstract
    note_box_text: str
    error: str
    indicator_border: str  # check boxes and radio buttons: 3:1 on the base (Fusion's are ~1:1 in the dark)
    star: str
    star_filled: str
    include_word: str  # triage's word lists: the background of an include word (text stays AA)
    exclude_word: str


def derive(palette: QPalette) -> Colors:
    """The custom colours for a palette; every text colour reaches AA on its background."""

    def c(role: QPalette.ColorRole) -> str:
        return palette.color(_G.Active, role).name()

    dark = is_dark(palette)
    window, base, text = c(_R.Window), c(_R.Base), c(_R.Text)
    accent = c(_R.Highlight)
    on_accent = readable(c(_R.HighlightedText), accent)
    sidebar = mix(window, base, 0.5)
    selection = mix(base, accent, 0.35 if dark else 0.18)
    chip = mix(base, text, 0.22 if dark else 0.1)
    filter_chip = mix(base, accent, 0.3 if dark else 0.13)
    note_box = mix(base, "#ffd54f", 0.16 if dark else 0.22)
    button = c(_R.Button)
    return Colors(
        dark=dark,
        window=window,
        base=base,
        text=text,
        muted=readable(readable(mix(text, base, 0.38), base), window),  # on fields and on the window
        border=mix(base, text, 0.3 if dark else 0.25),
        button=button,
        button_text=readable(c(_R.ButtonText), button),
        accent=accent,
        on_accent=on_accent,
        sidebar=sidebar,
        sidebar_text=readable(text, sidebar),
        sidebar_heading=readable(mix(text, sidebar, 0.3), sidebar),
        selection=selection,
        selection_text=readable(text, selection),
        chip=chip,
        chip_text=readable(text, chip),
        filter_chip=filter_chip,
        filter_chip_text=readable(mix(text, accent, 0.45), filter_chip),
        note_box=note_box,
        note_box_text=readable(text, note_box),
        error=readable("#f28b82" if dark else "#b3261e", base),
        indicator_border=readable(mix(text, base, 0.55), base, 3.0),
        star=readable(mix(text, base, 0.45), base, 3.0),  # a control, not text: 3:1
        star_filled=readable("#fbbc04" if dark else "#c98a00", window, 3.0),
        include_word=mix(base, "#34a853", 0.42 if dark else 0.3),
        exclude_word=mix(base, "#ea4335", 0.42 if dark else 0.28),
    )


def style_sheet(colors: Colors, *, fusion: bool = True) -> str:
    """The application's style sheet for these colours. ``fusion``: the Fusion style is in use,
    whose check boxes and radio buttons are drawn here (its own vanish on a dark background);
    a native style draws its own."""
    k = colors
    return (
        f"""
QTableView#paperTable {{ border: none; selection-background-color: {k.selection}; selection-color: {k.selection_text}; }}
QTreeWidget#sidebar {{ border: none; background: {k.sidebar}; color: {k.sidebar_text}; }}
QTreeWidget#sidebar::item {{ padding: 3px 2px; }}
QTreeWidget#sidebar::item:selected {{ background: {k.selection}; color: {k.selection_text}; }}
QLabel#metaLine {{ color: {k.muted}; }}
QLabel#keywordLine {{ color: {k.muted}; }}
QLabel#sectionLabel {{ font-weight: 600; color: {k.text}; }}
QLabel#noteState {{ color: {k.muted}; }}
QLabel#queryError {{ color: {k.error}; }}
QLabel#hintText {{ color: {k.muted}; }}
QLabel#welcomeText {{ color: {k.muted}; font-size: 14px; }}
QLabel#listItemNote {{ background: {k.note_box}; color: {k.note_box_text}; border-radius: 4px; padding: 3px 6px; }}
QPlainTextEdit#noteEditor, QTextBrowser#notePreview {{ border: 1px solid {k.border}; border-radius: 6px; padding: 4px; }}
QLineEdit#searchBox {{ padding: 5px 8px; border: 1px solid {k.border}; border-radius: 6px; }}
QLineEdit#titleEdit {{ background: transparent; }}
QToolButton[checkable="true"] {{ padding: 3px 10px; border: 1px solid {k.border}; background: {k.button}; color: {k.button_text}; }}
QToolButton[checkable="true"]:checked {{ background: {k.accent}; color: {k.on_accent}; border-color: {k.accent}; }}
QToolButton#filterChip {{ background: {k.filter_chip}; color: {k.filter_chip_text}; border-radius: 10px; padding: 2px 8px; border: none; }}
QWidget#ratingControl QToolButton {{ color: {k.star}; font-size: 16px; padding: 0 1px; }}
QWidget#ratingControl QToolButton[filled="true"] {{ color: {k.star_filled}; }}
QListWidget#highlightList {{ border: none; }}
{_indicators(colors) if fusion else ""}"""
        + FOCUS
    )  # last: the focused widget always shows it


def _check_image() -> str:
    """The check mark's file, for ``image: url(…)``; "" when it is not a plain file."""
    from importlib.resources import files

    path = files("desktop_app.resources").joinpath("icons", "check.svg")
    return str(path).replace("\\", "/") if path.is_file() else ""


def _indicators(k: Colors) -> str:
    """Check boxes (in dialogs and in lists) and radio buttons drawn with the palette's colours:
    an unticked box stays visible on a dark background."""
    image = _check_image()
    check = f' image: url("{image}");' if image else ""
    dot = (
        f"qradialgradient(cx:0.5, cy:0.5, radius:0.5, fx:0.5, fy:0.5, stop:0 {k.on_accent},"
        f" stop:0.4 {k.on_accent}, stop:0.5 {k.accent}, stop:1 {k.accent})"
    )
    boxes = "QCheckBox::indicator, QAbstractItemView::indicator"
    return f"""{boxes}, QRadioButton::indicator {{ width: 14px; height: 14px; border: 1px solid {k.indicator_border}; background: {k.base}; }}
{boxes} {{ border-radius: 3px; }}
QAbstractItemView::indicator {{ width: 11px; height: 11px; }}
QRadioButton::indicator {{ border-radius: 8px; }}
QCheckBox::indicator:hover, QAbstractItemView::indicator:hover, QRadioButton::indicator:hover {{ border-color: {k.accent}; }}
QCheckBox::indicator:checked, QAbstractItemView::indicator:checked {{ background: {k.accent}; border-color: {k.accent};{check} }}
QCheckBox::indicator:indeterminate, QAbstractItemView::indicator:indeterminate {{ background: {mix(k.base, k.accent, 0.5)}; }}
QRadioButton::indicator:checked {{ background: {dot}; border-color: {k.accent}; }}
QCheckBox::indicator:disabled, QAbstractItemView::indicator:disabled, QRadioButton::indicator:disabled {{ border-color: {k.border}; background: {k.window}; }}
"""


def document_css(colors: Colors) -> str:
    """Rules added after the reader's own document style sheet. The abstract's text is the
    palette's (Qt ignores a ``body`` colour there); references are muted in the theme's colour, and
    text on a user's highlight (a light fill in either scheme) stays dark."""
    return f".ref {{ color: {colors.muted}; }}\n.hl {{ color: #1f2328; }}\n"


def chip_colors(color: str) -> tuple[str, str]:
    """(fill, text) of a tag chip: the tag's colour with black or white text (AA on any fill),
    or the theme's neutral chip for a tag without a colour."""
    if not color or not QColor(color).isValid():
        k = colors()
        return k.chip, k.chip_text
    fill = QColor(color).name()
    return fill, text_on(fill)


# ---- applying ---------------------------------------------------------------------------------
_current: Colors | None = None
_generation = 0


def colors() -> Colors:
    """The colours in effect (derived from the application's palette once a theme is applied)."""
    global _current
    if _current is None:
        app = QGuiApplication.instance()
        _current = derive(QGuiApplication.palette() if app is not None else make_palette(False))
    return _current


def generation() -> int:
    """Grows by one each time the theme is applied: a widget keeping derived colours compares it."""
    return _generation


def system_scheme() -> Qt.ColorScheme:
    """The system's colour scheme as Qt knows it (Unknown where the platform does not say)."""
    return QGuiApplication.styleHints().colorScheme()


class _Follower(QObject):
    """Calls back when the widget is restyled by a new theme (its StyleChange event)."""

    def __init__(self, widget: QWidget, callback: Callable[[], None]) -> None:
        super().__init__(widget)
        self.callback = callback
        self.seen = _generation

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() in (QEvent.Type.StyleChange, QEvent.Type.PaletteChange) and self.seen != _generation:
            self.seen = _generation
            self.callback()
        return False


def follow(widget: QWidget, callback: Callable[[], None]) -> None:
    """Call ``callback`` (which redoes the widget's derived colours) each time a theme is applied,
    for as long as the widget lives. Not called now: the widget uses :func:`colors` as it is made."""
    widget.installEventFilter(_Follower(widget, callback))


class ThemeManager(QObject):
    """Applies the chosen theme to the application and follows the system's scheme."""

    changed = Signal()

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self.app = app
        self.choice = "system"
        self.override: str | None = None  # ``gui --theme``: wins over the saved preference
        # the platform's style, put back for "system" (read before any style sheet wraps it)
        self.native_style = app.style().name() or "fusion"
        self.forced = False  # our Fusion palette is in place
        self.dark = False
        self._pending = False
        app.styleHints().colorSchemeChanged.connect(self._scheme_changed)

    def set_choice(self, choice: str) -> None:
        self.choice = choice if choice in THEMES else "system"
        self.apply()

    def set_override(self, choice: str | None) -> None:
        """``gui --theme``: this theme for this run, whatever the preference (not saved)."""
        self.override = choice if choice in THEMES else None
        self.apply()

    def effective_choice(self) -> str:
        return self.override or self.choice

    def apply(self) -> None:
        global _current, _generation
        app, choice = self.app, self.effective_choice()
        hints = app.styleHints()
        if choice == "system":
            if hasattr(hints, "unsetColorScheme"):
                hints.unsetColorScheme()
            if self.forced:  # back to the platform's own style and palette
                if self.native_style.lower() != "fusion":
                    app.setStyle(self.native_style)
                app.setPalette(QPalette())
                self.forced = False
            scheme = system_scheme()
            platform_dark = is_dark(app.palette())
            want_dark = platform_dark if scheme == Qt.ColorScheme.Unknown else scheme == Qt.ColorScheme.Dark
            if want_dark != platform_dark:  # the style does not follow the scheme: ours does
                self._force(want_dark)
        else:
            if hasattr(hints, "setColorScheme"):  # native parts (title bar, file dialogs) follow
                hints.setColorScheme(Qt.ColorScheme.Dark if choice == "dark" else Qt.ColorScheme.Light)
            self._force(choice == "dark")
        _current = derive(app.palette())
        _generation += 1
        self.dark = _current.dark
        app.setStyleSheet(style_sheet(_current, fusion=self.forced or self.native_style.lower() == "fusion"))
        self.changed.emit()

    def _force(self, dark: bool) -> None:
        if not self.forced and self.native_style.lower() != "fusion":
            self.app.setStyle("Fusion")
        self.app.setPalette(make_palette(dark))
        self.forced = True

    def _scheme_changed(self, *_args: object) -> None:
        if self.effective_choice() != "system" or self._pending:
            return
        self._pending = True  # the platform's palette may change just after the signal

        def later() -> None:
            self._pending = False
            if self.effective_choice() == "system":
                self.apply()

        QTimer.singleShot(0, self, later)


_manager: ThemeManager | None = None


def manager() -> ThemeManager:
    """The application's theme manager (made, and the system theme applied, on first use)."""
    global _manager
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if _manager is None or _manager.app is not app:
        _manager = ThemeManager(app)  # type: ignore[arg-type]
        _manager.apply()
    return _manager


def install(app: QApplication) -> None:
    """Called when the application is made: the system theme and its style sheet."""
    del app
    manager()


def apply_preference(settings: QSettings) -> None:
    """Apply the saved theme (``gui --theme`` wins), unless it is the one in effect."""
    m = manager()
    choice = preferences.theme(settings)
    if choice != m.choice:
        m.set_choice(choice)


def add_theme_menu(menu: QMenu, settings: QSettings) -> QMenu:
    """View → Theme: System, Light, Dark; applied at once and saved."""
    from PySide6.QtGui import QAction, QActionGroup

    sub = menu.addMenu(QCoreApplication.translate("Theme", "&Theme"))
    sub.setObjectName("themeMenu")
    group = QActionGroup(sub)
    group.setExclusive(True)
    m = manager()
    actions: dict[str, QAction] = {}
    for name in THEMES:
        a = QAction(QCoreApplication.translate("Theme", LABELS[name]), sub)
        a.setObjectName(f"theme_{name}")
        a.setCheckable(True)
        a.setData(name)
        group.addAction(a)
        sub.addAction(a)
        actions[name] = a

    def chosen(action: QAction) -> None:
        name = str(action.data())
        preferences.put(settings, preferences.THEME, name)
        m.override = None
        m.set_choice(name)

    def sync() -> None:
        actions[m.effective_choice()].setChecked(True)

    group.triggered.connect(chosen)
    sub.aboutToShow.connect(sync)  # a --theme override or a later change shows when opened
    sync()
    return sub
