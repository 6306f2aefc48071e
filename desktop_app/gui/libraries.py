"""Which library a window shows: switching to another folder, making a new library, and the
recent libraries (File → Open Recent ▸).

A window started by ``launch.run_gui`` holds its library folder's lock (a ``QLockFile``) and the
socket that second starts talk to; :func:`hold` hangs them on the window so that a switch can
hand them over. The switch itself is ``launch.switch_library`` (it opens and closes windows);
the window reaches it through ``win.library_opener``, set when launch opens the window.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QLockFile, QObject, QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox, QWidget

from desktop_app.core.changelog.changes import is_server_url
from desktop_app.gui import preferences as prefs
from desktop_app.gui.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from desktop_app.gui.window_protocol import WindowLike

LOCK_NAME = ".marginalia.lock"
DB_NAME = "library.sqlite"
LOCK_WAIT_MS = 100


class SwitchRefused(Exception):
    """The folder cannot be opened as a library; the message is for the user."""


# ---- the recent list -------------------------------------------------------------------------
def recent_libraries(settings: QSettings) -> list[str]:
    """The recent library folders, most recent first (at most RECENT_LIBRARIES_MAX)."""
    return prefs.get_list(settings, prefs.RECENT_LIBRARIES)[: prefs.RECENT_LIBRARIES_MAX]


def remember_library(settings: QSettings, folder: str | Path) -> None:
    """Put ``folder`` first in the recent list (once); a server's URL without its password."""
    if is_server_url(folder):
        from desktop_app.core.shared_library import redact

        path = redact(str(folder))
    else:
        path = str(Path(folder).expanduser().absolute())
    rest = [f for f in recent_libraries(settings) if f != path]
    prefs.put(settings, prefs.RECENT_LIBRARIES, [path, *rest][: prefs.RECENT_LIBRARIES_MAX])


def forget_library(settings: QSettings, folder: str) -> None:
    prefs.put(settings, prefs.RECENT_LIBRARIES, [f for f in recent_libraries(settings) if f != folder])


# ---- locks ------------------------------------------------------------------------------------
def library_lock(folder: Path) -> QLockFile:
    """The lock a window holds on its library folder (the same file ``run_gui`` locks)."""
    lock = QLockFile(str(folder / LOCK_NAME))
    lock.setStaleLockTime(0)  # only a dead process's lock is stale, however old
    return lock


def hold(win: WindowLike, lock: QLockFile | None, server: QObject | None = None) -> None:
    """The window owns this (locked) lock and this second-start server until :func:`release`."""
    win.hold_instance(lock, server)


def release(win: WindowLike) -> None:
    """Unlock the window's library lock and close its second-start server (if it has them)."""
    lock, server = getattr(win, "library_lock", None), getattr(win, "instance_server", None)
    if server is not None:
        server.close()
    if lock is not None:
        lock.unlock()
    hold(win, None, None)


# ---- checks -----------------------------------------------------------------------------------
def refusal(folder: Path, *, new: bool = False) -> str | None:
    """Why ``folder`` cannot become the window's library, or None. Acceptable: a library (its
    database is there), an empty folder, or a folder yet to be made; ``new`` accepts no library."""
    if folder.exists() and not folder.is_dir():
        return QCoreApplication.translate("Libraries", "{0} is a file, not a folder.").format(folder)
    if (folder / DB_NAME).exists():
        if new:
            return QCoreApplication.translate(
                "Libraries", "{0} already holds a library: open it with Switch library… instead."
            ).format(folder)
    elif folder.is_dir() and any(p.name != LOCK_NAME for p in folder.iterdir()):
        return QCoreApplication.translate(
            "Libraries",
            "{0} is neither a Marginalia library nor empty. Choose an empty folder to make a new library there.",
        ).format(folder)
    probe = folder if folder.exists() else next((p for p in folder.parents if p.exists()), None)
    if probe is None or not os.access(probe, os.W_OK | os.X_OK):
        return QCoreApplication.translate(
            "Libraries", "{0} cannot be written by this user: choose a folder you may write."
        ).format(folder)
    if (folder / DB_NAME).exists() and not os.access(folder / DB_NAME, os.R_OK | os.W_OK):
        return QCoreApplication.translate(
            "Libraries", "The library database in {0} cannot be written by this user."
        ).format(folder)
    return None


# ---- switching ------------------------------------------------------------------------------
def ask_folder(win: WindowLike, *, new: bool = False, parent: QWidget | None = None) -> str:
    """The folder the user chose to switch to ("" on Cancel)."""
    title = (
        QCoreApplication.translate("Libraries", "New library: choose an empty folder")
        if new
        else QCoreApplication.translate("Libraries", "Switch library: choose a library or an empty folder")
    )
    return QFileDialog.getExistingDirectory(parent or win.window(), title, str(Path(win.library.folder).parent))


def choose_and_switch(win: WindowLike, *, new: bool = False) -> WindowLike | None:
    """Ask for a folder (an existing library, or an empty folder for a new one) and switch to it;
    a refusal is said in a message box. The new window, or None."""
    folder = ask_folder(win, new=new)
    return switch_or_say(win, folder, new=new) if folder else None


def switch_or_say(
    win: WindowLike, folder: str | Path, *, new: bool = False, parent: QWidget | None = None
) -> WindowLike | None:
    """Switch library (``win.library_opener``: launch.switch_library); a refusal is said in a
    (non-blocking) message box named ``libraryRefused``. The new window, or None."""
    # launch.switch_library, set by launch.open_main_window
    opener: Callable[[str | Path, bool], WindowLike | None] | None = getattr(win, "library_opener", None)
    try:
        if opener is None:
            raise SwitchRefused(QCoreApplication.translate("Libraries", "This window cannot open another library."))
        return opener(folder, new)
    except SwitchRefused as exc:
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            QCoreApplication.translate("Libraries", "Open library"),
            str(exc),
            parent=parent or win.window(),
        )
        box.setObjectName("libraryRefused")
        box.open()
        return None


# ---- the File menu ----------------------------------------------------------------------------
def add_library_menu(win: WindowLike, menu: QMenu) -> QMenu:
    """New library…, Switch library… and Open Recent ▸ in the window's File menu."""
    for text, new, name in (
        (QT_TRANSLATE_NOOP("Libraries", "New library…"), True, "newLibraryAction"),
        (QT_TRANSLATE_NOOP("Libraries", "Switch library…"), False, "switchLibraryAction"),
    ):
        action = QAction(QCoreApplication.translate("Libraries", text), win.window())
        action.setObjectName(name)
        action.triggered.connect(lambda _=False, n=new: choose_and_switch(win, new=n))
        menu.addAction(action)
    connect = QAction(QCoreApplication.translate("SharedDesk", "Connect to a shared library…"), win.window())
    connect.setObjectName("connectSharedAction")
    connect.triggered.connect(lambda _=False: _connect_shared(win))
    menu.addAction(connect)
    recent = menu.addMenu(QCoreApplication.translate("Libraries", "Open &Recent"))
    recent.setObjectName("recentMenu")
    recent.aboutToShow.connect(lambda: fill_recent_menu(win, recent))  # filled when opened, not at start-up
    return recent


def _connect_shared(win: WindowLike) -> None:
    from desktop_app.gui.shared_desk import connect_and_switch

    connect_and_switch(win)


def fill_recent_menu(win: WindowLike, menu: QMenu) -> None:
    """The recent libraries, most recent first; a folder gone since is shown greyed (and is
    dropped from the list); the current library is checked."""
    menu.clear()
    current = getattr(win.library, "location", None) or str(Path(win.library.folder).absolute())
    folders = recent_libraries(win.settings)
    for folder in folders:
        action = menu.addAction(folder)
        if not is_server_url(folder) and not (Path(folder) / DB_NAME).is_file():
            action.setEnabled(False)
            action.setToolTip(QCoreApplication.translate("Libraries", "This library is not there any more"))
            forget_library(win.settings, folder)
            continue
        action.setCheckable(True)
        action.setChecked(folder == current)
        action.triggered.connect(lambda _=False, f=folder: switch_or_say(win, f))
    if not folders:
        menu.addAction(QCoreApplication.translate("Libraries", "No recent libraries")).setEnabled(False)
