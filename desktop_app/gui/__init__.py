"""The window (PySide6). Importing this package loads the core first, on purpose.

PySide6 installs an import hook (shiboken's ``feature`` support) that inspects every module
imported after it. Importing SQLAlchemy, SQLModel and the core before Qt keeps their hundreds of
modules out of that hook: about 18% less CPU and 25 MiB less memory at start-up (issue 14). Every
``desktop_app.gui`` module is imported through this package, so the order holds for the
application, the benchmarks and the tests alike.
"""

from __future__ import annotations

import sqlalchemy.exc  # noqa: F401

import desktop_app.core.library  # noqa: F401  (before any PySide6 import: see above)
import desktop_app.core.store.backups  # noqa: F401
