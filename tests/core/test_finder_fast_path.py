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


SQL_QUERIES = [
    "tag:rl",
    "tag:rl/deep",
    "#rl",
    "NOT tag:rl",
    "tag:rl OR status:read",
    "tag:rl AND NOT status:read",
    "status:read",
    "year:>2015",
    "year:[2019 TO 2022]",
    "list:week",
    "rating:>=2",
    "decision:keep",
    "tag:nosuchtag",
]


def _sql_general(lib, text: str, **filters: object):
    """The same query with the SQL-fields path turned off: the filtered, ordered SQL."""
    store = lib.finder._store
    stamp = store.data_stamp
    store.data_stamp = lambda: None  # a library without a data stamp (a server's) takes the SQL path
    try:
        return lib.query(text, **filters)
    finally:
        store.data_stamp = stamp


def _same_sql(lib, text: str, **filters: object) -> None:
    fast = lib.query(text, **filters)
    slow = _sql_general(lib, text, **filters)
    assert fast.ids == slow.ids, (text, filters)
    assert fast.total == slow.total, (text, filters)
    assert fast.scores == slow.scores == {}


def test_sql_field_queries_answer_as_the_ordered_sql(seed_library) -> None:
    """Queries of SQL fields only are the fields' ids picked out of the filters' ordered list:
    the same ids, order and totals as the filtered SQL, with a tagged paper in the trash left
    out and every write seen."""
    lib = seed_library
    ids = lib.query("").ids
    lib.tags.add(ids[::3], ["rl/deep"])
    lib.tags.add(ids[1::5], ["rl"])
    lib.lists.create("week")
    lib.lists.add("week", ids[::2])
    lib.papers.set_status(ids[1::4], "read")
    lib.papers.set_rating(ids[2::7], 3)
    lib.papers.set_decision(ids[::6], "keep")
    lib.papers.delete([ids[0], ids[3]])  # tagged rl/deep, in the list, decided: now in the trash
    assert lib.query("tag:rl").total > 10
    assert ids[0] not in lib.query("tag:rl").ids and ids[3] not in lib.query("list:week").ids
    for text in SQL_QUERIES:
        for shape in SHAPES:
            _same_sql(lib, text, **shape)
        _same_sql(lib, text, tags=["rl"], sort="title")
        _same_sql(lib, text, not_tags=["rl/deep"], sort="added", descending=True)
        _same_sql(lib, text, list_name="week", sort="position")
        _same_sql(lib, text, status="read", sort="year")
    before = lib.query("tag:rl", sort="added")
    lib.tags.add([ids[4]], ["rl"])
    assert ids[4] in lib.query("tag:rl", sort="added").ids
    assert lib.query("tag:rl", sort="added").total == before.total + (ids[4] not in before.ids)
    lib.papers.restore([ids[0]])
    assert ids[0] in lib.query("tag:rl").ids
    _same_sql(lib, "tag:rl", sort="added")


def test_a_tag_query_sees_a_write_made_by_another_process(seed_library) -> None:
    """The ids a SQL-field query picks are kept until the database changes, whoever changes it:
    a tag added through another connection to the file is in the next answer."""
    from desktop_app.core.library import Library

    lib = seed_library
    if lib.server is not None:
        pytest.skip("a server library keeps no id lists (no data stamp): nothing to go stale")
    ids = lib.query("").ids
    lib.tags.add(ids[:4], ["theory"])
    assert lib.query("tag:theory").total == 4
    assert lib.query("tag:theory").total == 4  # (answered from the kept ids)
    with Library.open(lib.folder) as other:
        other.tags.add([ids[10]], ["theory"])
        other.tags.remove([ids[0]], ["theory"])
    found = lib.query("tag:theory")
    assert found.total == 4 and ids[10] in found.ids and ids[0] not in found.ids
