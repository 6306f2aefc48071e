"""CSL-JSON (shapes, dates, markup) and arXiv Atom (ids, errors, unsafe XML)."""

from __future__ import annotations

import json

import pytest

from desktop_app.core.formats import read_bytes
from desktop_app.core.formats.arxiv_reader import read_arxiv
from desktop_app.core.formats.csljson_reader import csl_year, markup_to_text, read_csljson


def _csl(value) -> bytes:
    return json.dumps(value).encode()


def test_single_item_and_list_and_crossref_wrapping_agree():
    item = {"title": "T", "author": [{"family": "Doe", "given": "J."}], "DOI": "10.1/x"}
    for shape in (item, [item], {"10.1/x": [item]}, {"message": item}):
        result = read_bytes(_csl(shape), name="x.json")
        assert result.format == "csljson"
        assert [(r.title, r.authors, r.doi) for r in result.records] == [("T", ["Doe, J."], "10.1/x")]


@pytest.mark.parametrize(
    ("date", "year"),
    [
        ({"date-parts": [[2020, 1, 2]]}, 2020),
        ({"date-parts": [[2019], [2020]]}, 2019),
        ({"date-parts": [["2015", 4, 30]]}, 2015),
        ({"date-parts": [[-44, 3, 15]]}, -44),
        ({"literal": "circa 1900"}, 1900),
        ({"raw": "2015"}, 2015),
        ({"date-parts": [[1985]], "season": 1}, 1985),
        ({"literal": "13th cent"}, None),
        ({"date-parts": [[]]}, None),
        ("2011-05-01", 2011),
        (None, None),
    ],
)
def test_csl_year(date, year):
    assert csl_year(date) == year


def test_markup_becomes_text_with_paragraphs():
    jats = (
        "<jats:title>Abstract</jats:title><jats:sec><jats:p>First &amp; foremost "
        "H<jats:sub>2</jats:sub>O.</jats:p><jats:p>Second\n paragraph &lt;3.</jats:p></jats:sec>"
    )
    assert markup_to_text(jats) == "First & foremost H2O.\n\nSecond paragraph <3."
    assert markup_to_text("<script>alert(1)</script>Safe <b>bold</b>") == "Safe bold"
    assert markup_to_text("p < 0.05 and x > 1") == "p < 0.05 and x > 1"


def test_item_fields():
    item = {
        "id": "doe2020",
        "type": "paper-conference",
        "title": ["A <i>Title</i>"],
        "subtitle": ["With Subtitle"],
        "container-title": ["Proc. of Things"],
        "author": [
            {"family": "Beethoven", "given": "Ludwig", "non-dropping-particle": "van"},
            {"literal": "The Consortium"},
        ],
        "issued": {"date-parts": [[2020]]},
        "abstract": "<p>One.</p>",
        "keyword": "a, b; c",
        "URL": "https://arxiv.org/abs/2001.00001v1",
    }
    (record,) = read_csljson(json.dumps([item])).records
    assert record.title == "A Title: With Subtitle"
    assert record.venue == "Proc. of Things"
    assert record.authors == ["van Beethoven, Ludwig", "The Consortium"]
    assert record.entry_type == "inproceedings"
    assert record.bibtex_key == "doe2020"
    assert record.keywords == ["a", "b", "c"] and record.tags == []
    assert record.arxiv_id == "2001.00001"
    assert record.abstract == "One."
    assert record.line == 1


def test_empty_container_title_and_bad_items():
    text = json.dumps([{"title": "A", "container-title": []}, 5, {"note": "nothing else"}], indent=2)
    result = read_csljson(text)
    assert [r.venue for r in result.records] == [None]
    assert [e.line for e in result.errors] == [6, 7]


def test_broken_json_reports_its_line():
    result = read_bytes(b'[\n {"title": "A"},\n {"title": }\n]', name="x.json")
    assert result.format == "csljson"
    assert result.records == [] and result.errors[0].line == 3


FEED = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <entry>
    <id>http://arxiv.org/abs/2101.00001v3</id>
    <published>2021-01-01T00:00:00Z</published>
    <title>A Title
      Hard   Wrapped</title>
    <summary>  Line one
line two.  </summary>
    <author><name>Ada Lovelace</name></author>
    <author><name>Alan Turing</name></author>
    <arxiv:doi>10.1000/abc</arxiv:doi>
    <arxiv:primary_category term="stat.ML"/>
    <category term="cs.LG"/><category term="stat.ML"/>
    <link href="http://arxiv.org/abs/2101.00001v3" rel="alternate" type="text/html"/>
  </entry>
</feed>
"""


def test_arxiv_entry():
    (record,) = read_arxiv(FEED).records
    assert record.title == "A Title Hard Wrapped"
    assert record.abstract == "Line one\nline two."
    assert record.authors == ["Lovelace, Ada", "Turing, Alan"]
    assert record.arxiv_id == "2101.00001"
    assert record.doi == "10.1000/abc"
    assert record.year == 2021
    assert record.extra["categories"] == "stat.ML,cs.LG"
    assert record.url == "http://arxiv.org/abs/2101.00001v3"
    assert record.line == 3 and record.raw.startswith("<entry>")


def test_unsafe_and_broken_xml_are_refused():
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
        '<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>&b;</title></entry></feed>'
    )
    result = read_bytes(bomb.encode(), name="x.xml")
    assert result.format == "arxiv" and result.records == []
    assert "unsafe XML" in result.errors[0].message
    broken = read_arxiv(FEED.replace("</feed>", ""))
    assert broken.records == [] and "not well-formed" in broken.errors[0].message


def test_other_xml_is_not_bibliographic():
    result = read_bytes(b"<?xml version='1.0'?><html><body>hi</body></html>", name="x.xml")
    assert result.format == "unknown" and len(result.errors) == 1
