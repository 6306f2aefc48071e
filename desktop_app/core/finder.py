"""Finding papers: the query language (Whoosh's parser, SQL and the index together), filters,
sorting and paging. ``lib.query(...)`` and ``lib.compile(...)`` delegate here."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import ColumnElement, Select, and_, or_, select
from sqlalchemy.exc import DBAPIError

from desktop_app.core.errors import IndexDamaged, LibraryError
from desktop_app.core.rules import decision_order, status_order
from desktop_app.core.search.errors import QuerySyntaxError
from desktop_app.core.store import Store
from desktop_app.core.store import tables as t
from desktop_app.core.store.column_types import STATUSES
from desktop_app.core.store.dialect import like_escape
from desktop_app.core.values import QueryResult

if TYPE_CHECKING:
    import numpy as np

    from desktop_app.core.search.query import CompiledQuery
    from desktop_app.core.search.sync import IndexSync
    from desktop_app.core.store.dialect import Dialect

RANK_LIMIT = 200
ORDERED_CACHE = 4  # ordered id lists kept (filters and sorts in use at once)
PICKED_CACHE = 16  # id lists of SQL-field queries kept ("tag:rl", "year:2026", ...)


def _order_by(sort: str, descending: bool, d: Dialect) -> list[ColumnElement[Any]]:
    """ORDER BY terms for a sort key; ties are broken by title or id as the table shows them."""
    p = t.paper.c

    def way(col: ColumnElement[Any]) -> ColumnElement[Any]:
        return col.desc() if descending else col.asc()

    def title() -> ColumnElement[Any]:
        return d.nocase(p.title)

    # built for the sort asked for only (a query's expressions cost as much as its search)
    orders: dict[str, Callable[[], list[ColumnElement[Any]]]] = {
        "added": lambda: [way(p.added_at), way(p.id)],
        "title": lambda: [way(title()), p.id],
        "year": lambda: [way(p.year), title()],
        "venue": lambda: [way(d.nocase(p.venue)), title()],
        "rating": lambda: [way(p.rating), title()],
        "status": lambda: [way(status_order(p.status)), p.id],
        "decision": lambda: [way(decision_order(p.decision)), title()],
        "updated": lambda: [way(p.updated_at), way(p.id)],
        "deleted": lambda: [way(p.deleted_at), way(p.id)],  # the trash: when each paper went there
        # the first author's family name: the stored JSON list starts with it ('["Vaswani, A…')
        "authors": lambda: [way(d.nocase(p.authors_json)), title()],
        "id": lambda: [way(p.id)],
    }
    return orders.get(sort, orders["added"])()


class Finder:
    """Answers queries: SQL for tags/status/rating/year/list, the Whoosh index for text."""

    def __init__(self, store: Store, index: IndexSync) -> None:
        self._store = store
        self._index = index
        self._ordered: dict[tuple[object, ...], np.ndarray] = {}  # filters and sort -> ids in order (_ordered_ids)
        self._ordered_stamp: tuple[object, ...] | None = None
        self._ordered_lock = threading.Lock()  # the GUI thread and workers query at once

    def compile(self, query_text: str, *, defer_index: bool = False) -> CompiledQuery:
        """Parse a query; raises QuerySyntaxError with a one-line message."""
        if query_text.strip() and not self._index.is_open and _needs_index(query_text):
            raise QuerySyntaxError(
                self._index.unavailable or "the search index is being rebuilt; try again in a moment"
            )
        from desktop_app.core.search.query import compile_query

        return compile_query(
            query_text,
            self._index.index if self._index.is_open else None,
            self._store.dialect,
            defer_index=defer_index,
            related=self._related,
        )

    def _related(self, paper_id: int) -> tuple[list[int], object]:
        """``related:ID`` and ``like:ID``: the papers related to one (core/insights/related.py) and what
        ranks them."""
        from desktop_app.core.insights.related import RELATED_SHOWN, related_to

        if not self._index.is_open:
            raise QuerySyntaxError(
                self._index.unavailable or "the search index is being rebuilt; try again in a moment"
            )
        try:
            ranked, rank = related_to(self._store, self._index.index, paper_id, RELATED_SHOWN, wait=False)
        except LibraryError as exc:  # no such paper: the search box says so
            raise QuerySyntaxError(f"related: {exc}") from exc
        return [pid for pid, _ in ranked], rank

    def list_ids(
        self, *, status: str | None = None, sort: str = "added", descending: bool = False, limit: int | None = None
    ) -> list[int]:
        """Ids of the live papers (of one ``status``, if given) in the order :meth:`query` lists
        them with no query text, ties broken by id; the first ``limit`` only, if given.

        SQL alone: no query parser, no index. The window paints its first page from
        ``limit=PAGE`` and fetches the whole list after that paint (the first rows paint at once); with the id as the
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
        except (QuerySyntaxError, LibraryError, DBAPIError):
            raise  # (a lost server is not a damaged index: it stays, and answers when it is back)
        except Exception as exc:
            if not self._index.is_open:
                raise
            self._index.mark_damaged()
            raise IndexDamaged(f"the search index is damaged ({type(exc).__name__}); it is being rebuilt") from exc

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
        trash: bool = False,
    ) -> QueryResult:
        """Ids of the papers matching a query and filters, sorted; ``total`` before paging.

        ``sort`` is a column name, "relevance" (text queries) or "position" (with a list).
        ``trash``: the papers in the trash instead of the live ones; the index holds no trashed
        paper, so there the query text is matched word by word against title, authors and
        abstract (SQL, any case), without the query language.
        """
        d = self._store.dialect
        # no text: no query parser (Whoosh's, imported at the first text search: start-up stays short)
        cq = self.compile(query_text, defer_index=True) if query_text.strip() and not trash else None

        def statement(with_query: bool = True) -> Select[int]:
            """The SQL of the filters and sort, built only when it is run (a cached id list
            needs none): with the query's own condition, or without."""
            return _filtered(
                d,
                query_text,
                cq.where if cq is not None and with_query else None,
                trash,
                tags,
                not_tags,
                status,
                list_name,
                sort,
                descending,
            )

        if status and status not in STATUSES:
            raise QuerySyntaxError(f"status is one of {', '.join(STATUSES)}")
        if cq is not None and cq.index_query is not None:
            # all text: the index's matches (arrays) picked out of the filters' ordered id list
            key = (cq.sql_key, tuple(tags), tuple(not_tags), status, list_name, sort, descending)
            page, total, found = self._text_query(cq, statement, key, sort == "relevance", limit, offset)
            return QueryResult(ids=page, total=total, terms=cq.terms, scores=found)
        if cq is not None and cq.text_query is None and not cq.rank_scores and self._store.data_stamp() is not None:
            # SQL fields only ("tag:rl", "year:2026"): the papers they pick, unordered, kept in
            # the order of the filters' id list (cached until the next write, shared with the
            # text searches): ordering in SQL scanned every live paper (27 ms at 100,000 for a
            # tag of 6,500 papers)
            key = ("", tuple(tags), tuple(not_tags), status, list_name, sort, descending)
            page, total = self._sql_query(
                query_text.strip(), cq.where, lambda: statement(with_query=False), key, limit, offset
            )
            return QueryResult(ids=page, total=total, terms=cq.terms)
        stmt = statement()
        with self._store.read() as conn:
            ids = self._store.fetch_ids(conn, stmt)
        scores: dict[int, float] = {}
        if sort == "relevance" and cq is not None and cq.text_query is not None and ids:
            ranked = self._index.index.ranked_pids(cq.text_query, RANK_LIMIT, within=set(ids))
            scores = dict(ranked)
            top = [pid for pid, _ in ranked]
            seen = set(top)
            ids = top + [i for i in ids if i not in seen]
        elif sort == "relevance" and cq is not None and cq.rank_scores and ids:
            scores = {pid: cq.rank_scores.get(pid, 0.0) for pid in ids}
            ids = sorted(ids, key=lambda pid: -scores[pid])  # stable: ties keep the list order
        total = len(ids)
        if limit is not None:
            ids = ids[offset : offset + limit]
        elif offset:
            ids = ids[offset:]
        return QueryResult(ids=ids, total=total, terms=cq.terms if cq is not None else [], scores=scores)

    def _ordered_ids(self, build: Callable[[], Select[int]], key: tuple[object, ...]) -> np.ndarray:
        """The ids ``stmt`` selects, in its order, as an array; kept until the next write to
        the database (the same filters and sort serve every keystroke of a text search)."""
        return self._kept_ids(build, ("ordered", key), ORDERED_CACHE)

    def _kept_ids(self, build: Callable[[], Select[int]], key: tuple[object, ...], most: int) -> np.ndarray:
        """The ids the statement ``build`` makes selects, as an array, kept until the next write
        to the database; at most ``most`` lists of each kind (``key[0]``) are kept."""
        import numpy as np

        stamp = self._store.data_stamp()  # before the read: a write meanwhile changes it
        with self._ordered_lock:
            if stamp is not None and stamp == self._ordered_stamp:
                found = self._ordered.get(key)
                if found is not None:
                    return found
            else:
                self._ordered.clear()
                self._ordered_stamp = stamp
        stmt = build()
        with self._store.read() as conn:
            ids = np.asarray(self._store.fetch_ids(conn, stmt), dtype=np.int64)
        with self._ordered_lock:
            if stamp is not None and stamp == self._ordered_stamp:
                same_kind = [k for k in self._ordered if k[0] == key[0]]
                if len(same_kind) >= most:
                    self._ordered.pop(same_kind[0])
                self._ordered[key] = ids
        return ids

    def _sql_query(
        self,
        condition: str,
        where: ColumnElement[bool],
        unfiltered: Callable[[], Select[int]],
        key: tuple[object, ...],
        limit: int | None,
        offset: int,
    ) -> tuple[list[int], int]:
        """A query of SQL fields only: the ids ``where`` picks (in no order; a tag's straight from
        its links), kept in the order of ``unfiltered``'s id list; the page of them, and how many.
        ``condition`` names ``where`` (the query's text: the same text compiles to the same SQL)."""
        base = self._ordered_ids(unfiltered, key)
        # the same condition (a tag clicked again, a page further down) reads its ids once per write
        picked = self._kept_ids(lambda: _picked_ids(where), ("picked", condition), PICKED_CACHE)
        ids = base[_member(base, picked)] if len(picked) else base[:0]
        page = ids[offset:] if limit is None else ids[offset : offset + limit]
        return page.tolist(), len(ids)

    def _text_query(
        self,
        cq: CompiledQuery,
        statement: Callable[[], Select[int]],
        key: tuple[object, ...],
        rank: bool,
        limit: int | None = None,
        offset: int = 0,
    ) -> tuple[list[int], int, dict[int, float]]:
        """A query answered by the index alone: its matching paper ids (the executor's arrays)
        kept in the order of the SQL filters' id list, the best RANK_LIMIT first when ranking;
        the page ``offset``..``offset + limit`` of them as a list (only the page: 70,000 ids
        made into Python ints cost 4 ms of a 10 ms search), and how many there are."""
        import numpy as np

        index = self._index.index
        base = self._ordered_ids(statement, key)
        matched = index.matching_pid_array(cq.index_query)
        ids = base[_member(base, matched)] if len(matched) else base[:0]
        scores: dict[int, float] = {}
        if rank and cq.text_query is not None and len(ids):
            # no filter needed when the ranked query is the matched one and nothing was left out
            within = None if cq.text_query is cq.index_query and len(ids) == len(matched) else ids
            ranked = index.ranked_pids(cq.text_query, RANK_LIMIT, within=within)
            scores = dict(ranked)
            top = np.fromiter((pid for pid, _ in ranked), dtype=np.int64, count=len(ranked))
            ids = np.concatenate([top, ids[~_member(ids, top)]])
        page = ids[offset:] if limit is None else ids[offset : offset + limit]
        return page.tolist(), len(ids), scores


def _filtered(
    d: Dialect,
    query_text: str,
    condition: ColumnElement[bool] | None,
    trash: bool,
    tags: Sequence[str],
    not_tags: Sequence[str],
    status: str | None,
    list_name: str | None,
    sort: str,
    descending: bool,
) -> Select[int]:
    """The ids of the papers ``condition`` (a query's, if any) and the filters pick, sorted."""
    p = t.paper.c
    where: list[ColumnElement[bool]] = [p.deleted_at.is_not(None) if trash else p.deleted_at.is_(None)]
    if trash:
        where += _words_in_text(query_text, d)
    if condition is not None:
        where.insert(0, condition)
    for names, keep in ((tags, True), (not_tags, False)):
        for name in names:
            tagged = p.id.in_(  # tags first, then their papers (as query.py's tag:)
                select(t.paper_tag.c.paper_id).where(
                    t.paper_tag.c.tag_id.in_(select(t.tag.c.id).where(d.ci_under(t.tag.c.name, name)))
                )
            )
            where.append(tagged if keep else ~tagged)
    if status:
        where.append(p.status == status)
    stmt = select(p.id)
    item = t.reading_list_item.c
    if list_name:
        stmt = stmt.select_from(
            t.paper.join(t.reading_list_item, item.paper_id == p.id).join(
                t.reading_list,
                and_(t.reading_list.c.id == item.list_id, d.ci_equals(t.reading_list.c.name, list_name)),
            )
        )
    if sort == "position" and list_name:
        order: list[ColumnElement[Any]] = [item.position.desc() if descending else item.position.asc()]
    else:
        order = _order_by(sort, descending, d)
    return stmt.where(*where).order_by(*order)


def _words_in_text(query_text: str, d: Dialect) -> list[ColumnElement[bool]]:
    """Each word of ``query_text`` somewhere in a paper's title, authors or abstract."""
    p = t.paper.c
    return [
        or_(*(d.ci_like(col, f"%{like_escape(word)}%") for col in (p.title, p.authors_json, p.abstract_text)))
        for word in query_text.split()
    ]


def _picked_ids(where: ColumnElement[bool]) -> Select[int]:
    """The ids of the papers ``where`` picks, in no order. ``paper.id IN (SELECT ...)`` (a tag,
    a list) is its subquery alone: the ids come from the links' index, without looking each
    paper up (23 ms against 2 ms for a tag of 6,500 papers); the ordered id list it is matched
    against holds only live papers, so a link to a paper in the trash picks nothing."""
    from sqlalchemy.sql.elements import BinaryExpression
    from sqlalchemy.sql.operators import in_op
    from sqlalchemy.sql.selectable import ScalarSelect, Select

    p = t.paper.c
    if isinstance(where, BinaryExpression) and where.operator is in_op and where.left is p.id:
        inner: object = where.right
        if isinstance(inner, ScalarSelect):
            inner = inner.element
        if isinstance(inner, Select) and len(inner.selected_columns) == 1:
            picked: Select[int] = inner
            return picked
    return select(p.id).where(p.deleted_at.is_(None), where)  # the live papers' indexes serve it


def _member(ids: np.ndarray, of: np.ndarray) -> np.ndarray:
    """``np.isin`` for paper ids (non-negative, dense): one boolean array indexed by id. (np.isin
    sorts, and its first call imports numpy.ma: 37 ms of a command-line search.)"""
    import numpy as np

    top = int(max(ids.max(initial=-1), of.max(initial=-1))) + 1
    mask = np.zeros(top, dtype=bool)
    mask[of[of >= 0]] = True
    members: np.ndarray = mask[ids]
    return members


def _needs_index(query_text: str) -> bool:
    from desktop_app.core.search.query import SQL_FIELDS, parse

    try:
        q = parse(query_text)
    except QuerySyntaxError:
        return False
    leaves = q.leaves() if not q.is_leaf() else [q]
    return any(getattr(leaf, "fieldname", None) not in SQL_FIELDS for leaf in leaves)
