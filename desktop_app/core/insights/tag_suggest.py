"""Tag suggestions for one paper: up to five tags it does not carry yet, from two sources.

1. Its neighbours: the papers most similar to it (``lib.insights.related``) that carry tags vote
   for them, each with its similarity relative to the best neighbour's (weighted k nearest
   neighbours); a tag's vote is its share of the neighbours' total weight. The tagged papers
   nearest it in the library's semantic space (``ready_space``: never waiting for a fit) vote
   the same way, :data:`SPACE_SHARE` of the blend; without a ready space the first vote alone.
2. Its key terms (``related.key_terms``, tf-idf): an existing tag whose last part ("ppo" of
   "rl/ppo") analyses to stems that are all among the paper's key terms gets
   :data:`TERM_WEIGHT` × those terms' mean relative weight.

The two add up; a tag the paper already has is never suggested. No Qt here: the reader asks in a
worker (``gui/tag_suggestions.py``); ``benchmarks/bench_tag_suggest.py`` measures leave-one-out
precision@3 with ``hide_own=True`` (the paper is treated as untagged).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from desktop_app.core.library import Library

SHOWN = 5  # suggestions offered
NEIGHBOURS = 30  # similar papers that vote (leave-one-out: 15 → 30 raised P@3 0.195 → 0.215 synthetic)
TERM_WEIGHT = 0.25  # a tag named by a key term, against a unanimous vote of the neighbours (1.0)
MIN_SCORE = 0.05  # weaker suggestions are noise
SIMILARITY_POWER = 1.0  # a neighbour's vote: (its score / the best neighbour's) ** this
# The tagged papers nearest in the semantic space vote too (benchmarks/bench_tag_suggest.py,
# leave-one-out P@3): share 0.3 of 30 neighbours: real 0.252 -> 0.252 (hits / own tags 0.398 ->
# 0.415, one hit at least 51% -> 54%), synthetic 0.233 -> 0.254; shares of 0.5 and more or a
# vote sharpened by a power of 4 lost on the real set (0.220-0.236), 10 neighbours on both.
TAGGED_NEIGHBOURS = 30
SPACE_SHARE = 0.3  # their vote's share; the rest is the related papers' vote
SPACE_POWER = 1.0  # a tagged neighbour's vote: (its cosine / the best one's) ** this


@dataclass(frozen=True)
class TagSuggestion:
    """A tag to offer: its name, its score, and why ("similar papers", "key terms" or both)."""

    name: str
    score: float
    why: str


@lru_cache(maxsize=4096)
def tag_stems(name: str) -> frozenset[str]:
    """The index stems of a tag's last part ("rl/ppo" → {"ppo"}); empty for stop words and
    very short parts, which cannot be matched to key terms."""
    from desktop_app.core.insights.related import term_counts

    leaf = name.rsplit("/", 1)[-1]
    return frozenset(term_counts(re.sub(r"[-_.:]+", " ", leaf)))


def suggest_tags(
    library: Library,
    paper_id: int,
    k: int = SHOWN,
    *,
    hide_own: bool = False,
    neighbours: int = NEIGHBOURS,
    related: list[tuple[int, float]] | None = None,
) -> list[TagSuggestion]:
    """Up to ``k`` tags for ``paper_id``, best first. ``hide_own``: ignore the paper's own tags
    (leave-one-out: as if it had none, and tags only it carries did not exist). ``related``:
    ``lib.insights.related(paper_id, neighbours)`` when the caller has it already."""
    from desktop_app.core.insights.related import key_terms, paper_text

    own = [] if hide_own else library.papers.rows([paper_id])[paper_id].tags
    own_lower = {t.lower() for t in own}
    scores: dict[str, float] = {}
    why: dict[str, set[str]] = {}

    if related is None:
        related = library.insights.related(paper_id, neighbours)
    votes = _votes(library, related[:neighbours])
    tagged = _tagged_neighbours(library, paper_id)
    if tagged is not None:
        space_votes = _votes(library, tagged, SPACE_POWER)
        votes = {
            name: (1 - SPACE_SHARE) * votes.get(name, 0.0) + SPACE_SHARE * space_votes.get(name, 0.0)
            for name in votes.keys() | space_votes.keys()
        }
    for name, vote in votes.items():
        scores[name] = vote
        why.setdefault(name, set()).add("similar papers")

    title, abstract = paper_text(library.store, paper_id)
    terms = key_terms(library.index.index, title, abstract)
    if terms:
        top = terms[0][1] or 1.0
        weight_of = {term: w / top for term, w in terms}
        mine = set(library.papers.rows([paper_id])[paper_id].tags) if hide_own else set()
        for info in library.tags.all():
            if hide_own and info.name in mine and info.count <= 1:
                continue  # only this paper carries it: left out with its tags
            stems = tag_stems(info.name)
            if stems and stems <= weight_of.keys():
                bonus = TERM_WEIGHT * sum(weight_of[s] for s in stems) / len(stems)
                scores[info.name] = scores.get(info.name, 0.0) + bonus
                why.setdefault(info.name, set()).add("key terms")

    ranked = sorted(
        ((s, n) for n, s in scores.items() if n.lower() not in own_lower and s >= MIN_SCORE),
        key=lambda sn: (-sn[0], sn[1]),
    )
    return [TagSuggestion(n, round(s, 4), " and ".join(sorted(why[n], reverse=True))) for s, n in ranked[:k]]


def _votes(
    library: Library,
    neighbours: list[tuple[int, float]],
    power: float = SIMILARITY_POWER,
) -> dict[str, float]:
    """Each tag the ``neighbours`` carry with its share of their total weight, a neighbour's
    weight being (its score / the best one's) ** ``power``."""
    if not neighbours:
        return {}
    best = neighbours[0][1] or 1.0
    rows = library.papers.rows([pid for pid, _ in neighbours])
    total = 0.0
    votes: dict[str, float] = {}
    for pid, score in neighbours:
        weight = max(score / best, 0.0) ** power
        total += weight
        for name in rows[pid].tags if pid in rows else ():
            votes[name] = votes.get(name, 0.0) + weight
    return {name: vote / (total or 1.0) for name, vote in votes.items()}


def _tagged_neighbours(library: Library, paper_id: int) -> list[tuple[int, float]] | None:
    """The :data:`TAGGED_NEIGHBOURS` tagged papers nearest ``paper_id`` in the library's semantic
    space, or None when the space is not ready (a large library's fit still running) or does
    not hold the paper: never waits for a fit."""
    from desktop_app.core.insights.semantic import ready_space

    space = ready_space(library.store)
    if space is None or len(space.rows([paper_id])) == 0:
        return None
    return space.nearest_among(paper_id, library.tags.tagged_ids(), TAGGED_NEIGHBOURS)
