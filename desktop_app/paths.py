"""Where the default library lives."""

from __future__ import annotations

import os
from pathlib import Path


def default_library_dir() -> Path:
    """``MARGINALIA_LIBRARY`` if set, else the platform's user data folder."""
    env = os.environ.get("MARGINALIA_LIBRARY")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir  # not at import: --version and --help do without it

    return Path(user_data_dir("Marginalia", appauthor=False)) / "library"
