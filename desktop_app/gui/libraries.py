"""Which library a window shows: switching to another folder, making a new library, and the
recent libraries (File → Open Recent ▸).

A window started by ``launch.run_gui`` holds its library folder's lock (a ``QLockFile``) and the
socket that second starts talk to; :func:`hold` hangs them on the window so that a switch can
hand them over: the new folder is locked first (refused when another window holds it), the new
window is opened, then the old window is closed (its note flushed, its jobs waited for, its
Library closed) and its lock and socket released.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QLockFile, QObject, QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox, QWidget

from desktop_app.gui import preferences as prefs

if TYPE_CHECKING:
    from desktop_app.gui.main_window import MainWindow

LOCK_NAME = ".marginalia.lock"
DB_NAME = "library.sqlite"
LOCK_WAIT_MS = 100


class SwitchRefused(Exception):
    """The folder cannot be opened as a library; the message is for the user."""


# ---- the recent list -------------------------------------------------------------------------
def recent_libraries(settings: QSettings) -> list[str]:
    """The recent library folders, most recent first (at most RECENT_LIBRARIES_MAX)."""
    return prefs.get_list(settings, prefs.RECENT_LIBRARIES)[:prefs.RECENT_LIBRARIES_MAX]


def remember_library(settings: QSettings, folder: str | Path) -> None:
    """Put ``folder`` first in the recent list (once)."""
    path = str(Path(folder).expanduser().absolute())
    rest = [f for f in recent_libraries(settings) if f != path]
    prefs.put(settings, prefs.RECENT_LIBRARIES, [path, *rest][:prefs.RECENT_LIBRARIES_MAX])


def forget_library(settings: QSettings, folder: str) -> None:
    prefs.put(settings, prefs.RECENT_LIBRARIES, [f for f in recent_libraries(settings) if f != folder])


# ---- locks ------------------------------------------------------------------------------------
def library_lock(folder: Path) -> QLockFile:
    """The lock a window holds on its library folder (the same file ``run_gui`` locks)."""
    lock = QLockFile(str(folder / LOCK_NAME))
    lock.setStaleLockTime(0)  # only a dead process's lock is stale, however old
    return lock


def hold(win: MainWindow, lock: QLockFile | None, server: QObject | None = None) -> None:
    """The window owns this (locked) lock and this second-start server until :func:`release`."""
    win.library_lock = lock
    win.instance_server = server


def release(win: MainWindow) -> None:
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
        return f"{folder} is a file, not a folder."
    if (folder / DB_NAME).exists():
        if new:
            return f"{folder} already holds a library: open it with Switch library… instead."
    elif folder.is_dir() and any(p.name != LOCK_NAME for p in folder.iterdir()):
        return (f"{folder} is neither a Marginalia library nor empty. Choose an empty folder "
                "to make a new library there.")
    probe = folder if folder.exists() else next((p for p in folder.parents if p.exists()), None)
    if probe is None or not os.access(probe, os.W_OK | os.X_OK):
        return f"{folder} cannot be written by this user: choose a folder you may write."
    if (folder / DB_NAME).exists() and not os.access(folder / DB_NAME, os.R_OK | os.W_OK):
        return f"The library database in {folder} cannot be written by this user."
    return None


# ---- switching ------------------------------------------------------------------------------
def switch_library(win: MainWindow, folder: str | Path, *, new: bool = False) -> MainWindow:
    """Open ``folder`` (a library, or an empty folder: a new library) in a new window and close
    ``win``. Raises :class:`SwitchRefused` (``win`` untouched) when it cannot be opened."""
    from desktop_app.core.errors import LibraryError
    from desktop_app.gui.launch import (
        close_window,
        open_forwarded,
        open_main_window,
        serve_second_starts,
    )

    target = Path(folder).expanduser().absolute()
    if target == Path(win.library.folder).absolute():
        if new:
            raise SwitchRefused(f"{target} is the library open in this window.")
        return win
    problem = refusal(target, new=new)
    if problem is not None:
        raise SwitchRefused(problem)
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SwitchRefused(f"Cannot create the folder {target}: {exc.strerror}") from exc
    lock = library_lock(target)
    if not lock.tryLock(LOCK_WAIT_MS):
        raise SwitchRefused(f"The library {target} is open in another Marginalia window. "
                            "Close it there first.")
    win.reader.notes.flush()  # closing flushes too; this keeps the note if opening fails below
    try:
        new_win = open_main_window(target, win.settings)
    except Exception as exc:  # noqa: BLE001 - whatever stops the open is said, the old window stays
        lock.unlock()
        text = str(exc) if isinstance(exc, LibraryError | OSError) else f"{type(exc).__name__}: {exc}"
        raise SwitchRefused(f"Cannot open the library {target}:\n{text}") from exc
    had_server = getattr(win, "instance_server", None) is not None
    win.replaced_by = new_win  # launch.current_window follows it (second starts, the end of run_gui)
    close_window(win)
    release(win)
    server = serve_second_starts(target) if had_server else None
    if server is not None:
        server.set_handler(lambda paths: open_forwarded(new_win, paths))
    hold(new_win, lock, server)
    return new_win


def ask_folder(win: MainWindow, *, new: bool = False, parent: QWidget | None = None) -> str:
    """The folder the user chose to switch to ("" on Cancel)."""
    title = "New library: choose an empty folder" if new else "Switch library: choose a library or an empty folder"
    return QFileDialog.getExistingDirectory(parent or win, title, str(Path(win.library.folder).parent))


def choose_and_switch(win: MainWindow, *, new: bool = False) -> MainWindow | None:
    """Ask for a folder (an existing library, or an empty folder for a new one) and switch to it;
    a refusal is said in a message box. The new window, or None."""
    folder = ask_folder(win, new=new)
    return switch_or_say(win, folder, new=new) if folder else None


def switch_or_say(win: MainWindow, folder: str | Path, *, new: bool = False,
                  parent: QWidget | None = None) -> MainWindow | None:
    """:func:`switch_library`, a refusal said in a (non-blocking) message box named
    ``libraryRefused``. The new window, or None."""
    try:
        return switch_library(win, folder, new=new)
    except SwitchRefused as exc:
        box = QMessageBox(QMessageBox.Icon.Warning, "Open library", str(exc), parent=parent or win)
        box.setObjectName("libraryRefused")
        box.open()
        return None


# ---- the File menu ----------------------------------------------------------------------------
def add_library_menu(win: MainWindow, menu: QMenu) -> QMenu:
    """New library…, Switch library… and Open Recent ▸ in the window's File menu."""
    for text, new, name in (("New library…", True, "newLibraryAction"),
                            ("Switch library…", False, "switchLibraryAction")):
        action = QAction(text, win)
        action.setObjectName(name)
        action.triggered.connect(lambda _=False, n=new: choose_and_switch(win, new=n))
        menu.addAction(action)
    recent = menu.addMenu("Open &Recent")
    recent.setObjectName("recentMenu")
    recent.aboutToShow.connect(lambda: fill_recent_menu(win, recent))
    fill_recent_menu(win, recent)
    return recent


def fill_recent_menu(win: MainWindow, menu: QMenu) -> None:
    """The recent libraries, most recent first; a folder gone since is shown greyed (and is
    dropped from the list); the current library is checked."""
    menu.clear()
    current = str(Path(win.library.folder).absolute())
    folders = recent_libraries(win.settings)
    for folder in folders:
        action = menu.addAction(folder)
        if not (Path(folder) / DB_NAME).is_file():
            action.setEnabled(False)
            action.setToolTip("This library is not there any more")
            forget_library(win.settings, folder)
            continue
        action.setCheckable(True)
        action.setChecked(folder == current)
        action.triggered.connect(lambda _=False, f=folder: switch_or_say(win, f))
    if not folders:
        menu.addAction("No recent libraries").setEnabled(False)
