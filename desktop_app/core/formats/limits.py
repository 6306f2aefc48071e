"""Size and time limits for imports: the too-large error and a cooperative deadline."""

from __future__ import annotations

import time


class ImportTooLarge(Exception):
    """A file is larger than the import limit; the message says both sizes."""


def human_size(size: int) -> str:
    """Return a byte count as "312 MB", "12 KB" or "512 bytes"."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.0f} MB"
    if size >= 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size} bytes"


def too_large_message(name: str, size: int, limit: int) -> str:
    """The one-line message for a file over the size limit."""
    return (
        f"{name or 'the file'} is {human_size(size)}; the limit is {human_size(limit)} "
        "- split the file or import it in parts"
    )


class Deadline:
    """A point in time after which readers stop and report what they could not read.

    Readers call :meth:`expired` between records; the check is cheap (one clock read).
    ``Deadline(None)`` never expires; a budget of 0 or less has expired from the start.
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self._end = None if seconds is None else time.monotonic() + seconds

    def expired(self) -> bool:
        """True once the time budget is used up."""
        if self._end is None or self.seconds is None:
            return False
        return self.seconds <= 0 or time.monotonic() > self._end

    def message(self, line: int | None = None) -> str:
        """The error to report when the budget ran out (optionally where)."""
        where = f" at line {line}" if line else ""
        return (
            f"stopped after {self.seconds:g} s{where}: the import time budget ran out; "
            "the rest of the file was not imported"
        )


NO_DEADLINE = Deadline(None)
