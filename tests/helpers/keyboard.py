"""Typing as a keyboard does: each key goes to the window, and Qt hands it to the focus widget
(or to an open popup, such as a completer's list), never straight to a chosen widget."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

NAMED = {
    "\n": Qt.Key.Key_Return,
    "\x1b": Qt.Key.Key_Escape,
    " ": Qt.Key.Key_Space,
    "/": Qt.Key.Key_Slash,
    "-": Qt.Key.Key_Minus,
}


def key_of(char: str) -> Qt.Key:
    if char in NAMED:
        return NAMED[char]
    return Qt.Key(ord(char.upper()))


def type_keys(window: QWidget, text: str) -> None:
    """Press and release each character of ``text`` (\\n Return, \\x1b Esc) on ``window``."""
    handle = window.windowHandle()
    assert handle is not None, "the window must be shown"
    for char in text:
        QTest.keyClick(handle, key_of(char), Qt.KeyboardModifier.NoModifier)


def press(window: QWidget, key: Qt.Key, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    QTest.keyClick(window.windowHandle(), key, modifiers)


def focus_name(window: QWidget) -> str:
    """The focus widget's object name ("" for none), for messages."""
    w = QApplication.focusWidget()
    return "" if w is None else (w.objectName() or type(w).__name__)


def press_sequence(qtbot, widget: QWidget, key: str) -> None:
    """Press ``key``, written as a key sequence ("Ctrl+Shift+T"), on ``widget`` itself."""
    combo = QKeySequence(key)[0]
    qtbot.keyClick(widget, combo.key(), combo.keyboardModifiers())
