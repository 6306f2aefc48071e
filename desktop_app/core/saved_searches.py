"""Saved searches: named query texts, or whole filters (``saved_filter.SavedFilter``), checked
when saved."""

from __future__ import annotations

from sqlalchemy import Select, delete, select

from desktop_app.core.changelog.changes import writes
from desktop_app.core.changelog.undo_data import SearchBefore, SearchSaved
from desktop_app.core.errors import LibraryError
from desktop_app.core.saved_filter import SavedFilter
from desktop_app.core.store import Store
from desktop_app.core.store import tables as t
from desktop_app.core.values import Change, ChangeKind


class _NoIndex:
    """Stands in for the index when a query is only checked, not run."""

    @staticmethod
    def matching_pids(_q: object) -> set[int]:
        return set()


class SavedSearches:
    """The saved searches, sorted by name."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def all(self) -> list[tuple[str, str]]:
        """Every saved search as (name, query), by name without regard to case."""
        s = t.saved_search
        stmt: Select[str, str] = select(s.c.name, s.c.query).order_by(self.store.dialect.nocase(s.c.name))
        with self.store.read() as conn:
            return [(name, query) for name, query in conn.execute(stmt)]

    @writes
    def save(self, name: str, query: str) -> Change:
        """Save (or replace) a named search; the query must parse."""
        from desktop_app.core.search.query import compile_query  # the parser, only when saving

        name = " ".join(name.split())
        if not name:
            raise LibraryError("a saved search needs a name")
        # compile, not just parse: "status:bogus" or "year:rl" parse but fail when run; a whole
        # filter (saved_filter.py) keeps its query text inside
        compile_query(SavedFilter.from_text(query).query, _NoIndex())  # type: ignore[arg-type]
        s = t.saved_search
        with self.store.write() as tx:
            old = tx.conn.execute(select(s.c.query).where(s.c.name == name)).scalar()
            ins = tx.d.insert(s).values(name=name, query=query)
            tx.conn.execute(ins.on_conflict_do_update(index_elements=["name"], set_={"query": ins.excluded.query}))
        return Change(ChangeKind.SEARCHES, detail=SearchSaved(name, old))

    @writes
    def unsave(self, saved: Change) -> Change:
        """Undo :meth:`save` in one transaction: the query it replaced again, or no search of
        that name when it made a new one."""
        made = saved.detail_as(SearchSaved)
        name, old = made.name, made.old
        s = t.saved_search
        with self.store.write() as tx:
            now = tx.conn.execute(select(s.c.query).where(s.c.name == name)).scalar()
            if old is None:
                tx.conn.execute(delete(s).where(s.c.name == name))
            else:
                ins = tx.d.insert(s).values(name=name, query=str(old))
                tx.conn.execute(ins.on_conflict_do_update(index_elements=["name"], set_={"query": ins.excluded.query}))
        return Change(ChangeKind.SEARCHES, detail=SearchBefore(name, now))

    @writes
    def delete(self, name: str) -> Change:
        """Delete a saved search; ``detail.old`` is its query, for undo."""
        s = t.saved_search
        with self.store.write() as tx:
            old = tx.conn.execute(delete(s).where(s.c.name == name).returning(s.c.query)).scalar()
        if old is None:
            raise LibraryError(f"no saved search named '{name}'")
        return Change(ChangeKind.SEARCHES, detail=SearchBefore(name, old))
