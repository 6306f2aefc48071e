"""``lib.insights``: what the library's papers say taken together, read only: the papers related
to one (core/insights/related.py), the library's statistics (statistics.py) and the map of
papers placed by similarity with its facets (paper_map.py). Nothing here writes; the learned
queue and the topics have managers of their own (``lib.triage``, ``lib.topics``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from desktop_app.core.errors import LibraryError

if TYPE_CHECKING:
    from desktop_app.core.insights.paper_map import Facets, PaperMap
    from desktop_app.core.insights.related import RelatedPaper
    from desktop_app.core.insights.statistics import LibraryStatistics
    from desktop_app.core.insights.topics import TopicSet
    from desktop_app.core.search.index import SearchIndex
    from desktop_app.core.search.sync import IndexSync
    from desktop_app.core.store import Store

INDEX_BUSY = "related papers need the search index, which is being rebuilt; try again in a moment"


class Insights:
    def __init__(self, store: Store, index: IndexSync) -> None:
        self._store = store
        self._index = index

    def related(self, paper_id: int, n: int = 10) -> list[tuple[int, float]]:
        """The papers sharing ``paper_id``'s key terms, (id, score) best first (related.py)."""
        from desktop_app.core.insights.related import related_to

        return related_to(self._store, self._open_index(), paper_id, n)[0]

    def related_shown(
        self,
        paper_id: int,
        n: int = 10,
        pool: int = 10,
    ) -> tuple[list[tuple[int, float]], list[RelatedPaper]]:
        """(the ``pool`` most related papers as :meth:`related` gives them; the first ``n`` of
        them strong enough for the reader to list, each with its word: related.py)."""
        from desktop_app.core.insights.related import shown_related

        return shown_related(self._store, self._open_index(), paper_id, n, pool)

    def statistics(self) -> LibraryStatistics:
        """Reading progress, papers by tag, venue, year and rating, totals (statistics.py)."""
        from desktop_app.core.insights.statistics import library_statistics

        return library_statistics(self._store)

    def paper_map(self, paper_ids: Sequence[int] | None = None, topics: TopicSet | None = None) -> PaperMap:
        """The papers as points placed by similarity, grouped by topic (paper_map.py)."""
        from desktop_app.core.insights.paper_map import paper_map

        return paper_map(self._store, paper_ids, topics)

    def map_facets(self, paper_ids: Sequence[int]) -> Facets:
        """Titles, decisions and most used tags of the papers of a map, in its order."""
        from desktop_app.core.insights.paper_map import facets

        return facets(self._store, paper_ids)

    def _open_index(self) -> SearchIndex:
        if not self._index.is_open:
            raise LibraryError(self._index.unavailable or INDEX_BUSY)
        return self._index.index
