"""Names written family first without a comma ("YANG Y", "Smith J"), across the readers."""

from __future__ import annotations

import pytest

from desktop_app.core.formats import read_bytes
from desktop_app.core.formats.bibtex_reader import latex_to_text
from desktop_app.core.formats.names import (
    family_first,
    parse_display_name,
    split_bibtex_names,
    split_name_list,
)

FAMILY_FIRST = [
    ("YANG Y", "YANG, Y"),
    ("YANG Yi-Ming", "YANG, Yi-Ming"),
    ("YANG Y.-M.", "YANG, Y.-M."),
    ("YANG YM", "YANG, YM"),
    ("LI X", "LI, X"),
    ("WANG Xiao Ming", "WANG, Xiao Ming"),
    ("DE LA FUENTE María", "DE LA FUENTE, María"),
    ("GARCÍA-LÓPEZ J", "GARCÍA-LÓPEZ, J"),
    ("Smith J", "Smith, J"),
    ("Smith J. R.", "Smith, J. R."),
    ("Smith PJ", "Smith, PJ"),
    ("van der Berg J", "van der Berg, J"),
]
GIVEN_FAMILY = [
    ("John Smith", "Smith, John"),
    ("J. R. R. Tolkien", "Tolkien, J. R. R."),
    ("JRR Tolkien", "Tolkien, JRR"),  # initials, not a family name in capitals
    ("AB Smith", "Smith, AB"),
    ("Jean DUPONT", "DUPONT, Jean"),  # the French way: family name last, in capitals
    ("Wei WU", "WU, Wei"),
    ("Smith JA", "JA, Smith"),  # two capitals with a vowel: "Wei WU" looks the same
    ("JOHN SMITH", "SMITH, JOHN"),
    ("Mary-Jane Smith", "Smith, Mary-Jane"),
    ("Ludwig van Beethoven", "van Beethoven, Ludwig"),
    ("Madonna", "Madonna"),
]


@pytest.mark.parametrize(("name", "formatted"), FAMILY_FIRST + GIVEN_FAMILY)
def test_display_names(name, formatted):
    assert parse_display_name(name) == formatted


@pytest.mark.parametrize(("name", "formatted"), FAMILY_FIRST + GIVEN_FAMILY)
def test_bibtex_names_agree(name, formatted):
    assert split_bibtex_names(name, latex_to_text)[0] == [formatted]


def test_family_first_counts_the_family_words():
    assert family_first(["DE", "LA", "FUENTE", "María"]) == 3
    assert family_first(["van", "der", "Berg", "J"]) == 3
    assert family_first(["John", "Smith"]) == 0
    assert family_first(["Madonna"]) == 0


def test_bibtex_family_first_with_latex_braces_and_commas():
    names, _ = split_bibtex_names(r"{\"O}ZT{\"U}RK A and {YANG Y} and Yang, Yi and Milton {Abramowitz}", latex_to_text)
    # a braced name is literal; a comma already says which part is the family
    assert names == ["ÖZTÜRK, A", "YANG Y", "Yang, Yi", "Abramowitz, Milton"]


def test_comma_forms_of_wos_and_ris_are_unchanged():
    assert parse_display_name("Yang, Y") == "Yang, Y"  # Web of Science
    assert parse_display_name("Yang, Yi") == "Yang, Yi"  # RIS
    assert parse_display_name("YANG, Yi-Ming") == "YANG, Yi-Ming"
    assert split_name_list("YANG Y; LI X; Smith, J.") == (["YANG, Y", "LI, X", "Smith, J."], False)


def test_readers_use_it():
    bib = read_bytes(b"@article{k, title={T}, author={YANG Y and ZHANG Xiao-Ming}}", name="a.bib")
    assert bib.records[0].authors == ["YANG, Y", "ZHANG, Xiao-Ming"]
    ris = read_bytes(b"TY  - JOUR\nAU  - YANG Yi-Ming\nAU  - Yang, Yi\nTI  - T\nER  - \n", name="a.ris")
    assert ris.records[0].authors == ["YANG, Yi-Ming", "Yang, Yi"]
