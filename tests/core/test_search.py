"""The query language on the seed library: text goes to Whoosh, tag/status/rating/year/list to
SQL, and both combine. Expected hits are computed from the papers' own plain text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from desktop_app.core.library import Library
from desktop_app.core.search.query import QuerySyntaxError, parse
from tests.helpers.library import find_paper
from tests.helpers.shared import SEEDS

RACES_WORDS = "Recursive Automated Composition for Environment Scaling"
RLVR_WORDS = "shrinkage issue of RLVR"
FPRM_WORDS = "Fixed-Point Reasoning Model"


class Seeded:
    """The module's library, with the ids of the papers the setup touched."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib
        self.races = find_paper(lib, RACES_WORDS)
        self.rlvr = find_paper(lib, RLVR_WORDS)
        self.fprm = find_paper(lib, FPRM_WORDS)
        self.all = set(lib.query("").ids)
        self.texts = {pid: f"{lib.papers.get(pid).title}\n{lib.papers.get(pid).abstract_text}" for pid in self.all}

    def ids(self, q: str) -> set[int]:
        return set(self.lib.query(q).ids)

    def having(self, pattern: str) -> set[int]:
        """Papers whose title or plain abstract matches a regex (case-insensitive)."""
        return {pid for pid, t in self.texts.items() if re.search(pattern, t, re.IGNORECASE)}


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> Seeded:
    folder: Path = tmp_path_factory.mktemp("search") / "library"
    lib = Library.open(folder)
    assert lib.imports.from_files(SEEDS).added == 76
    s = Seeded(lib)
    lib.tags.add([s.races], ["rl/env"])
    lib.tags.add([s.rlvr], ["rl/rlvr"])
    lib.tags.add([s.fprm], ["reasoning"])
    lib.papers.set_status([s.rlvr], "read")
    lib.papers.set_status([s.fprm], "skimmed")
    lib.papers.set_rating([s.races], 4)
    lib.papers.set_rating([s.rlvr], 2)
    lib.notes.set(s.fprm, "check the *sudoku* numbers **again**")  # markdown, as notes are
    lib.lists.create("Queue")
    lib.lists.add("Queue", [s.fprm, s.races])
    lib.highlights.add_quote(s.races, "composable building blocks", comment="like lego")
    lib.flush_index()
    yield s
    lib.close()


# ---- errors ---------------------------------------------------------------------------------------
ERRORS = {
    "frobnicate:x": "unknown field 'frobnicate:'",
    "titel:races": "unknown field 'titel:'",
    "(reasoning OR environment": "unbalanced parentheses",
    "reasoning)": "unbalanced parentheses",
    '"recursive automated': "quotation mark is not closed",
    "status:finished": "status is one of unread, skimmed, read, not 'finished'",
    "tag:rl AND status:bogus": "status is one of",
    "rating:lots": "not a valid number",
    "year:recent": "not a valid number",
    "year:rl/*": "year: needs a number",
}


@pytest.mark.parametrize("text", list(ERRORS))
def test_syntax_errors_are_one_line(seeded: Seeded, text: str) -> None:
    with pytest.raises(QuerySyntaxError) as info:
        seeded.lib.query(text)
    message = str(info.value)
    assert ERRORS[text] in message
    assert "\n" not in message and "Traceback" not in message
    assert 0 < len(message) < 200


def test_unknown_field_message_names_the_fields(seeded: Seeded) -> None:
    with pytest.raises(
        QuerySyntaxError, match="use one of abstract, author, decision, highlight, key, keyword, like, list, note"
    ):
        seeded.lib.query("foo:bar")
    with pytest.raises(QuerySyntaxError, match="status is one of"):
        seeded.lib.query("", status="done")
    # a colon inside a phrase or a URL is not a field
    assert seeded.ids('"foo:bar"') == set()
    assert seeded.ids("http://example.org") == set()


TOKENS = [
    "tag:",
    "status:",
    "rating:",
    "year:",
    "list:",
    "title:",
    "note:",
    "venue:",
    "author:",
    "abstract:",
    "rl",
    "rl/*",
    "read",
    "3",
    ">=3",
    "<2",
    "[1 TO 3]",
    "[2020 TO]",
    "2026",
    "(",
    ")",
    '"',
    " AND ",
    " OR ",
    " NOT ",
    " ANDNOT ",
    "*",
    "~",
    "^2",
    "#",
    "/",
    "reasoning",
    " ",
    " ",
    "-",
    "+",
    ":",
    "\\",
    "'",
    "[",
    "]",
    "{",
    "}",
    "é",
    "论文",
    "bogus",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=8).map("".join))
def test_any_query_either_runs_or_raises_query_syntax_error(seeded: Seeded, text: str) -> None:
    try:
        res = seeded.lib.query(text, sort="relevance")
    except QuerySyntaxError as exc:
        assert "\n" not in str(exc)
        return
    assert set(res.ids) <= seeded.all and res.total == len(res.ids)


# ---- text search ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("query", "pattern"),
    [
        ("verif*", r"\bverif"),  # prefix over verifiable, verification ...
        ("compos*", r"\bcompos"),
        ("qua*", r"\bqua"),
        ("quas*", r"\bquas"),  # kept as typed, not stemmed to "qua*"
        ("environment", r"\benvironment"),  # stemming: environments too
        ('"large language models"', r"\blarge\W+language\W+models?\b"),
        ('"Recursive Automated Composition"', r"recursive automated composition"),
    ],
)
def test_text_hits_are_exactly_the_papers_that_say_it(seeded: Seeded, query: str, pattern: str) -> None:
    expected = seeded.having(pattern)
    assert seeded.ids(query) == expected


def test_phrase_needs_order_and_fields_narrow(seeded: Seeded) -> None:
    assert seeded.ids('"Recursive Automated Composition"') == {seeded.races}
    assert seeded.ids('"Composition Recursive Automated"') == set()
    assert seeded.ids("title:RACES") == {seeded.races}
    assert seeded.ids("abstract:sudoku") == seeded.having(r"\bsudoku") == {seeded.fprm}
    assert seeded.ids("note:sudoku") == {seeded.fprm}  # the note, not the abstract
    assert seeded.ids("note:again") == {seeded.fprm}  # markdown emphasis is not part of a word
    assert seeded.ids("note:reasoning") == set()
    assert seeded.ids("highlight:lego") == {seeded.races}
    assert seeded.ids("highlight:building") == {seeded.races}
    assert seeded.ids("venue:neurips") == seeded.all
    assert seeded.ids("author:smith") == set()  # seeds carry no authors


def test_structured_fields(seeded: Seeded) -> None:
    s = seeded
    assert s.ids("status:read") == {s.rlvr}
    assert s.ids("status:SKIMMED") == {s.fprm}
    assert s.ids("status:unread") == s.all - {s.rlvr, s.fprm}
    assert s.ids("rating:4") == {s.races}
    assert s.ids("rating:>=2") == {s.races, s.rlvr}
    assert s.ids("rating:<2") == s.all - {s.races, s.rlvr}
    assert s.ids("rating:[1 TO 3]") == {s.rlvr}
    assert s.ids("year:2026") == s.all
    assert s.ids("year:[2020 TO 2025]") == set()
    assert s.ids("year:>=2026") == s.all
    assert s.ids("list:Queue") == s.ids("list:queue") == {s.fprm, s.races}
    assert s.ids("tag:rl") == {s.races, s.rlvr}
    assert s.ids("#reasoning") == {s.fprm}


def test_text_and_sql_combine(seeded: Seeded) -> None:
    s = seeded
    reasoning = s.having(r"\breason")
    assert s.fprm in reasoning and s.rlvr in reasoning
    assert s.ids("reasoning") == reasoning
    assert s.ids("reasoning AND tag:rl") == reasoning & {s.races, s.rlvr}
    assert s.ids("reasoning NOT status:unread") == reasoning & {s.rlvr, s.fprm}
    assert s.ids("(tag:reasoning OR rating:4) AND NOT environment") == {s.fprm}
    assert s.ids("tag:rl OR sudoku") == {s.races, s.rlvr, s.fprm}
    assert s.ids("rl/* AND NOT status:read") == {s.races}


WORDS = [
    "reasoning",
    "environment",
    "learning",
    "benchmark",
    "sudoku",
    "memory",
    "transformer",
    "verifiable",
    "optimization",
    "generalization",
    "tag:rl",
    "status:read",
    "rating:>=2",
]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(WORDS), st.sampled_from(WORDS))
def test_boolean_operators_are_set_algebra(seeded: Seeded, a: str, b: str) -> None:
    s = seeded
    A, B = s.ids(a), s.ids(b)  # noqa: N806 - sets, as in set algebra
    assert s.ids(f"{a} OR {b}") == A | B
    assert s.ids(f"{a} AND {b}") == A & B
    assert s.ids(f"{a} {b}") == A & B
    assert s.ids(f"{a} AND NOT {b}") == A - B
    assert s.ids(f"NOT {a}") == s.all - A
    assert s.ids(f"NOT ({a} OR {b})") == s.all - (A | B)


def test_relevance_ranks_and_scores(seeded: Seeded) -> None:
    lib = seeded.lib
    res = lib.query("RACES", sort="relevance")
    assert res.ids[0] == seeded.races
    res = lib.query("reinforcement learning", sort="relevance")
    assert set(res.ids) == seeded.having(r"\breinforc") & seeded.having(r"\blearn")
    scores = [res.scores[pid] for pid in res.ids]
    assert scores == sorted(scores, reverse=True) and scores[-1] > 0
    # filters narrow a ranked search; paging keeps the total
    page = lib.query("reinforcement learning", sort="relevance", limit=2, offset=1)
    assert page.ids == res.ids[1:3] and page.total == res.total


def test_terms_for_highlighting(seeded: Seeded) -> None:
    lib = seeded.lib
    assert lib.query('"Recursive Automated Composition"').terms == ["recurs*", "automat*", "composit*"]
    assert lib.query("verif* title:RACES environments tag:rl").terms == ["verif*", "race*", "environ*"]
    assert lib.query("tag:rl status:read").terms == []


def test_parse_needs_no_index_and_sql_queries_work_without_it(seeded: Seeded) -> None:
    assert parse("tag:rl AND reasoning") is not None
    with Library.open(seeded.lib.folder, ensure_index=False) as other:  # the index is not opened
        assert not other.index.is_open
        assert set(other.query("tag:rl AND NOT status:read").ids) == {seeded.races}
        assert set(other.query("rating:>=2 OR status:skimmed").ids) == {seeded.races, seeded.rlvr, seeded.fprm}
        with pytest.raises(QuerySyntaxError, match="being rebuilt"):
            other.query("reasoning")


def test_an_empty_library_answers_queries_and_checks(empty_library) -> None:
    assert empty_library.query("anything at all").total == 0
    assert empty_library.query("reinforcement", sort="relevance").ids == []
    assert empty_library.integrity_check() == []


def test_a_prefix_finds_words_whose_stem_is_shorter_than_it(tmp_path: Path) -> None:
    """The index keeps stems: ``QUAS`` as ``qua``, ``learning`` as ``learn``. A prefix typed
    longer than such a stem still finds the word, in the index's executor and in Whoosh's."""
    from desktop_app.core.records import ParseResult, Record

    with Library.open(tmp_path / "lib") as lib:
        lib.imports.from_records(
            [
                (
                    "t",
                    ParseResult(
                        "bibtex",
                        [
                            Record(title="The QUAS array", abstract="A radio survey."),
                            Record(title="Quasars at high redshift", abstract="Bright sources."),
                            Record(title="Deep learning", abstract="We study representations."),
                            Record(title="Galaxy clusters", abstract="Lensing maps."),
                        ],
                    ),
                )
            ]
        )
        titles = {i: lib.papers.get(i).title for i in lib.query("").ids}

        def found(q: str) -> set[str]:
            return {titles[i] for i in lib.query(q).ids}

        assert found("quas*") == {"The QUAS array", "Quasars at high redshift"}
        assert found("learning*") == {"Deep learning"}
        assert found("title:learning*") == {"Deep learning"}
        assert found("quasar*") == {"Quasars at high redshift"}  # the stem is no shorter: as typed
        assert found("clusters*") == {"Galaxy clusters"}
        assert found("lensing* OR quas*") == {"Galaxy clusters", "The QUAS array", "Quasars at high redshift"}


def test_parsed_trees_are_kept_per_text_and_errors_never(seeded: Seeded) -> None:
    """The parser's tree for a text is made once and read back (the same object), each text
    its own; a text that does not parse raises every time."""
    first = parse("reinforcement learning")
    assert parse("reinforcement learning") is first
    assert parse("reinforcement learnings") is not first
    assert repr(parse("learning reinforcement")) != repr(first)
    for _ in range(2):
        with pytest.raises(QuerySyntaxError):
            parse('"not closed')
    # the kept tree still answers as a fresh one does
    lib = seeded.lib
    assert lib.query("reinforcement learning").total == lib.query("reinforcement  learning").total > 0
