"""Where the default library lives."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir


def default_library_dir() -> Path:
    """``MARGINALIA_LIBRARY`` if set, else the platform's user data folder."""
    env = os.environ.get("MARGINALIA_LIBRARY")
    if env:
        return Path(env).expanduser()
    return Path(user_data_dir("Marginalia", appauthor=False)) / "library"
