"""Near-duplicates found in the semantic space: a reworded copy of a paper (a preprint and its
published version) is offered with its paper, and different papers are not."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from scipy.sparse import csr_matrix

from desktop_app.core.insights.semantic import SemanticSpace
from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from desktop_app.core.sameness import NEAR_REASON


def _reworded(text: str) -> str:
    sentences = text.split(". ")
    if len(sentences) > 3:
        del sentences[1]
    return "In this paper, " + ". ".join(sentences) + " Experiments on several benchmarks confirm these findings."


def test_reworded_copies_of_seed_papers_are_offered_and_nothing_else(tmp_path: Path, seed_paths: list[Path]) -> None:
    with Library.open(tmp_path / "lib") as lib:
        assert lib.imports.from_files(seed_paths).added == 76
        assert lib.duplicates.find() == []  # 76 different papers
        ids = lib.finder.list_ids()[:3]
        copies = [
            Record(title="Preprint " + str(n), abstract=_reworded(lib.papers.get(pid).abstract_text))
            for n, pid in enumerate(ids)
        ]
        assert lib.imports.from_records([("preprints", ParseResult("bibtex", copies))]).added == 3
        new = sorted(set(lib.finder.list_ids()) - set(lib.finder.list_ids()[:76]))
        pairs = lib.duplicates.find()
        assert [(p.a, p.b, p.reason, p.strong) for p in pairs] == [
            (a, b, NEAR_REASON, False) for a, b in zip(ids, new, strict=True)
        ]
        assert pairs[0].title_b == "Preprint 0"

        lib.duplicates.dismiss(ids[0], new[0])
        lib.papers.delete([new[1]])
        assert [(p.a, p.b) for p in lib.duplicates.find()] == [(ids[2], new[2])]


def test_close_pairs_by_cells_finds_what_comparing_every_pair_finds() -> None:
    rng = np.random.default_rng(3)
    centres = rng.normal(size=(20, 16)).astype(np.float32)
    vectors = centres[rng.integers(0, 20, 2000)] + 0.6 * rng.normal(size=(2000, 16)).astype(np.float32)
    vectors[5] = vectors[1700] + 0.01  # one near copy far apart in id
    vectors[9] = 0  # a paper without words takes no part
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors = np.where(norms > 0, vectors / np.maximum(norms, 1e-12), 0).astype(np.float32)
    space = SemanticSpace(np.arange(100, 2100, dtype=np.int64), vectors, csr_matrix((2000, 1)), np.empty(0))
    exact = space.close_pairs(0.9, exact_up_to=10**9)
    cells = space.close_pairs(0.9, exact_up_to=0)
    assert (105, 1800) in [(a, b) for a, b, _ in exact]
    assert all(c >= 0.9 for _a, _b, c in exact) and not any(109 in (a, b) for a, b, _ in exact)
    found = {(a, b) for a, b, _ in cells}
    assert found <= {(a, b) for a, b, _ in exact}
    assert len(found) >= 0.95 * len(exact) and (105, 1800) in found
