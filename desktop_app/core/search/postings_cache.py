"""A term's postings as numpy arrays, read once and kept in an LRU bounded by memory.

Keyed by (segment id, field, term bytes): a segment's postings never change, so entries stay
valid across commits; only postings of new segments are read after an update.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from whoosh.reading import IndexReader

DEFAULT_BUDGET_BYTES = 96 * 1024 * 1024
Postings = tuple[np.ndarray, np.ndarray]  # local docnums (int32, ascending), weights (float)


def read_postings(segreader: IndexReader, field: str, btext: bytes) -> Postings:
    """Every posting of a term in one segment, deleted documents included (as Whoosh stores them).

    Reads Whoosh 3's posting blocks directly (ids are delta-coded, weights a tuple or one value);
    any other matcher is walked one posting at a time."""
    from whoosh.matching.wrappers import FilterMatcher

    m = segreader.postings(field, btext)
    while isinstance(m, FilterMatcher):  # the segment's deletions: applied later, per searcher
        m = m.child
    ids: list[np.ndarray] = []
    weights: list[np.ndarray] = []
    if all(hasattr(m, a) for a in ("_read_data", "_next_block", "_blocklength", "_lastblock")):
        while True:
            m._read_data()
            data = m._data
            n = m._blocklength
            raw_ids = data[0]
            if m._byteids:
                raise TypeError("byte ids")
            ids.append(np.cumsum(np.asarray(raw_ids, dtype=np.int64)))
            w = data[1]
            if w is None:
                weights.append(np.ones(n))
            elif isinstance(w, float | int):
                weights.append(np.full(n, float(w)))
            else:
                weights.append(np.asarray(w, dtype=np.float64))
            if m._lastblock:
                break
            m._next_block()
    else:  # pragma: no cover - another codec
        docs, ws = [], []
        while m.is_active():
            docs.append(m.id())
            ws.append(m.weight())
            m.next()
        ids.append(np.asarray(docs, dtype=np.int64))
        weights.append(np.asarray(ws, dtype=np.float64))
    doc_arr = np.concatenate(ids).astype(np.int32) if ids else np.empty(0, np.int32)
    w_arr = np.concatenate(weights) if weights else np.empty(0)
    w32 = w_arr.astype(np.float32)
    if np.array_equal(w32, w_arr):  # counts times a field boost: exact in float32, half the memory
        w_arr = w32
    return doc_arr, w_arr


class PostingsCache:
    """LRU of term postings (and of other arrays computed from them), bounded in bytes."""

    def __init__(self, budget_bytes: int = DEFAULT_BUDGET_BYTES) -> None:
        self.budget = budget_bytes
        self.used = 0
        self._items: OrderedDict[tuple[object, ...], tuple[object, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: tuple[object, ...]) -> object | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return item[0]

    def put(self, key: tuple[object, ...], value: object, nbytes: int) -> None:
        if nbytes > self.budget // 4:  # one huge entry would evict everything else
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.used -= old[1]
            self._items[key] = (value, nbytes)
            self.used += nbytes
            while self.used > self.budget and self._items:
                _, (_, size) = self._items.popitem(last=False)
                self.used -= size

    def postings(self, segreader: IndexReader, segment_id: str, field: str, btext: bytes) -> Postings:
        key = ("postings", segment_id, field, btext)
        found = self.get(key)
        if found is not None:
            return found  # type: ignore[return-value]
        docs, weights = read_postings(segreader, field, btext)
        self.put(key, (docs, weights), docs.nbytes + weights.nbytes)
        return docs, weights

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.used = 0
