"""Key bindings: each key sequence registered once, and the list of what is registered.

Qt treats a key registered twice where both can be active (two sequences of one action, an
action and a ``QShortcut``) as ambiguous and runs neither: ``QKeySequence.StandardKey.Redo``
already holds Ctrl+Shift+Z on Linux, so adding it again silenced redo. :func:`unique_keys`
builds an action's list without repeats; :func:`registrations` lists every key of a window
with where it is active, for the test that no two collide and for the Help list's check.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QWidget

Key = QKeySequence.StandardKey | str


def unique_keys(*keys: Key) -> list[QKeySequence]:
    """The key sequences of ``keys`` (standard keys expand to this platform's bindings), each
    once and in order, without empty ones."""
    out: list[QKeySequence] = []
    for key in keys:
        seqs = QKeySequence.keyBindings(key) if isinstance(key, QKeySequence.StandardKey) else [QKeySequence(key)]
        for seq in seqs:
            if not seq.isEmpty() and seq not in out:
                out.append(seq)
    return out


@dataclass(frozen=True)
class Registration:
    """One key of one action or shortcut, and where it can fire."""

    key: str  # QKeySequence.toString(PortableText)
    owner: QObject  # the QAction or QShortcut
    context: Qt.ShortcutContext
    widget: QWidget | None  # a QShortcut's widget; None for an action (active in the whole window)
    enabled: bool

    def overlaps(self, other: Registration) -> bool:
        """Whether both can be active at once (then one key for both is ambiguous)."""
        if self.widget is None or other.widget is None:
            return True
        if self.widget is other.widget:
            return True
        for outer, inner in ((self, other), (other, self)):
            assert outer.widget is not None and inner.widget is not None  # both tested above
            if outer.context == Qt.ShortcutContext.WidgetWithChildrenShortcut and outer.widget.isAncestorOf(
                inner.widget
            ):
                return True
        return False


def registrations(window: QWidget) -> list[Registration]:
    """Every key of every action and ``QShortcut`` in ``window`` (its menus and child widgets)."""
    out: list[Registration] = []
    for action in window.findChildren(QAction):
        if action.isSeparator() or action.menu() is not None:
            continue
        for seq in action.shortcuts():
            out.append(
                Registration(
                    seq.toString(QKeySequence.SequenceFormat.PortableText),
                    action,
                    action.shortcutContext(),
                    None,
                    action.isEnabled(),
                )
            )
    for sc in window.findChildren(QShortcut):
        parent = sc.parent()
        widget = parent if isinstance(parent, QWidget) else None
        ctx = sc.context()
        if ctx in (Qt.ShortcutContext.WindowShortcut, Qt.ShortcutContext.ApplicationShortcut):
            widget = None
        for seq in sc.keys():  # noqa: SIM118 - QShortcut.keys(), not a dict
            out.append(
                Registration(seq.toString(QKeySequence.SequenceFormat.PortableText), sc, ctx, widget, sc.isEnabled())
            )
    return out


def collisions(window: QWidget, *, only_enabled: bool = False) -> list[tuple[Registration, Registration]]:
    """Pairs of registrations of one key that can be active at once. Disabled ones count too
    unless ``only_enabled``: an action is disabled for a while (Redo on an empty undo stack)."""
    regs = [r for r in registrations(window) if r.enabled or not only_enabled]
    out = []
    for n, a in enumerate(regs):
        for b in regs[n + 1 :]:
            if a.key == b.key and a.overlaps(b):
                out.append((a, b))
    return out
