"""Search hits in the reader: exactly what the index matched, found through its own analyzer."""

from __future__ import annotations

import pytest

from desktop_app.core.library import Library
from desktop_app.core.search.hit_spans import hit_spans
from desktop_app.core.text import to_plain

TEXT = (
    "In-context learning is in fashion: models learned to learn in context. Reward models, "
    "RLHF and rl-based tuning; the inference is informal."
)


def _words(query: str, text: str = TEXT) -> list[str]:
    return [text[a:b] for a, b in hit_spans(query, text, "abstract")]


def test_a_phrase_is_marked_as_one_span_and_only_where_it_occurs_whole() -> None:
    assert _words('"in-context learning"') == ["In-context learning"]
    # none of the words starting with "in" (is, in, inference, informal) is marked
    assert _words('"in context"') == ["In-context", "in context"]
    assert _words('"learning fashion"') == []  # both words occur, never one after the other
    # as in the index, punctuation between the words does not break a phrase
    assert _words('"context reward"') == ["context. Reward"]


def test_a_word_marks_its_stemmed_forms() -> None:
    assert _words("learn") == ["learning", "learned", "learn"]
    assert _words("learning") == ["learning", "learned", "learn"]  # the query word is stemmed too
    assert _words("models") == ["models", "models"]
    assert _words("in") == ["In", "in", "in"]  # not "inference", "informal"


def test_prefixes_only_where_typed() -> None:
    assert _words("rl*") == ["RLHF", "rl"]
    assert _words("rl") == ["rl"]
    assert _words("in*") == ["In", "in", "in", "inference", "informal"]


def test_not_terms_and_other_fields_are_not_marked() -> None:
    assert _words("reward NOT models") == ["Reward"]
    assert _words("models ANDNOT reward") == ["models", "models"]
    assert _words("title:reward") == []
    assert _words("abstract:reward") == ["Reward"]
    assert _words("tag:rl reward") == ["Reward"]  # the SQL part marks nothing


def test_fuzzy_and_or() -> None:
    assert _words("rewrd~") == ["Reward"]
    assert _words("rlhf OR fashion") == ["fashion", "RLHF"]


@pytest.mark.parametrize("query", ["", "   ", '"unclosed', "bogus:field", "NOT", "(", "*"])
def test_bad_or_empty_queries_mark_nothing(query: str) -> None:
    assert hit_spans(query, TEXT, "abstract") == []


def test_unicode_offsets_are_character_offsets() -> None:
    text = "Ünïcödé 𝔽 learning — naïve learners"
    assert [text[a:b] for a, b in hit_spans("learn", text)] == ["learning"]
    assert [text[a:b] for a, b in hit_spans("naïve", text)] == ["naïve"]


def test_latex_seed_abstracts_do_not_crash_and_spans_hold_the_words(seed_library: Library) -> None:
    queries = [
        '"in-context learning"',
        "learn",
        "rl*",
        "model NOT reward",
        "$",
        "\\frac",
        "x^2~",
        '"large language models"',
        "attention OR transformer",
    ]
    marked = 0
    for pid in seed_library.query("").ids:
        plain = to_plain(seed_library.papers.get(pid).abstract)
        for q in queries:
            spans = hit_spans(q, plain)
            for a, b in spans:
                assert 0 <= a < b <= len(plain)
            marked += len(spans)
            if q == '"large language models"':
                assert all(" ".join(plain[a:b].lower().split()).startswith("large language model") for a, b in spans)
    assert marked > 50
    # every paper the index finds for a word has that word marked in its title or abstract
    for pid in seed_library.query("abstract:learn").ids:
        assert hit_spans("learn", to_plain(seed_library.papers.get(pid).abstract))
