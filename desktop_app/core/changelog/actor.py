"""Who is making a change: the name written into ``change_log.actor``.

For now the operating system's user name; a shared (PostgreSQL) library replaces
:func:`current_actor` with the database role or a configured display name.
"""

from __future__ import annotations

import getpass
from functools import cache


@cache
def current_actor() -> str:
    """The display name of whoever makes this process's changes ("" when it cannot be told)."""
    try:
        return getpass.getuser()
    except (OSError, KeyError, ImportError):  # no login name, no passwd entry (containers)
        return ""
