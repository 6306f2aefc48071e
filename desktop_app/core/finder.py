"""Finding papers: the query language (Whoosh's parser, SQL and the index together), filters,
sorting and paging. ``lib.query(...)`` and ``lib.compile(...)`` delegate here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sqlalchemy import ColumnElement, and_, select

from desktop_app.core.errors import IndexDamaged, LibraryError
from desktop_app.core.models import STATUSES
from desktop_app.core.rules import status_order
from desktop_app.core.search.errors import QuerySyntaxError
from desktop_app.core.store import Store
from desktop_app.core.store import tables as t
from desktop_app.core.values import QueryResult

if TYPE_CHECKING:
    from desktop_app.core.index_sync import IndexSync
    from desktop_app.core.search.query import CompiledQuery
    from desktop_app.core.store.dialect import Dialect

RANK_LIMIT = 200


def _order_by(sort: str, descending: bool, d: Dialect) -> list[ColumnElement]:
    """ORDER BY terms for a sort key; ties are broken by title or id as the table shows them."""
    p = t.paper.c

    def way(col: ColumnElement) -> ColumnElement:
        return col.desc() if descending else col.asc()

    title = d.nocase(p.title)
    orders = {
        "added": [way(p.added_at), way(p.id)],
        "title": [way(title), p.id],
        "year": [way(p.year), title],
        "venue": [way(d.nocase(p.venue)), title],
        "rating": [way(p.rating), title],
        "status": [way(status_order(p.status)), p.id],
        "updated": [way(p.updated_at), way(p.id)],
        "id": [way(p.id)],
    }
    return orders.get(sort, orders["added"])


class Finder:
    """Answers queries: SQL for tags/status/rating/year/list, the Whoosh index for text."""

    def __init__(self, store: Store, index: IndexSync) -> None:
        self._store = store
        self._index = index

    def compile(self, query_text: str) -> CompiledQuery:
        """Parse a query; raises QuerySyntaxError with a one-line message."""
        if query_text.strip() and not self._index.is_open and _needs_index(query_text):
            raise QuerySyntaxError(self._index.unavailable
                                   or "the search index is being rebuilt; try again in a moment")
        from desktop_app.core.search.query import compile_query

        return compile_query(
            query_text, self._index.index if self._index.is_open else None, self._store.dialect
        )

    def list_ids(self, *, status: str | None = None, sort: str = "added", descending: bool = False,
                 limit: int | None = None) -> list[int]:
        """Ids of the live papers (of one ``status``, if given) in the order :meth:`query` lists
        them with no query text, ties broken by id; the first ``limit`` only, if given.

        SQL alone: no query parser, no index. The window paints its first page from
        ``limit=PAGE`` and fetches the whole list after that paint (issue 14); with the id as the
        last key, the first page is always a prefix of the whole list.
        """
        if status is not None and status not in STATUSES:
            raise QuerySyntaxError(f"status is one of {', '.join(STATUSES)}")
        p = t.paper.c
        stmt = select(p.id).where(p.deleted_at.is_(None))
        if status is not None:
            stmt = stmt.where(p.status == status)
        stmt = stmt.order_by(*_order_by(sort, descending, self._store.dialect), p.id)
        if limit is not None:
            stmt = stmt.limit(limit)
        with self._store.read() as conn:
            return self._store.fetch_ids(conn, stmt)

    def query(self, query_text: str = "", **filters: object) -> QueryResult:
        """See :meth:`_query`. An index that fails while answering (damaged on disk in a way the
        open check could not see) is marked for a rebuild and IndexDamaged is raised; the CLI
        rebuilds and retries, the GUI rebuilds in a worker."""
        try:
            return self._query(query_text, **filters)  # type: ignore[arg-type]
        except (QuerySyntaxError, LibraryError):
            raise
        except Exception as exc:  # noqa: BLE001 - Whoosh raises assorted errors on bad segments
            if not self._index.is_open:
                raise
            self._index.mark_damaged()
            raise IndexDamaged(
                f"the search index is damaged ({type(exc).__name__}); it is being rebuilt"
            ) from exc

    def _query(
        self,
        query_text: str = "",
        *,
        tags: Sequence[str] = (),
        not_tags: Sequence[str] = (),
        status: str | None = None,
        list_name: str | None = None,
        sort: str = "added",
        descending: bool = False,
        limit: int | None = None,
        offset: int = 0,
    ) -> QueryResult:
        """Ids of the papers matching a query and filters, sorted; ``total`` before paging.

        ``sort`` is a column name, "relevance" (text queries) or "position" (with a list).
        """
        d = self._store.dialect
        p = t.paper.c
        # no text: no query parser (Whoosh's, imported at the first text search: issue 14)
        cq = self.compile(query_text) if query_text.strip() else None
        where: list[ColumnElement] = [p.deleted_at.is_(None)]
        if cq is not None:
            where.insert(0, cq.where)
        for names, keep in ((tags, True), (not_tags, False)):
            for name in names:
                tagged = p.id.in_(
                    select(t.paper_tag.c.paper_id)
                    .join(t.tag, t.tag.c.id == t.paper_tag.c.tag_id)
                    .where(d.ci_under(t.tag.c.name, name))
                )
                where.append(tagged if keep else ~tagged)
        if status:
            if status not in STATUSES:
                raise QuerySyntaxError(f"status is one of {', '.join(STATUSES)}")
            where.append(p.status == status)
        stmt = select(p.id)
        item = t.reading_list_item.c
        if list_name:
            stmt = stmt.select_from(
                t.paper.join(t.reading_list_item, item.paper_id == p.id).join(
                    t.reading_list,
                    and_(t.reading_list.c.id == item.list_id,
                         d.ci_equals(t.reading_list.c.name, list_name)),
                )
            )
        if sort == "position" and list_name:
            order = [item.position.desc() if descending else item.position.asc()]
        else:
            order = _order_by(sort, descending, d)
        stmt = stmt.where(*where).order_by(*order)
        with self._store.read() as conn:
            ids = self._store.fetch_ids(conn, stmt)
        scores: dict[int, float] = {}
        if sort == "relevance" and cq is not None and cq.text_query is not None and ids:
            ranked = self._index.index.ranked_pids(cq.text_query, RANK_LIMIT, within=set(ids))
            scores = dict(ranked)
            top = [pid for pid, _ in ranked]
            seen = set(top)
            ids = top + [i for i in ids if i not in seen]
        total = len(ids)
        if limit is not None:
            ids = ids[offset : offset + limit]
        elif offset:
            ids = ids[offset:]
        return QueryResult(ids=ids, total=total, terms=cq.terms if cq is not None else [], scores=scores)


def _needs_index(query_text: str) -> bool:
    from desktop_app.core.search.query import SQL_FIELDS, parse

    try:
        q = parse(query_text)
    except QuerySyntaxError:
        return False
    leaves = q.leaves() if not q.is_leaf() else [q]
    return any(getattr(leaf, "fieldname", None) not in SQL_FIELDS for leaf in leaves)
