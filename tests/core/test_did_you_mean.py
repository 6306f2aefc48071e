""" "Did you mean": corrections from the seed library's index vocabulary (core/search/suggest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.core.library import Library
from desktop_app.core.search.suggest import FEW_HITS, edit_distance
from tests.helpers.shared import SEEDS


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> Library:
    library = Library.open(tmp_path_factory.mktemp("dym") / "lib")
    assert library.imports.from_files(list(SEEDS)).added == 76
    library.tags.add([library.query("RACES").ids[0]], ["rl"])
    yield library
    library.close()


@pytest.mark.parametrize(
    ("typed", "offered"),
    [
        ("reinforcment lerning", "reinforcement learning"),  # "reinforcment" stems like the real word
        ("Reinforcment Lerning", "Reinforcement Learning"),  # the user's capitals are kept
        ("title:transformr", "title:transformer"),  # a field prefix stays, its value is corrected
        ("abstract:verifable rewards", "abstract:verifiable rewards"),
        ('"reinforcment lerning"', '"reinforcement learning"'),  # inside a phrase
        ("lerning AND (optimizaton OR RLVR)", "learning AND (optimization OR RLVR)"),  # operators kept
        ("tag:rl lerning", "tag:rl learning"),  # a tag is not spelling
        ("benchmrk", "benchmark"),
    ],
)
def test_a_query_without_hits_is_offered_a_correction(lib: Library, typed: str, offered: str) -> None:
    assert lib.query(typed).total < FEW_HITS
    assert lib.did_you_mean(typed) == offered
    assert lib.query(offered).total > lib.query(typed).total


@pytest.mark.parametrize(
    "typed",
    [
        "reinforcement learning",  # correct, many hits
        "graph neural networks",  # correct, fewer than three hits: nothing better to offer
        "zzzzqqq",  # nothing near it
        "learn*",  # a prefix is kept as typed
        "tag:rlx",  # SQL fields are not corrected
        "",
    ],
)
def test_nothing_is_offered_for_a_good_or_hopeless_query(lib: Library, typed: str) -> None:
    assert lib.did_you_mean(typed) is None


def test_a_query_with_enough_hits_is_not_corrected_even_if_misspelt(lib: Library) -> None:
    # "reinforcment" finds the RL papers (it stems like "reinforcement"): enough hits, no offer
    assert lib.query("reinforcment").total >= FEW_HITS
    assert lib.did_you_mean("reinforcment") is None
    assert lib.did_you_mean("reinforcment", hits=0) == "reinforcement"  # the caller's count is used


def test_edit_distance() -> None:
    assert edit_distance("lerning", "learning") == 1
    assert edit_distance("kitten", "sitting") == 3
    assert edit_distance("", "abc") == edit_distance("abc", "") == 3
    assert edit_distance("same", "same") == 0


def test_no_index_means_no_offer(tmp_path: Path) -> None:
    with Library.open(tmp_path / "empty") as empty:
        assert empty.did_you_mean("lerning") is None


@pytest.mark.parametrize(
    "text",
    [
        "reinforcement learning",
        '"reinforcement learning"',
        "title:transformer",
        "abstract:verifiable rewards",
        "graph OR optics",
        "reasoning NOT reward",
        "quokka",
        "zzzzqqq",
    ],
)
def test_the_bounded_check_agrees_with_counting(lib: Library, text: str) -> None:
    """A correction is offered when it finds more papers than the query typed: asked of the
    index with a stop at the n + 1-th match, it says what counting every match says."""
    compiled = lib.finder.compile(text, defer_index=True)
    assert compiled.index_query is not None and not compiled.sql_key
    total = lib.query(text, limit=0).total
    for n in (0, 1, 2, total - 1, total):
        if n >= 0:
            assert lib.index.index.matches_more_than(compiled.index_query, n) == (total > n), (text, n, total)


def test_a_deleted_paper_is_not_a_match_of_the_bounded_check(lib: Library) -> None:
    text = '"Recursive Automated Composition"'
    compiled = lib.finder.compile(text, defer_index=True)
    (races,) = lib.query(text).ids
    assert lib.index.index.matches_more_than(compiled.index_query, 0)
    lib.papers.delete([races])
    try:
        assert lib.query(text, limit=0).total == 0
        assert not lib.index.index.matches_more_than(compiled.index_query, 0)
    finally:
        lib.trash.restore([races])


@pytest.mark.parametrize(
    ("text", "sql"), [("composition AND tag:rl", "tag:rl"), ("reasoning AND status:unread", "status:unread")]
)
def test_the_bounded_check_among_the_papers_sql_fields_pick(lib: Library, text: str, sql: str) -> None:
    compiled = lib.finder.compile(text, defer_index=True)
    assert compiled.index_query is not None and compiled.sql_key
    picked = lib.query(sql).ids
    total = lib.query(text, limit=0).total
    assert picked and total <= len(picked)
    for n in range(0, total + 2):
        assert lib.index.index.matches_more_than(compiled.index_query, n, picked) == (total > n), (text, n, total)
    assert lib.did_you_mean("recursve AND tag:rl", 0) == "recursive AND tag:rl"
    assert lib.did_you_mean("recursve AND tag:nothing-tagged", 0) is None  # it would find no more
