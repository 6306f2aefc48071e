"""Other tools' files, the last cases: MEDLINE tags without the space after the dash,
Web of Science / Inspec records of ``PT K`` or ``TY CONV``, RIS records that lost their TY
and ER lines, and one file's entries that share an identifier but are two works."""

from __future__ import annotations

from pathlib import Path

from desktop_app.core.formats import read_bytes
from desktop_app.core.library import Library

MEDLINE_TIGHT = """PMID-22664238
OWN - NLM
STAT- MEDLINE
DP  - 2012 Jun
TI  - Salt intake and blood pressure in adolescents.
FAU - Doe, Jane
AU  - Doe J

PMID-22664239
TI  - A second study.
DP  - 2013
AB  - COVID-19 and SARS-CoV-2: a continued abstract
      whose next line is not a tag.
"""


def test_medline_tags_without_the_space_after_the_dash() -> None:
    result = read_bytes(MEDLINE_TIGHT.encode(), name="pubmed.txt")
    assert result.format == "medline"
    assert [(r.pmid, r.title, r.year, r.line) for r in result.records] == [
        ("22664238", "Salt intake and blood pressure in adolescents.", 2012, 1),
        ("22664239", "A second study.", 2013, 9),
    ]
    assert result.records[0].authors == ["Doe, Jane"]
    assert result.records[1].abstract.startswith("COVID-19 and SARS-CoV-2")
    assert result.errors == [] and result.warnings == []


WOS_K = """FN Thomson Reuters Web of Knowledge
VR 1.0
PT K
AU Lee, DJ
   Shaw, RW
TI Optical properties of thin films
SO JOURNAL OF APPLIED PHYSICS
TY CONV
PY 2000
ER

PT Journal Paper
AU Doe, J
TI A journal paper from Inspec
PY 2001
TY JOUR
ER

EF
"""

INSPEC_TY = """TY CONV
AU Doe, J
TI A conference paper
PY 2010
ER

TY CONV
AU Roe, K
TI Another conference paper
PY 2011
ER
"""


def test_web_of_science_and_inspec_records_of_any_type() -> None:
    result = read_bytes(WOS_K.encode(), name="savedrecs.txt")
    assert result.format == "wos"
    assert [(r.title, r.authors, r.year, r.entry_type) for r in result.records] == [
        ("Optical properties of thin films", ["Lee, DJ", "Shaw, RW"], 2000, "inproceedings"),
        ("A journal paper from Inspec", ["Doe, J"], 2001, "article"),
    ]
    inspec = read_bytes(INSPEC_TY.encode(), name="inspec.txt")
    assert inspec.format == "wos"
    assert [(r.title, r.line, r.entry_type) for r in inspec.records] == [
        ("A conference paper", 1, "inproceedings"),
        ("Another conference paper", 7, "inproceedings"),
    ]


RIS_LOST_FRAMES = """TY  - JOUR
TI  - First paper
AU  - Doe, Jane
PY  - 2000

TI  - Second paper
AU  - Roe, Kim
PY  - 2001

T1  - Third paper
PY  - 2002
ER  -
"""


def test_ris_records_that_lost_their_ty_and_er_lines_are_not_merged(tmp_path: Path) -> None:
    result = read_bytes(RIS_LOST_FRAMES.encode(), name="refs.ris")
    assert [(r.title, r.authors, r.year, r.line) for r in result.records] == [
        ("First paper", ["Doe, Jane"], 2000, 1),
        ("Second paper", ["Roe, Kim"], 2001, 6),
        ("Third paper", [], 2002, 10),
    ]
    path = tmp_path / "refs.ris"
    path.write_text(RIS_LOST_FRAMES, encoding="utf-8")
    with Library.open(tmp_path / "lib", background_index=True) as lib:
        assert lib.imports.from_files([path]).files[0].added == 3


BOOK_AND_CHAPTERS = """@book{book, title = {The Handbook}, doi = {10.1000/handbook}, year = 2020}
@incollection{ch1, title = {Chapter One}, doi = {10.1000/handbook}, year = 2020}
@incollection{ch2, title = {Chapter Two}, doi = {10.1000/handbook}, year = 2020}
@article{again, title = {The Handbook}, doi = {10.1000/handbook}, year = 2020}
"""


def test_entries_of_one_file_sharing_a_doi_under_different_titles_stay_apart(tmp_path: Path) -> None:
    path = tmp_path / "library.bib"
    path.write_text(BOOK_AND_CHAPTERS, encoding="utf-8")
    with Library.open(tmp_path / "lib", background_index=True) as lib:
        fr = lib.imports.from_files([path]).files[0]
        # the book twice (same title, same DOI) is one paper; its chapters are papers of their own
        assert (fr.added, fr.duplicates) == (3, 1)
        assert [(m.line, m.reason) for m in fr.matches] == [(4, "doi")]
        # from another file the DOI still finds the paper
        other = tmp_path / "other.bib"
        other.write_text("@misc{x, title = {Handbook, the}, doi = {10.1000/HANDBOOK}}\n", encoding="utf-8")
        again = lib.imports.from_files([other]).files[0]
        assert (again.added, [m.reason for m in again.matches]) == (0, ["doi"])
