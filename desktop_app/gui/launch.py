"""Starting the window: normal runs, screenshots, the smoke test, and embedding in tests."""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QCoreApplication, QEvent, QLockFile, QObject, QSettings, QThread, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget
from sqlalchemy.exc import DatabaseError

from desktop_app.core.changelog.changes import is_server_url
from desktop_app.core.errors import LibraryDamaged, LibraryError
from desktop_app.core.library import Library
from desktop_app.core.store import backups
from desktop_app.gui import cjk_fonts, command_answers, i18n, index_status, libraries, screenshot_views, theme
from desktop_app.gui.app import application
from desktop_app.gui.main_window import MainWindow
from desktop_app.gui.single_instance import InstanceServer, hand_over

if TYPE_CHECKING:
    from PySide6.QtGui import QFileOpenEvent

# the automatic backup starts this long after the window is shown: after its first paint
BACKUP_AFTER_MS = 800


def open_main_window(
    library_dir: str | Path, settings: QSettings | None = None, *, ask_restore: bool = True
) -> MainWindow:
    """The shown main window on that library, using the running QApplication.

    A damaged database is found here (opening it, or building the window on it, fails): the
    user is offered the newest backup (:func:`offer_restore`; not when ``ask_restore`` is False,
    as for a screenshot nobody watches). Declined, LibraryDamaged is raised.
    """
    application()
    folder = Path(library_dir).expanduser()
    try:
        win = _build_window(folder, settings)
    except (LibraryDamaged, sqlite3.DatabaseError, DatabaseError) as exc:
        if not isinstance(exc, LibraryDamaged) and not backups.is_damage(exc):
            raise
        if not ask_restore or not offer_restore(folder, exc):
            raise (exc if isinstance(exc, LibraryDamaged) else backups.damaged_error(folder, str(exc))) from exc
        win = _build_window(folder, settings)
    index_status.attach(win)  # "Indexing… n of m" while the writer catches up
    cjk_fonts.attach(win)  # says once when Chinese text has no font to draw it
    libraries.remember_library(win.settings, folder)  # File → Open Recent
    win.set_library_opener(lambda other, new=False: switch_library(win, other, new=new))  # Settings, File menu
    win.show()  # the window checks the index after its first paint (MainWindow._finish_start)
    command_answers.attach(win)  # `marginalia search` and the other reads, answered by this window
    win.destroyed.connect(lambda *_: win.library.close())
    win.files.damaged.connect(lambda problem: _damaged_while_open(win, problem))
    win.model.damaged.connect(lambda problem: QTimer.singleShot(0, win, lambda: _damaged_while_open(win, problem)))
    QTimer.singleShot(BACKUP_AFTER_MS, win, win.files.backup_if_due_async)
    QTimer.singleShot(BACKUP_AFTER_MS, win, lambda: _clean_leftovers_async(win))
    return win


def _clean_leftovers_async(win: MainWindow) -> None:
    """What killed commands left in the library folder goes, in a worker after the first paint
    (never for a window closed meanwhile: no job within a closed window starts, gui/jobs.py)."""
    from desktop_app.gui.jobs import Job, keep_while_running

    library = win.library
    job = Job(lambda _progress, _cancelled: library.clean_leftovers(), win)
    keep_while_running(win, job)
    job.start()


def _build_window(folder: Path, settings: QSettings | None) -> MainWindow:
    lib = Library.open(folder, background_index=True, ensure_index=False)
    try:
        return MainWindow(lib, settings)
    except BaseException:
        lib.close()
        raise


def ask_restore(folder: Path, exc: object, parent: QWidget | None = None) -> backups.BackupInfo | None:
    """Ask whether to put the newest sound backup in place of the damaged database: the backup
    when the answer is Restore; None when there is none (said) or the user chose Quit."""
    newest = next(
        (b for b in backups.list_backups(folder / backups.BACKUPS_DIR) if backups.integrity_problem(b.path) is None),
        None,
    )  # checked newest first, lazily
    if newest is None:
        QMessageBox.critical(
            parent,
            QCoreApplication.translate("Launch", "Marginalia"),
            QCoreApplication.translate(
                "Launch", "The library is damaged and there is no backup to restore.\n\n{0}"
            ).format(exc),
        )
        return None
    box = QMessageBox(
        QMessageBox.Icon.Warning,
        QCoreApplication.translate("Launch", "Marginalia"),
        QCoreApplication.translate("Launch", "The library is damaged. Restore the backup of {0}?").format(
            newest.describe()
        ),
        parent=parent,
    )
    box.setObjectName("restoreQuestion")
    box.setInformativeText(
        QCoreApplication.translate("Launch", "The damaged file is kept aside in {0}.\n({1})").format(folder, exc)
    )
    box.setStandardButtons(QMessageBox.StandardButton.Ok | QMessageBox.StandardButton.Cancel)
    box.button(QMessageBox.StandardButton.Ok).setText(QCoreApplication.translate("Launch", "Restore"))
    box.button(QMessageBox.StandardButton.Cancel).setText(QCoreApplication.translate("Launch", "Quit"))
    box.setDefaultButton(QMessageBox.StandardButton.Ok)
    if QMessageBox.StandardButton(box.exec()) != QMessageBox.StandardButton.Ok:
        return None
    return newest


def offer_restore(folder: Path, exc: BaseException) -> bool:
    """At open, before any window: ask, and restore when the answer is Restore."""
    chosen = ask_restore(folder, exc)
    if chosen is None:
        return False
    try:
        backups.restore(folder, chosen.path)
    except LibraryError as err:
        QMessageBox.critical(None, QCoreApplication.translate("Launch", "Marginalia"), str(err))
        return False
    return True


def _damaged_while_open(win: MainWindow, problem: str) -> None:
    """The check after the first paint found damage: offer the backup; on Restore close this
    window and its library, restore, and open a new window (``win.replaced_by``); on Quit, quit."""
    if getattr(win, "restore_asked", False) or not win.isVisible():
        return  # asked once per window (the table and the check may both find the damage)
    win.mark_restore_asked()
    folder = win.library.folder
    chosen = ask_restore(folder, problem, win)
    if chosen is None:
        win.close()
        return
    app = application()
    quit_on_close = app.quitOnLastWindowClosed()
    app.setQuitOnLastWindowClosed(False)  # the window is swapped, not the app ended
    try:
        settings = win.settings
        close_window(win)
        try:
            backups.restore(folder, chosen.path)
        except LibraryError as err:
            QMessageBox.critical(None, QCoreApplication.translate("Launch", "Marginalia"), str(err))
            app.quit()
            return
        win.set_replaced_by(open_main_window(folder, settings))
        assert win.replaced_by is not None  # set just above
        libraries.hold(win.replaced_by, getattr(win, "library_lock", None), getattr(win, "instance_server", None))
    finally:
        app.setQuitOnLastWindowClosed(quit_on_close)


def switch_library(win: MainWindow, folder: str | Path, *, new: bool = False) -> MainWindow:
    """Open ``folder`` (a library, or an empty folder: a new library) in a new window and close
    ``win``, handing its lock and second-start socket over (gui/libraries.py). Raises
    ``libraries.SwitchRefused`` (``win`` untouched) when the folder cannot be opened: not a
    library nor empty, not writable, locked by another window, or failing to open."""
    target = Path(folder).expanduser().absolute()
    if target == Path(win.library.folder).absolute():
        if new:
            raise libraries.SwitchRefused(
                QCoreApplication.translate("Launch", "{0} is the library open in this window.").format(target)
            )
        return win
    problem = libraries.refusal(target, new=new)
    if problem is not None:
        raise libraries.SwitchRefused(problem)
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise libraries.SwitchRefused(
            QCoreApplication.translate("Launch", "Cannot create the folder {0}: {1}").format(target, exc.strerror)
        ) from exc
    lock = libraries.library_lock(target)
    if not lock.tryLock(libraries.LOCK_WAIT_MS):
        raise libraries.SwitchRefused(
            QCoreApplication.translate(
                "Launch", "The library {0} is open in another Marginalia window. Close it there first."
            ).format(target)
        )
    win.reader.notes.flush()  # closing flushes too; this keeps the note if opening fails below
    try:
        new_win = open_main_window(target, win.settings)
    except Exception as exc:
        lock.unlock()
        text = str(exc) if isinstance(exc, LibraryError | OSError) else f"{type(exc).__name__}: {exc}"
        raise libraries.SwitchRefused(
            QCoreApplication.translate("Launch", "Cannot open the library {0}:\n{1}").format(target, text)
        ) from exc
    had_server = getattr(win, "instance_server", None) is not None
    win.set_replaced_by(new_win)  # launch.current_window follows it (second starts, the end of run_gui)
    close_window(win)
    libraries.release(win)
    server = serve_second_starts(target) if had_server else None
    if server is not None:
        server.set_handler(lambda paths: open_forwarded(new_win, paths))
    libraries.hold(new_win, lock, server)
    return new_win


def current_window(win: MainWindow) -> MainWindow:
    """The window that replaced ``win`` after a restore or a switch of library (or ``win``)."""
    while getattr(win, "replaced_by", None) is not None:
        win = cast(MainWindow, win.replaced_by)  # not None: tested above
    return win


def close_window(win: MainWindow) -> None:
    """Close the window and its library (waits for index work)."""
    win.close()
    job = win.files.index_job
    if job is not None and job.isRunning():
        job.wait(60000)
    win.library.close()


def open_forwarded(win: MainWindow, files: list[str]) -> None:
    """A second start handed over: raise the (current) window; import its files with the preview."""
    win = current_window(win)
    win.showNormal()
    win.raise_()
    win.activateWindow()
    found = [f for f in files if Path(f).is_file()]
    if found:
        win.files.import_paths(found)
    missing = [Path(f).name for f in files if f not in found]
    if missing:
        win.statusBar().showMessage(
            QCoreApplication.translate("Launch", "Not found: {0}").format(", ".join(missing)), 10000
        )


def serve_second_starts(folder: Path) -> InstanceServer | None:
    """Listen for second starts on this library (hold its lock first); None, said on stderr,
    when the socket cannot be made: the window works, later starts say that no answer came."""
    server = InstanceServer(folder)
    if server.listen():
        return server
    print(f"marginalia: cannot listen on {server.name}: {server.server.errorString()}", file=sys.stderr)
    return None


def _not_handed_over(folder: Path, files: list[str]) -> str:
    text = QCoreApplication.translate(
        "Launch",
        "The library {0} is open in another Marginalia window, which did not answer.\n"
        "Close it there first, or start with --library to open another library.",
    ).format(folder)
    if files:
        text += QCoreApplication.translate(
            "Launch", "\n\nThese files were not imported: {0}.\nImport them with File → Import… in that window."
        ).format(", ".join(Path(f).name for f in files))
    return text


def _fail(message: str, *, headless: bool, warning: bool = False) -> int:
    """Report a failure to start: one line on stderr when nobody watches (a screenshot or a smoke
    test must never wait on a dialog), a message box otherwise. Returns the exit code 1."""
    if headless:
        print(f"marginalia: {' '.join(message.split())}", file=sys.stderr)
    elif warning:
        QMessageBox.warning(None, QCoreApplication.translate("Launch", "Marginalia"), message)
    else:
        QMessageBox.critical(None, QCoreApplication.translate("Launch", "Marginalia"), message)
    return 1


def run_gui(folder: Path | str, args: argparse.Namespace) -> int:
    if getattr(args, "gui_smoke", False):
        return smoke_test(folder if is_server_url(folder) else Path(folder).expanduser())
    if is_server_url(folder):  # postgresql://…: a shared library
        return run_shared(str(folder), args)
    app = application()
    folder = Path(folder).expanduser()
    screenshot = getattr(args, "screenshot", None)
    headless = bool(screenshot)
    if getattr(args, "lang", None):  # for this run only (screenshots): the saved preference stays
        i18n.install(app, args.lang)
    if getattr(args, "theme", None):  # for this run only: the saved preference stays
        theme.manager().set_override(args.theme)
    if screenshot and getattr(args, "view", "main") not in screenshot_views.VIEWS:
        return _fail(f"no view {args.view!r} to render; the views: {', '.join(screenshot_views.VIEWS)}", headless=True)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return _fail(
            QCoreApplication.translate("Launch", "Cannot create the library folder {0}:\n{1}").format(folder, exc),
            headless=headless,
        )
    files = [str(Path(f).absolute()) for f in getattr(args, "files", []) or []]
    lock = QLockFile(str(folder / ".marginalia.lock"))
    lock.setStaleLockTime(0)
    if not screenshot and not lock.tryLock(100):
        if hand_over(folder, files):  # the running window raises itself and opens the files
            return 0
        message = _not_handed_over(folder, files)
        print(f"marginalia: {' '.join(message.split())}", file=sys.stderr)
        return _fail(message, headless=False, warning=True)
    # a screenshot holds no lock, so it must not take the socket of the window that may run
    server = None if screenshot else serve_second_starts(folder)
    try:
        try:
            win = open_main_window(
                folder, QSettings() if not screenshot else _scratch_settings(), ask_restore=not screenshot
            )
        except BaseException:
            if server is not None:  # no window will take what it acknowledged: stop saying yes
                server.close()
            raise
    except LibraryDamaged as exc:
        if headless:
            return _fail(str(exc), headless=True)
        return 1  # the user was asked, and chose Quit (or there was no backup: that was said)
    except (LibraryError, OSError) as exc:
        return _fail(str(exc), headless=headless)
    if screenshot:
        return _screenshot(app, win, Path(screenshot), args)
    if server is not None:  # requests that came while the window was built are handled now
        server.set_handler(lambda paths: open_forwarded(win, paths))
    libraries.hold(win, lock, server)  # Settings → Switch library hands them over (gui/libraries.py)
    files = [f for f in files if Path(f).is_file()]
    if files:  # a double-click on a .bib or .ris file: import it (with the preview)
        QTimer.singleShot(0, lambda: current_window(win).files.import_paths(files))
    opener = _FileOpenFilter(win)  # macOS Finder sends QFileOpenEvent instead of arguments
    app.installEventFilter(opener)
    code = app.exec()
    if server is not None:
        server.close()
    close_window(current_window(win))
    libraries.release(current_window(win))  # the lock of the library switched to, if the user switched
    lock.unlock()
    return code


# ---- a shared library (postgresql://…): core/shared_library.py, gui/shared_desk.py ----------------
def open_shared_window(url: str, settings: QSettings | None = None) -> MainWindow:
    """The shown window on the shared library at ``url``: no folder lock nor second-start socket
    (every desk, and every window, may open it); it follows the other desks (shared_desk.attach)."""
    from desktop_app.gui import shared_desk

    application()
    lib = Library.open(url, background_index=True, ensure_index=False)
    try:
        win = MainWindow(lib, settings)
    except BaseException:
        lib.close()
        raise
    index_status.attach(win)
    libraries.remember_library(win.settings, url)  # without its password
    win.set_library_opener(lambda other, new=False: switch_library(win, other, new=new))
    shared_desk.attach(win)
    win.show()
    command_answers.attach(win)
    win.destroyed.connect(lambda *_: lib.close())
    return win


def switch_to_shared(win: MainWindow, url: str) -> MainWindow:
    """File → Connect / Open Recent on a server: a new window on it, and ``win`` closes."""
    win.reader.notes.flush()
    try:
        new_win = open_shared_window(url, win.settings)
    except Exception as exc:
        raise libraries.SwitchRefused(
            QCoreApplication.translate("Launch", "Cannot open the shared library:\n{0}").format(exc)
        ) from exc
    win.set_replaced_by(new_win)
    close_window(win)
    libraries.release(win)
    return new_win


def run_shared(url: str, args: argparse.Namespace) -> int:
    """``marginalia --library postgresql://…``: the window on a shared library."""
    app = application()
    screenshot = getattr(args, "screenshot", None)
    try:
        win = open_shared_window(url, QSettings() if not screenshot else _scratch_settings())
    except (LibraryError, OSError) as exc:
        return _fail(str(exc), headless=bool(screenshot))
    if screenshot:
        return _screenshot(app, win, Path(screenshot), args)
    code = app.exec()
    close_window(current_window(win))
    libraries.release(current_window(win))
    return code


class _FileOpenFilter(QObject):
    def __init__(self, win: MainWindow) -> None:
        super().__init__(win)
        self.win = win

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        file_open = cast("QFileOpenEvent", event)  # its file() is read for a FileOpen event only
        if event.type() == QEvent.Type.FileOpen and file_open.file():
            current_window(self.win).files.import_paths([file_open.file()])
            return True
        return False


def _scratch_settings() -> QSettings:
    path = Path(tempfile.mkdtemp(prefix="marginalia-settings-")) / "settings.ini"
    return QSettings(str(path), QSettings.Format.IniFormat)


def _screenshot(app: QApplication, win: MainWindow, out: Path, args: argparse.Namespace) -> int:
    w, _, h = str(getattr(args, "size", "1400x900")).partition("x")
    win.resize(int(w), int(h))
    while not win.files.index_ready:
        app.processEvents()
        QThread.msleep(10)
    app.processEvents()
    if getattr(args, "query", ""):
        win.search.set_text(args.query)
        win.on_query_typed(args.query)
    if getattr(args, "select", None) is not None and not win.select_paper(args.select):
        print(f"marginalia: paper {args.select} is not in the result", file=sys.stderr)
    for _ in range(5):
        app.processEvents()
    view = screenshot_views.VIEWS[getattr(args, "view", "main")](win)
    done: list[bool] = []

    def shoot() -> None:
        view.grab().save(str(out))
        done.append(True)
        app.quit()

    QTimer.singleShot(300, shoot)
    app.exec()
    close_window(win)
    if not done or not out.exists():
        print(f"marginalia: could not write {out}", file=sys.stderr)
        return 1
    print(out)
    return 0


def _search_after_indexing(app: QApplication, win: MainWindow, timeout: float = 120.0) -> str | None:
    """The smoke test's search: once the index writer (a child process where it can be) has
    taken the papers in, a word of the first paper's title must find it through the index.
    None when it did (the writer's mode goes to stderr), else what went wrong."""
    import re
    import time

    lib = win.library
    deadline = time.monotonic() + timeout
    while not (lib.index.is_open and lib.index.caught_up()):
        if time.monotonic() > deadline:
            why = lib.index.last_error or "no error reported"
            return f"the search index did not catch up in {timeout:.0f} s ({why})"
        app.processEvents()
        time.sleep(0.02)
    pid = lib.query("").ids[0]
    paper = lib.papers.get(pid)
    words = re.findall(r"[^\W\d_]{5,}", f"{paper.title or ''} {paper.abstract_text or ''}")
    if not words:
        return None  # nothing to search by (cannot happen with the sample files)
    word = max(words[:20], key=len).lower()
    if pid not in lib.query(word).ids:
        return f"searching {word!r} did not find paper {pid}"
    print(f"search index: writer {lib.index.mode}, {word!r} found paper {pid}", file=sys.stderr)
    return None


def smoke_test(folder: Path | str | None) -> int:
    """Build the window on a library (a temporary one by default; a folder or a server URL),
    process events, check that the table shows the library's papers, print OK."""
    app = application()
    tmp = None
    if folder is None:
        tmp = tempfile.TemporaryDirectory(prefix="marginalia-smoke-")
        folder = Path(tmp.name)
    try:
        if isinstance(folder, str) and is_server_url(folder):
            win = open_shared_window(folder, _scratch_settings())
        else:
            win = open_main_window(Path(folder), _scratch_settings())
    except (LibraryError, OSError) as exc:
        if tmp is not None:
            tmp.cleanup()
        return _fail(str(exc), headless=True)
    if win.library.papers.count() == 0:
        from desktop_app.gui.import_export import sample_files

        win.library.imports.from_files(sample_files())
        win.refresh_sidebar()
        win.refresh_query()
        win.update_stack()
    for _ in range(10):
        app.processEvents()
    win.start_stage.run()  # the whole list follows the first paint: have it now if not yet
    app.processEvents()
    expected = win.library.papers.count()
    shown = win.model.rowCount()
    ok = expected > 0 and shown == expected and win.table.isVisible()
    search_problem = _search_after_indexing(app, win) if ok else None
    close_window(current_window(win))
    if isinstance(folder, str):
        libraries.release(current_window(win))
    if tmp is not None:
        tmp.cleanup()
    if not ok:
        print(f"FAILED: the table shows {shown} of {expected} papers", file=sys.stderr)
        return 1
    if search_problem is not None:
        print(f"FAILED: {search_problem}", file=sys.stderr)
        return 1
    print("OK")
    return 0
