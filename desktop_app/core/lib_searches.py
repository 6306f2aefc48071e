"""Saved searches."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import text

from desktop_app.core.db import LibraryError
from desktop_app.core.values import Change

if TYPE_CHECKING:
    from desktop_app.core.library import Library


class _NoIndex:
    """Stands in for the index when a query is only checked, not run."""

    @staticmethod
    def matching_pids(_q: object) -> set[int]:
        return set()


def save_search(self: Library, name: str, query: str) -> Change:
    """Save (or replace) a named search; the query must parse."""
    from desktop_app.core.search.query import compile_query

    name = " ".join(name.split())
    if not name:
        raise LibraryError("a saved search needs a name")
    # compile, not just parse: "status:bogus" or "year:rl" parse but fail when run
    compile_query(query, _NoIndex())  # type: ignore[arg-type]
    with self._tx() as conn:
        old = conn.execute(text("SELECT query FROM saved_search WHERE name=:n"), {"n": name}).scalar()
        conn.execute(
            text("INSERT INTO saved_search (name, query) VALUES (:n, :q) "
                 "ON CONFLICT(name) DO UPDATE SET query=excluded.query"),
            {"n": name, "q": query},
        )
    return Change("searches", detail={"name": name, "old": old})


def delete_search(self: Library, name: str) -> Change:
    with self._tx() as conn:
        old = conn.execute(text("DELETE FROM saved_search WHERE name=:n RETURNING query"), {"n": name}).scalar()
    if old is None:
        raise LibraryError(f"no saved search named '{name}'")
    return Change("searches", detail={"name": name, "old": old})
