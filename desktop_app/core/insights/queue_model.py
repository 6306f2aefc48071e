"""The model behind the learned triage queue: which undecided papers are most likely a keep.

The evidence (``training_labels``): a paper decided *keep* is relevant, *skip* is not; *maybe*
teaches nothing. A paper with no decision counts by its rating: 4 or 5 stars as a keep, 1 star as
a skip (0 is "not rated"). Nothing is learned before there is at least one relevant and one
irrelevant paper; until then the queue keeps the list's order.

The model (``fit``), over the library's tf-idf features (``text_features.py``): a multinomial
naive Bayes (alpha 3.822, the relevant papers weighted up by the class ratio, so that both
classes weigh the same),
refitted after each decision. Measured with ``benchmarks/bench_screening.py``'s simulation on
the shared labelled reviews it beat a linear SVM (ASReview 3's default), their rank average and
their z-score sum on WSS@95 on average (the figures are in benchmarks/README.md); it fits in
milliseconds and scores 100,000 papers with one sparse product. Its per-term log ratios also say
*why* a paper is high: the terms whose weight times the paper's tf-idf pushed it up most
(``why_terms``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from desktop_app.core.insights.text_features import Csr, TextFeatures

NB_ALPHA = 3.822
KEEP_RATING = 4  # an undecided paper rated this or more counts as a keep
SKIP_RATING = 1  # rated exactly this: counts as a skip


def training_labels(decisions: dict[int, str | None], ratings: dict[int, int]) -> dict[int, int]:
    """{paper id: 1 relevant / 0 irrelevant} from decisions, then ratings of undecided papers."""
    labels: dict[int, int] = {}
    for pid, rating in ratings.items():
        if rating >= KEEP_RATING:
            labels[pid] = 1
        elif rating == SKIP_RATING:
            labels[pid] = 0
    for pid, decision in decisions.items():
        if decision == "keep":
            labels[pid] = 1
        elif decision == "skip":
            labels[pid] = 0
        elif decision == "maybe":
            labels.pop(pid, None)
    return labels


@dataclass
class Fitted:
    """A fitted model: ``scores`` for every row of the features (higher: more likely a keep)."""

    scores: np.ndarray  # the log odds ratio of keep against skip
    term_weights: np.ndarray  # one per term: log P(term | keep) - log P(term | skip)

    def percentile(self, rows: np.ndarray) -> np.ndarray:
        """The share of the library's papers each row outranks (0..1), for display."""
        ordered = np.sort(self.scores)
        shares: np.ndarray = np.searchsorted(ordered, self.scores[rows], side="left") / max(len(ordered), 1)
        return shares


def can_learn(labels: dict[int, int]) -> bool:
    values = set(labels.values())
    return 0 in values and 1 in values


def fit(feats: TextFeatures, labels: dict[int, int]) -> Fitted | None:
    """Fit on the labelled papers the features hold; None when there is nothing to learn from."""
    pids = np.fromiter(labels, dtype=np.int64, count=len(labels))
    rows = feats.rows(pids)
    inside = rows >= 0
    rows, y = rows[inside], np.fromiter((labels[int(p)] for p in pids[inside]), dtype=np.int64)
    if not (y == 1).any() or not (y == 0).any() or feats.matrix.shape[1] == 0:
        return None
    # balanced: the keeps weigh as much in all as the skips (they are few; a cap such as
    # ASReview's 9.8 for its SVM measured worse here: ADHD WSS@95 0.617 against 0.672)
    ratio = max(1.0, float((y == 0).sum()) / float((y == 1).sum()))
    weights = naive_bayes_weights(feats.matrix, rows, y, np.where(y == 1, ratio, 1.0))
    scores = feats.matrix.dot(weights)
    return Fitted(scores=scores, term_weights=weights)


def naive_bayes_weights(
    matrix: Csr, rows: np.ndarray, y: np.ndarray, sample_weight: np.ndarray, alpha: float = NB_ALPHA
) -> np.ndarray:
    """Per term, log P(term | keep) - log P(term | skip) of a multinomial naive Bayes with
    additive smoothing ``alpha``: exactly scikit-learn's ``MultinomialNB(alpha).fit(X[rows], y,
    sample_weight).feature_log_prob_[1] - [0]`` (a test holds them equal), computed here with
    numpy so that ranking needs neither scikit-learn nor SciPy loaded (their import is most of
    a ``triage queue`` process's time)."""
    out: list[np.ndarray] = []
    for label in (1, 0):
        chosen = y == label
        counts = matrix.column_sums(rows[chosen], sample_weight[chosen]) + alpha
        out.append(np.log(counts) - np.log(counts.sum()))
    weights: np.ndarray = out[0] - out[1]
    return weights


def why_terms(feats: TextFeatures, fitted: Fitted, row: int, n: int = 5) -> list[str]:
    """The terms that pushed row ``row`` up most (weight × tf-idf, positive only)."""
    cols, vals = feats.matrix.row(row)
    if not len(cols):
        return []
    contrib = vals * fitted.term_weights[cols]
    order = np.argsort(-contrib)[:n]
    return [feats.terms[cols[i]] for i in order if contrib[i] > 0]
