"""PubMed / MEDLINE reader: Zotero's own nbib test cases, and the layout's corners inline.

The Zotero cases (../shared/corpus/zotero-translators/nbib, marked ``shared``) compare, per
record, the fields a paper carries here with the items Zotero's MEDLINE/nbib translator makes;
every difference we accept is listed in ``ACCEPTED`` with its reason, so that both a regression
and a fix of an accepted difference fail the test.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from desktop_app.core.formats import read_bytes, read_text
from desktop_app.core.formats.detect import detect_format
from desktop_app.core.formats.limits import MAX_TAGS, Deadline
from desktop_app.core.formats.medline_reader import (
    au_name,
    full_page_range,
    read_medline,
    tag_of,
)
from desktop_app.core.formats.ris_reader import MAX_LIST_ITEMS
from desktop_app.core.records import Record
from tests.helpers.hostile_cases import measure

ZOTERO_NBIB = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "zotero-translators" / "nbib"
CASES = [f"case{n:03d}" for n in range(1, 10)]
FIELDS = ("title", "authors", "editors", "year", "doi", "venue", "abstract", "keywords", "pmid", "entry_type")
ZOTERO_TYPES = {
    "journalArticle": "article",
    "bookSection": "incollection",
    "book": "book",
    "report": "techreport",
    "thesis": "phdthesis",
}

# (case, record index, field): why our value differs from Zotero's, on purpose
ACCEPTED = {
    ("case005", 1, "doi"): "ERIC's AID holds http://dx.doi.org/10.1186/s40468-019-0086-7; "
    "we read the DOI from a doi.org link, Zotero only from '[doi]' values",
    ("case007", 1, "doi"): "the same: AID http://dx.doi.org/10.1007/s11423-019-09653-8",
    ("case008", 1, "title"): "Zotero moves an ERIC book's title to bookTitle, which the item "
    "type has not, and so loses it; we keep TI as the title",
}


def _family_names(names: list[str]) -> list[str]:
    """The family part of "Family, Given" names as written ("van Raaij", "Wong Kee Song")."""
    return [name.split(",", 1)[0].strip() for name in names]


def _year(date: str) -> int | None:
    m = re.search(r"(?<!\d)(\d{4})(?!\d)", date or "")
    return int(m.group(1)) if m else None


def _words(text: str | None) -> str:
    return " ".join((text or "").split())


def _expected_venue(item: dict) -> str | None:
    """Zotero's container title; for a report, book or thesis (no container) the institution,
    publisher or university, which is what our writers read ``venue`` as for those types."""
    for name in ("publicationTitle", "proceedingsTitle", "bookTitle", "institution", "university", "publisher"):
        if item.get(name):
            return item[name]
    return None


def _expected(item: dict) -> dict:
    def creators(role: str) -> list[str]:
        return [c["lastName"] for c in item.get("creators", []) if c.get("creatorType") == role]

    pmid = re.search(r"PMID: (\d+)", item.get("extra", ""))
    return {
        "title": item.get("title"),
        "authors": creators("author"),
        "editors": creators("editor"),
        "year": _year(item.get("date", "")),
        "doi": item.get("DOI"),
        "venue": _expected_venue(item),
        "abstract": _words(item.get("abstractNote")),
        # as a set: Zotero sorts its tags and keeps a term twice when MH and OT both hold it
        # ("Japan" in case004); we keep file order, each term once
        "keywords": sorted({t["tag"] for t in item.get("tags", [])}),
        "pmid": pmid.group(1) if pmid else None,
        "entry_type": ZOTERO_TYPES.get(item["itemType"], item["itemType"]),
    }


def _ours(record: Record) -> dict:
    return {
        "title": record.title,
        "authors": _family_names(record.authors),
        "editors": _family_names(record.editors),
        "year": record.year,
        "doi": record.doi,
        "venue": record.venue,
        "abstract": _words(record.abstract),
        "keywords": sorted(set(record.keywords)),
        "pmid": record.pmid,
        "entry_type": record.entry_type,
    }


def compare_case(case: str) -> tuple[int, int, dict[tuple[str, int, str], tuple]]:
    """(records expected, records read, differences keyed by (case, index, field))."""
    items = json.loads((ZOTERO_NBIB / f"{case}.expected.json").read_text("utf-8"))["items"]
    result = read_bytes((ZOTERO_NBIB / f"{case}.nbib").read_bytes(), name=f"{case}.nbib")
    assert result.format == "medline" and not result.errors, [str(e) for e in result.errors]
    differences = {}
    for index, (item, record) in enumerate(zip(items, result.records, strict=False)):
        want, got = _expected(item), _ours(record)
        for name in FIELDS:
            if want[name] != got[name]:
                differences[(case, index, name)] = (want[name], got[name])
    return len(items), len(result.records), differences


def _need_zotero_cases() -> None:
    if not (ZOTERO_NBIB / "case001.nbib").is_file():
        pytest.skip(f"needs Zotero's nbib test cases in {ZOTERO_NBIB} (../shared beside the checkout)")


@pytest.mark.shared
@pytest.mark.parametrize("case", CASES)
def test_zotero_nbib_case(case):
    _need_zotero_cases()
    expected, got, differences = compare_case(case)
    assert got == expected
    accepted = {key for key in ACCEPTED if key[0] == case}
    assert set(differences) == accepted, {k: v for k, v in differences.items() if k not in accepted}


@pytest.mark.shared
def test_zotero_nbib_records_keep_keywords_not_tags_and_their_source():
    _need_zotero_cases()
    result = read_bytes((ZOTERO_NBIB / "case004.nbib").read_bytes(), name="case004.nbib")
    (record,) = result.records
    assert record.tags == []
    assert "*Public Health Practice" in record.keywords and "Abusive head trauma" in record.keywords
    assert record.keywords.count("Japan") == 1  # an MH and an OT line, kept once
    assert record.line == 1 and record.raw.startswith("PMID- 25744111")
    assert record.raw.endswith("      Mar 3.")
    assert record.extra["pii"] == "S0033-3506(15)00037-2"
    assert record.extra["pages"] == "475-482"
    assert record.extra["issn"] == "1476-5616, 0033-3506"
    assert record.url == "https://pubmed.ncbi.nlm.nih.gov/25744111/"


# ---------------------------------------------------------------- inline MEDLINE

TWO = textwrap.dedent(
    """\
    PMID- 8402898
    OWN - NLM
    DP  - 1993 Oct 8
    TI  - The GTPase dynamin binds to and is activated by a subset of SH3
          domains.
    PG  - 25-36
    LID - 10.1016/0092-8674(93)90676-H [doi]
    LID - 0092-8674(93)90676-H [pii]
    AB  - Src homology 3 (SH3) domains have been implicated
          in mediating protein-protein interactions.
    FAU - Gout, Ivan
    AU  - Gout I
    FAU - van Raaij, M J
    AU  - van Raaij MJ
    CN  - SH3 Study Group
    AU  - et al.
    PT  - Journal Article
    TA  - Cell
    JT  - Cell
    IS  - 0092-8674 (Print)
    MH  - *Dynamins/metabolism
    OT  - SH3
    PMC - PMC123
    PMID- 21249755
    DP  - 2009
    TI  - Peutz-Jeghers Syndrome
    BTI - Cancer Syndromes
    FED - Riegert-Johnson, Douglas L
    ED  - Riegert-Johnson DL
    AU  - Riegert-Johnson D
    AU  - Westra W
    PT  - Book Chapter
    PB  - NCBI
    """
)


def test_fields_of_a_journal_article():
    result = read_medline(TWO)
    assert not result.errors and not result.warnings
    first = result.records[0]
    assert first.title == "The GTPase dynamin binds to and is activated by a subset of SH3 domains."
    assert first.abstract == (
        "Src homology 3 (SH3) domains have been implicated in mediating protein-protein interactions."
    )
    assert first.authors == ["Gout, Ivan", "van Raaij, M J", "SH3 Study Group"]
    assert first.extra["et_al"] == "1"
    assert first.year == 1993 and first.venue == "Cell" and first.entry_type == "article"
    assert first.doi == "10.1016/0092-8674(93)90676-H"
    assert first.extra["pii"] == "0092-8674(93)90676-H"
    assert first.pmid == "8402898" and first.extra["pmcid"] == "PMC123"
    assert first.keywords == ["*Dynamins/metabolism", "SH3"] and first.tags == []
    assert first.extra["issn"] == "0092-8674" and first.extra["pages"] == "25-36"
    assert first.line == 1 and first.raw.splitlines()[-1] == "PMC - PMC123"


def test_a_pmid_line_starts_a_record_without_a_blank_line():
    result = read_medline(TWO)
    assert [r.pmid for r in result.records] == ["8402898", "21249755"]
    chapter = result.records[1]
    assert chapter.line == 24 and chapter.raw.startswith("PMID- 21249755")
    assert chapter.entry_type == "incollection"
    assert chapter.title == "Peutz-Jeghers Syndrome" and chapter.venue == "Cancer Syndromes"
    assert chapter.authors == ["Riegert-Johnson, D", "Westra, W"]  # no FAU: AU read instead
    assert chapter.editors == ["Riegert-Johnson, Douglas L"]
    assert chapter.extra["publisher"] == "NCBI"


def test_many_records_separated_by_blank_lines():
    records = "\n\n".join(f"PMID- {n}\nTI  - Paper {n}\nDP  - 2020" for n in range(1, 301))
    result = read_medline("\n\n" + records + "\n\n\n")
    assert [r.title for r in result.records] == [f"Paper {n}" for n in range(1, 301)]
    assert [r.line for r in result.records[:3]] == [3, 7, 11]
    assert not result.errors and not result.warnings


def test_records_without_pmid_are_separated_by_blank_lines():
    text = "OWN - ERIC\nTI  - One\nAU  - Doe, Jane\n\nOWN - ERIC\nTI  - Two\n"
    result = read_medline(text)
    assert [(r.title, r.line, r.pmid) for r in result.records] == [("One", 1, None), ("Two", 5, None)]
    assert result.records[0].authors == ["Doe, Jane"]


@pytest.mark.parametrize("indent", ["      ", "  ", "\t", "        "])
def test_any_non_tag_line_continues_the_field_before_it(indent):
    text = f"PMID- 1\nTI  - A title\n{indent}over two lines\nAB  - One\n{indent}two\n{indent}three\n"
    (record,) = read_medline(text).records
    assert record.title == "A title over two lines"
    assert record.abstract == "One two three"


def test_a_continuation_after_a_blank_line_stays_in_its_record():
    (record,) = read_medline("PMID- 1\nAB  - First part\n\n      second part\nTI  - T\n").records
    assert record.abstract == "First part second part" and record.title == "T"


@pytest.mark.parametrize(
    ("au", "name"),
    [
        ("Gout I", "Gout, I"),
        ("van Raaij MJ", "van Raaij, M J"),
        ("Wong Kee Song LM", "Wong Kee Song, L M"),
        ("Smith JA Jr", "Smith, Jr, J A"),
        ("Test, David W.", "Test, David W."),  # ERIC writes AU in full
        ("Madonna", "Madonna"),
    ],
)
def test_abbreviated_author_names(au, name):
    assert au_name(au) == name


def test_au_only_record_keeps_order_and_drops_et_al():
    text = "PMID- 1\nTI  - T\nAU  - Zeta A\nAU  - Alpha BC\nCN  - The Consortium\nAU  - et al.\n"
    (record,) = read_medline(text).records
    assert record.authors == ["Zeta, A", "Alpha, B C", "The Consortium"]
    assert record.extra["et_al"] == "1"


def test_collective_author_alone():
    (record,) = read_medline("PMID- 1\nCN  - World Health Organization\nDP  - 2001\n").records
    assert record.authors == ["World Health Organization"] and record.title is None


def test_doi_and_pii_from_aid_lines():
    text = "PMID- 1\nTI  - T\nAID - S0140-6736(20)30183-5 [pii]\nAID - 10.1016/S0140 [doi]\n"
    (record,) = read_medline(text).records
    assert record.doi == "10.1016/S0140" and record.extra["pii"] == "S0140-6736(20)30183-5"
    assert record.title == "T"  # not "T 10.1016/... [doi]", as the RIS reader made of it


def test_book_fields():
    text = (
        "PMID- 1\nBTI - A Book\nFAU - Doe, Jane\nPT  - Book\nPB  - A Press\nPL  - Paris\n"
        "ISBN- 978-1-5985-7192-9\nDP  - 2012 Jan\n"
    )
    (record,) = read_medline(text).records
    assert record.title == "A Book" and record.entry_type == "book"
    assert record.venue == "A Press" and record.extra["address"] == "Paris"
    assert record.isbn == "978-1-5985-7192-9" and record.year == 2012


@pytest.mark.parametrize(
    ("types", "kind"),
    [
        (["Journal Article", "Review"], "article"),
        (["Case Reports"], "article"),
        (["Book Chapter"], "incollection"),
        (["Books", "Collected Works - General"], "book"),
        (["Dissertations/Theses - Doctoral Dissertations"], "phdthesis"),
        (["Dissertations/Theses - Masters Theses"], "mastersthesis"),
        (["Reports - Research"], "techreport"),
        (["Journal Articles", "Reports - Research"], "article"),
        (["Letter"], "article"),
        ([], "article"),
    ],
)
def test_entry_types(types, kind):
    text = "PMID- 1\nTI  - T\n" + "".join(f"PT  - {t}\n" for t in types)
    assert read_medline(text).records[0].entry_type == kind


def test_an_eric_report_in_a_journal_is_an_article():
    text = "OWN - ERIC\nTI  - T\nOID - EJ410320\nPT  - Reports - Research\nJT  - J\n"
    (record,) = read_medline(text).records
    assert record.entry_type == "article" and record.venue == "J"
    text = text.replace("EJ410320", "ED410320")
    (record,) = read_medline(text).records
    assert record.entry_type == "techreport" and record.venue == "J"
    assert record.extra["eric_id"] == "ED410320" and record.url is None


def test_year_falls_back_to_the_electronic_date():
    (record,) = read_medline("PMID- 1\nTI  - T\nDEP - 20221007\n").records
    assert record.year == 2022


@pytest.mark.parametrize(
    ("pages", "full"),
    [
        ("6913-7", "6913-6917"),
        ("475-82", "475-482"),
        ("12-24", "12-24"),
        ("1042", "1042"),
        ("e123-e130", "e123-e130"),
        ("98-2", "98-2"),
        ("S1-7", "S1-7"),
    ],
)
def test_page_ranges_are_written_in_full(pages, full):
    assert full_page_range(pages) == full


@pytest.mark.parametrize(
    ("line", "tag"),
    [
        ("PMID- 1", ("PMID", "1")),
        ("TI  - x", ("TI", "x")),
        ("FAU - A, B", ("FAU", "A, B")),
        ("ISSN - EISSN-1", ("ISSN", "EISSN-1")),
        ("AU  -", ("AU", "")),
        ("TI - x", None),
        ("      continued", None),
        ("CT - scan", None),
        ("Some text - more", None),
        ("TY  -JOUR", None),
    ],
)
def test_tag_lines(line, tag):
    assert tag_of(line) == tag


def test_a_record_without_content_is_reported_with_its_line():
    text = "PMID- 1\nTI  - Kept\n\nOWN - NLM\nSTAT- MEDLINE\n\nPMID- 3\nTI  - Also kept\n"
    result = read_medline(text)
    assert [r.title for r in result.records] == ["Kept", "Also kept"]
    (error,) = result.errors
    assert error.line == 4 and "lines 4-5" in error.message and "not imported" in error.message


def test_text_before_the_first_record_is_skipped_with_a_warning():
    result = read_medline("Search results\nfrom PubMed\n\nPMID- 1\nTI  - T\n")
    assert [r.title for r in result.records] == ["T"] and result.records[0].line == 4
    (warning,) = result.warnings
    assert warning.line == 1 and "2 lines" in warning.message


def test_nothing_medline_is_an_error():
    result = read_medline("just words\n")
    assert not result.records and "no MEDLINE records" in result.errors[0].message


def test_the_time_budget_stops_the_reader():
    text = "PMID- 1\nTI  - T\n" + "      more\n" * 50_000
    result = read_medline(text, deadline=Deadline(0))
    assert not result.records and result.errors[0].message.startswith("stopped after")


def test_repeated_tags_and_keywords_are_capped_with_warnings():
    text = "PMID- 1\nTI  - T\n" + "".join(f"MH  - Heading {i}\n" for i in range(MAX_LIST_ITEMS + 5))
    result = read_text(text)  # caps are the reading pipeline's (limits.cap_record), for every reader
    (record,) = result.records
    assert len(record.keywords) == MAX_TAGS
    messages = [w.message for w in result.warnings]
    assert any("5 lines of a repeated tag" in m for m in messages)
    assert any(f"keywords ({MAX_LIST_ITEMS:,}; kept the first {MAX_TAGS:,})" in m for m in messages)


def test_a_record_of_a_million_continuation_lines_reads_in_linear_time(tmp_path):
    path = tmp_path / "long.nbib"
    body = "AB  - start\n" + "      continued line of the abstract\n" * 1_000_000
    path.write_text("PMID- 1\nTI  - Good\n\nPMID- 2\nTI  - The long one\n" + body + "\nPMID- 3\nTI  - Also good\n")
    report = measure(path, timeout=60)
    assert report["returncode"] == 0, report["stderr"][-2000:]
    assert report["format"] == "medline"
    assert report["titles"] == ["Good", "The long one", "Also good"]
    assert report["cpu"] < 10, report


# ---------------------------------------------------------------- detection and dispatch


def test_read_text_detects_medline():
    result = read_text(TWO)
    assert result.format == "medline" and len(result.records) == 2


def test_pubmed_text_export_with_bom_crlf_and_leading_blank_lines():
    data = ("\ufeff\r\n\r\n" + TWO.replace("\n", "\r\n")).encode("utf-8")
    result = read_bytes(data, name="pubmed-dynamin-set.txt")
    assert result.format == "medline"
    assert [r.line for r in result.records] == [3, 26]
    assert result.records[0].title.endswith("subset of SH3 domains.")
    assert "\r" not in result.records[0].raw


def test_eric_nbib_without_pmid_is_detected():
    text = "\nOWN - ERIC\nTI  - One\nAU  - Doe, Jane\nOT  - Testing\nDP  - 2020\n"
    assert detect_format(text) == "medline"
    assert detect_format(text, "export.nbib") == "medline"


def test_medline_wins_over_ris_and_the_nbib_extension_only_breaks_ties():
    assert detect_format(TWO, "x.ris") == "medline"
    assert detect_format(TWO, "x.txt") == "medline"
    ris = "TY  - JOUR\nTI  - x\nER  - \n"
    assert detect_format(ris, "x.nbib") == "ris"  # the extension is only a tie-breaker


def test_ris_with_a_single_space_before_the_dash_is_ris():
    text = "TY - JOUR\nTI - A title\nAU - Doe, Jane\nER - \n"
    assert detect_format(text) == "ris"
    assert read_text(text).format == "ris"
