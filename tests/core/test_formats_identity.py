"""Identity keys for dedup, and the name helpers they rest on."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from desktop_app.core.formats import read_bytes, read_path
from desktop_app.core.formats.identity import (
    normalize_arxiv_id,
    normalize_doi,
    normalize_title,
)
from desktop_app.core.formats.names import (
    family_key,
    parse_display_name,
    split_bibtex_names,
    split_name_list,
)
from desktop_app.core.records import Record
from desktop_app.core.sameness import candidate_keys, record_identity, same_paper

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
LONG = " ".join(f"word{i}" for i in range(25))


@pytest.mark.parametrize(
    ("raw", "doi"),
    [
        ("10.1/X", "10.1/x"),
        ("https://doi.org/10.1000/ABC", "10.1000/abc"),
        ("http://dx.doi.org/10.1023/A:1017379030770", "10.1023/a:1017379030770"),
        ("doi:10.1/x", "10.1/x"),
        ("DOI: 10.1/x.", "10.1/x"),
        ("not a doi", None),
        ("", None),
        (None, None),
    ],
)
def test_normalize_doi(raw, doi):
    assert normalize_doi(raw) == doi


@pytest.mark.parametrize(
    ("raw", "arxiv"),
    [
        ("2101.00001", "2101.00001"),
        ("arXiv:2101.00001v2", "2101.00001"),
        ("https://arxiv.org/abs/2101.00001v3", "2101.00001"),
        ("http://arxiv.org/pdf/2101.00001v1.pdf", "2101.00001"),
        ("http://arxiv.org/abs/cond-mat/0412498v1", "cond-mat/0412498"),
        ("math.GT/0309136", "math.GT/0309136"),
        ("1234", None),
        ("", None),
    ],
)
def test_normalize_arxiv_id(raw, arxiv):
    assert normalize_arxiv_id(raw) == arxiv


def test_normalize_title():
    assert normalize_title("{B}ayesian \\emph{Nets}: Über-Fast!") == "bayesian nets uber fast"
    assert normalize_title(None) == ""


def _keys(record: Record) -> list[str]:
    return candidate_keys(record_identity(record, record.abstract, record.title or ""))


def test_abstract_digest_ignores_case_space_punctuation():
    spaced = LONG.upper().replace(" ", " ,\n  ") + "!"
    digest = f"abs:{hashlib.sha1(LONG.encode()).hexdigest()}"
    assert digest in _keys(Record(abstract=spaced)) and digest in _keys(Record(abstract=LONG))


def test_candidate_keys():
    record = Record(
        abstract=LONG,
        title="A Title!",
        authors=["von Neumann, John"],
        year=1945,
        doi="https://doi.org/10.1/ABC",
        arxiv_id="arXiv:2101.00001v2",
    )
    whole = '["a title", ["neumann"], 1945, ""]'  # shown title, families, year, venue
    assert _keys(record) == [
        "doi:10.1/abc",
        "arxiv:2101.00001",
        "tya:a title|neumann|1945",
        "t:a title",
        f"abs:{hashlib.sha1(LONG.encode()).hexdigest()}",
        f"rec:{hashlib.sha1(whole.encode()).hexdigest()}",
    ]
    assert _keys(Record(abstract="", title="A Title"))[:1] == ["t:a title"]  # no author, year


@pytest.mark.shared
def test_same_paper_from_arxiv_and_bibtex_shares_keys():
    (arxiv,) = [
        r
        for r in read_path(CORPUS / "arxiv-atom/arxiv.py__search_query_au_del_maestro.xml").records
        if r.arxiv_id == "1201.4869"
    ]
    bib = (
        "@article{DelMaestro2012, author = {Del Maestro, Adrian},"
        " title = {A {L}uttinger Liquid Core Inside Helium-4 Filled Nanopores},"
        " year = 2012, doi = {10.1142/s021797921244002x},"
        " eprint = {1201.4869}, archivePrefix = {arXiv}}"
    )
    (bibtex,) = read_bytes(bib.encode(), name="x.bib").records
    shared = set(_keys(arxiv)) & set(_keys(bibtex))
    assert shared >= {
        "doi:10.1142/s021797921244002x",
        "arxiv:1201.4869",
        "tya:a luttinger liquid core inside helium 4 filled nanopores|maestro|2012",
    }
    ident = record_identity(bibtex, bibtex.abstract, bibtex.title or "")
    assert same_paper(record_identity(arxiv, arxiv.abstract, arxiv.title or ""), ident) == "doi"


@pytest.mark.shared
def test_seed_abstracts_get_abstract_keys_only():
    seed = read_path(next((CORPUS.parent / "seeds").glob("*.txt"))).records[0]
    keys = candidate_keys(record_identity(seed, seed.abstract, "", given=False))
    assert keys and all(k.startswith("abs:") for k in keys)


def test_bibtex_names():
    names, et_al = split_bibtex_names("Doe, Jr., John and {World Health Organization} and others")
    assert (names, et_al) == (["Doe, Jr., John", "{World Health Organization}"], True)


@pytest.mark.parametrize(
    ("name", "formatted"),
    [
        ("Adrian Del Maestro", "Del Maestro, Adrian"),
        ("Ludwig van Beethoven", "van Beethoven, Ludwig"),
        ("John Smith", "Smith, John"),
        ("Hall, H. K., Jr.", "Hall, Jr., H. K."),
        ("Madonna", "Madonna"),
        ("  ", ""),
    ],
)
def test_parse_display_name(name, formatted):
    assert parse_display_name(name) == formatted


def test_split_name_list_and_family_key():
    assert split_name_list("Smith, J.; Doe, K.; et al.") == (["Smith, J.", "Doe, K."], True)
    assert split_name_list("Ada Lovelace AND Alan Turing") == (["Lovelace, Ada", "Turing, Alan"], False)
    assert family_key("Müller-Lüdenscheidt, Hans") == "mullerludenscheidt"
    assert family_key("") == ""
