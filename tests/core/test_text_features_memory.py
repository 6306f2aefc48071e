"""The tf-idf features in memory: read back mapped from the cache, scored a slice at a time."""

from __future__ import annotations

import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from desktop_app.core.insights import text_features
from desktop_app.core.insights.text_features import Csr, Terms, TextFeatures
from desktop_app.core.library import Library


def _random_csr(rows: int, per_row: int, columns: int, seed: int = 5) -> Csr:
    rng = np.random.default_rng(seed)
    lengths = rng.integers(0, 2 * per_row, size=rows)
    lengths[:3] = 0  # empty rows, first and later
    lengths[rows // 2] = 0
    indptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    nnz = int(indptr[-1])
    indices = rng.integers(0, columns, size=nnz).astype(np.int32)
    data = rng.random(nnz, dtype=np.float32)
    return Csr(indptr, indices, data, (rows, columns))


def _resident_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_the_sliced_product_is_scipys_to_the_last_bit() -> None:
    from scipy.sparse import csr_matrix

    m = _random_csr(3_000, 40, 5_000)
    weights = np.random.default_rng(1).normal(size=5_000)
    x = csr_matrix((m.data.astype(np.float64), m.indices, m.indptr), shape=m.shape)
    whole = m.dot(weights)
    assert np.allclose(whole, x @ weights, rtol=0, atol=1e-12)
    spans = m.slices(values=1_000)
    assert len(spans) > 50 and spans[0][0] == 0 and spans[-1][1] == m.shape[0]
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:], strict=False))
    fat = Csr(
        np.array([0, 5_000, 5_001], dtype=np.int64),
        np.zeros(5_001, dtype=np.int32),
        np.ones(5_001, dtype=np.float32),
        (2, 1),
    )
    assert fat.slices(values=10) == [(0, 1), (1, 2)]  # a row larger than a slice is one slice
    assert fat.dot(np.array([2.0])).tolist() == [10_000.0, 2.0]


def test_a_pass_over_the_matrix_allocates_a_slice_not_copies_of_the_whole() -> None:
    m = _random_csr(40_000, 100, 200_000)  # 4 million stored values: 32 MB of indices and data
    weights = np.random.default_rng(2).normal(size=200_000)
    whole_as_float64 = len(m.data) * 8
    tracemalloc.start()
    try:
        m.dot(weights)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # a float64 copy of all values, their weights, products and row numbers: 4 such arrays at
    # once before; now those of one slice (a million values, ~32 MB)
    assert peak < 2 * whole_as_float64, f"{peak / 1e6:.0f} MB for {whole_as_float64 / 1e6:.0f} MB"


def test_features_from_the_cache_are_mapped_not_read_into_the_heap(seed_library: Library) -> None:
    assert text_features.build_in_child(seed_library.folder)  # as the window builds them
    feats = text_features.features(seed_library.store, seed_library.folder)
    m = feats.matrix
    assert m.mapped and m.shape[0] == 76 and len(m.data) > 1_000
    for a in (m.data, m.indices, feats.ids):
        assert not a.flags.owndata and not a.flags.writeable  # a read-only view of the file
    ids = seed_library.query("").ids
    seed_library.triage.decide(ids[:2], "keep")
    seed_library.triage.decide(ids[2:4], "skip")
    q = seed_library.triage.queue("")
    assert q.summary.learned and len(q.entries) == 72 and q.entries[0].why


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_scoring_a_mapped_matrix_leaves_its_pages_given_back(tmp_path: Path) -> None:
    m = _random_csr(60_000, 150, 262_144, seed=9)  # 9 million stored values: 72 MB on disk
    size_mb = (m.data.nbytes + m.indices.nbytes) / 2**20
    feats = TextFeatures("f" * 16, np.arange(60_000, dtype=np.int64), m, Terms.of(f"t{j}" for j in range(262_144)))
    assert text_features._save(tmp_path, feats)
    del feats, m
    mapped = text_features._load(tmp_path, "f" * 16)
    assert mapped is not None and mapped.matrix.mapped
    weights = np.random.default_rng(3).normal(size=262_144)
    before = _resident_mb()
    scores = mapped.matrix.dot(weights)
    grown = _resident_mb() - before
    assert np.isfinite(scores).all() and len(scores) == 60_000
    assert grown < 0.25 * size_mb, f"resident +{grown:.0f} MB after a pass over {size_mb:.0f} MB"


def test_terms_read_back_as_the_list_they_were_made_from() -> None:
    words = ["deep", "reinforcement learning", "café", "网络", "x"]
    terms = Terms.of(words)
    assert len(terms) == 5 and list(terms) == words and terms[-1] == "x" and terms[1:3] == words[1:3]
    assert Terms(terms.joined())[3] == "网络" and len(Terms()) == 0
    with pytest.raises(IndexError):
        terms[5]
