"""GUI fixtures: a real MainWindow on a real library, with settings in a temporary file."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test under tests/gui carries the ``gui`` marker (``-m "not gui"`` leaves them out).
    This hook sees the whole session's items, so it marks only those whose file is here."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.gui)


@pytest.fixture(autouse=True, scope="session")
def _english_window(qapp):
    """The window in English whatever this machine's locale, with the English catalogue's plural
    forms ("1 paper", "2 papers"), as application() gives a normal start (gui/i18n.py)."""
    from desktop_app.gui import i18n

    i18n.install(qapp, "en")


@pytest.fixture(autouse=True, scope="session")
def _clipboard_emptied_at_the_end(qapp):
    """The offscreen platform keeps the clipboard's data in a C++ global that is destroyed by the
    C library's exit, after Python has shut down; a QMimeData made in Python (the paper menu's
    copies) deleted then crashes the exit with SIGSEGV. Emptying the clipboard at the end of the
    session deletes it while Python still runs. (xcb's clipboard goes with the application.)"""
    yield
    qapp.clipboard().clear()


@pytest.fixture(autouse=True)
def _system_theme_after():
    """The theme belongs to the application: a test that chose light or dark gives the system
    theme back, so the next test starts as a fresh start would."""
    yield
    from desktop_app.gui import theme

    m = theme._manager
    if m is not None and m.effective_choice() != "system":
        m.override = None
        m.set_choice("system")


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def make_window(qtbot, settings: QSettings):
    """Open (and afterwards close) main windows on library folders."""
    from desktop_app.gui.launch import close_window, open_main_window

    opened = []

    def make(folder: Path):
        win = open_main_window(folder, settings)
        qtbot.addWidget(win)
        qtbot.waitUntil(lambda: win.files.index_ready, timeout=60000)
        opened.append(win)
        return win

    def close(win) -> None:
        close_window(win)
        opened.remove(win)

    make.close = close
    yield make
    for win in list(opened):
        close_window(win)


@pytest.fixture
def seeded_dir(library_dir: Path, seed_paths: list[Path]) -> Path:
    from desktop_app.core.library import Library

    with Library.open(library_dir) as lib:
        assert lib.imports.from_files(seed_paths).added == 76
    return library_dir
