"""Per-segment arrays kept beside the Whoosh index: docnum -> paper id and field lengths.

A Whoosh segment never changes once written (only its deletions do), so its arrays are computed
once, when the commit that made it is done, and saved as ``marginalia-seg-<segment id>.npz`` in
the index folder (Whoosh's own clean-up only touches files named after its index). A searcher
then loads them in about a millisecond instead of rebuilding the paper-id map from the ``pid``
column for every searcher (~100 ms at 100,000 papers). A missing file (an index written by an
older version, or another process) is computed on first use and saved when the folder is
writable.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from desktop_app.core.search.schema import TEXT_FIELDS

if TYPE_CHECKING:
    from whoosh.index import Index
    from whoosh.reading import IndexReader

PREFIX = "marginalia-seg-"
SUFFIX = ".npz"


@dataclass(frozen=True)
class SegmentArrays:
    """One segment's paper ids (int64) and Whoosh's one-byte field lengths (uint8), by local docnum."""

    segment_id: str
    pids: np.ndarray
    length_bytes: dict[str, np.ndarray]


def sidecar_path(folder: Path, segment_id: str) -> Path:
    return folder / f"{PREFIX}{segment_id}{SUFFIX}"


def compute(segreader: IndexReader) -> SegmentArrays:
    """Read the arrays out of one segment reader (the ``pid`` column and the length columns)."""
    from whoosh.codec.whoosh3 import LENGTHS_COLUMN, _lenfield

    n = segreader.doc_count_all()
    if n and segreader.has_column("pid"):
        pids = np.fromiter((int(v) for v in segreader.column_reader("pid")), dtype=np.int64, count=n)
    else:
        pids = np.full(n, -1, dtype=np.int64)
    perdoc = segreader._perdoc
    lengths: dict[str, np.ndarray] = {}
    for field in TEXT_FIELDS:
        name = _lenfield(field)
        if n and perdoc.has_column(name):
            raw = perdoc.column_reader(name, LENGTHS_COLUMN).load()
            lengths[field] = np.frombuffer(bytes(raw), dtype=np.uint8, count=n).copy()
        else:
            lengths[field] = np.zeros(n, dtype=np.uint8)
    return SegmentArrays(segreader.segment().segment_id(), pids, lengths)


def save(folder: Path, arrays: SegmentArrays) -> None:
    """Write atomically (temporary file, then rename), so a reader never sees half a file."""
    fd, tmp = tempfile.mkstemp(prefix=".seg-", suffix=SUFFIX, dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez(
                f,
                allow_pickle=True,
                pids=arrays.pids,  # its default, named: mypy would take ** for it
                **{f"len_{k}": v for k, v in arrays.length_bytes.items()},
            )
        os.replace(tmp, sidecar_path(folder, arrays.segment_id))
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def load(folder: Path, segment_id: str, doc_count: int) -> SegmentArrays | None:
    """The saved arrays, or None when missing, unreadable or of another size."""
    try:
        with np.load(sidecar_path(folder, segment_id)) as z:
            pids = z["pids"]
            lengths = {f: z[f"len_{f}"] for f in TEXT_FIELDS}
    except (OSError, KeyError, ValueError, EOFError):
        return None
    if len(pids) != doc_count or any(len(v) != doc_count for v in lengths.values()):
        return None
    return SegmentArrays(segment_id, pids, lengths)


def load_or_compute(folder: Path, segreader: IndexReader, *, writable: bool) -> SegmentArrays:
    segment_id = segreader.segment().segment_id()
    found = load(folder, segment_id, segreader.doc_count_all())
    if found is not None:
        return found
    arrays = compute(segreader)
    if writable:
        with contextlib.suppress(OSError):  # a full disk or a read-only folder: compute next time
            save(folder, arrays)
    return arrays


def write_for_index(folder: Path, ix: Index) -> None:
    """After a commit: save the arrays of the segments that have none; drop those of segments
    that are gone (merged away)."""
    reader = ix.reader()
    try:
        current = set()
        for segreader, _offset in reader.leaf_readers():
            if segreader.segment() is None:  # an empty index
                continue
            segment_id = segreader.segment().segment_id()
            current.add(segment_id)
            if not sidecar_path(folder, segment_id).exists():
                save(folder, compute(segreader))
    finally:
        reader.close()
    for path in folder.glob(f"{PREFIX}*{SUFFIX}"):
        if path.name[len(PREFIX) : -len(SUFFIX)] not in current:
            with contextlib.suppress(OSError):
                path.unlink()
