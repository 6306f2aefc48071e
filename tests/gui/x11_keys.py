"""Run by tests/gui/test_keys_under_x11.py in its own process on a started X server: the real
window on the xcb platform, keys pressed through the X server itself (the XTEST extension, as
a keyboard would), and what the library holds afterwards printed as one JSON line.

    DISPLAY=:n QT_QPA_PLATFORM=xcb python -m tests.gui.x11_keys LIBRARY SETTINGS.ini
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

SETTLE = 5  # seconds the window may take to handle keys already sent
KEYSYMS = {"\n": "Return", "\x1b": "Escape", "-": "minus"}
MODIFIERS = {"ctrl": "Control_L", "shift": "Shift_L", "alt": "Alt_L"}


class XKeyboard:
    """Presses keys through the X server (XTestFakeKeyEvent), each followed by a short pause in
    which Qt reads and handles the events, as between a person's keystrokes."""

    def __init__(self) -> None:
        x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
        xtst = ctypes.CDLL(ctypes.util.find_library("Xtst") or "libXtst.so.6")
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x11.XStringToKeysym.restype = ctypes.c_ulong
        x11.XStringToKeysym.argtypes = [ctypes.c_char_p]
        x11.XKeysymToKeycode.restype = ctypes.c_ubyte
        x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        x11.XFlush.argtypes = [ctypes.c_void_p]
        xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
        self.x11, self.xtst = x11, xtst
        self.display = x11.XOpenDisplay(None)
        if not self.display:
            raise SystemExit("cannot open the X display")

    def _code(self, name: str) -> int:
        return self.x11.XKeysymToKeycode(self.display, self.x11.XStringToKeysym(name.encode()))

    def _event(self, code: int, down: bool) -> None:
        self.xtst.XTestFakeKeyEvent(self.display, code, 1 if down else 0, 0)

    def chord(self, *names: str, pause_ms: int = 40) -> None:
        """Hold the modifiers, press the last key, let go of all (``chord("ctrl", "shift", "t")``)."""
        codes = [self._code(MODIFIERS.get(n, KEYSYMS.get(n, n))) for n in names]
        for code in codes:
            self._event(code, True)
        for code in reversed(codes):
            self._event(code, False)
        self.x11.XFlush(self.display)
        QTest.qWait(pause_ms)

    def type(self, text: str, pause_ms: int = 25) -> None:
        for char in text:
            self.chord(char, pause_ms=pause_ms)


def wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:
        QTest.qWait(20)
    return condition()


def main(library: Path, settings_path: Path) -> dict:
    from desktop_app.gui.launch import close_window, open_main_window

    win = open_main_window(library, QSettings(str(settings_path), QSettings.Format.IniFormat))
    win.show()
    win.raise_()
    win.activateWindow()
    out: dict = {"platform": QApplication.platformName()}
    out["active"] = wait_for(lambda: QApplication.activeWindow() is win, 10)
    wait_for(lambda: win.files.index_ready and win.start_stage.done and not win.model.partial, 60)
    wait_for(lambda: not win.follow_pending(), 5)
    keys = XKeyboard()
    lib = win.library

    def focus() -> str:
        w = QApplication.focusWidget()
        return "" if w is None else w.objectName() or type(w).__name__

    out["focus_at_open"] = focus()
    keys.type("j")
    wait_for(lambda: win.table.currentIndex().row() == 1, SETTLE)  # a loaded machine is slower
    out["row_after_j"] = win.table.currentIndex().row()
    out["tag_filter_after_j"] = win.sidebar_pane.filter_box.text()

    pid = win.current_id()
    keys.type("trl")
    wait_for(lambda: win.reader.tags.line.text() == "rl", SETTLE)
    keys.type("\x1b")  # the first Esc takes back "rl"
    wait_for(lambda: win.reader.tags.line.text() == "", SETTLE)
    out["tag_field_after_esc"] = (win.reader.tags.line.text(), focus())
    keys.type("\x1b2")  # the second leaves; 2 rates the paper
    wait_for(lambda: lib.papers.get(pid).rating == 2, SETTLE)
    out["after_second_esc"] = focus()
    paper = lib.papers.get(pid)
    out["tags_and_rating"] = [paper.tags, paper.rating]

    keys.chord("ctrl", "shift", "t")  # triage
    view = win.triage.view
    wait_for(lambda: view is not None and view.hasFocus(), 5)
    view = win.triage.view
    tpid = view.current_id()
    keys.type("ticl\nttheory\n")
    wait_for(lambda: len(lib.papers.get(tpid).tags) >= 2 and view.hasFocus(), SETTLE)
    out["triage_tags"] = lib.papers.get(tpid).tags
    start = view.pos
    keys.type("jj")
    wait_for(lambda: view.pos - start == 2, SETTLE)
    keys.type("k")
    wait_for(lambda: view.pos - start == 1, SETTLE)
    out["triage_moved"] = view.pos - start
    decided = view.current_id()
    keys.type("r")
    wait_for(lambda: lib.papers.get(decided).status == "read", SETTLE)
    out["triage_status"] = lib.papers.get(decided).status
    out["triage_flash"] = view.flash.text()
    close_window(win)
    return out


if __name__ == "__main__":
    from desktop_app.gui.app import application

    application()
    print(json.dumps(main(Path(sys.argv[1]), Path(sys.argv[2]))), flush=True)
