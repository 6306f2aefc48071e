"""What the argument parser (:mod:`desktop_app.cli`) and the subcommands
(:mod:`desktop_app.commands`) both use, kept apart so that neither imports the other back."""

from __future__ import annotations

import json


class UserError(Exception):
    """Reported as one line on stderr, exit 1."""


def print_json(value: object) -> None:
    """Print *value* as indented JSON, non-ASCII characters as they are."""
    print(json.dumps(value, ensure_ascii=False, indent=2))
