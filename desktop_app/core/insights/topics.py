"""Topics: the papers of a list (or of the whole library) grouped by what they are about.

The papers' points in the library's semantic space (``semantic.library_space``) are clustered by
k-means. Unless the caller says how many topics it wants, the count is the one with the best
silhouette (measured on the space's leading dimensions) among the candidates from 2 to about the square root of half the list (at most
:data:`MAX_TOPICS`), measured on a sample, then fitted to every paper. Each topic is named by the
words frequent in it and rare in the others (class-based tf-idf over the papers' tf-idf rows),
and counts its papers decided keep / maybe / skip. Papers whose text shares no word with the
rest form a topic of their own, last.

:class:`Topics` (``lib.topics``) is the facade's part: it computes, saves a topic as the tag
``topics/<name>`` and decides every undecided paper of a topic in one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from desktop_app.core.changelog.undo_data import ColumnBefore
from desktop_app.core.errors import LibraryError
from desktop_app.core.insights.semantic import SemanticSpace, library_space
from desktop_app.core.store.column_types import DECISIONS
from desktop_app.core.values import Change, ChangeKind

if TYPE_CHECKING:
    from sqlalchemy import Select

    from desktop_app.core.papers import Papers
    from desktop_app.core.store import Store
    from desktop_app.core.tags import Tags

MAX_TOPICS = 40
NAME_WORDS = 3  # words in a topic's name
SHOWN_WORDS = 8  # words listed for a topic
SAMPLE = 2_000
SILHOUETTE_DIMENSIONS = 20  # papers the silhouette of each candidate count is measured on
NO_WORDS_NAME = "no shared words"
# words of any abstract's frame ("antidepressant-like", "we propose a method"): never a topic's name
FRAME_WORDS = frozenset(
    {
        "like",
        "using",
        "based",
        "propose",
        "proposed",
        "paper",
        "study",
        "studies",
        "results",
        "result",
        "show",
        "shows",
        "method",
        "methods",
        "approach",
        "new",
    }
)


@dataclass
class Topic:
    number: int  # 1, 2, ... by size, largest first
    name: str
    words: list[str]
    ids: list[int]
    decisions: dict[str, int] = field(default_factory=dict)  # keep / maybe / skip / undecided

    @property
    def size(self) -> int:
        return len(self.ids)

    def as_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "name": self.name,
            "words": self.words,
            "size": self.size,
            "decisions": self.decisions,
            "ids": self.ids,
        }


@dataclass
class TopicSet:
    topics: list[Topic]
    papers: int
    chosen: bool  # the count was chosen by the app (not asked for)
    message: str = ""  # why there are no or few topics, for the user
    names_given: dict[int, str] = field(default_factory=dict)  # renamed topic number -> name found

    def find(self, which: str | int) -> Topic:
        """A topic by number (1-based) or by name (case-insensitive); LibraryError otherwise."""
        text = str(which).strip()
        for t in self.topics:
            if text.isdigit() and t.number == int(text) or t.name.casefold() == text.casefold():
                return t
        raise LibraryError(f"no topic '{text}' (topics are numbered 1 to {len(self.topics)}, or named)")

    def rename(self, which: str | int, name: str) -> Topic:
        """Give a topic a name of the user's (kept by this set; what :func:`find_topics` named it
        stays in ``names_given``): blanks folded, not empty, not another topic's name."""
        topic = self.find(which)
        clean = " ".join(name.split())
        if not clean:
            raise LibraryError("a topic needs a name")
        if any(t is not topic and t.name.casefold() == clean.casefold() for t in self.topics):
            raise LibraryError(f"another topic is named '{clean}'")
        self.names_given.setdefault(topic.number, topic.name)
        topic.name = clean
        return topic

    def renamed(self) -> dict[str, str]:
        """{the name found: the user's name} for every renamed topic."""
        by_number = {t.number: t.name for t in self.topics}
        return {found: by_number[n] for n, found in self.names_given.items() if by_number.get(n, found) != found}

    def keep_names(self, renamed: dict[str, str]) -> None:
        """Rename the topics found again under a name the user changed before (``renamed()`` of
        an earlier set): a recomputation keeps the user's names."""
        for t in self.topics:
            wanted = renamed.get(self.names_given.get(t.number, t.name))
            if wanted and wanted != t.name:
                try:
                    self.rename(t.number, wanted)
                except LibraryError:
                    continue  # another topic took that name meanwhile: the found one stays

    def as_json(self) -> dict[str, Any]:
        return {
            "papers": self.papers,
            "chosen": self.chosen,
            "message": self.message,
            "topics": [t.as_json() for t in self.topics],
        }


def decision_counts(store: Store, ids: Sequence[int]) -> dict[str, int]:
    """How many of ``ids`` are decided keep, maybe, skip, and how many are undecided."""
    from sqlalchemy import func, select

    from desktop_app.core.store import tables as t

    counts = dict.fromkeys((*DECISIONS, "undecided"), 0)
    p = t.paper.c
    per_decision: Select[str | None, int] = (
        select(p.decision, func.count()).where(store.dialect.in_ids(p.id, ids)).group_by(p.decision)
    )
    with store.read() as conn:
        rows = conn.execute(per_decision).all()
    for value, n in rows:
        counts[value if value in DECISIONS else "undecided"] += n
    return counts


def undecided(store: Store, ids: Sequence[int]) -> list[int]:
    """The live papers of ``ids`` without a decision, ascending."""
    from sqlalchemy import select

    from desktop_app.core.store import tables as t

    p = t.paper.c
    with store.read() as conn:
        return list(
            conn.execute(
                select(p.id)
                .where(store.dialect.in_ids(p.id, ids), p.decision.is_(None), p.deleted_at.is_(None))
                .order_by(p.id)
            ).scalars()
        )


def candidate_counts(n: int) -> list[int]:
    """The topic counts the app tries for ``n`` papers."""
    top = min(MAX_TOPICS, max(2, int(np.sqrt(n / 2))), n - 1)
    out, k = [], 2
    while k <= top:  # every count up to 6, then steps of about a fifth
        out.append(k)
        k = k + 1 if k < 6 else max(k + 1, round(k * 1.2))
    return out


def choose_count(points: np.ndarray, seed: int = 0) -> int:
    """The candidate count with the best silhouette (cosine, on the leading
    :data:`SILHOUETTE_DIMENSIONS`) of k-means on a sample of ``points``."""
    from sklearn.cluster import KMeans
    from sklearn.metrics import silhouette_score

    n = len(points)
    rng = np.random.default_rng(seed)
    sample = points if n <= SAMPLE else points[rng.choice(n, SAMPLE, replace=False)]
    distinct = len(np.unique(sample.round(5), axis=0))
    # measured on the leading dimensions (the SVD orders them by weight): in all hundred, every
    # count scores about alike; in twenty, the count that separates the main themes stands out
    lead = sample[:, :SILHOUETTE_DIMENSIONS].astype(np.float64)
    lead /= np.maximum(np.linalg.norm(lead, axis=1, keepdims=True), 1e-12)
    distances = np.clip(1.0 - lead @ lead.T, 0.0, 2.0)
    np.fill_diagonal(distances, 0.0)
    best, best_score = 1, -1.0
    for k in candidate_counts(len(sample)):
        if k >= distinct:
            break
        labels = KMeans(n_clusters=k, n_init=3, random_state=seed).fit_predict(sample)
        if len(set(labels)) < 2:
            continue
        score = silhouette_score(distances, labels, metric="precomputed")
        if score > best_score:
            best, best_score = k, score
    return best


def cluster(points: np.ndarray, k: int, seed: int = 0) -> np.ndarray:
    """A topic label (0 .. k-1) for each point: k-means on all, mini-batches above 20,000 points."""
    if k <= 1 or len(points) <= 1:
        return np.zeros(len(points), dtype=np.int64)
    from sklearn.cluster import KMeans, MiniBatchKMeans

    if len(points) > 20_000:
        model = MiniBatchKMeans(n_clusters=k, n_init=3, batch_size=4096, random_state=seed)
    else:
        model = KMeans(n_clusters=k, n_init=4, random_state=seed)
    labels: np.ndarray = model.fit_predict(points).astype(np.int64)
    return labels


def distinctive_words(
    space: SemanticSpace, rows: np.ndarray, labels: np.ndarray, k: int, n: int = SHOWN_WORDS
) -> list[list[str]]:
    """For each label, the ``n`` words most frequent in its papers against all (class-based tf-idf)."""
    from scipy.sparse import csr_matrix

    if space.weights.shape[1] == 0 or len(rows) == 0:
        return [[] for _ in range(k)]
    member = csr_matrix((np.ones(len(rows), np.float32), (labels, np.arange(len(rows)))), shape=(k, len(rows)))
    per_class = np.asarray((member @ space.weights[rows]).todense())  # (k, words)
    totals = per_class.sum(axis=1, keepdims=True)
    tf = per_class / np.maximum(totals, 1e-12)
    idf = np.log(1 + totals.mean() / np.maximum(per_class.sum(axis=0), 1e-12))
    score = tf * idf
    out = []
    for c in range(k):
        top = np.argsort(-score[c], kind="stable")[: n * 3]
        words = [str(space.words[i]) for i in top if score[c, i] > 0]
        out.append(_one_form_each([w for w in words if w not in FRAME_WORDS])[:n])
    return out


def _one_form_each(words: list[str]) -> list[str]:
    """The words without a later plural of an earlier one, or the other way ("model", "models")."""
    seen: set[str] = set()
    out = []
    for w in words:
        base = w[:-2] if w.endswith("es") and len(w) > 4 else w[:-1] if w.endswith("s") and len(w) > 3 else w
        if base in seen or w in seen:
            continue
        seen.update((w, base))
        out.append(w)
    return out


def find_topics(
    store: Store, paper_ids: Sequence[int] | None = None, k: int | None = None, space: SemanticSpace | None = None
) -> TopicSet:
    """The topics of ``paper_ids`` (all live papers when None); ``k`` topics when given."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):  # OpenMP's threads spin on a busy machine: one is 10-20x faster here
        return _find_topics(store, paper_ids, k, space)


def _find_topics(store: Store, paper_ids: Sequence[int] | None, k: int | None, space: SemanticSpace | None) -> TopicSet:
    if k is not None and k < 1:
        raise LibraryError(f"the number of topics is at least 1, not {k}")
    space = space if space is not None else library_space(store)
    rows = space.rows(sorted(set(paper_ids))) if paper_ids is not None else np.arange(len(space.ids))
    n = len(rows)
    if n == 0:
        return TopicSet([], 0, k is None, "No papers to group into topics.")
    with_words = space.has_words()[rows]
    worded, wordless = rows[with_words], rows[~with_words]
    points = space.vectors[worded]
    message = ""
    if len(worded) < 3 and k is None:
        count = 1
        message = "Too few papers to tell topics apart: they are shown as one."
    else:
        distinct = len(np.unique(points.round(5), axis=0)) if len(points) else 0
        count = min(k, distinct) if k is not None else choose_count(points)
        count = max(count, 1 if len(worded) else 0)
        if k is not None and count < k:
            what = "papers to group" if distinct == len(points) else "different texts"
            message = f"Only {count} {what}: {count} topics instead of {k}."
    labels = cluster(points, count) if len(worded) else np.empty(0, np.int64)
    present = sorted(set(labels.tolist()), key=lambda c: (-int((labels == c).sum()), c))
    relabel = {c: i for i, c in enumerate(present)}
    labels = np.array([relabel[c] for c in labels.tolist()], dtype=np.int64)
    words = distinctive_words(space, worded, labels, len(present))
    topics = []
    taken: set[str] = set()
    for c in range(len(present)):
        members = space.ids[worded[labels == c]]
        name = _unique(" ".join(words[c][:NAME_WORDS]) or f"topic {c + 1}", taken)
        topics.append(Topic(c + 1, name, words[c], [int(i) for i in members]))
    if len(wordless):
        topics.append(Topic(len(topics) + 1, _unique(NO_WORDS_NAME, taken), [], [int(i) for i in space.ids[wordless]]))
        if not len(worded):
            message = "These papers share no words (no abstracts, or each in words of its own)."
    for t in topics:
        t.decisions = decision_counts(store, t.ids)
    return TopicSet(topics, n, k is None, message)


def _unique(name: str, taken: set[str]) -> str:
    out, n = name, 2
    while out.casefold() in taken:
        out, n = f"{name} ({n})", n + 1
    taken.add(out.casefold())
    return out


class Topics:
    """``lib.topics``: topics of a list, saved as tags or decided as a whole."""

    def __init__(self, store: Store, tags: Tags, papers: Papers) -> None:
        self._store = store
        self._tags = tags
        self._papers = papers

    def of(self, paper_ids: Sequence[int] | None = None, k: int | None = None) -> TopicSet:
        return find_topics(self._store, paper_ids, k)

    def save_as_tag(self, topic: Topic, name: str | None = None) -> Change:
        """Tag every paper of ``topic`` ``topics/<name>`` (the topic's name unless one is given)."""
        label = " ".join((name if name is not None else topic.name).replace("/", " ").split())
        if not label:
            raise LibraryError("a topic's tag needs a name")
        return self._tags.add(topic.ids, [f"topics/{label}"])

    def undecided(self, topic: Topic) -> list[int]:
        """The papers :meth:`decide` would decide now (the count shown before it applies)."""
        return undecided(self._store, topic.ids)

    def decide(self, topic: Topic, value: str) -> Change:
        """Set ``value`` (keep / maybe / skip) on every undecided paper of ``topic`` in one
        transaction (``lib.papers.decide_undecided`` of its papers); the papers decided before keep their decision. ``Change.paper_ids`` are
        the papers it decided: :meth:`undo_decide` makes them undecided again."""
        if value not in DECISIONS:
            raise LibraryError(f"a decision is one of {', '.join(DECISIONS)}, not '{value}'")
        return self._papers.decide_undecided(topic.ids, value)

    def undo_decide(self, change: Change) -> Change:
        """Undo :meth:`decide`: its papers undecided again, in one transaction."""
        if not change.paper_ids:
            return Change(ChangeKind.PAPERS, (), detail=ColumnBefore("decision", None, {}))
        return self._papers.set_decision(list(change.paper_ids), None)
