"""Imports that end: small versions of the hostile shapes of benchmarks/hostile_files.py, read
and imported into a real library. Each record costs the same whatever the file holds (the
look-ups of identical entries are bounded), and whatever is cut or left out is reported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_app.core.formats import read_bytes
from desktop_app.core.formats.limits import MAX_NAMES, MAX_RECORDS
from desktop_app.core.importing import writer as import_writer
from desktop_app.core.importing.writer import CANDIDATES_PER_KEY
from desktop_app.core.library import Library
from desktop_app.core.records import MAX_LISTED_PROBLEMS
from desktop_app.core.store import tables as t
from tests.helpers import hostile_cases as shapes


def _count_comparisons(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    real = import_writer.same_paper

    def counting(*args: object, **kwargs: object) -> str | None:
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(import_writer, "same_paper", counting)
    return calls


def test_identical_entries_are_compared_with_a_bounded_number_of_papers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    count = 1_500
    path = tmp_path / "same.bib"
    path.write_bytes(shapes.identical_entries(count))
    calls = _count_comparisons(monkeypatch)
    with Library.open(tmp_path / "lib", background_index=True) as lib:
        first = lib.imports.from_files([path]).files[0]
        # one file's entries are distinct papers: all of them are added
        assert first.added == count + 2
        bound = (count + 2) * CANDIDATES_PER_KEY * 4  # (t:, tya:, cite: and one spare key)
        assert calls[0] <= bound, calls[0]  # all pairs would be over a million
        calls[0] = 0
        again = lib.imports.from_files([path]).files[0]
        assert again.added == 0 and again.duplicates == count + 2
        assert calls[0] <= bound * 2, calls[0]
        reasons = [m.reason for m in again.matches]
        assert reasons.count("title-author-year") == count + 1 and reasons.count("same-record") == 1


def test_a_placeholder_abstract_identifies_nothing(tmp_path: Path) -> None:
    bib = "".join(
        f"@article{{p{i}, title = {{Paper {i}}}, year = 2020,\n  abstract = {{[No abstract available]}}}}\n"
        for i in range(3)
    )
    path = tmp_path / "placeholder.bib"
    path.write_text(bib, encoding="utf-8")
    with Library.open(tmp_path / "lib", background_index=True) as lib:
        assert lib.imports.from_files([path]).files[0].added == 3
        with lib.store.read() as conn:
            keys = list(conn.execute(t.paper_identity.select()).mappings())
        assert keys and not [k for k in keys if k["key"].startswith(("abs:", "abp:"))]
        assert lib.duplicates.find() == []


def test_empty_entries_are_reported_not_imported_and_the_report_is_summarised(tmp_path: Path) -> None:
    path = tmp_path / "empty.bib"
    path.write_bytes(shapes.empty_entries(0.02))  # about 1,700 "@article{,}"
    result = read_bytes(path.read_bytes(), name=path.name)
    assert sorted(r.title for r in result.records) == ["A good paper", "Another good paper"]
    empty = len(result.errors)
    assert empty > 1_000 and result.errors[0].line == 7
    assert all("without any field" in e.message for e in result.errors)
    with Library.open(tmp_path / "lib", background_index=True) as lib:
        fr = lib.imports.from_files([path]).files[0]
        assert (fr.added, fr.failed) == (2, empty)
        assert len(fr.errors) == MAX_LISTED_PROBLEMS + 1
        assert fr.errors[-1] == (
            f"... and {empty - MAX_LISTED_PROBLEMS:,} more (lines "
            f"{result.errors[MAX_LISTED_PROBLEMS].line:,}-{result.errors[-1].line:,})"
        )
        assert sorted(lib.papers.get(pid).title for pid in [*range(1, 3)]) == ["A good paper", "Another good paper"]
        assert lib.papers.count() == 2  # no "Untitled" papers


def test_a_record_with_neither_title_nor_abstract_is_reported() -> None:
    result = read_bytes(b"@misc{pages1, pages = {23--24}}\n@misc{ok, title = {Kept}}\n", name="x.bib")
    assert [r.title for r in result.records] == ["Kept"]
    assert [(e.line, "neither title nor abstract" in e.message) for e in result.errors] == [(1, True)]


def test_error_lines_end_in_a_summarised_report(tmp_path: Path) -> None:
    path = tmp_path / "errors.bib"
    path.write_bytes(shapes.error_lines(0.01))  # about 950 broken entries
    with Library.open(tmp_path / "lib", background_index=True) as lib:
        fr = lib.imports.from_files([path]).files[0]
    assert fr.added == 2 and fr.failed > 900
    assert len(fr.errors) == MAX_LISTED_PROBLEMS + 1 and fr.errors[-1].startswith("... and ")


def test_crossref_to_itself_and_in_a_cycle_is_reported_per_entry() -> None:
    result = read_bytes(shapes.crossref_cycle(), name="cycle.bib")
    assert result.errors == []
    assert {r.title for r in result.records} == {"A good paper", "Another good paper", "Self", "Ping", "Pong"}
    messages = [(w.line, w.message) for w in result.warnings]
    assert (7, "self refers to itself (crossref); the reference was ignored") in messages
    assert any(line in (8, 9) and "crossref cycle" in m and "ping -> pong" in m for line, m in messages)


def test_junk_before_and_between_entries_is_skipped_with_its_lines() -> None:
    text = (
        "exported by hand, see jane@example.org } {\n"
        "@article{a, title = {First}, year = 2001}\n"
        "stray text between\n\n"
        "@article{b, title = {Second}, year = 2002}\n"
    )
    result = read_bytes(text.encode(), name="junk.bib")
    assert [r.title for r in result.records] == ["First", "Second"]
    assert [str(w) for w in result.warnings] == ["line 1: skipped text outside any entry (lines 1, 3)"]


def test_an_item_with_too_many_authors_keeps_the_first_ones_and_says_so() -> None:
    result = read_bytes(shapes.csljson_many_authors(MAX_NAMES + 500), name="authors.json")
    many = next(r for r in result.records if r.title == "Many authors")
    assert len(many.authors) == MAX_NAMES and many.authors[0] == "Author0, A."
    assert [w.message for w in result.warnings] == [
        f"too long, cut: authors ({MAX_NAMES + 500:,}; kept the first {MAX_NAMES:,})"
    ]


@pytest.mark.parametrize("item_by_item", [False, True])
def test_items_beyond_the_record_cap_are_reported(monkeypatch: pytest.MonkeyPatch, item_by_item: bool) -> None:
    from desktop_app.core.formats import csljson_reader, limits

    assert MAX_RECORDS == 100_000
    if item_by_item:  # as a list over 8 MB is read: its items decoded no further than the cap
        monkeypatch.setattr(csljson_reader, "_STREAM_CHARS", 0)
        leading = csljson_reader._leading_items
        decoded: list[int] = []
        monkeypatch.setattr(
            csljson_reader, "_leading_items", lambda text: decoded.append(len(items := leading(text))) or items
        )
    monkeypatch.setattr(csljson_reader, "MAX_RECORDS", 50)
    monkeypatch.setattr(limits, "MAX_RECORDS", 50)
    result = read_bytes(shapes.csljson_many_items(100), name="items.json")
    assert len(result.records) == 50
    assert [str(e) for e in result.errors] == [
        "line 51: the file holds more than 50 records: the 52 after the first 50 from line 51 "
        "were not imported; split the file"
    ]
    if item_by_item:
        assert decoded == [51]


def test_a_huge_csv_cell_is_cut_before_parsing() -> None:
    result = read_bytes(shapes.csv_huge_cell(2), name="cell.csv")
    assert [r.title for r in result.records] == ["A good paper", "Huge", "Another good paper"]
    assert [(w.line, w.message.split(" (")[0]) for w in result.warnings] == [
        (3, "too long, cut: the line"),
        (3, "too long, cut: abstract"),
    ]


def test_the_benchmark_lists_every_new_shape() -> None:
    names = {c.name for c in shapes.CASES if c.imports}
    assert names == {
        "empty_entries.bib",
        "identical_entries.bib",
        "many_authors.json",
        "many_items.json",
        "huge_cell.csv",
        "error_lines.bib",
        "crossref_cycle.bib",
    }
    assert json.loads(shapes.csljson_many_items(3))[-1] == {"id": "i2", "type": "article", "title": "Item 2"}


def test_csljson_names_not_given_as_a_list_cost_only_their_own_item_its_authors() -> None:
    # a number where the author list belongs once failed the whole file (TypeError), and a
    # string or a single name object was iterated: one author per character, or per key
    items = [
        {"title": "Good paper", "author": [{"family": "Ok", "given": "A."}]},
        {"title": "Numeric author", "author": 5},
        {"title": "String author", "author": "Smith, J."},
        {"title": "Object author", "editor": {"family": "Solo", "given": "H."}},
    ]
    result = read_bytes(json.dumps(items).encode(), name="odd_names.json")
    assert not result.errors
    authors = {r.title: r.authors for r in result.records}
    assert authors == {
        "Good paper": ["Ok, A."],
        "Numeric author": [],
        "String author": ["Smith, J."],
        "Object author": ["Solo, H."],
    }
