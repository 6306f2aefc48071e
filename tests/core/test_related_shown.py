"""Which related papers the reader lists, and the word for each (core/insights/related.py)."""

from __future__ import annotations

from desktop_app.core.insights.related import FLOOR, RELATIVE, worth_showing


def test_weak_tail_is_left_out_and_each_has_a_word() -> None:
    ranked = [(1, 0.5), (2, 0.3), (3, 0.29), (4, 0.2), (5, 0.1)]
    shown = worth_showing(ranked, semantic=True)
    assert [r.paper_id for r in shown] == [1, 2]  # 0.29 < 0.6 x 0.5
    assert [r.strength for r in shown] == ["strong", "related"]


def test_the_absolute_floor_applies_to_semantic_scores_only() -> None:
    low = [(1, 0.2), (2, 0.18), (3, FLOOR - 0.01)]
    assert [r.paper_id for r in worth_showing(low, semantic=True)] == [1, 2]
    assert [r.strength for r in worth_showing(low, semantic=True)] == ["weak", "weak"]
    bm25 = [(1, 12.0), (2, 10.0), (3, 12.0 * RELATIVE - 0.1)]
    shown = worth_showing(bm25, semantic=False)
    assert [r.paper_id for r in shown] == [1, 2]
    assert [r.strength for r in shown] == ["related", "related"]  # key terms alone: never "strong"


def test_at_most_n_and_none_for_nothing() -> None:
    assert worth_showing([], semantic=True) == []
    ranked = [(n, 0.5) for n in range(20)]
    assert len(worth_showing(ranked, semantic=True, n=10)) == 10
