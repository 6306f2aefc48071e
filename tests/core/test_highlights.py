"""Highlights anchored by position and quote (the Hypothesis model), re-anchored on edits."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.core.errors import LibraryError
from desktop_app.core.library import Library
from desktop_app.core.values import HighlightView
from tests.helpers.library import find_paper
from tests.helpers.shared import SEEDS

# (words found in the plain abstract of a seed, a quote inside it that crosses LaTeX or emphasis)
CASES = [
    ("Recursive Automated Composition for Environment Scaling", "Recursive Automated Composition"),
    ("composable building blocks", "composable building blocks"),
]


def _quotes_in_latex_seeds(lib: Library) -> list[tuple[int, str]]:
    """Quotes taken from what the reader sees in abstracts whose source has LaTeX or markdown."""
    out = []
    for pid in lib.query("").ids:
        p = lib.papers.get(pid)
        if ("\\" in p.abstract or "$" in p.abstract or "*" in p.abstract) and len(p.abstract_text) > 200:
            words = p.abstract_text.split()
            quote = " ".join(words[10:16])
            out.append((pid, quote))
        if len(out) == 6:
            break
    return out


def test_highlights_survive_reopen_and_shift_with_edits(seed_library: Library, library_dir: Path) -> None:
    picks = _quotes_in_latex_seeds(seed_library)
    assert len(picks) == 6
    made = {}
    for pid, quote in picks:
        hid = seed_library.highlights.add_quote(pid, quote, comment=f"about {pid}", color="blue").detail.id
        made[pid] = (hid, quote)
    seed_library.close()
    lib = Library.open(library_dir)
    try:
        for pid, (hid, quote) in made.items():
            p = lib.papers.get(pid)
            h = next(h for h in p.highlights if h.id == hid)
            assert p.abstract_text[h.start : h.end] == quote
            # prepend a sentence: every position shifts, the words stay
            lib.papers.set_abstract(pid, "An added opening sentence with $\\alpha$ math. " + p.abstract)
            p2 = lib.papers.get(pid)
            h2 = next(h for h in p2.highlights if h.id == hid)
            assert not h2.orphaned
            assert h2.start > h.start
            assert p2.abstract_text[h2.start : h2.end] == quote
    finally:
        lib.close()


def test_fuzzy_reanchor_after_a_small_edit_inside_the_quote(seed_library: Library) -> None:
    pid = find_paper(seed_library, "composable building blocks")
    seed_library.highlights.add_quote(pid, "treats verifiable environments as composable building blocks")
    raw = seed_library.papers.get(pid).abstract
    seed_library.papers.set_abstract(pid, raw.replace("composable building blocks", "composable construction blocks"))
    (h,) = seed_library.papers.get(pid).highlights
    assert not h.orphaned
    assert seed_library.papers.get(pid).abstract_text[h.start : h.end].startswith("treats verifiable environments")


def test_deleted_passage_leaves_an_orphan_not_a_loss(seed_library: Library) -> None:
    pid = find_paper(seed_library, "composable building blocks")
    hid = seed_library.highlights.add_quote(pid, "composable building blocks", comment="keep me").detail.id
    seed_library.papers.set_abstract(
        pid, "A completely different abstract about protein folding and nothing else at all."
    )
    (h,) = seed_library.papers.get(pid).highlights
    assert h.id == hid and h.orphaned and h.comment == "keep me"
    assert h.quote == "composable building blocks"


def test_same_quote_twice_picks_the_occurrence_by_context(empty_library: Library) -> None:
    from desktop_app.core.records import ParseResult, Record

    text = "The model is strong. In the second part the model is weak on long inputs and the model is fast."
    empty_library.imports.from_records([("t", ParseResult("csv", [Record(abstract=text, title="T")]))])
    pid = empty_library.query("").ids[0]
    plain = empty_library.papers.get(pid).abstract_text
    second = plain.index("the model is weak")
    empty_library.highlights.add(pid, second + 4, second + 9)  # "model" of the second sentence
    empty_library.papers.set_abstract(pid, "Intro. " + text)
    (h,) = empty_library.papers.get(pid).highlights
    new_plain = empty_library.papers.get(pid).abstract_text
    assert new_plain[h.start - 4 : h.end + 8] == "the model is weak"


def test_highlight_comments_are_searchable(seed_library: Library) -> None:
    pid = find_paper(seed_library, "composable building blocks")
    seed_library.highlights.add_quote(pid, "composable building blocks", comment="zanzibar idea")
    assert seed_library.query("highlight:zanzibar").ids == [pid]
    assert seed_library.query("zanzibar").ids == [pid]


def test_edit_delete_restore(seed_library: Library) -> None:
    pid = find_paper(seed_library, "composable building blocks")
    hid = seed_library.highlights.add_quote(pid, "composable building blocks").detail.id
    seed_library.highlights.edit(hid, color="pink", comment="c")
    (h,) = seed_library.papers.get(pid).highlights
    assert (h.color, h.comment) == ("pink", "c")
    row = seed_library.highlights.delete(hid).detail.row
    assert seed_library.papers.get(pid).highlights == []
    seed_library.highlights.restore(row)
    assert [h.id for h in seed_library.papers.get(pid).highlights] == [hid]


@pytest.mark.parametrize("bad", [(-1, 5), (5, 5), (0, 10**6)])
def test_invalid_spans_are_refused(seed_library: Library, bad: tuple[int, int]) -> None:
    pid = seed_library.query("").ids[0]
    with pytest.raises(LibraryError):
        seed_library.highlights.add(pid, *bad)
    with pytest.raises(LibraryError, match="color"):
        seed_library.highlights.add(pid, 0, 5, color="octarine")


# --- re-anchoring weighs the quote, its context and its position (issue item 12) ---

RACES_FILE = next((p for p in SEEDS if "RACES improves DeepSeek" in p.read_text(encoding="utf-8")), None)
RACES_TAIL = "using only 50 base environments"


@pytest.fixture
def races(empty_library: Library, shared_dir: Path) -> tuple[Library, int]:
    """A library holding the seed file with the RACES abstract, and that paper's id."""
    empty_library.imports.from_files([RACES_FILE])
    return empty_library, find_paper(empty_library, "50 base environments")


def _one(lib: Library, pid: int) -> tuple[str, HighlightView]:
    p = lib.papers.get(pid)
    (h,) = p.highlights
    return p.abstract_text, h


@pytest.mark.parametrize("first_sentence", ["prepended", "replaced"])
def test_issue_case_the_highlight_never_moves_to_verifiable_environments(
    races: tuple[Library, int],
    first_sentence: str,
) -> None:
    """Highlight "50 base environments"; the new abstract says "using just a few environments"
    there and has a new first sentence. It used to land on "verifiable environments" of the
    first sentence (start 77 when the sentence below is prepended)."""
    lib, pid = races
    hid = lib.highlights.add_quote(pid, "50 base environments", comment="only 50 of 300!").detail.id
    raw = lib.papers.get(pid).abstract
    assert raw.count(RACES_TAIL) == 1
    body = raw.replace(RACES_TAIL, "using just a few environments")
    opening = "Scaling RL environments is costly to build. "
    if first_sentence == "prepended":
        new_raw = opening + body
    else:
        new_raw = opening + body.split(". ", 1)[1]
    lib.papers.set_abstract(pid, new_raw)
    plain, h = _one(lib, pid)
    assert h.id == hid and h.quote == "50 base environments" and h.comment == "only 50 of 300!"
    # "50 base" became "just a few": the words the comment is about are gone (quote similarity
    # 0.65 < QUOTE_MIN), so the highlight is kept and shown as an orphan, not moved anywhere
    assert h.orphaned, plain[h.start : h.end]
    # nothing is lost: the old text back, the highlight is back on its words
    lib.papers.set_abstract(pid, raw)
    plain, h = _one(lib, pid)
    assert not h.orphaned and plain[h.start : h.end] == "50 base environments"


def test_small_edit_elsewhere_keeps_the_highlight_exactly(races: tuple[Library, int]) -> None:
    lib, pid = races
    lib.highlights.add_quote(pid, "50 base environments")
    plain, h = _one(lib, pid)
    raw = lib.papers.get(pid).abstract
    new_raw = raw.replace("Extensive experiments show", "Many experiments show")
    assert new_raw != raw
    lib.papers.set_abstract(pid, new_raw)
    plain2, h2 = _one(lib, pid)
    shift = len("Many") - len("Extensive")
    assert not h2.orphaned
    assert (h2.start, h2.end) == (h.start + shift, h.end + shift)
    assert plain2[h2.start : h2.end] == "50 base environments"


def test_a_typo_fixed_inside_the_quote_moves_the_highlight_to_the_corrected_words(
    races: tuple[Library, int],
) -> None:
    lib, pid = races
    raw = lib.papers.get(pid).abstract
    lib.papers.set_abstract(pid, raw.replace("composable building blocks", "composable bulding blokcs"))
    lib.highlights.add_quote(pid, "composable bulding blokcs", comment="typos")
    lib.papers.set_abstract(pid, raw)
    plain, h = _one(lib, pid)
    assert not h.orphaned and h.comment == "typos"
    assert plain[h.start : h.end] == "composable building blocks"


def test_a_deleted_passage_orphans_its_highlight_and_spares_the_others(races: tuple[Library, int]) -> None:
    lib, pid = races
    gone = lib.highlights.add_quote(pid, "significant efficiency in environment utilization", comment="c").detail.id
    kept = lib.highlights.add_quote(pid, "composable building blocks").detail.id
    raw = lib.papers.get(pid).abstract
    last = raw.index("Moreover, RACES achieves")
    lib.papers.set_abstract(pid, raw[:last].rstrip())
    p = lib.papers.get(pid)
    by_id = {h.id: h for h in p.highlights}
    assert by_id[gone].orphaned and by_id[gone].comment == "c"
    assert by_id[gone].quote == "significant efficiency in environment utilization"
    assert not by_id[kept].orphaned
    assert p.abstract_text[by_id[kept].start : by_id[kept].end] == "composable building blocks"
