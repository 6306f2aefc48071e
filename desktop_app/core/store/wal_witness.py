"""What survives a deleted ``library.sqlite-wal``: the witness of acknowledged writes kept beside
the database, and the checks that tell a -wal file deleted or replaced under an open library.

SQLite keeps the writes since its last checkpoint in the -wal file; a program that has the
library open reads and writes that file through the descriptor it opened, so deleting the file
loses nothing yet: the holder still has it, and a checkpoint through its own connection writes it
back (``Store.write_back_lost_wal``). The writes are lost when the holder dies without one.

``library.commits`` counts the acknowledged writes (the database keeps the same count in its
``user_version``) and names the latest few: when, what, which papers. ``marginalia check`` says
which of them the database lacks; a program that cannot open the library because the -wal its
holder still has is gone (the shared memory index promises frames the file lacks) says so and
what to do, instead of "disk I/O error".

Never open the database or its ``-shm`` file here while this process has a connection: closing a
descriptor drops every POSIX lock the process holds on that file, SQLite's included. The -wal
file carries no locks, and ``os.stat`` opens nothing.
"""

from __future__ import annotations

import contextlib
import os
import struct
from dataclasses import dataclass
from pathlib import Path

WITNESS_FILE = "library.commits"  # the count of acknowledged writes, kept beside the database
RECENT = 20  # the latest writes the witness names
WAL_MAGIC = 3007000  # the -shm header's version field (WALINDEX_MAX_VERSION)


@dataclass(frozen=True)
class Witnessed:
    """One acknowledged write as the witness names it."""

    count: int  # the database's commit count after it
    at: str  # when (UTC, ISO seconds)
    kind: str  # the facade operation ("notes.set", "tags.add", ...; "write" when unnamed)
    ids: tuple[int, ...]  # the papers it touched (the first 10)

    def describe(self) -> str:
        papers = f" on paper{'s' if len(self.ids) > 1 else ''} {', '.join(map(str, self.ids))}" if self.ids else ""
        return f"{self.kind}{papers} at {self.at.replace('T', ' ')} UTC"


def read_witness(path: Path) -> tuple[int, list[Witnessed]]:
    """(the witnessed count, the latest writes it names); (0, []) when there is no witness.

    Line 1 is the count (all an older witness holds); each further line one write."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return 0, []
    try:
        count = int(lines[0].strip() or 0) if lines else 0
    except ValueError:
        return 0, []
    recent = []
    for line in lines[1:]:
        parts = line.split("\t")
        if len(parts) != 4:
            continue
        with contextlib.suppress(ValueError):
            recent.append(Witnessed(int(parts[0]), parts[1], parts[2], tuple(int(i) for i in parts[3].split(",") if i)))
    return count, recent


def note_commit(path: Path, write: Witnessed) -> None:
    """Record one acknowledged write (atomically, no fsync: a detector, not a journal)."""
    _count, recent = read_witness(path)
    recent = [w for w in recent if w.count < write.count][-(RECENT - 1) :] + [write]
    body = "".join(f"{w.count}\t{w.at}\t{w.kind}\t{','.join(map(str, w.ids))}\n" for w in recent)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(f"{write.count}\n{body}", encoding="utf-8")
    os.replace(tmp, path)


def lost_writes(path: Path, stored: int) -> tuple[int, list[Witnessed]]:
    """(how many acknowledged writes a database holding ``stored`` commits lacks, those of them
    the witness names)."""
    count, recent = read_witness(path)
    return max(0, count - stored), [w for w in recent if w.count > stored]


def describe_lost(missing: int, named: list[Witnessed]) -> str:
    """ "3 acknowledged writes: notes.set on paper 4 at …; …" (the ones the witness names)."""
    text = f"{missing} acknowledged write{'s' if missing > 1 else ''}"
    named = [w for w in named if w.ids] or named  # a write's bookkeeping transactions name no paper
    if named:
        shown = "; ".join(w.describe() for w in named[-5:])
        more = f" (the latest {min(5, len(named))}: {shown})" if missing > 5 else f" ({shown})"
        text += more
    return text


def wal_identity(db_path: Path) -> tuple[int, int] | None:
    """(device, inode) of the database's -wal file, None when there is none."""
    try:
        st = os.stat(f"{db_path}-wal")
    except OSError:
        return None
    return st.st_dev, st.st_ino


def frames_gone(db_path: Path) -> int:
    """How many WAL frames the shared-memory index promises that the -wal file at its path lacks:
    more than 0 when the file was deleted, emptied or replaced while a program had the library
    open (that program still holds them). Only call it while this process has no connection to
    the library open (it opens the -shm file)."""
    shm = f"{db_path}-shm"
    try:
        with open(shm, "rb") as f:
            head = f.read(48)
    except OSError:
        return 0
    if len(head) < 48:
        return 0
    fields: tuple[int, ...] = struct.unpack("=IIIBBHI", head[:20])
    version, _unused, _change, is_init, _big_end, page, max_frame = fields
    if version != WAL_MAGIC or not is_init or not max_frame:
        return 0
    page_size = 65536 if page == 1 else page
    salts = head[32:40]
    try:
        size = os.stat(f"{db_path}-wal").st_size
        with open(f"{db_path}-wal", "rb") as f:
            wal_salts = f.read(32)[16:24]
    except OSError:
        return max_frame
    if size < 32 or wal_salts != salts:
        return max_frame  # another -wal file than the one the index describes
    return max(0, max_frame - (size - 32) // (page_size + 24))


def stored_count_in_file(db_path: Path) -> int | None:
    """The commit count (``user_version``) in the database file itself, the -wal aside. Only
    while this process has no connection to it open."""
    try:
        with open(db_path, "rb") as f:
            head = f.read(64)
    except OSError:
        return None
    return struct.unpack(">I", head[60:64])[0] if len(head) == 64 else None


def held_elsewhere_message(db_path: Path) -> str | None:
    """Why this library cannot be opened, when its -wal file went from under a program that still
    has it open (None otherwise): which writes only that program holds now, and what to do."""
    gone = frames_gone(db_path)
    if not gone:
        return None
    stored = stored_count_in_file(db_path)
    missing, named = lost_writes(db_path.with_name(WITNESS_FILE), stored or 0) if stored is not None else (0, [])
    held = describe_lost(missing, named) if missing else f"{gone} pages of recent writes"
    return (
        f"{db_path.name}-wal was deleted or replaced while another program had the library "
        f"open: {held} exist only in that program's open copy now. Leave that program running "
        "(a Marginalia window writes them back within seconds; closing it normally writes them "
        "back too), do not delete library.sqlite-shm, then run `marginalia check` again"
    )
