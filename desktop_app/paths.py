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


def user_styles_dir() -> Path:
    """Where the user's own citation styles (``.csl`` files) go: ``styles/`` in the platform's
    user data folder (beside the default library, whatever library is open)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("Marginalia", appauthor=False)) / "styles"
