"""Finder.list_ids: the window's first page (painted before the rest loads) is a prefix of what query() lists."""

from __future__ import annotations

import pytest

SORTS = ["added", "title", "year", "venue", "rating", "status", "updated", "id"]


@pytest.mark.parametrize("sort", SORTS)
@pytest.mark.parametrize("descending", [False, True])
def test_list_ids_is_the_query_order(seed_library, sort: str, descending: bool) -> None:
    lib = seed_library
    whole = lib.query("", sort=sort, descending=descending).ids
    assert lib.finder.list_ids(sort=sort, descending=descending) == whole
    assert lib.finder.list_ids(sort=sort, descending=descending, limit=10) == whole[:10]


def test_list_ids_of_one_status(seed_library) -> None:
    lib = seed_library
    pid = lib.query("").ids[5]
    lib.papers.set_status([pid], "read")
    assert lib.finder.list_ids(status="read") == lib.query("", status="read").ids == [pid]
    with pytest.raises(Exception, match="status is one of"):
        lib.finder.list_ids(status="nope")


def test_a_query_without_text_needs_no_query_parser(seed_library, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_parser(*_a: object) -> None:
        raise AssertionError("the query parser (Whoosh) was asked for a query without text")

    monkeypatch.setattr(seed_library.finder, "compile", no_parser)
    res = seed_library.query("", status="unread", sort="relevance")
    assert res.total == 76 and res.terms == [] and res.scores == {}
