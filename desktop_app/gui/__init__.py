"""The window (PySide6). Importing this package loads the core first, on purpose.

PySide6 installs an import hook (shiboken's ``feature`` support) that inspects every module
imported after it. Importing SQLAlchemy, SQLModel and the core before Qt keeps their hundreds of
modules out of that hook: about 18% less CPU and 25 MiB less memory at start-up (issue 14). Every
``desktop_app.gui`` module is imported through this package, so the order holds for the
application, the benchmarks and the tests alike.

Python's cyclic garbage collector runs rarely while the window loads: loading creates ~150,000
long-lived objects (modules, classes, SQLAlchemy and Qt metadata) and the default thresholds
traverse them again and again (~60-90 ms of a ~600 ms start). :func:`start_up_done` (called
after the window's first paint) puts the thresholds back and freezes what start-up built, so that
later full collections do not walk it either (no pause while scrolling or typing).
"""

from __future__ import annotations

import gc

_THRESHOLDS = gc.get_threshold()
_START_THRESHOLDS = (50_000, 20, 100)  # a young-generation pass every 50,000 new objects
if _THRESHOLDS[0] < _START_THRESHOLDS[0]:
    gc.set_threshold(*_START_THRESHOLDS)

import sqlalchemy.exc  # noqa: E402, F401

import desktop_app.core.library  # noqa: E402, F401  (before any PySide6 import: see above)
import desktop_app.core.store.backups  # noqa: E402, F401


def start_up_done() -> None:
    """The window has painted: the collector's usual thresholds again, and what start-up
    built moved out of its way (``gc.freeze``). Only the first call does anything."""
    if gc.get_threshold() == _START_THRESHOLDS:
        gc.freeze()
        gc.set_threshold(*_THRESHOLDS)
