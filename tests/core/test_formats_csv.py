"""CSV/TSV reader: header synonyms, delimiter sniffing, list splitting, bad rows by line."""

from __future__ import annotations

import pytest

from desktop_app.core.formats import read_bytes
from desktop_app.core.formats.csv_reader import header_matches, read_csv, sniff_delimiter

CSV = (
    "Title,Summary,Author,Year,Journal,DOI,arXiv,URL,Keywords,Note\n"
    'First,"An abstract, with a comma",Ada Lovelace and Alan Turing,2020,JMLR,'
    "doi:10.1/abc,arXiv:2101.00001v2,https://x.org,ml; graphs,my note\n"
    '"Second\nwith a newline in the title",,"Doe, J.; Roe, K.; et al.",c. 1999,,,,,"a, b",\n'
)


def test_columns_and_values():
    result = read_bytes(CSV.encode(), name="papers.csv")
    assert result.format == "csv"
    first, second = result.records
    assert first.title == "First"
    assert first.abstract == "An abstract, with a comma"
    assert first.authors == ["Lovelace, Ada", "Turing, Alan"]
    assert (first.year, first.venue, first.doi) == (2020, "JMLR", "10.1/abc")
    assert first.arxiv_id == "2101.00001"
    assert first.keywords == ["ml", "graphs"] and first.tags == []  # a "Keywords" column is not the user's tags
    assert first.note == "my note"
    assert first.line == 2
    assert second.title == "Second\nwith a newline in the title"
    assert second.authors == ["Doe, J.", "Roe, K."] and second.extra["et_al"] == "1"
    assert second.year == 1999
    assert second.keywords == ["a", "b"]
    assert second.line == 3 and second.raw.count("\n") == 1


@pytest.mark.parametrize("delimiter", ["\t", ";", "|", ","])
def test_delimiter_is_sniffed(delimiter):
    text = delimiter.join(["title", "abstract", "year"]) + "\n" + delimiter.join(["T", "An abstract", "2001"])
    assert sniff_delimiter(text.split("\n")[0]) == delimiter
    (record,) = read_csv(text).records
    assert (record.title, record.abstract, record.year) == ("T", "An abstract", 2001)


def test_bad_rows_are_reported_with_their_lines():
    text = (
        "title,abstract,year\n"
        "Good,Fine,2000\n"
        '"Multi\nline",ok,2001\n'
        "Too,many,cells,here\n"
        ",,\n"
        "Short\n"
        ",,2003\n"
        "Odd year,x,next year\n"
    )
    result = read_csv(text)
    assert [r.title for r in result.records] == ["Good", "Multi\nline", "Short", "Odd year"]
    assert [(e.line, e.message.split(" ")[1]) for e in result.errors] == [(5, "row"), (8, "row")]
    assert "4 cells but the header has 3" in result.errors[0].message
    warnings = {w.line: w.message for w in result.warnings}
    assert "fewer cells" in warnings[7]
    assert "not a number" in warnings[9]


def test_header_that_matches_nothing_lists_the_expected_columns():
    result = read_bytes(b"foo,bar\n1,2\n", name="data.csv", fmt="csv")
    (error,) = result.errors
    assert error.line == 1
    assert "'foo', 'bar'" in error.message
    assert "title, abstract, authors, year, venue, doi, arxiv, url, tags, notes" in error.message


def test_header_matches():
    assert header_matches("Paper Title;Authors")
    assert header_matches("ABSTRACT")
    assert not header_matches("name,value")


def test_tsv_is_detected_by_content():
    data = b"title\tabstract\nT\tA\n"
    assert read_bytes(data, name="export.txt").format == "csv"
