"""The index's vocabulary kept beside it, per segment: the stems near a misspelt one, fast.

"Did you mean" (suggest.py) asks for the stems of a field within an edit distance of a typed
one that begin with its first letter. Whoosh answers from its term files: every term with that
letter is read from every segment and compared, about 1.7 s at 100,000 papers. A segment's
terms never change once it is written (deleting a document leaves its terms and their counts
until a merge), so each segment's are saved once, when the commit that made it is done, as
``marginalia-voc-<segment id>.npz`` (as segment_arrays.py saves its arrays): per field the
terms sorted (UTF-8, one blob and offsets), each term's first character and its letter counts
(a to z, the rest as one). A look-up takes the terms of the right first letter, keeps those
whose letter counts differ little enough (the bag distance, never more than the edit distance)
and compares only those with Whoosh's own distance: the same terms as Whoosh's
``terms_within``. A missing file (an older index, another process's segment) is computed on
first use and saved when the folder is writable.
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

PREFIX = "marginalia-voc-"
SUFFIX = ".npz"
VERSION = 1  # of the file's layout: another is computed again
_LETTERS = 27  # a..z, then every other character


@dataclass(frozen=True)
class FieldTerms:
    """One field's terms in one segment, sorted as Whoosh sorts them (by UTF-8 bytes)."""

    blob: np.ndarray  # uint8: the terms' UTF-8 bytes, one after another
    offsets: np.ndarray  # int64, n + 1: term i is blob[offsets[i]:offsets[i + 1]]
    first: np.ndarray  # uint32: each term's first character (sorted, as the terms are)
    counts: np.ndarray  # uint8, n x 27: each term's letters (a..z, others), at most 255

    def term(self, i: int) -> str:
        return bytes(self.blob[self.offsets[i] : self.offsets[i + 1]]).decode("utf-8")

    def near(self, word: str, maxdist: int) -> list[str]:
        """The terms beginning with ``word``'s first character whose letter counts are within
        ``maxdist`` of its (a superset of those within that edit distance)."""
        if not word or not len(self.first):
            return []
        c = ord(word[0])
        lo, hi = np.searchsorted(self.first, [c, c + 1])
        if lo == hi:
            return []
        diff = self.counts[lo:hi].astype(np.int16) - _letter_counts(word).astype(np.int16)
        more = np.clip(diff, 0, None).sum(axis=1)
        fewer = np.clip(-diff, 0, None).sum(axis=1)
        keep = np.flatnonzero(np.maximum(more, fewer) <= maxdist) + lo
        return [self.term(int(i)) for i in keep]


@dataclass(frozen=True)
class SegmentVocabulary:
    segment_id: str
    fields: dict[str, FieldTerms]


class Vocabulary:
    """The terms of an index's segments (a searcher's), looked up by edit distance."""

    def __init__(self, segments: list[SegmentVocabulary]) -> None:
        self.segments = segments

    def terms_within(self, field: str, word: str, maxdist: int) -> set[str]:
        """The terms of ``field`` within ``maxdist`` Damerau-Levenshtein edits of ``word`` that
        begin with its first character: what Whoosh's ``terms_within(field, word, maxdist,
        prefix=1)`` yields, measured by the same distance function."""
        from whoosh.support.levenshtein import distance

        found: set[str] = set()
        for seg in self.segments:
            terms = seg.fields.get(field)
            if terms is None:
                continue
            for term in terms.near(word, maxdist):
                if term not in found and distance(term, word, limit=maxdist) <= maxdist:
                    found.add(term)
        return found


def _letter_counts(word: str) -> np.ndarray:
    out = np.zeros(_LETTERS, dtype=np.uint8)
    for ch in word:
        k = ord(ch) - 97
        k = k if 0 <= k < 26 else 26
        out[k] = min(255, int(out[k]) + 1)
    return out


def _field_terms(raw: list[bytes]) -> FieldTerms:
    """The arrays of a sorted list of UTF-8 terms, letter counts computed over the whole blob."""
    n = len(raw)
    lengths = np.fromiter((len(b) for b in raw), dtype=np.int64, count=n)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    blob = np.frombuffer(b"".join(raw), dtype=np.uint8).copy()
    first = np.fromiter((ord(b.decode("utf-8")[0]) if b else 0 for b in raw), dtype=np.uint32, count=n)
    # a character of several UTF-8 bytes counts as one "other": its lead byte (>= 0xC0) does,
    # its continuation bytes (0x80..0xBF) are left out
    owner = np.repeat(np.arange(n, dtype=np.int64), lengths)
    klass = blob.astype(np.int64) - 97
    klass = np.where((klass >= 0) & (klass < 26), klass, 26)
    counted = (blob < 0x80) | (blob >= 0xC0)
    wide = np.zeros((n, _LETTERS), dtype=np.int64)
    np.add.at(wide, (owner[counted], klass[counted]), 1)
    counts = np.minimum(wide, 255).astype(np.uint8)
    return FieldTerms(blob, offsets, first, counts)


def sidecar_path(folder: Path, segment_id: str) -> Path:
    return folder / f"{PREFIX}{segment_id}{SUFFIX}"


def compute(segreader: IndexReader) -> SegmentVocabulary:
    """Read one segment's terms of the text fields out of its term file."""
    fields: dict[str, FieldTerms] = {}
    names = set(segreader.indexed_field_names())
    for field in TEXT_FIELDS:
        raw = list(segreader.lexicon(field)) if field in names else []
        fields[field] = _field_terms([b if isinstance(b, bytes) else b.encode("utf-8") for b in raw])
    return SegmentVocabulary(segreader.segment().segment_id(), fields)


def save(folder: Path, vocab: SegmentVocabulary) -> None:
    """Write atomically (temporary file, then rename), so a reader never sees half a file."""
    arrays: dict[str, np.ndarray] = {"version": np.array([VERSION])}
    for field, terms in vocab.fields.items():
        arrays.update(
            {
                f"{field}.blob": terms.blob,
                f"{field}.offsets": terms.offsets,
                f"{field}.first": terms.first,
                f"{field}.counts": terms.counts,
            }
        )
    fd, tmp = tempfile.mkstemp(prefix=".voc-", suffix=SUFFIX, dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez(f, allow_pickle=True, **arrays)  # its default, named: else mypy takes **arrays for it
        os.replace(tmp, sidecar_path(folder, vocab.segment_id))
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def load(folder: Path, segment_id: str) -> SegmentVocabulary | None:
    """The saved vocabulary, or None when missing, unreadable or of another layout."""
    try:
        with np.load(sidecar_path(folder, segment_id)) as z:
            if int(z["version"][0]) != VERSION:
                return None
            fields = {
                f: FieldTerms(z[f"{f}.blob"], z[f"{f}.offsets"], z[f"{f}.first"], z[f"{f}.counts"]) for f in TEXT_FIELDS
            }
    except (OSError, KeyError, ValueError, EOFError):
        return None
    if any(len(v.offsets) != len(v.first) + 1 or len(v.counts) != len(v.first) for v in fields.values()):
        return None
    return SegmentVocabulary(segment_id, fields)


def load_or_compute(folder: Path, segreader: IndexReader, *, writable: bool) -> SegmentVocabulary:
    found = load(folder, segreader.segment().segment_id())
    if found is not None:
        return found
    vocab = compute(segreader)
    if writable:
        with contextlib.suppress(OSError):  # a full disk or a read-only folder: compute next time
            save(folder, vocab)
    return vocab


def write_for_index(folder: Path, ix: Index) -> None:
    """After a commit: save the vocabularies of the segments that have none; drop those of
    segments that are gone (merged away)."""
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
