"""``lib.triage``: the learned triage queue, decisions, and what is left.

The filter decides which papers are in the queue; the model (``queue_model.py``) only their
order: the undecided papers most-likely-keep first, then the decided ones in the list's order,
so nothing the filter shows is hidden. ``learned=False`` gives the list's own order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

import numpy as np
from sqlalchemy import select

from desktop_app.core.insights import pace as pace_mod
from desktop_app.core.insights import queue_model
from desktop_app.core.insights.mapped_arrays import position, trim_heap
from desktop_app.core.rules import check_decision
from desktop_app.core.store import tables as t

if TYPE_CHECKING:
    from desktop_app.core.finder import Finder
    from desktop_app.core.papers import Papers
    from desktop_app.core.store import Store
    from desktop_app.core.values import Change

# two abstracts whose tf-idf vectors have at least this cosine are offered for the same decision
# (other versions of one abstract: an arXiv v2, a workshop and a conference version). Measured on
# the 76 seeds: a version without its last sentence at least 0.88 (median 0.95), with 10 % of its
# words replaced at least 0.88 (median 0.92); two different seed papers at most 0.26
NEAR_DUPLICATE = 0.8
EXPLAINED = 200  # the entries at the head of a queue that say which words pushed them up


@dataclass(slots=True)
class QueueEntry:
    id: int
    score: float | None  # 0..1, the rank of its likelihood among the library (None: not learned)
    why: list[str] = field(default_factory=list)  # terms that pushed it up


@dataclass
class QueueSummary:
    shown: int  # papers the filter shows
    decided: int
    seconds_per_paper: float | None
    likely_keeps: float | None  # estimated keeps among the undecided (pace.keeps_left)
    learned: bool
    message: str = ""  # why the order is the list's own, when it is

    @property
    def undecided(self) -> int:
        return self.shown - self.decided

    @property
    def seconds_left(self) -> float | None:
        return None if self.seconds_per_paper is None else self.undecided * self.seconds_per_paper

    def line(self) -> str:
        """ "1,214 of 5,000 decided · about 1 h 50 min left at your pace of the last 50 · about
        31 likely keeps remain" (English: the CLI's; the window builds its own translated one)."""
        parts = [f"{self.decided:,} of {self.shown:,} decided"]
        if self.seconds_left is not None and self.undecided:
            parts.append(
                f"{pace_mod.format_duration(self.seconds_left)} left at your pace of the last {pace_mod.PACE_WINDOW}"
            )
        if self.likely_keeps is not None and self.undecided:
            parts.append(f"about {round(self.likely_keeps):,} likely keeps remain")
        return " · ".join(parts)

    def as_json(self) -> dict[str, Any]:
        out = asdict(self)
        out.update(undecided=self.undecided, seconds_left=self.seconds_left, line=self.line())
        return out


class QueueEntries(Sequence[QueueEntry]):
    """The queue's undecided papers in order, held as arrays; an entry is made when it is read.
    A queue of 100,000 papers as entry objects was 12 MB, made again at every decision while
    the window still held the last one."""

    __slots__ = ("_ids", "_scores", "_why")

    def __init__(
        self,
        ids: Sequence[int] | np.ndarray = (),
        scores: np.ndarray | None = None,
        why: dict[int, list[str]] | None = None,
    ) -> None:
        self._ids = np.asarray(ids, dtype=np.int64)
        self._scores = scores  # float64 per entry, NaN for an entry without a score; None: none has one
        # (shown rounded to 4 places, as Python's round() gives them)
        self._why = why or {}  # position -> terms, for the entries that were explained

    def ids(self) -> list[int]:
        return [int(i) for i in self._ids.tolist()]

    def scores(self) -> dict[int, float]:
        """Paper id -> score, for the entries that have one."""
        if self._scores is None:
            return {}
        has = ~np.isnan(self._scores)
        return dict(zip(self._ids[has].tolist(), [round(x, 4) for x in self._scores[has].tolist()], strict=True))

    def explanations(self) -> dict[int, list[str]]:
        """Paper id -> the terms that pushed it up, for the entries that were explained."""
        return {int(self._ids[i]): list(terms) for i, terms in self._why.items()}

    def __len__(self) -> int:
        return len(self._ids)

    @overload
    def __getitem__(self, index: int) -> QueueEntry: ...
    @overload
    def __getitem__(self, index: slice) -> list[QueueEntry]: ...
    def __getitem__(self, index: int | slice) -> QueueEntry | list[QueueEntry]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        i = position(index, len(self))
        score = None if self._scores is None or np.isnan(self._scores[i]) else round(float(self._scores[i]), 4)
        return QueueEntry(int(self._ids[i]), score, list(self._why.get(i, ())))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, QueueEntries | list | tuple):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"QueueEntries({len(self)} papers)"


@dataclass
class Queue:
    entries: QueueEntries  # the undecided papers, in the order triage shows them
    decided: list[int]  # the filter's decided papers, in list order (triage shows them after)
    summary: QueueSummary

    @property
    def order(self) -> list[int]:
        return self.entries.ids() + self.decided


class TriageQueue:
    """Decisions and the learned order. Receives the store, the library folder (its feature
    cache), the Finder and the (logged) Papers manager, whose ``set_decision`` writes."""

    def __init__(self, store: Store, folder: Path | None, finder: Finder, papers: Papers) -> None:
        self._store = store
        self._folder = folder
        self._finder = finder
        self._papers = papers

    def features_cached(self) -> bool:
        """Whether the tf-idf features of the library's current texts are cached already (the
        window builds them in a child process for a large library when they are not)."""
        from desktop_app.core.insights import text_features

        return self._folder is not None and bool(text_features.cached(self._store, self._folder))

    def build_features_in_child(self) -> None:
        """Build and cache those features in a child process (its own GIL: the window's GUI
        thread never waits on the fit); a folder library only."""
        from desktop_app.core.insights import text_features

        if self._folder is not None:
            text_features.build_in_child(self._folder)

    def decide(self, paper_ids: Sequence[int], decision: str | None) -> Change:
        """keep / maybe / skip / None for papers: one transaction, logged, undoable."""
        return self._papers.set_decision(list(paper_ids), check_decision(decision))

    def labels(self) -> tuple[dict[int, str | None], dict[int, int]]:
        """Decisions and ratings of the live papers that have one."""
        p = t.paper.c
        with self._store.read() as conn:
            rows = conn.execute(
                select(p.id, p.decision, p.rating).where(
                    p.deleted_at.is_(None), (p.decision.is_not(None)) | (p.rating > 0)
                )
            ).all()
        return ({r[0]: r[1] for r in rows if r[1] is not None}, {r[0]: r[2] for r in rows if r[2]})

    def queue(
        self, query_text: str = "", *, learned: bool = True, limit: int | None = None, why: int = 5, **filters: object
    ) -> Queue:
        """The filter's papers in triage order. ``limit`` caps the entries explained and returned."""
        result = self._finder.query(query_text, **filters)
        return self.order(result.ids, learned=learned, limit=limit, why=why)

    def order(self, shown: Sequence[int], *, learned: bool = True, limit: int | None = None, why: int = 5) -> Queue:
        """The papers ``shown`` (a list in its own order: the window's) in triage order."""
        decisions, ratings = self.labels()
        shown = list(shown)
        decided = [pid for pid in shown if pid in decisions]
        undecided = [pid for pid in shown if pid not in decisions]
        timing = pace_mod.pace(self._store)
        labels = queue_model.training_labels(decisions, ratings)
        message = ""
        fitted = None
        if not learned:
            message = "list order (learning turned off)"
        elif not shown:
            message = "the filter shows no papers"
        elif not queue_model.can_learn(labels):
            message = "list order until there is at least one keep and one skip"
        else:
            from desktop_app.core.insights.text_features import features

            feats = features(self._store, self._folder)
            fitted = queue_model.fit(feats, labels)
            if fitted is None:
                message = "list order: the decided papers have no words to learn from"
        if fitted is None:
            entries = QueueEntries(undecided[:limit])
            summary = QueueSummary(len(shown), len(decided), timing.seconds_per_paper, None, False, message)
            return Queue(entries, decided, summary)
        rows = feats.rows(undecided)
        inside = rows >= 0
        scores = np.where(inside, fitted.scores[np.maximum(rows, 0)], -np.inf)
        shown_score = np.where(inside, fitted.percentile(np.maximum(rows, 0)), 0.0)
        # stable: equal scores keep the list's order
        order = np.argsort(-scores, kind="stable")
        likely = pace_mod.keeps_left(pace_mod.decision_sequence(self._store), len(undecided))
        taken = order[: len(order) if limit is None else limit]
        explained: dict[int, list[str]] = {}
        for rank, i in enumerate(taken[:EXPLAINED].tolist()):
            if int(rows[i]) >= 0:
                terms = queue_model.why_terms(feats, fitted, int(rows[i]), why)
                if terms:
                    explained[rank] = terms
        entry_scores = np.where(inside[taken], shown_score[taken], np.nan)
        entries = QueueEntries(np.asarray(undecided, dtype=np.int64)[taken], entry_scores, explained)
        summary = QueueSummary(len(shown), len(decided), timing.seconds_per_paper, likely, True)
        trim_heap()  # a ranking's temporaries (lists and arrays of every shown paper) are freed
        return Queue(entries, decided, summary)

    def near_duplicates(
        self, paper_id: int, threshold: float = NEAR_DUPLICATE, limit: int = 20
    ) -> list[tuple[int, float]]:
        """Undecided live papers whose abstract is nearly ``paper_id``'s, (id, cosine) best first."""
        from desktop_app.core.insights.text_features import features

        feats = features(self._store, self._folder)
        row = int(feats.rows([paper_id])[0])
        if row < 0 or feats.matrix.shape[1] == 0:
            return []
        cols, vals = feats.matrix.row(row)
        probe = np.zeros(feats.matrix.shape[1])
        probe[cols] = vals
        sims = feats.matrix.dot(probe)
        sims[row] = 0.0
        hits = np.flatnonzero(sims >= threshold)
        if not len(hits):
            return []
        decisions, _ = self.labels()
        out = [(int(feats.ids[i]), float(sims[i])) for i in hits if int(feats.ids[i]) not in decisions]
        out.sort(key=lambda x: -x[1])
        return out[:limit]
