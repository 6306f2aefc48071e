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
