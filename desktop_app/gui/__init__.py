"""The window (PySide6). Importing this package loads the core first, on purpose.

PySide6 installs an import hook (shiboken's ``feature`` support) that inspects every module
imported after it. Importing SQLAlchemy, SQLModel and the core before Qt keeps their hundreds of
modules out of that hook: about 18% less CPU and 25 MiB less memory at start-up. Every
``desktop_app.gui`` module is imported through this package, so the order holds for the
application, the benchmarks and the tests alike.

The cyclic garbage collector is paused while the core loads, and what the core built (~100,000
long-lived objects: modules, classes, SQLAlchemy and SQLModel metadata) is then frozen
(``gc.freeze``): the collector never walks it again, at start-up or later (its full passes over
it cost 20-40 ms each, some 60 ms of a ~600 ms start). :func:`start_up_done` freezes what the
window built in the same way after its first paint (no such pause while scrolling or typing).
"""

from __future__ import annotations

import gc

_collecting = gc.isenabled()
gc.disable()
try:
    import sqlalchemy.exc  # noqa: F401

    import desktop_app.core.library
    import desktop_app.core.store.backups  # noqa: F401
finally:
    gc.freeze()
    if _collecting:
        gc.enable()

_window_frozen = False


def start_up_done() -> None:
    """The window has painted: freeze what start-up built, once (see the module's docstring)."""
    global _window_frozen
    if not _window_frozen:
        _window_frozen = True
        gc.freeze()
