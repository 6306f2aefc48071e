"""What a saved search holds: the query text and the rest of the window's filter (sidebar
status, tags, excluded tags, reading list) and its sort, kept in the saved search's one text
column. A search of a query alone stays that query, as before; anything more is a small JSON
object marked ``"filter": 1``, so no schema change is needed and old saved searches read as
they always did."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

MARK = "filter"  # the key that tells a filter document from a query that happens to be JSON-like


@dataclass(frozen=True)
class SavedFilter:
    query: str = ""
    status: str | None = None
    tags: tuple[str, ...] = field(default=())
    not_tags: tuple[str, ...] = field(default=())
    list_name: str | None = None
    sort: str | None = None  # None: whatever sort the window has
    descending: bool = False

    def query_only(self) -> bool:
        return not (self.status or self.tags or self.not_tags or self.list_name or self.sort)

    def is_empty(self) -> bool:
        return self.query_only() and not self.query.strip()

    def to_text(self) -> str:
        """The text stored in ``saved_search.query``."""
        if self.query_only():
            return self.query
        doc = {
            MARK: 1,
            "query": self.query,
            "status": self.status,
            "tags": list(self.tags),
            "not_tags": list(self.not_tags),
            "list": self.list_name,
            "sort": self.sort,
            "descending": self.descending,
        }
        return json.dumps(doc, ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_text(cls, text: str) -> SavedFilter:
        """Read what :meth:`to_text` wrote; any other text is a query alone."""
        doc = _document(text)
        if doc is None:
            return cls(query=text)
        return cls(
            query=str(doc.get("query") or ""),
            status=_name(doc.get("status")),
            tags=_names(doc.get("tags")),
            not_tags=_names(doc.get("not_tags")),
            list_name=_name(doc.get("list")),
            sort=_name(doc.get("sort")),
            descending=bool(doc.get("descending")),
        )

    def query_filters(self) -> dict[str, object]:
        """The keyword arguments of ``Library.query`` besides the query text (and the sort)."""
        return {
            "tags": list(self.tags),
            "not_tags": list(self.not_tags),
            "status": self.status,
            "list_name": self.list_name,
        }


def _document(text: str) -> dict[str, Any] | None:
    if not text.lstrip().startswith("{"):
        return None
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    return doc if isinstance(doc, dict) and doc.get(MARK) == 1 else None


def _name(value: object) -> str | None:
    return str(value) if isinstance(value, str) and value else None


def _names(value: object) -> tuple[str, ...]:
    return tuple(str(v) for v in value if isinstance(v, str) and v) if isinstance(value, list) else ()
