"""RIS and Web of Science readers: damaged framing is reported with lines, never dropped."""

from __future__ import annotations

import textwrap

from desktop_app.core.formats import read_bytes
from desktop_app.core.formats.ris_reader import read_ris, segment_records
from desktop_app.core.formats.wos_reader import read_wos, readable_case

GOOD = textwrap.dedent(
    """\
    TY  - JOUR
    TI  - First paper
    AU  - Doe, Jane
    AU  - Roe, Richard, Jr.
    PY  - 2012///
    AB  - An abstract.
    KW  - alpha; beta
    KW  - gamma
    DO  - https://doi.org/10.1000/XYZ
    UR  - https://arxiv.org/abs/2101.00001v2
    ER  -
    """
)


def test_ris_fields():
    (record,) = read_ris(GOOD).records
    assert record.title == "First paper"
    assert record.authors == ["Doe, Jane", "Roe, Jr., Richard"]
    assert record.year == 2012
    assert record.keywords == ["alpha", "beta", "gamma"]
    assert record.tags == []  # the file's keywords are not the user's tags
    assert record.doi == "10.1000/XYZ"
    assert record.arxiv_id == "2101.00001"
    assert record.entry_type == "article"
    assert record.raw.startswith("TY  - JOUR") and record.raw.endswith("ER  -")


def test_truncated_file_is_reported_with_the_line():
    text = GOOD + "\nTY  - JOUR\nTI  - Second paper\nAB  - cut off in the mid"
    result = read_ris(text)
    assert [r.title for r in result.records] == ["First paper", "Second paper"]
    messages = [str(w) for w in result.warnings]
    assert messages[0] == (
        "line 13: a record without an ER line; is the file truncated? (lines 13-15); imported what it holds"
    )
    assert "found 2 TY and 1 ER lines" in messages[1]


def test_record_cut_short_by_the_next_ty_is_reported():
    text = "TY  - JOUR\nTI  - One\nTY  - JOUR\nTI  - Two\nER  - \n"
    result = read_ris(text)
    assert [r.title for r in result.records] == ["One", "Two"]
    assert result.warnings[0].line == 1


def test_tags_outside_records_are_reported():
    text = GOOD + "\nT1  - stray title line\nN1  - and a note\n"
    result = read_ris(text)
    assert len(result.records) == 2  # the stray block has a title, so it is kept
    assert result.warnings[0].line == 13
    assert "no TY and no ER" in result.warnings[0].message


def test_empty_record_is_an_error():
    result = read_ris("TY  - JOUR\nER  - \n")
    assert result.records == []
    assert result.errors[0].line == 1 and "empty record" in result.errors[0].message


def test_segment_records_ignores_vendor_junk():
    lines = ["Record #1", "TY  - JOUR", "TI  - x", "ER  - ", "Provider: y", "TY  - BOOK", "ER  -"]
    records = segment_records(lines, lambda line: line[:2] if line[2:5] == "  -" else None, start_tag="TY")
    assert [(r.start, r.end) for r in records] == [(2, 4), (6, 7)]


WOS = textwrap.dedent(
    """\
    FN Clarivate Analytics Web of Science
    VR 1.0
    PT J
    AU Smith, J
       Jones, K
    AF Smith, John
       Jones, Karen
    TI A long title that
       wraps
    SO JOURNAL OF THE AMERICAN CHEMICAL SOCIETY
    DE graph theory; networks
    PY 2019
    AB Abstract text.
    DI 10.1021/jacs.9b00001
    UT WOS:000000000000001
    ER

    PT J
    TI Truncated record
    """
)


def test_wos_fields_and_truncation():
    result = read_wos(WOS)
    first, second = result.records
    assert first.authors == ["Smith, John", "Jones, Karen"]  # AF (full names) over AU
    assert first.title == "A long title that wraps"
    assert first.venue == "Journal of the American Chemical Society"
    assert first.keywords == ["graph theory", "networks"]
    assert first.tags == []
    assert first.year == 2019
    assert first.doi == "10.1021/jacs.9b00001"
    assert first.extra["wos_id"] == "WOS:000000000000001"
    assert second.line == 18
    assert result.warnings[0].line == 18 and "ER" in result.warnings[0].message


def test_wos_is_detected_even_when_named_ris():
    assert read_bytes(WOS.encode(), name="export.ris").format == "wos"
    assert read_bytes(GOOD.encode(), name="export.ris").format == "ris"


def test_readable_case():
    assert readable_case("JOURNAL OF THE ACM") == "Journal of the Acm"
    assert readable_case("Already Fine") == "Already Fine"
