"""Search errors, importable without loading Whoosh (start-up time)."""

from __future__ import annotations


class QuerySyntaxError(ValueError):
    """A query the user typed cannot be understood; the message is one line."""
