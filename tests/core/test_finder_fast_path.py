"""The Finder's path for queries that are all text: the index's matches (the executor's arrays)
picked out of the filters' ordered id list, kept until the next write. It must give what the
general path (``paper.id IN (matches)`` in SQL) gives: the same ids in the same order, the same
totals and scores, and it must see every write."""

from __future__ import annotations

import sqlite3

import pytest

QUERIES = [
    "attention",
    "reinforcement learning",
    "policy OR reward",
    "learning NOT reinforcement",
    "NOT learning",
    '"language models"',
    "trans*",
    "atention~",
    "title:learning",
    "learning ANDNOT policy",
    "nothingmatchesthis",
    "(policy OR reward) AND NOT model",
]
SHAPES = [
    {"sort": "relevance"},
    {"sort": "added"},
    {"sort": "title", "descending": True},
    {"sort": "year"},
    {"sort": "relevance", "limit": 5, "offset": 3},
]


def _general(lib, text: str, **filters: object):
    """The same query through the general path (the SQL IN list)."""
    finder = lib.finder
    compile_ = finder.compile
    finder.compile = lambda q, defer_index=False: compile_(q)
    try:
        return lib.query(text, **filters)
    finally:
        finder.compile = compile_


def _same(lib, text: str, **filters: object) -> None:
    fast = lib.query(text, **filters)
    slow = _general(lib, text, **filters)
    assert fast.ids == slow.ids, (text, filters)
    assert fast.total == slow.total, (text, filters)
    assert fast.scores == pytest.approx(slow.scores), (text, filters)
    assert fast.terms == slow.terms


def test_text_queries_answer_as_the_general_path(seed_library) -> None:
    lib = seed_library
    assert lib.finder.compile("attention", defer_index=True).index_query is not None
    assert lib.finder.compile("tag:x attention", defer_index=True).sql_key  # split: SQL and text
    assert lib.finder.compile("tag:x OR attention", defer_index=True).index_query is None
    assert lib.finder.compile("tag:x", defer_index=True).index_query is None
    for text in QUERIES:
        for shape in SHAPES:
            _same(lib, text, **shape)


def test_with_filters_and_a_list(seed_library) -> None:
    lib = seed_library
    ids = lib.query("").ids
    lib.tags.add(ids[::3], ["rl/deep"])
    lib.lists.create("week")
    lib.lists.add("week", ids[::2])
    lib.papers.set_status(ids[1::4], "read")
    for text in (
        "learning",
        "policy OR model",
        "NOT learning",
        "tag:rl learning",
        "learning NOT tag:rl/deep",
        "status:read (policy OR model)",
        "tag:rl OR learning",
        "year:>2015 learning policy",
    ):
        _same(lib, text, tags=["rl"], sort="relevance")
        _same(lib, text, not_tags=["rl"], sort="added")
        _same(lib, text, list_name="week", sort="position")
        _same(lib, text, list_name="week", sort="relevance")
        _same(lib, text, status="read", sort="relevance")


def test_every_write_is_seen(seed_library) -> None:
    """The ordered id list is kept between queries; writes through the library, and writes made
    with plain sqlite3 behind its back, are seen by the next query."""
    lib = seed_library
    before = lib.query("learning", sort="added")
    assert lib.finder._ordered, "the ordered id list is kept"
    victim = before.ids[0]
    lib.papers.delete([victim])
    after = lib.query("learning", sort="added")
    assert victim not in after.ids and after.total == before.total - 1
    lib.papers.restore([victim])
    assert lib.query("learning", sort="added").ids == before.ids
    # behind the library's back (another program; a test)
    db = sqlite3.connect(lib.db_path)
    with db:
        db.execute("UPDATE paper SET deleted_at = '2020-01-01 00:00:00' WHERE id = ?", (victim,))
    db.close()
    assert victim not in lib.query("learning", sort="added").ids
    _same(lib, "learning", sort="added")
