"""A saved search keeps the whole filter in its one text column; a query alone stays its text."""

from __future__ import annotations

import pytest

from desktop_app.core.saved_filter import SavedFilter
from desktop_app.core.search.errors import QuerySyntaxError


def test_saved_filter_text_round_trip() -> None:
    whole = SavedFilter(
        query="rl", status="read", tags=("a/b",), not_tags=("x",), list_name="L", sort="year", descending=True
    )
    assert SavedFilter.from_text(whole.to_text()) == whole
    assert SavedFilter(query="tag:rl").to_text() == "tag:rl"
    assert SavedFilter.from_text('{"a": 1}') == SavedFilter(query='{"a": 1}')  # not ours: a query
    assert SavedFilter.from_text("year:{2020 TO 2024}").query == "year:{2020 TO 2024}"


def test_a_whole_filter_is_saved_and_read_back(seed_library) -> None:
    lib = seed_library
    ids = lib.query("").ids
    lib.tags.add(ids[:10], ["rl"])
    doc = SavedFilter(query="learning", tags=("rl",), status="unread", sort="title", descending=True)
    lib.searches.save("RL", doc.to_text())
    back = SavedFilter.from_text(dict(lib.searches.all())["RL"])
    assert back == doc
    found = lib.query(back.query, sort=back.sort, descending=back.descending, **back.query_filters())
    assert 0 < found.total <= 10
    with pytest.raises(QuerySyntaxError):  # the query inside is checked as a plain one is
        lib.searches.save("bad", SavedFilter(query="status:bogus", tags=("rl",)).to_text())
