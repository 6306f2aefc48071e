"""Property tests of re-anchoring on real seed abstracts: an edit that leaves the highlighted
words alone never moves or orphans the highlight; an edit that rewrites them never moves the
highlight away from where they were (it is placed there or orphaned)."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from desktop_app.core.anchoring import carry, locate, make_anchor
from desktop_app.core.text import to_plain
from tests.helpers.shared import SEEDS

pytestmark = pytest.mark.shared  # every test here reads ../shared

# real abstracts; without ../shared the conftest skips this module's tests (TEXTS stays empty)
TEXTS = [to_plain(block) for block in SEEDS[0].read_text(encoding="utf-8").split("\n\n")[1:13]] if SEEDS else []
WORDS = [
    "graph",
    "token",
    "we",
    "propose",
    "a",
    "novel",
    "loss",
    "that",
    "scales",
    "badly",
    "with",
    "data",
    "the",
    "of",
    "results",
    "show",
    ",",
    ".",
    "(",
    ")",
    "3.5",
    "LLMs",
]
SETTINGS = settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def highlighted(draw: st.DrawFn) -> tuple[str, int, int]:
    """A seed abstract and a span of 2-8 whole words in it whose text occurs once."""
    plain = draw(st.sampled_from(TEXTS))
    words = [m.span() for m in re.finditer(r"\S+", plain)]
    i = draw(st.integers(0, len(words) - 2))
    j = draw(st.integers(i + 1, min(len(words) - 1, i + 7)))
    start, end = words[i][0], words[j][1]
    assume(plain.count(plain[start:end]) == 1)
    return plain, start, end


def _reanchor(old: str, new: str, start: int, end: int) -> tuple[int, int] | None:
    a = make_anchor(old, start, end)
    to_new = carry(old, new)
    mapped = (to_new(start), to_new(end))
    return locate(new, a.quote, a.prefix, a.suffix, mapped[0], mapped)


replacement = st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join)


@SETTINGS
@given(highlighted(), st.data(), replacement)
def test_an_edit_outside_the_quote_keeps_it_exactly(h: tuple[str, int, int], data: st.DataObject, text: str) -> None:
    plain, start, end = h
    before = data.draw(st.booleans())
    if before:
        a = data.draw(st.integers(0, start))
        b = data.draw(st.integers(a, start))
    else:
        a = data.draw(st.integers(end, len(plain)))
        b = data.draw(st.integers(a, len(plain)))
    new = plain[:a] + text + plain[b:]
    assume(new != plain and new.count(plain[start:end]) == 1)
    shift = len(text) - (b - a) if before else 0
    assert _reanchor(plain, new, start, end) == (start + shift, end + shift)


@SETTINGS
@given(highlighted(), replacement)
def test_rewritten_words_are_placed_where_they_were_or_orphaned(h: tuple[str, int, int], text: str) -> None:
    plain, start, end = h
    quote = plain[start:end]
    new = plain[:start] + text + plain[end:]
    assume(quote not in new)
    where = _reanchor(plain, new, start, end)
    if where is not None:  # only on the words that replaced the quote (or their neighbours)
        lo, hi = start - 1, start + len(text) + 1
        assert where[0] < hi and where[1] > lo, (quote, text, new[where[0] : where[1]])


@SETTINGS
@given(highlighted(), st.data(), st.sampled_from("aeiouxz"), st.booleans())
def test_a_one_letter_edit_inside_the_quote_keeps_it_on_the_edited_words(
    h: tuple[str, int, int],
    data: st.DataObject,
    letter: str,
    delete: bool,
) -> None:
    plain, start, end = h
    assume(end - start >= 12)
    at = data.draw(st.sampled_from([i for i in range(start, end) if plain[i].isalpha()]))
    if delete:
        assume(plain[at - 1].isalpha() or plain[at + 1].isalpha())  # no word disappears
        new, new_end = plain[:at] + plain[at + 1 :], end - 1
    else:
        new, new_end = plain[:at] + letter + plain[at + 1 :], end
    assume(new != plain)
    assert _reanchor(plain, new, start, end) == (start, new_end)
