"""The Whoosh schema. Bump SCHEMA_VERSION whenever fields or analysis change: an index built
with another version is rebuilt at open."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from whoosh.fields import Schema

SCHEMA_VERSION = 7

# Fields the index answers; everything else in the query language is answered by SQL.
TEXT_FIELDS = ("title", "abstract", "author", "note", "highlight", "venue", "keyword")
DEFAULT_FIELDS = ("title", "abstract", "author", "note", "highlight")
FIELD_BOOSTS = {"title": 3.0, "abstract": 1.0, "author": 1.5, "note": 1.2, "highlight": 1.2}


def build_schema() -> Schema:
    from whoosh.analysis import StemmingAnalyzer
    from whoosh.fields import ID, NUMERIC, TEXT, Schema

    # whoosh-reloaded's default token pattern keeps "*" inside words, so a note's markdown
    # "*platypus*" was indexed as "*platypus*" and "platypus" did not find it: words only.
    analyzer = StemmingAnalyzer(expression=r"\w+(\.?\w+)*", minsize=1, stoplist=None)
    return Schema(
        key=ID(unique=True),  # str(paper id): the unique term update_document replaces by
        pid=NUMERIC(int, 64, stored=True, sortable=True, signed=False),
        title=TEXT(analyzer=analyzer, field_boost=FIELD_BOOSTS["title"]),
        abstract=TEXT(analyzer=analyzer),
        author=TEXT(analyzer=analyzer),
        note=TEXT(analyzer=analyzer),
        highlight=TEXT(analyzer=analyzer),
        venue=TEXT(analyzer=analyzer),
        keyword=TEXT(analyzer=analyzer),  # the source file's keywords (kept apart from the user's tags)
        year=NUMERIC(int, stored=False),
        uid=ID(stored=False),
    )
