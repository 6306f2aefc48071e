"""The map of a list: every paper a point in the plane, placed by similarity, grouped by topic.

The layout starts from the topics of the list (:func:`topics.find_topics`, on the library's
semantic space) and draws each topic as a disc:

* the discs' centres are the topics' mean vectors projected on their own two principal axes
  (classical scaling: topics that use related words sit side by side), then pushed apart
  until no two discs overlap, and drawn together again (shrink, push apart: a few rounds) so
  that one far topic does not leave the map mostly empty;
* a disc's area is proportional to its topic's size;
* inside a disc, each paper sits at its angle on the topic's own two principal axes, at a
  radius given by its rank of distance to the topic's mean (ties share a rank), so the papers
  most typical of a topic are at its centre, the disc is evenly filled, and identical
  abstracts land on the same point;
* papers without a word shared with the rest (no abstract) have no position in the space:
  they fill their own disc in a spiral, by id.

Why not t-SNE or UMAP: t-SNE (scikit-learn) needs about 30 s for 5,000 papers on one busy core
and cannot reach 100,000 in a minute; this layout is linear in the papers (about a second
for 100,000 after the topics) and deterministic. Its distances are honest between topics (by
their means) and within a topic (by typicality), not from any paper to any other.

No Qt here: the GUI (``gui/paper_map.py``) paints these arrays.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from desktop_app.core.insights.semantic import SemanticSpace, library_space
from desktop_app.core.insights.topics import TopicSet, find_topics
from desktop_app.core.store.column_types import DECISIONS

if TYPE_CHECKING:
    from sqlalchemy import Select

    from desktop_app.core.store import Store

GAP = 0.25  # the empty ring between two discs, as a share of the mean disc's radius
PUSH_ROUNDS = 200  # rounds of pushing overlapping discs apart (40 topics settle in far fewer)
COMPACT_ROUNDS = 30  # then rounds of drawing every disc towards the middle, pushed apart again,
COMPACT_SHRINK = 0.93  # so that a far topic does not leave the map mostly empty
SHOWN_TAGS = 9  # colouring by tag: the most used tags each have a colour, the rest are "other"
UNDECIDED = 0  # decision codes: 0 undecided, then 1, 2, 3 in the order of DECISIONS


@dataclass(frozen=True)
class PaperMap:
    """Points of a list: ``xy[i]`` is paper ``ids[i]``, of topic ``topic[i]`` (an index into
    ``topics.topics``); coordinates fit in [-1, 1] with the aspect kept."""

    ids: np.ndarray  # int64
    xy: np.ndarray  # float32 (papers, 2)
    topic: np.ndarray  # int32 (papers,)
    centres: np.ndarray  # float32 (topics, 2): where each topic's name goes
    radii: np.ndarray  # float32 (topics,)
    topics: TopicSet

    @property
    def message(self) -> str:
        """Why the map is empty or shows few topics ("" when there is nothing to say)."""
        return self.topics.message

    def __len__(self) -> int:
        return len(self.ids)


class Titles(Sequence[str]):
    """Many titles as one string and their ends: one object to pickle or copy, not 100,000."""

    def __init__(self, titles: Sequence[str]) -> None:
        self._text = "".join(titles)
        self._ends = np.fromiter(itertools.accumulate(len(t) for t in titles), dtype=np.int64, count=len(titles))

    def __len__(self) -> int:
        return len(self._ends)

    def __getitem__(self, row: int) -> str:  # type: ignore[override]
        row = int(row)
        if row < 0:
            row += len(self._ends)
        if not 0 <= row < len(self._ends):
            raise IndexError(row)
        start = int(self._ends[row - 1]) if row else 0
        return self._text[start : int(self._ends[row])]


@dataclass(frozen=True)
class Facets:
    """What a map is coloured by, per point of a :class:`PaperMap` (the same order)."""

    titles: Titles
    decisions: np.ndarray  # int8: 0 undecided, 1 + DECISIONS.index(value)
    tag_names: list[str]  # the :data:`SHOWN_TAGS` most used tags of the list, most used first
    tags: np.ndarray  # int16: index into tag_names of the paper's most used tag, -1 for none of them


def paper_map(
    store: Store, paper_ids: Sequence[int] | None = None, topics: TopicSet | None = None, k: int | None = None
) -> PaperMap:
    """The map of ``paper_ids`` (all live papers when None), on ``topics`` when given (their
    names as the user left them), else on the topics found for those papers."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):  # one thread: BLAS spinning on a busy machine costs more than it gives
        space = library_space(store)
        if topics is None:
            topics = find_topics(store, paper_ids, k, space=space)
        return layout(space, topics)


def layout(space: SemanticSpace, topics: TopicSet, seed: int = 0) -> PaperMap:
    """Place the papers of ``topics`` (see the module's docstring); deterministic."""
    groups = [space.rows(sorted(t.ids)) for t in topics.topics]
    sizes = np.array([len(g) for g in groups], dtype=np.float64)
    keep = sizes > 0
    if not keep.any():
        empty = np.empty((0, 2), np.float32)
        return PaperMap(
            np.empty(0, np.int64),
            empty,
            np.empty(0, np.int32),
            np.zeros((len(groups), 2), np.float32),
            np.zeros(len(groups), np.float32),
            topics,
        )
    radii = np.sqrt(np.maximum(sizes, 1.0))
    radii /= radii[keep].mean()
    centres = _centres(space, groups, radii, keep, seed)
    xy_parts, topic_parts, id_parts = [], [], []
    words = space.has_words()
    for number, rows in enumerate(groups):
        if len(rows) == 0:
            continue
        local = _disc(space.vectors[rows]) if words[rows].any() else _spiral(len(rows))
        xy_parts.append(centres[number] + radii[number] * local)
        topic_parts.append(np.full(len(rows), number, np.int32))
        id_parts.append(space.ids[rows])
    xy = np.concatenate(xy_parts)
    middle = (xy.min(axis=0) + xy.max(axis=0)) / 2
    scale = max(float(np.abs(xy - middle).max()), 1e-9)
    xy = (xy - middle) / scale
    centres = (centres - middle) / scale
    return PaperMap(
        np.concatenate(id_parts).astype(np.int64),
        xy.astype(np.float32),
        np.concatenate(topic_parts),
        centres.astype(np.float32),
        (radii / scale).astype(np.float32),
        topics,
    )


def _centres(
    space: SemanticSpace, groups: list[np.ndarray], radii: np.ndarray, keep: np.ndarray, seed: int
) -> np.ndarray:
    """The discs' centres: the topics' means on their two principal axes, spread to the discs'
    scale, then pushed apart until no two overlap."""
    k = len(groups)
    dims = space.vectors.shape[1]
    means = np.zeros((k, max(dims, 1)), np.float64)
    for number, rows in enumerate(groups):
        if len(rows) and dims:
            means[number, :dims] = space.vectors[rows].mean(axis=0)
    centres = _principal_plane(means[keep])
    spread = float(np.abs(centres).max()) if len(centres) else 0.0
    if spread > 0:
        centres *= radii[keep].sum() / spread  # the discs' scale, before pushing apart
    placed = _push_apart(centres, radii[keep], seed)
    for _ in range(COMPACT_ROUNDS):  # draw the discs together, keeping their arrangement
        placed = _push_apart(placed * COMPACT_SHRINK, radii[keep], seed)
    out = np.zeros((k, 2), np.float64)
    out[keep] = placed
    return out


def _principal_plane(points: np.ndarray) -> np.ndarray:
    """``points`` centred and projected on their two leading principal axes (the sign of each
    axis fixed: its largest coordinate positive)."""
    centred = points - points.mean(axis=0)
    if len(points) < 2 or not centred.any():
        return np.zeros((len(points), 2), np.float64)
    u, s, _vt = np.linalg.svd(centred, full_matrices=False)
    plane = np.zeros((len(points), 2), np.float64)
    m = min(2, len(s))
    plane[:, :m] = u[:, :m] * s[:m]
    for axis in range(2):
        column = plane[:, axis]
        if column.any() and column[np.argmax(np.abs(column))] < 0:
            plane[:, axis] = -column
    return plane


def _push_apart(centres: np.ndarray, radii: np.ndarray, seed: int) -> np.ndarray:
    """Move discs apart, each pair by its overlap, until none overlap (or the rounds run out)."""
    c = centres.copy()
    n = len(c)
    if n < 2:
        return np.zeros_like(c)
    rng = np.random.default_rng(seed)
    same = np.all(np.abs(c[:, None] - c[None]) < 1e-9, axis=2) & ~np.eye(n, dtype=bool)
    if same.any():  # discs on one point have no direction to part in: a tiny fixed nudge
        c += rng.normal(scale=1e-3, size=c.shape)
    gap = GAP * radii.mean()
    want = radii[:, None] + radii[None] + gap
    np.fill_diagonal(want, 0.0)
    weight = radii**2 / (radii[:, None] ** 2 + radii[None] ** 2)  # the smaller disc moves more
    for _ in range(PUSH_ROUNDS):
        delta = c[:, None] - c[None]
        dist = np.sqrt((delta**2).sum(axis=2))
        overlap = np.where(dist < want, want - dist, 0.0)
        np.fill_diagonal(overlap, 0.0)
        if overlap.max() <= 1e-6:
            break
        direction = delta / np.maximum(dist, 1e-12)[..., None]
        c += (direction * (overlap * weight)[..., None]).sum(axis=1) * 0.5
    centred: np.ndarray = c - c.mean(axis=0)
    return centred


def _disc(vectors: np.ndarray) -> np.ndarray:
    """Points of one topic in the unit disc: the angle on the topic's two principal axes, the
    radius by rank of distance to the topic's mean (ties share it, so identical texts coincide)."""
    from scipy.stats import rankdata

    m = len(vectors)
    if m == 1:
        return np.zeros((1, 2))
    centred = vectors.astype(np.float64) - vectors.mean(axis=0)
    cov = centred.T @ centred
    _w, v = np.linalg.eigh(cov)
    axes = v[:, ::-1][:, :2]
    plane = centred @ axes
    for axis in range(plane.shape[1]):  # a fixed sign for each axis
        column = plane[:, axis]
        if column.any() and column[np.argmax(np.abs(column))] < 0:
            plane[:, axis] = -column
    if plane.shape[1] < 2:
        plane = np.column_stack([plane, np.zeros(m)])
    distance = np.sqrt((centred**2).sum(axis=1)).round(6)
    length = np.sqrt((plane**2).sum(axis=1))
    angle = np.where(length > 1e-9, np.arctan2(plane[:, 1], plane[:, 0]), 0.0)
    rank = rankdata(distance, method="average")  # 1 .. m
    radius = np.sqrt((rank - 0.5) / m)
    radius = np.where(distance <= 1e-6, 0.0, radius)  # the mean itself stays at the centre
    return np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])


def _spiral(m: int) -> np.ndarray:
    """``m`` points filling the unit disc evenly (Vogel's sunflower), the first at the centre."""
    i = np.arange(m, dtype=np.float64)
    radius = np.sqrt(i / max(m, 1))
    angle = i * np.pi * (3 - np.sqrt(5))
    return np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])


def facets(store: Store, ids: Sequence[int] | np.ndarray) -> Facets:
    """Titles, decisions and most used tags of ``ids`` (in that order), in two statements."""
    from sqlalchemy import func, select

    from desktop_app.core.store import tables as t

    wanted = [int(i) for i in ids]
    pos = {pid: n for n, pid in enumerate(wanted)}
    titles = [""] * len(wanted)
    decisions = np.zeros(len(wanted), np.int8)
    tags = np.full(len(wanted), -1, np.int16)
    if not wanted:
        return Facets(Titles(titles), decisions, [], tags)
    p, pt, tg = t.paper.c, t.paper_tag.c, t.tag.c
    codes: dict[str | None, int] = {value: n + 1 for n, value in enumerate(DECISIONS)}  # looked up with None too
    facets: Select[int, str, str | None] = select(p.id, p.title, p.decision).where(store.dialect.in_ids(p.id, wanted))
    with store.read() as conn:
        for pid, title, decision in conn.execute(facets):
            n = pos[pid]
            titles[n] = title or ""
            decisions[n] = codes.get(decision, UNDECIDED)
        counted = conn.execute(
            select(tg.name, func.count())
            .select_from(t.paper_tag.join(t.tag, tg.id == pt.tag_id))
            .where(store.dialect.in_ids(pt.paper_id, wanted))
            .group_by(tg.name)
            .order_by(func.count().desc(), tg.name)
            .limit(SHOWN_TAGS)
        ).all()
        names = [str(name) for name, _n in counted]
        rank = {name: n for n, name in enumerate(names)}
        if names:
            links: Select[int, str] = (
                select(pt.paper_id, tg.name)
                .select_from(t.paper_tag.join(t.tag, tg.id == pt.tag_id))
                .where(store.dialect.in_ids(pt.paper_id, wanted), tg.name.in_(names))
            )
            for pid, name in conn.execute(links):
                n, r = pos[pid], rank[name]
                if tags[n] < 0 or r < tags[n]:
                    tags[n] = r
    return Facets(Titles(titles), decisions, names, tags)
