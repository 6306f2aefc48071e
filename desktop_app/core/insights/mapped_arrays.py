"""An array of a ``.npy`` file memory-mapped read-only, whose pages can be given back.

A page of a mapped file that the process has read counts in its resident set (VmRSS, and so in
its peak VmHWM) until the kernel reclaims it, which on a machine with memory to spare it never
does: one pass over a 130 MB mapped matrix leaves 130 MB resident. ``MappedArray.drop`` tells
the kernel (``madvise(MADV_DONTNEED)``) that the pages behind a range of elements are not
needed now; a later read finds them again in the page cache, from the unchanged file. Where
``madvise`` is missing (Windows), dropping does nothing and the pages stay as the system keeps
them.
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np

_PAGE = mmap.PAGESIZE
_DONTNEED = getattr(mmap, "MADV_DONTNEED", None)


class MappedArray:
    """``array`` is the file's array, read-only, backed by the mapping (no copy in the heap)."""

    def __init__(self, path: Path) -> None:
        from numpy.lib import format as npy

        with open(path, "rb") as fh:
            version = npy.read_magic(fh)
            read_header = npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
            shape, fortran, dtype = read_header(fh)
            self._offset = fh.tell()
            size = os.fstat(fh.fileno()).st_size
            count = int(np.prod(shape, dtype=np.int64))
            if fortran or dtype.hasobject or self._offset + count * dtype.itemsize > size:
                raise ValueError(f"{path}: not a plain C-ordered array of its length")
            self._mm = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) if count else None
        self._itemsize = dtype.itemsize
        if self._mm is None:
            self.array = np.empty(shape, dtype=dtype)
        else:
            self.array = np.frombuffer(self._mm, dtype=dtype, count=count, offset=self._offset).reshape(shape)

    def drop(self, start: int = 0, stop: int | None = None) -> None:
        """Give back the pages behind elements ``start:stop`` (all by default; counted in C
        order, so a row of a 2-D array is its width of elements); the pages that hold an
        element outside the range as well go too (they come back on the next read)."""
        if self._mm is None or _DONTNEED is None:
            return
        stop = self.array.size if stop is None else stop
        if stop <= start:
            return
        lo = (self._offset + start * self._itemsize) // _PAGE * _PAGE
        hi = min(len(self._mm), self._offset + stop * self._itemsize)
        self._mm.madvise(_DONTNEED, lo, hi - lo)


def trim_heap() -> None:
    """Hand the heap's free pages back to the system after a pass whose temporaries are freed
    (glibc's ``malloc_trim``). Without it each worker thread's malloc arena keeps the peak of
    the passes run in it (tens of MB each for a ranking of 100,000 papers) resident for the
    process's life. Nothing where the C library has no ``malloc_trim``."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


_TRIM: list[Callable[[int], object] | None] = []  # [the C library's malloc_trim, or None], looked up once


def _malloc_trim() -> Callable[[int], object] | None:
    if not _TRIM:
        found = None
        try:
            import ctypes

            found = getattr(ctypes.CDLL(None), "malloc_trim", None)  # the process's own C library
        except (OSError, TypeError):  # Windows: no handle for the process itself
            found = None
        _TRIM.append(found)
    return _TRIM[0]


def position(index: int, length: int) -> int:
    """``index`` of a sequence of ``length`` items as a position from its start (a negative one
    counts from the end); IndexError outside it."""
    i = int(index)
    if i < 0:
        i += length
    if not 0 <= i < length:
        raise IndexError(index)
    return i
