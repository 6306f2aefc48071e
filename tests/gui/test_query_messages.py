"""A query the user cannot fix from an internal class name: the search box says what is wrong
and how to fix it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from desktop_app.core.search.errors import QuerySyntaxError
from desktop_app.core.search.query import parse
from desktop_app.gui.query_messages import plain_query_error

CASES = {
    '"in-context learning': 'Unclosed quote in the search: add the closing "',
    "(transformer OR attention": 'A bracket in the search is not closed: add the closing ")"',
    "transformer)": 'The search has a ")" without its "(": remove it or add the opening "("',
    "year:abc": "“year:” needs a number in the search, e.g. year:2024 or year:>=2020",
    "rating:>=x": "“rating:” needs a number in the search, e.g. rating:4 or rating:>=3",
}
INTERNAL = re.compile(r"<[^=]|\b\w*(Error|Exception|Query)\b|_[A-Z]")  # a class name, or one in <...>


def _parser_message(query: str) -> str:
    with pytest.raises(QuerySyntaxError) as info:
        parse(query)
    return str(info.value)


@pytest.mark.parametrize(("query", "expected"), CASES.items())
def test_each_parser_error_becomes_a_plain_sentence(query: str, expected: str) -> None:
    raw = _parser_message(query)
    text = plain_query_error(raw, query)
    assert text == expected
    assert not INTERNAL.search(text)


def test_unknown_field_names_it_and_the_known_ones() -> None:
    text = plain_query_error(_parser_message("titel:races"), "titel:races")
    assert text.startswith("The search has no field “titel:”; use one of: abstract, author")
    assert not INTERNAL.search(text)


def test_an_unforeseen_message_loses_class_names_but_keeps_its_words() -> None:
    text = plain_query_error("cannot understand <_NullQuery>: QuerySyntaxError: bad thing", "x")
    assert "bad thing" in text and "check its quotes" in text
    assert not INTERNAL.search(text)


def test_the_window_shows_the_plain_message(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    qtbot.keyClicks(win.search.box, '"in-context')
    qtbot.waitUntil(lambda: win.search.error.isVisible(), timeout=3000)
    assert win.search.error.text() == '⚠ Unclosed quote in the search: add the closing "'
    qtbot.keyClicks(win.search.box, '"')
    qtbot.waitUntil(lambda: not win.search.error.isVisible(), timeout=3000)
    win.search.box.clear()
    qtbot.keyClicks(win.search.box, "year:abc")
    qtbot.waitUntil(lambda: "year:" in win.search.error.text(), timeout=3000)
    assert not INTERNAL.search(win.search.error.text())
