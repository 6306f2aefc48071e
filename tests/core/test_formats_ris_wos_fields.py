"""RIS and Web of Science readers on what real exports hold: tag lines with one space, authors
under two tags, editors, dates, keywords, ISBN/ISSN, PubMed ids, unindented continuations."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from desktop_app.core.formats import read_path
from desktop_app.core.formats.identity import isbn_from
from desktop_app.core.formats.ris_reader import read_ris, year_from
from desktop_app.core.formats.wos_reader import read_wos


def ris(body: str) -> str:
    return textwrap.dedent(body).strip("\n") + "\n"


def one(text: str):
    result = read_ris(ris(text))
    assert result.errors == [], result.errors
    (record,) = result.records
    return record


# ---------------------------------------------------------------- RIS: tag lines


def test_tag_lines_with_one_space_before_the_dash():
    result = read_ris(
        ris("""
        TY - JOUR
        AU - CASTOE, TODD A.
        AU - POOLE, ALEXANDER W.
        TI - Rapid identification of thousands of copperhead snake
        microsatellite loci
        PY - 2009
        ER -

        TY - BOOK
        TI - Second
        ER -
        """)
    )
    assert result.errors == [] and result.warnings == []
    first, second = result.records
    assert first.title == ("Rapid identification of thousands of copperhead snake microsatellite loci")
    assert first.authors == ["CASTOE, TODD A.", "POOLE, ALEXANDER W."]
    assert (first.year, first.entry_type) == (2009, "article")
    assert (second.title, second.entry_type, second.line) == ("Second", "book", 9)


def test_one_space_makes_a_tag_only_of_known_tags():
    record = one("""
        TY - JOUR
        TI - Border studies
        AB - Trade across the
        US - Mexico border grew, as did
        UK - EU trade.
        H1  - UB Mannheim
        ER -
        """)
    assert record.abstract == (  # neither "US" nor "UK" is an RIS tag
        "Trade across the US - Mexico border grew, as did UK - EU trade."
    )
    assert "UB Mannheim" not in record.abstract  # two spaces: a tag, even one rispy does not map


# ---------------------------------------------------------------- RIS: people


def test_a1_and_au_keep_the_order_of_the_file():
    record = one("""
        TY  - JOUR
        TI  - Mixed author tags
        A1  - Georgiev, Danko
        AU  - Bello, Leon
        A1  - Carmi, Avishy
        AU  - Cohen, Eliahu
        ER  -
        """)
    assert record.authors == ["Georgiev, Danko", "Bello, Leon", "Carmi, Avishy", "Cohen, Eliahu"]


def test_editors_by_tag_and_type():
    chapter = one("""
        TY  - CHAP
        TI  - A chapter
        AU  - Author, Ann
        A2  - Editor, Ed
        ED  - Other, Olga
        A3  - Series, Sam
        A4  - Translator, Tom
        T2  - The book
        ER  -
        """)
    assert chapter.authors == ["Author, Ann"]
    assert chapter.editors == ["Other, Olga", "Editor, Ed"]  # ED always names editors
    assert chapter.extra["series_editors"] == "Series, Sam"
    assert chapter.venue == "The book"
    book = one("""
        TY  - BOOK
        TI  - A book
        AU  - Author, Ann
        A2  - Series, Sam
        A3  - Editor, Ed
        ER  -
        """)
    assert book.editors == ["Editor, Ed"]  # a book's A3 is its editor, A2 its series editor
    assert book.extra["series_editors"] == "Series, Sam"
    patent = one("""
        TY  - PAT
        TI  - A patent
        AU  - Inventor, Ivan
        A2  - Epitope, I.
        ER  -
        """)
    assert (patent.editors, "series_editors" in patent.extra) == ([], False)  # issuing body


@pytest.mark.parametrize(
    "body",
    [
        "TY  - EDBOOK\nTI  - Edited volume\nAU  - Editor, Ed\nAU  - Second, Sue\nER  -\n",
        "TY  - BOOK\nTI  - Edited volume\nED  - Editor, Ed\nED  - Second, Sue\nER  -\n",
        "TY  - BOOK\nTI  - Edited volume\nA3  - Editor, Ed\nA3  - Second, Sue\nER  -\n",
    ],
    ids=["EDBOOK-AU", "ED", "BOOK-A3"],
)
def test_a_record_with_editors_only_lists_them_as_its_authors(body):
    record = one(body)
    assert record.authors == ["Editor, Ed", "Second, Sue"]
    assert record.extra["author_role"] == "editor"
    assert record.editors == []


def test_a_blank_line_adds_no_empty_author():
    record = one("TY  - JOUR\nTI  - T\nAU  - Doe, Jane\n\nAU  - Roe, Rick\nER  -\n")
    assert record.authors == ["Doe, Jane", "Roe, Rick"]


# ---------------------------------------------------------------- RIS: dates


@pytest.mark.parametrize(
    ("text", "year"),
    [
        ("2004///", 2004),
        ("2004/05/03/", 2004),
        ("2004-05-03", 2004),
        ("05/03/2004", 2004),
        ("Spring 1999", 1999),
        ("0000", None),
        ("in press", None),
        ("", None),
    ],
)
def test_year_from(text, year):
    assert year_from(text) == year


@pytest.mark.parametrize(
    ("dates", "year"),
    [
        ("PY  - 2009\nY1  - 2008/01/01/\nDA  - 2014/12/17", 2009),  # PY first
        ("DA  - 2014/12/17\nY1  - 2008/01/01/", 2008),  # Y1 (the old PY) over DA, wherever it is
        ("DA  - 2014-12-17", 2014),  # DA only when nothing else gives a year
        ("PY  - in press\nY1  - 2008///\nDA  - 2014", 2008),  # a PY without a year is passed over
        ("PY  - 0000\nDA  - 2014/06/01", 2014),
    ],
    ids=["PY", "Y1-over-DA", "DA-only", "PY-without-year", "PY-0000"],
)
def test_publication_year_wins_over_other_dates(dates, year):
    assert one(f"TY  - JOUR\nTI  - T\n{dates}\nER  -\n").year == year


# ---------------------------------------------------------------- RIS: keywords, ISBN, PMID


def test_keywords_are_keywords_not_tags():
    record = one("""
        TY  - JOUR
        TI  - T
        KW  - Keyword1, Keyword2, Keyword3
        Keyword4; Keyword5
        KW  - gamma
        KW  - gamma
        ER  -
        """)
    assert record.keywords == ["Keyword1, Keyword2, Keyword3", "Keyword4", "Keyword5", "gamma"]
    assert record.tags == []


@pytest.mark.parametrize(
    ("value", "isbn"),
    [
        ("9783642002304", "9783642002304"),
        ("978-0-8243-2732-3", "978-0-8243-2732-3"),
        ("ISBN: 0-306-40615-2", "0-306-40615-2"),
        ("080442957X (pbk.)", "080442957X"),
        ("9780824327323; 9780824327330", "9780824327323"),
        ("0743-4618", None),  # an ISSN
        ("1234567890", None),  # ten digits, but not an ISBN's check digit
        ("ISSN/ISBN", None),
    ],
)
def test_isbn_from(value, isbn):
    assert isbn_from(value) == isbn


def test_sn_is_an_isbn_or_an_issn():
    book = one("TY  - BOOK\nTI  - B\nSN  - 9783642002304\nER  -\n")
    assert (book.isbn, "issn" in book.extra) == ("9783642002304", False)
    article = one("TY  - JOUR\nTI  - A\nSN  - 0743-4618\nER  -\n")
    assert (article.isbn, article.extra["issn"]) == (None, "0743-4618")


@pytest.mark.parametrize(
    ("lines", "pmid"),
    [
        ("AN  - 15020685\nDB  - MEDLINE", "15020685"),
        ("AN  - 15020685\nDP  - NLM", "15020685"),
        ("M2  - PMID: 15020685", "15020685"),
        ("N1  - PMID: 15020685 [Indexed for MEDLINE]", "15020685"),
        ("U1  - 15020685[pmid]\nAN  - PMC3654245\nDB  - PMC", "15020685"),
        ("UR  - https://pubmed.ncbi.nlm.nih.gov/15020685/", "15020685"),
        ("UR  - http://www.ncbi.nlm.nih.gov/pubmed/15020685", "15020685"),
        ("AN  - 15020685", None),  # an accession number of an unknown database
        ("AN  - 15020685\nDB  - Embase", None),
        ("N1  - Comment on: J Biol Chem. 2001;276:1. PMID: 11111111", None),  # another paper's
        ("C2  - PMC1234567", None),  # a PubMed Central id is not a PubMed id
    ],
    ids=[
        "AN-MEDLINE",
        "AN-NLM",
        "M2-label",
        "N1-label",
        "U1-pmc",
        "pubmed-url",
        "ncbi-url",
        "AN-alone",
        "AN-Embase",
        "comment-on",
        "PMCID",
    ],
)
def test_pubmed_id_only_when_certain(lines, pmid):
    assert one(f"TY  - JOUR\nTI  - T\n{lines}\nER  -\n").pmid == pmid


# ---------------------------------------------------------------- RIS: venue


def test_venue_by_type():
    journal = one(
        "TY  - JOUR\nTI  - T\nJO  - Augment Altern Commun\nT2  - Augmentative and Alternative Communication\nER  -\n"
    )
    assert journal.venue == "Augmentative and Alternative Communication"  # JO: abbreviation
    book = one("TY  - BOOK\nTI  - T\nT2  - Bibliothek des Eigentums\nPB  - Springer\nER  -\n")
    assert (book.venue, book.extra["series"]) == ("Springer", "Bibliothek des Eigentums")
    paper = one("TY  - CONF\nTI  - T\nT2  - Conference Name\nC3  - Proceedings Title\nER  -\n")
    assert paper.venue == "Proceedings Title"


# ---------------------------------------------------------------- Web of Science


WOS_UNINDENTED = textwrap.dedent(
    """\
    FN Thomson Reuters Web of Knowledge
    VR 1.0
    PT J
    UT BCI:BCI201300112663
    TI Importance of methane-derived carbon as a basal resource for two benthic
    consumers in arctic lakes
    AU Medvedeff, Cassandra A. (medvedeff22@ufl.edu)
    Hershey, Anne E.
    SO Hydrobiologia
    PY 2013
    AB Microbial processing of detritus is known to be important to benthic
    invertebrate nutrition in arctic Alaskan lakes.
    US and Canadian lakes were compared.
    DE methane; stable isotopes
    ID ARCTIC LAKES; BENTHIC
    INVERTEBRATES; CARBON
    ER

    EF
    """
)


def test_wos_lines_without_indentation_continue_the_field():
    (record,) = read_wos(WOS_UNINDENTED).records
    assert record.title == (
        "Importance of methane-derived carbon as a basal resource for two benthic consumers in arctic lakes"
    )
    assert record.authors == ["Medvedeff, Cassandra A.", "Hershey, Anne E."]  # no e-mail
    assert record.abstract.endswith("arctic Alaskan lakes. US and Canadian lakes were compared.")
    assert record.keywords == [
        "methane",
        "stable isotopes",
        "ARCTIC LAKES",
        "BENTHIC INVERTEBRATES",
        "CARBON",
    ]
    assert record.tags == []


WOS_BOOK_CHAPTER = textwrap.dedent(
    """\
    FN Thomson Reuters Web of Knowledge
    VR 1.0
    PT S
    AU McCormick, MC
    AF McCormick, Marie C.
    BE Fielding, JE
       Brownson, RC
    TI Prematurity: An Overview and Public Health Implications
    SO ANNUAL REVIEW OF PUBLIC HEALTH, VOL 32
    BN 978-0-8243-2732-3
    PM 21219161
    PY 2011
    ER

    PT B
    AU Smith, W. G.
    TI Ecological anthropology of households in East Madura, Indonesia.
    SO Ecological anthropology of households in East Madura, Indonesia
    PY 2011
    ER

    PT B
    AU Chen, L
    TI A conference control protocol
    SO 7TH INTERNATIONAL CONFERENCE ON ADVANCED COMMUNICATION TECHNOLOGY
    DT Proceedings Paper
    PU IEEE
    PY 2005
    ER
    """
)


def test_wos_editors_isbn_pubmed_id_and_books():
    chapter, book, paper = read_wos(WOS_BOOK_CHAPTER).records
    assert chapter.authors == ["McCormick, Marie C."]
    assert chapter.editors == ["Fielding, JE", "Brownson, RC"]
    assert (chapter.isbn, chapter.pmid) == ("978-0-8243-2732-3", "21219161")
    assert book.venue is None  # a whole book's source is the book itself
    assert (paper.entry_type, paper.venue) == (
        "inproceedings",
        "7th International Conference on Advanced Communication Technology",
    )


def test_wos_record_with_editors_only_lists_them_as_its_authors():
    (record,) = read_wos("PT B\nBE Fielding, JE\n   Brownson, RC\nTI Annual review\nER\n").records
    assert record.authors == ["Fielding, JE", "Brownson, RC"]
    assert (record.editors, record.extra["author_role"]) == ([], "editor")


CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"


@pytest.mark.shared
def test_wos_export_keywords_and_pubmed_ids():
    first, second = read_path(CORPUS / "ris/rispy__example_wos.ris").records
    assert first.keywords[:2] == ["CHEMICALLY SYNTHESIZED POLYPEPTIDES", "IN-VITRO RECONSTITUTION"]
    assert "keywords_plus" not in first.extra
    assert (first.pmid, second.pmid) == ("15170338", "15170339")


@pytest.mark.shared
def test_ris_secondary_author_of_an_article_is_its_editor():
    first, _ = read_path(CORPUS / "ris/rispy__example_extraneous_data.ris").records
    assert first.authors == ["Marx, Karl", "Lindgren, Astrid"]  # A1
    assert first.editors == ["Glattauer, Daniel"]  # A2 of a JOUR
    assert first.keywords == ["Pippi", "Nordwind", "Piraten"]
