"""What the argument parser (:mod:`desktop_app.cli`) and the subcommands
(:mod:`desktop_app.commands`) both use, kept apart so that neither imports the other back."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

# One large write to a pipe that its reader closes midway comes back short and Python drops the rest
# without an error (seen with CPython 3.11); pieces of this size each fail loudly instead.
_CHUNK = 1 << 16


class UserError(Exception):
    """Reported as one line on stderr, exit 1."""


def print_json(value: object) -> None:
    """Print *value* as indented JSON, non-ASCII characters as they are."""
    write_out(json.dumps(value, ensure_ascii=False, indent=2) + "\n")


def write_out(text: str) -> None:
    """Write *text* to stdout in pieces, so that a reader going away raises BrokenPipeError
    (which :func:`desktop_app.cli.main` turns into a quiet end) instead of passing unnoticed."""
    for start in range(0, len(text), _CHUNK):
        sys.stdout.write(text[start : start + _CHUNK])


def guarded(call: Callable[[], int]) -> int:
    """Run a command; a user error, a library error, a query's syntax or an OS error becomes one
    line on stderr and exit 1 (no message shows a password), Ctrl+C exit 130."""
    from desktop_app.core.errors import LibraryError
    from desktop_app.core.search.errors import QuerySyntaxError

    try:
        return call()
    except BrokenPipeError:
        raise  # stdout closed by its reader: main() ends quietly
    except (UserError, LibraryError, QuerySyntaxError, OSError) as exc:
        msg = str(exc)
        if isinstance(exc, OSError) and exc.strerror:
            msg = exc.strerror + (f": {exc.filename}" if exc.filename is not None else "")
        from desktop_app.core.conninfo import scrub

        print(f"marginalia: {scrub(msg)}", file=sys.stderr)  # no message shows a password
        return 1
    except KeyboardInterrupt:
        print("marginalia: interrupted", file=sys.stderr)
        return 130
