"""Every real-world file in ../shared/corpus imports through read_path with the expected count.

Counts come from corpus/SOURCES.md; where ours differ on purpose the row says why.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.core.formats import read_path

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CORPUS = SHARED / "corpus"

# (file, detected format, records, errors)
EXPECTED = [
    ("bibtex/python-bibtexparser__biber-examples.bib", "bibtex", 105, 10),
    # SOURCES.md says 118: the three @set entries ("set", "stdmodel", "stdmodel:ps_sc") only
    # group other entries of the file and are not papers, so they are reported in a warning
    # and not imported. The duplicate key tmn4 is imported twice (with a warning). Biber's
    # test entries pages1-pages9 (nothing but a PAGES field) and list1 (a LOCATION list) have
    # neither title nor abstract, nor authors, venue or identifier: each is reported, not
    # imported as an "Untitled" paper.
    ("bibtex/python-bibtexparser__article_start_with_bom.bib", "bibtex", 1, 0),
    ("bibtex/python-bibtexparser__features2.bib", "bibtex", 1, 0),
    ("bibtex/python-bibtexparser__gbk_test.bib", "bibtex", 1, 0),
    ("bibtex/jabref__complex.bib", "bibtex", 20, 0),
    ("bibtex/jabref__jabref-authors.bib", "bibtex", 212, 0),
    ("bibtex/jabref__testjabref.bib", "bibtex", 156, 0),
    ("bibtex/jabref__bibWithMixedContent.bib", "bibtex", 1, 0),
    ("bibtex/jabref__encoding-utf-16BE-without-header.bib", "bibtex", 1, 0),
    ("bibtex/jabref__encoding-windows-1252-but-utf-8-declared--decoding-fails.bib", "bibtex", 1, 0),
    ("ris/rispy__example_wos.ris", "wos", 2, 0),
    ("ris/rispy__example_utf_chars.ris", "ris", 1, 0),
    ("ris/rispy__example_extraneous_data.ris", "ris", 2, 0),
    ("ris/rispy__example_multiline.ris", "ris", 3, 0),
    # No TY line: imported from its other tags, and reported in the warnings (see below).
    ("ris/jabref__RisImporterCorrupted.ris", "ris", 1, 0),
    ("ris/jabref__RisImporterTestScopus.ris", "ris", 1, 0),
    ("ris/jabref__RisImporterTest5a.ris", "ris", 1, 0),
    ("csl-json/citation-js__doi.json", "csljson", 2, 0),
    ("csl-json/zotero-better-bibtex__Pandoc_Citation.csl.json", "csljson", 4, 0),
    ("csl-json/zotero-better-bibtex__Date_export_to_Better_CSL-JSON_360_811.csl.json", "csljson", 7, 0),
    ("arxiv-atom/arxiv.py__search_query_au_del_maestro.xml", "arxiv", 10, 0),
    ("arxiv-atom/arxiv.py__q_testing_s0_m100_cfe7536492ca.body.xml", "arxiv", 100, 0),
    ("arxiv-atom/arxiv.py__id_abc_s0_m100_b79c8dcf6bc3.body.xml", "arxiv", 0, 1),
]


@pytest.mark.shared
def test_every_corpus_file_is_listed():
    # zotero-translators/ holds Zotero's own importer test cases (input + expected items); they
    # are a fidelity suite of their own, not single files with one expected record count.
    on_disk = {
        str(p.relative_to(CORPUS))
        for p in CORPUS.rglob("*")
        if p.is_file() and p.relative_to(CORPUS).parts[0] != "zotero-translators"
    }
    assert on_disk - {"SOURCES.md"} == {name for name, *_ in EXPECTED}


@pytest.mark.parametrize(("name", "fmt", "records", "errors"), EXPECTED, ids=[e[0].split("/")[-1] for e in EXPECTED])
@pytest.mark.shared
def test_corpus_file_imports(name, fmt, records, errors):
    result = read_path(CORPUS / name)
    assert result.format == fmt
    assert len(result.records) == records, [str(e) for e in result.errors]
    assert len(result.errors) == errors, [str(e) for e in result.errors]
    for record in result.records:
        assert record.title or record.abstract or record.authors or record.extra
        assert record.line is None or record.line >= 1
        assert all(isinstance(v, str) for v in record.extra.values())


def _by_key(name: str) -> dict:
    return {r.bibtex_key: r for r in read_path(CORPUS / name).records}


@pytest.mark.shared
def test_biber_examples_accents_and_macros():
    aksin = _by_key("bibtex/python-bibtexparser__biber-examples.bib")["set:aksin"]
    assert aksin.authors[:2] == ["Aksın, Özge", "Türkmen, Hayati"]
    assert "Büyükgüngör, Orhan" in aksin.authors
    assert aksin.venue == "J. Organomet. Chem."  # @string jomch, "~" read as a space
    assert aksin.year == 2006


@pytest.mark.shared
def test_biber_examples_crossref_inheritance():
    records = _by_key("bibtex/python-bibtexparser__biber-examples.bib")
    child = records["westfahl:space"]
    assert child.title == (
        "The True Frontier: Confronting and Avoiding the Realities of Space in American Science Fiction Films"
    )
    # Missing fields come from @collection{westfahl:frontier}; its title becomes the venue.
    assert child.year == 2000
    assert child.venue == "Space and Beyond"
    assert child.extra["publisher"] == "Greenwood"
    assert child.extra["pages"] == "55–65"


@pytest.mark.shared
def test_biber_examples_reports_sets_and_duplicate_key():
    result = read_path(CORPUS / "bibtex/python-bibtexparser__biber-examples.bib")
    messages = [str(w) for w in result.warnings]
    assert any("3 @set entries" in m and m.startswith("line 26:") for m in messages)
    assert any("tmn4" in m and m.startswith("line 1543:") for m in messages)
    keys = [r.bibtex_key for r in result.records]
    assert "set" not in keys and keys.count("tmn4") == 2
    conversation = next(r for r in result.records if r.bibtex_key == "us1")
    assert conversation.entry_type == "conversation"  # unknown types are kept
    labels = next(r for r in result.records if r.bibtex_key == "labelstest")
    assert labels.year == 2005  # from date = {2005-03-02}
    assert labels.line == 1636


@pytest.mark.shared
def test_biber_examples_logos_and_identifiers():
    records = _by_key("bibtex/python-bibtexparser__biber-examples.bib")
    assert records["knuth:ct:a"].title == "The TeXbook"  # \TeX had no text rule
    assert records["knuth:ct:b"].title == "TeX: The Program"
    assert records["url2"].url == "http://www.something.com/q=one%20two"  # was "one\\%20two"
    pubmed = _by_key("bibtex/jabref__testjabref.bib")
    assert sum(1 for r in pubmed.values() if r.pmid) == 4
    assert all(r.pmid.isdigit() for r in pubmed.values() if r.pmid)


@pytest.mark.shared
def test_features2_string_concatenation():
    (record,) = read_path(CORPUS / "bibtex/python-bibtexparser__features2.bib").records
    assert record.title == "Cool Stuff"
    assert record.venue == "My International Conference"
    assert record.authors == ["Doe, John"]
    assert record.extra["note"] == "Email: John.Doe@example.com"
    assert record.extra["pages"] == "1–10"  # macro defined by a macro defined by a macro
    assert record.year == 2014
    assert record.line == 19
    assert record.raw.startswith("@inproceedings{mykey,") and record.raw.endswith("}")


@pytest.mark.shared
def test_bom_and_multiline_abstract():
    (record,) = read_path(CORPUS / "bibtex/python-bibtexparser__article_start_with_bom.bib").records
    assert record.authors == ["César, Jean"]
    assert record.abstract.startswith("This is an abstract.")
    assert record.abstract.endswith("and with a french érudit word")
    assert record.keywords == ["keyword1", "keyword2"] and record.tags == []


@pytest.mark.shared
def test_gbk_is_decoded_with_a_warning():
    result = read_path(CORPUS / "bibtex/python-bibtexparser__gbk_test.bib")
    (record,) = result.records
    assert record.authors == ["凯撒"]
    assert record.venue == "测试期刊"
    assert [str(w) for w in result.warnings] == ["not UTF-8: decoded as GBK"]


@pytest.mark.shared
def test_utf16be_with_cr_line_endings():
    result = read_path(CORPUS / "bibtex/jabref__encoding-utf-16BE-without-header.bib")
    (record,) = result.records
    assert record.title == "Ü ist ein Umlaut"
    assert record.bibtex_key is None  # the citation key is empty
    assert record.line == 3
    assert result.warnings == []  # a byte-order mark is not a guess


@pytest.mark.shared
def test_cp1252_declared_utf8_still_imports():
    result = read_path(CORPUS / "bibtex/jabref__encoding-windows-1252-but-utf-8-declared--decoding-fails.bib")
    (record,) = result.records
    assert record.authors == ["Last, Test I."]
    assert "Windows-1252" in str(result.warnings[0])


@pytest.mark.shared
def test_junk_after_last_entry_is_tolerated():
    (record,) = read_path(CORPUS / "bibtex/jabref__bibWithMixedContent.bib").records
    assert record.title == "From the Resource to the Business Process Risk Level"
    assert record.keywords == ["AirSec"] and record.tags == []


@pytest.mark.shared
def test_jabref_complex_hard_names():
    records = _by_key("bibtex/jabref__complex.bib")
    assert records["10250999"].authors == [
        "von Hippel, Eric",
        "Reagle, Jr., Joseph M.",
        "Sherry, John F., Jr.",
        "van den Huevel, Jr., Johan A",
    ]
    assert records["1137631"].authors[0] == "Boström, Gustav"


@pytest.mark.shared
def test_jabref_authors_inline_math_in_titles():
    titles = [r.title for r in read_path(CORPUS / "bibtex/jabref__jabref-authors.bib").records]
    assert any("ΣΔ modulator" in t for t in titles)
    assert not any("\\" in t or "{" in t for t in titles)


@pytest.mark.shared
def test_wos_export_saved_as_ris_is_sniffed():
    result = read_path(CORPUS / "ris/rispy__example_wos.ris")
    first, second = result.records
    assert result.format == "wos"
    assert first.authors == ["Parkes-Loach, PS", "Majeed, AP", "Law, CJ", "Loach, PA"]
    assert first.title.startswith("Interactions stabilizing the structure of the core")
    assert "(LHl) of photosynthetic" in first.title  # continuation line joined
    assert first.venue == "Biochemistry"
    assert first.year == 2004
    assert first.doi == "10.1021/bi049798f"
    assert second.line == 112


@pytest.mark.shared
def test_cyrillic_ris():
    (record,) = read_path(CORPUS / "ris/rispy__example_utf_chars.ris").records
    assert record.title.startswith("Состояние рецепторного аппарата эндометрия")
    assert record.authors[0] == "Dobrokhotova, Yu E."
    assert record.entry_type == "article"  # "TY  - Journal Article"
    assert record.year == 2009
    assert record.extra["note"] == "Ä,Ö,Ü,ä,ö,ü,ß"


@pytest.mark.shared
def test_ris_years_and_vendor_junk():
    scifinder = read_path(CORPUS / "ris/jabref__RisImporterTest5a.ris").records[0]
    assert scifinder.year == 2012  # PY  - 2012///
    assert "β-cyclodextrin" in scifinder.title
    junk = read_path(CORPUS / "ris/rispy__example_extraneous_data.ris").records
    assert [r.year for r in junk] == [2014, 2006]  # Y1  - 2014//
    assert [r.line for r in junk] == [5, 33]
    assert junk[0].authors == ["Marx, Karl", "Lindgren, Astrid"]


@pytest.mark.shared
def test_ris_without_ty_is_reported():
    result = read_path(CORPUS / "ris/jabref__RisImporterCorrupted.ris")
    (record,) = result.records
    assert record.title == "Editorial: Open Source and Empirical Software Engineering"
    assert record.year == 2001
    messages = [str(w) for w in result.warnings]
    assert messages[0] == ("line 2: a record without a TY line (lines 2-11); imported what it holds")
    assert "found 0 TY and 1 ER lines" in messages[1]


@pytest.mark.shared
def test_ris_continuation_line_starting_with_er():
    records = read_path(CORPUS / "ris/rispy__example_multiline.ris").records
    assert [r.abstract for r in records] == ["first line, ER then second line and at the end the last line"] * 3


@pytest.mark.shared
def test_crossref_wrapped_csl_json():
    result = read_path(CORPUS / "csl-json/citation-js__doi.json")
    acs, medrxiv = result.records
    assert acs.authors == ["Hall, Jr., H. K."]
    assert acs.venue == "Journal of the American Chemical Society"
    assert acs.year == 1957
    assert acs.doi == "10.1021/ja01577a030"
    assert medrxiv.venue is None  # "container-title": []
    assert medrxiv.abstract.startswith("High COVID-19 mortality among nursing home")
    assert "<" not in medrxiv.abstract and "Abstract" not in medrxiv.abstract[:20]
    assert medrxiv.extra["institution"] == "medRxiv"


@pytest.mark.shared
def test_csl_json_dates_and_markup():
    dates = read_path(CORPUS / "csl-json/zotero-better-bibtex__Date_export_to_Better_CSL-JSON_360_811.csl.json").records
    assert [(r.bibtex_key, r.year) for r in dates] == [
        ("t1", 2014),
        ("t2", None),
        ("t3", 2014),
        ("t4", 2014),
        ("t5", -334),
        ("t6", -100),
        ("Staiger1985", 1985),
    ]
    pandoc = read_path(CORPUS / "csl-json/zotero-better-bibtex__Pandoc_Citation.csl.json").records
    assert pandoc[0].title == ("The physical volcanology of the 1600 eruption of Huaynaputina, southern Peru")
    assert pandoc[0].year == 2014  # first year of a range
    assert "(g1)" in pandoc[3].title


@pytest.mark.shared
def test_arxiv_legacy_feed():
    records = read_path(CORPUS / "arxiv-atom/arxiv.py__search_query_au_del_maestro.xml").records
    first = records[0]
    assert first.arxiv_id == "1201.4869"
    assert first.doi == "10.1142/S021797921244002X"
    assert first.authors == ["Del Maestro, Adrian"]
    assert first.title == "A Luttinger Liquid Core Inside Helium-4 Filled Nanopores"
    assert first.year == 2012
    assert first.extra["journal_ref"] == "Int. J. Mod. Phys. B, 26, 1244002 (2012)"
    assert first.extra["categories"] == "cond-mat.mes-hall,cond-mat.other"
    assert first.abstract.startswith("As helium-4 is cooled below 2.17 K")
    assert records[1].arxiv_id == "cond-mat/0412498"


@pytest.mark.shared
def test_arxiv_current_feed():
    records = read_path(CORPUS / "arxiv-atom/arxiv.py__q_testing_s0_m100_cfe7536492ca.body.xml").records
    assert all(r.arxiv_id and "v" not in r.arxiv_id for r in records)
    assert all("\n" not in r.title for r in records)
    assert records[1].authors[:3] == ["Ramírez, Aurora", "Berrios, Mario", "Romero, José Raúl"]
    assert records[0].extra["categories"] == "cs.SE,cs.LG"


@pytest.mark.shared
def test_arxiv_error_feed():
    result = read_path(CORPUS / "arxiv-atom/arxiv.py__id_abc_s0_m100_b79c8dcf6bc3.body.xml")
    assert result.format == "arxiv"
    assert result.records == []
    assert [str(e) for e in result.errors] == ["line 9: arXiv returned an error: incorrect id format for abc"]


SEEDS = sorted((SHARED / "seeds").glob("*.txt"))


@pytest.mark.parametrize("path", SEEDS, ids=[p.name for p in SEEDS])
def test_seed_files(path):
    result = read_path(path)
    assert result.format == "seed"
    assert len(result.records) == 19
    assert {(r.venue, r.year) for r in result.records} == {("NeurIPS", 2026)}
    assert result.errors == []


@pytest.mark.shared
def test_all_seeds_together():
    assert len(SEEDS) == 4
    assert sum(len(read_path(p).records) for p in SEEDS) == 76
