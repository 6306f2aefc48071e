"""The journal of a window's outbox: the described edits (core/library_call.py) that wait for a
shared library's server, written atomically to the desk's folder each time the outbox changes
and deleted when it empties, so that a window closed or killed during an outage loses none.

Each window writes a file of its own (``outbox/<key>-<pid>-<token>.json``, ``key`` a digest of
the library's URL without its password): two windows on one library never overwrite each other.
A new window adopts the files whose writer is gone: another process no longer running, or a
window of this process that let its journal go (:meth:`OutboxJournal.release`). A file that
cannot be read is set aside (``.corrupt``) with one line saying so; it never stops the window.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
from pathlib import Path

from desktop_app.core.formats.atomic import write_text_atomic
from desktop_app.core.library_call import BadCall, DescribedEdit
from desktop_app.core.processes import process_running

VERSION = 1
_held: set[Path] = set()  # the journals of this process's live windows


def library_key(url: str) -> str:
    """The journals' name for a library: a digest of its URL without password."""
    return hashlib.sha256(url.encode()).hexdigest()[:16]


class OutboxJournal:
    """One window's journal for the library at ``url`` (shown without password) in ``folder``."""

    def __init__(self, folder: Path, url: str) -> None:
        self.url = url
        self.folder = folder / "outbox"
        self.key = library_key(url)
        self.path = self.folder / f"{self.key}-{os.getpid()}-{secrets.token_hex(4)}.json"
        _held.add(self.path)

    def write(self, edits: list[DescribedEdit]) -> None:
        """The file holds exactly ``edits`` (none: no file). Raises OSError (a full disk)."""
        if not edits:
            self.clear()
            return
        document = {"version": VERSION, "library": self.url, "edits": [e.to_json() for e in edits]}
        self.folder.mkdir(parents=True, exist_ok=True)
        write_text_atomic(self.path, json.dumps(document, ensure_ascii=False, indent=1))

    def clear(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def release(self) -> None:
        """This window is gone: its file (if any) is left to the next window to adopt."""
        _held.discard(self.path)

    def orphans(self) -> list[Path]:
        """The journals of this library whose window is gone, oldest first."""
        found = []
        for path in self.folder.glob(f"{self.key}-*.json"):
            if path == self.path or path in _held:
                continue
            parts = path.stem.split("-")
            if (
                len(parts) == 3
                and parts[1].isdigit()
                and parts[1] != str(os.getpid())
                and process_running(int(parts[1]))
            ):
                continue
            try:
                found.append((path.stat().st_mtime, path.name, path))
            except FileNotFoundError:  # adopted by another window since it was listed
                continue
        return [path for _mtime, _name, path in sorted(found)]

    def adopt(self) -> tuple[list[DescribedEdit], list[str]]:
        """The edits of the gone windows' journals, in order, and what could not be read (one
        line each; such a file is renamed ``.corrupt``). The files read are deleted: the
        caller keeps the edits (and writes them into its own journal)."""
        edits: list[DescribedEdit] = []
        problems: list[str] = []
        for path in self.orphans():
            # claimed first by renaming it into this process's names (one rename of a file
            # succeeds, the others find it gone): two windows starting at once on the library
            # never both send its edits. A claim this process leaves (killed while reading) is
            # an orphan again once the process is gone.
            claim = self.folder / f"{self.key}-{os.getpid()}-{secrets.token_hex(4)}.json"
            _held.add(claim)
            try:
                try:
                    os.rename(path, claim)
                except OSError:  # another window adopted it meanwhile (or holds it open: later)
                    continue
                try:
                    edits.extend(read(claim, self.url))
                except (OSError, ValueError) as exc:
                    aside = path.with_suffix(".corrupt")
                    with contextlib.suppress(OSError):
                        claim.replace(aside)
                    problems.append(
                        f"the waiting edits in {path} could not be read ({exc}); the file is kept as {aside.name}"
                    )
                    continue
                with contextlib.suppress(FileNotFoundError):
                    claim.unlink()
            finally:
                _held.discard(claim)
        return edits, problems


def read(path: Path, url: str) -> list[DescribedEdit]:
    """The edits of one journal file. Raises ValueError (``BadCall``, invalid JSON, another
    library's or version's file) or OSError."""
    try:
        document = json.loads(path.read_text("utf-8"))
    except UnicodeDecodeError as exc:
        raise BadCall(f"not text: {exc}") from exc
    if not isinstance(document, dict) or document.get("version") != VERSION:
        raise BadCall("not an outbox journal of this version")
    if document.get("library") != url:
        raise BadCall(f"the journal of another library ({document.get('library')!r:.80})")
    edits = document.get("edits")
    if not isinstance(edits, list):
        raise BadCall("no list of edits")
    return [DescribedEdit.from_json(e) for e in edits]
