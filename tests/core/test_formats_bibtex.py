"""BibTeX reader: broken blocks with line numbers, macros, crossref, names, field mapping."""

from __future__ import annotations

import textwrap

import pytest

from desktop_app.core.formats import read_bytes
from desktop_app.core.formats.bibtex_reader import (
    expand_value,
    latex_to_text,
    read_bibtex,
    strip_outer_braces,
)
from desktop_app.core.formats.bibtex_repair import split_run_on_value

BROKEN = textwrap.dedent(
    """\
    @article{good1,
      title = {Good one},
      year = 2020
    }

    @article{bad1,
      title = {Unclosed title,
      year = 2021
    }

    @article{good2,
      title = "Fine",
      author = {A and B},
    }

    @article{bad2
      title = {no comma after the key}
    }

    @article{twice, title={first}, title={second}}
    @article{noequals, title {x}}
    junk here
    @misc{last, title={z}}
    """
)


def test_broken_blocks_are_reported_with_their_lines_and_the_rest_imports():
    result = read_bytes(BROKEN.encode(), name="broken.bib")
    assert result.format == "bibtex"
    assert [(r.bibtex_key, r.line) for r in result.records] == [
        ("good1", 1),
        ("good2", 11),
        ("bad2", 16),
        ("twice", 20),
        ("last", 23),
    ]
    assert [e.line for e in result.errors] == [6, 21]
    assert "bad1" in result.errors[0].message and "not imported" in result.errors[0].message
    assert "noequals" in result.errors[1].message
    # a key without its comma has one reading: imported, with a warning on the key's line
    assert [(w.line, w.message) for w in result.warnings] == [
        (16, "bad2: no comma after the citation key; the entry was imported"),
        (20, "twice: field title appears twice; the first value is used"),
    ]
    assert result.records[2].title == "no comma after the key"
    assert result.records[3].title == "first"


def test_unclosed_entry_at_end_of_file():
    text = "@article{a, title={A}}\n\n@article{b,\n  title = {cut off in the mid"
    result = read_bibtex(text)
    assert [r.bibtex_key for r in result.records] == ["a"]
    assert [e.line for e in result.errors] == [3]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("{Plain}", "Plain"),
        ('"Quoted {with} braces"', "Quoted {with} braces"),
        ("2014", "2014"),
        ('cool # " " # stuff', "Cool Stuff"),
        ("{C# is} # { fine}", "C# is fine"),
        ("mar", "March"),
        ("undefined", "undefined"),
        ('"unterminated', "unterminated"),
    ],
)
def test_expand_value(raw, expected):
    assert expand_value(raw, {"cool": "Cool", "stuff": "Stuff", "mar": "March"}) == expected


def test_macros_are_case_insensitive_and_chain_and_later_definitions_win():
    text = textwrap.dedent(
        """\
        @String{First = "Ada"}
        @string{FULL = first # " Lovelace"}
        @string{venue = "Old"}
        @string{VENUE = "New"}
        @misc{k, author = full, journal = Venue # { Journal}, title = {T}, month = dec}
        """
    )
    result = read_bibtex(text)
    (record,) = result.records
    assert record.authors == ["Lovelace, Ada"]
    assert record.venue == "New Journal"
    assert record.extra["month"] == "December"
    assert any("defined again" in w.message and w.line == 4 for w in result.warnings)


def test_undefined_macro_is_kept_and_reported():
    result = read_bibtex("@article{k, title={T}, journal = jacm}")
    assert result.records[0].venue == "jacm"
    assert "jacm" in result.warnings[0].message


def test_crossref_inherits_missing_fields_recursively_and_keeps_own():
    text = textwrap.dedent(
        """\
        @inproceedings{child, crossref = {Proc}, title = {Child paper}, author = {Doe, J.}}
        @proceedings{proc, crossref = {series}, title = {Proceedings of Things},
                     year = 2019, publisher = {ACM}}
        @book{series, title = {Series}, address = {New York}, year = 1900}
        """
    )
    records = {r.bibtex_key: r for r in read_bibtex(text).records}
    child = records["child"]
    assert child.title == "Child paper"
    assert child.venue == "Proceedings of Things"  # parent's title became booktitle
    assert child.year == 2019  # the nearer ancestor wins
    assert child.extra["address"] == "New York"  # from the grandparent


def test_missing_crossref_target_and_cycles_are_warnings():
    text = (
        "@misc{a, crossref={b}, title={A}}\n@misc{b, crossref={a}, title={B}}\n"
        "@misc{c, crossref={nowhere}, title={C}}\n"
    )
    result = read_bibtex(text)
    assert len(result.records) == 3
    messages = " | ".join(w.message for w in result.warnings)
    assert "cycle" in messages and "nowhere" in messages


def test_xdata_fields_are_merged_and_xdata_entries_not_imported():
    text = textwrap.dedent(
        """\
        @xdata{pubdata, publisher = {Springer}, year = 2011}
        @book{b, xdata = {pubdata}, title = {A Book}}
        """
    )
    result = read_bibtex(text)
    (record,) = result.records
    assert (record.extra["publisher"], record.year) == ("Springer", 2011)
    assert "@xdata" in result.warnings[0].message


def test_field_mapping():
    text = textwrap.dedent(
        r"""
        @Article{Key2021,
          author    = {M{\"u}ller, J{\"o}rg and van der Berg, Jr., Piet and {IEEE Working Group} and others},
          title     = {{Deep} Learning for {$\alpha$}-Stable Processes},
          journaltitle = {J.~Mach. Learn. Res.},
          date      = {2021-03},
          doi       = {https://doi.org/10.5555/ABC.123},
          eprint    = {2101.00001v3},
          eprinttype = {arxiv},
          url       = {https://example.org/paper},
          keywords  = {deep learning; stable laws, heavy tails},
          note      = {Accepted},
          abstract  = {{We study $\alpha$-stable laws.
                         Second line with 10\% more.}},
        }
        """
    )
    (record,) = read_bibtex(text).records
    assert record.authors == ["Müller, Jörg", "van der Berg, Jr., Piet", "IEEE Working Group"]
    assert record.extra["et_al"] == "1"
    assert record.title == "Deep Learning for α-Stable Processes"
    assert record.venue == "J. Mach. Learn. Res."
    assert record.year == 2021
    assert record.doi == "10.5555/ABC.123"
    assert record.arxiv_id == "2101.00001"
    assert record.url == "https://example.org/paper"
    assert record.keywords == ["deep learning", "stable laws", "heavy tails"]
    assert record.tags == []  # the file's keywords are not the user's tags
    assert record.extra["note"] == "Accepted"
    # The abstract stays LaTeX; only the outer braces and the indentation go.
    assert record.abstract == "We study $\\alpha$-stable laws.\nSecond line with 10\\% more."
    assert record.entry_type == "article"
    assert record.bibtex_key == "Key2021"
    assert record.line == 2


def test_archiveprefix_and_editor_fallback():
    text = (
        "@misc{k, title={T}, editor={Smith, Ann}, eprint={hep-th/9901001}, "
        "archivePrefix={arXiv}, booktitle={Workshop}, publisher={Pub}}"
    )
    (record,) = read_bibtex(text).records
    assert record.arxiv_id == "hep-th/9901001"
    assert record.authors == ["Smith, Ann"] and record.extra["author_role"] == "editor"
    assert record.venue == "Workshop"  # booktitle before the publisher fallback


def test_eprint_of_other_archive_is_not_an_arxiv_id():
    (record,) = read_bibtex("@misc{k, title={T}, eprint={12345}, eprinttype={pubmed}}").records
    assert record.arxiv_id is None and record.extra["eprint"] == "12345"


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        (r"{\"O}zge", "Özge"),
        (r"G\"odel", "Gödel"),
        (r"Erd\H{o}s", "Erdős"),
        (r"{\c c}a", "ça"),
        (r"Stra{\ss}e", "Straße"),
        (r"\L{}\'od\'z", "Łódź"),
        (r"\"{\i}", "ï"),
        (r"Angew.~Chem.", "Angew. Chem."),
        (r"55--65", "55–65"),
        (r"A \& B, 10\% off", "A & B, 10% off"),
        (r"Theory & Practice", "Theory & Practice"),
        (r"90% of $x_2$", "90% of x₂"),  # inline math: the project's math reader
        (r"{\(\Sigma\)}{\(\Delta\)} modulator", "ΣΔ modulator"),
        (r"{[}x{]}", "[x]"),
    ],
)
def test_latex_to_text(latex, text):
    assert latex_to_text(latex) == text


@pytest.mark.parametrize(
    ("value", "expected"),
    [("{{x}}", "x"), ("{a} {b}", "{a} {b}"), (" {x} ", "x"), ("{x", "{x")],
)
def test_strip_outer_braces(value, expected):
    assert strip_outer_braces(value) == expected


def test_parenthesised_entries_and_comments():
    text = '@comment{ignored}\n@preamble{"x"}\n@article(k, title={Paren})\n'
    (record,) = read_bibtex(text).records
    assert record.title == "Paren"


def test_chunked_parsing_keeps_line_numbers_and_macros(monkeypatch):
    from desktop_app.core.formats import bibtex_reader

    monkeypatch.setattr(bibtex_reader, "_CHUNK_CHARS", 64)
    entries = "".join(f"@article{{k{i},\n  title = {{T{i}}},\n  journal = j\n}}\n" for i in range(50))
    text = "@string{j = {Journal}}\n" + entries
    assert len(list(bibtex_reader._chunks(text))) > 10
    result = read_bibtex(text)
    assert len(result.records) == 50
    assert [r.line for r in result.records[:3]] == [2, 6, 10]
    assert result.records[-1].line == 2 + 4 * 49
    assert {r.venue for r in result.records} == {"Journal"}


def test_time_budget_stops_the_import():
    result = read_bytes(BROKEN.encode(), name="x.bib", time_budget=0)
    assert result.records == []
    assert "time budget" in result.errors[-1].message


def test_a_parser_crash_loses_only_the_offending_block(monkeypatch):
    from desktop_app.core.formats import bibtex_reader

    original = bibtex_reader.bibtexparser.parse_string

    def fragile(text, **kwargs):
        if "BOOM" in text:
            raise RuntimeError("internal parser error")
        return original(text, **kwargs)

    monkeypatch.setattr(bibtex_reader.bibtexparser, "parse_string", fragile)
    text = "@misc{a, title={A}}\n@misc{b,\n title={BOOM}}\n@misc{c, title={C}}\n"
    result = read_bibtex(text)
    assert [r.bibtex_key for r in result.records] == ["a", "c"]
    assert [(e.line, "internal parser error" in e.message) for e in result.errors] == [(2, True)]
    assert result.records[1].line == 4


def test_many_reused_keys_make_one_summary_warning():
    result = read_bibtex("@misc{same, title={T}}\n" * 30)
    assert len(result.records) == 30
    (warning,) = result.warnings
    assert warning.line == 2 and warning.message.startswith("29 entries reuse an earlier key")


# ---------------------------------------------------------------- slips real exports make


def test_entry_without_a_key_is_imported():
    # EndNote writes the entry type and a newline, then the first field: no key, no comma
    text = (
        "@article{\nauthor = {Smith, Jane},\ntitle = {No key here},\nyear = {2001}\n}\n"
        "@article{,\n  title = {Empty key}\n}\n@misc{k2, title={After}}\n"
    )
    result = read_bibtex(text)
    assert [(r.bibtex_key, r.title, r.line) for r in result.records] == [
        (None, "No key here", 1),
        (None, "Empty key", 6),
        ("k2", "After", 9),
    ]
    assert result.records[0].authors == ["Smith, Jane"] and result.records[0].year == 2001
    assert result.records[0].raw.startswith("@article{\nauthor") and result.records[0].raw[-1] == "}"
    assert result.errors == [] and result.warnings == []


def test_text_inside_a_repaired_entry_is_not_read_as_another_entry():
    # after refusing the entry the splitter reads on; "@misc{...}" inside the note must not
    # come back as an entry of its own
    text = "@article{\n title = {A},\n note = {mail @misc{x, title={B}} here}\n}\n@misc{c, title={C}}\n"
    result = read_bibtex(text)
    assert [(r.title, r.line) for r in result.records] == [("A", 1), ("C", 5)]
    assert "note = {mail @misc{x, title={B}} here}\n}" in result.records[0].raw


def test_empty_field_between_commas_is_skipped_with_a_warning():
    text = "@misc{ok, title={Before}}\n@article{k,\n  title = {X},, year = 2000,\n  author = {Doe, J},\n}\n"
    result = read_bibtex(text)
    assert [(r.bibtex_key, r.title, r.year, r.authors) for r in result.records] == [
        ("ok", "Before", None, []),
        ("k", "X", 2000, ["Doe, J"]),
    ]
    assert result.errors == []
    assert [str(w) for w in result.warnings] == [
        "line 3: k: an empty field (two commas in a row) was skipped; the entry was imported"
    ]


@pytest.mark.parametrize(
    "fields",
    [
        "title = {X}\n  year = {2000},\n  journal = {J}",
        'title = "X"\n  year = 2000\n  journal = {J}',  # quoted, then a bare number
        "title = {X}\n  year = 2000, journal = jj",  # the next value is a macro
        "title = {X} year = {2000},\n  journal = {J}",  # on one line
    ],
)
def test_missing_comma_between_fields_is_recovered_with_the_line(fields):
    text = "@string{jj = {J}}\n@article{k,\n  " + fields + "\n}\n"
    result = read_bibtex(text)
    (record,) = result.records
    assert (record.title, record.year, record.venue) == ("X", 2000, "J")
    warnings = [str(w) for w in result.warnings]
    year_line = 3 if "} year" in fields else 4
    assert warnings[0] == (f"line {year_line}: k: no comma between the fields title and year; read as two fields")
    assert result.errors == []


def test_equals_signs_inside_values_are_not_fields():
    text = (
        '@misc{k, title = {a = b}, note = "x = y", url = {http://x.org/?a=b&c=d},\n'
        "  howpublished = http://x.org/?q=1}\n"
    )
    result = read_bibtex(text)
    (record,) = result.records
    assert record.title == "a = b" and record.extra["note"] == "x = y"
    assert record.url == "http://x.org/?a=b&c=d"
    assert not any("comma" in w.message for w in result.warnings)


def test_split_run_on_value_pieces_and_lines():
    assert split_run_on_value("{X}") == [(None, "{X}", 0)]
    assert split_run_on_value('{X}\n  year = 2000\n\n  note = "a=b"') == [
        (None, "{X}", 0),
        ("year", "2000", 1),
        ("note", '"a=b"', 3),
    ]
    assert split_run_on_value("http://x.org/?a=b") == [(None, "http://x.org/?a=b", 0)]


def test_lenient_reading_still_refuses_unbalanced_entries():
    text = "@article{\n title = {open\n}\n@misc{b, title={B}}\n"
    result = read_bibtex(text)
    assert [r.bibtex_key for r in result.records] == ["b"]
    assert [e.line for e in result.errors] == [1]


@pytest.mark.parametrize(
    ("fields", "doi", "url"),
    [
        ("doi = {{10.1016/j.x.2000.01.001}}, url = {{http://x.org/~a}}", "10.1016/j.x.2000.01.001", "http://x.org/~a"),
        ('doi = "{10.1000/ABC}", url = {\\url{http://x.org/a\\_b}}', "10.1000/ABC", "http://x.org/a_b"),
        ("doi = {10.1000/a\\_b}, url = {{https://doi.org/10.1000/a_b}}", "10.1000/a_b", "https://doi.org/10.1000/a_b"),
    ],
)
def test_identifiers_lose_their_protecting_braces(fields, doi, url):
    (record,) = read_bibtex("@article{k, title={T}, " + fields + "}").records
    assert (record.doi, record.url) == (doi, url)


def test_protected_isbn_and_eprint():
    text = "@book{k, title={T}, isbn = {{978-1-59593-609-7}}, eprint = {{2101.00001}}, archiveprefix = {arXiv}}"
    (record,) = read_bibtex(text).records
    assert record.isbn == "978-1-59593-609-7" and record.extra["isbn"] == "978-1-59593-609-7"
    assert record.arxiv_id == "2101.00001"


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        # logos and symbols pylatexenc has no rule for
        (r"Typesetting with \LaTeX{} and \TeX", "Typesetting with LaTeX and TeX"),
        (r"The \TeX book", "The TeXbook"),
        (r"AND\slash OR gates", "AND/OR gates"),
        # a macro with arguments but no text rule keeps their text
        (r"A 5~{\mbox{$\mu$}}J laser", "A 5 μJ laser"),
        (r"\textsf{Sans} and \texttt{mono}", "Sans and mono"),
        (r"x\label{eq:1} y", "x y"),  # a setup macro holds no text
        (r"{\noopsort{a}}Zeta", "Zeta"),
        # \url keeps its argument as written
        (r"see \url{http://x.org/~user/a%20b}", "see http://x.org/~user/a%20b"),
        (r"\url{http://x.org/\~{}user} \'e", "http://x.org/~user é"),
        (r"\href{http://x.org}{the site}", "the site"),
        # an accent over nothing prints the mark
        (r"http://x.org/\~{}user", "http://x.org/~user"),
        (r"tilde operator: \~", "tilde operator: ~"),
        (r"caret \^{} here", "caret ^ here"),
        (r"a\textasciicircum b", "a^b"),
        # inline math is read by core.text.mathtext, as abstracts are
        (r"Production of $\Sigma^{0}$ Hyperon", "Production of Σ⁰ Hyperon"),
        (r"Mitochondrial DNA$_{\textrm{2}}$ and {CO$_2$}", "Mitochondrial DNA₂ and CO₂"),
        # spaces before a line break and the indentation after it make one space
        ("Instrumental {\\em With\\/} \n\t\t\t and the Control", "Instrumental With and the Control"),
    ],
)
def test_latex_macros_real_titles_use(latex, text):
    assert latex_to_text(latex) == text


def test_keywords_are_the_files_keywords_not_tags():
    text = "@article{k, title={T}, keywords = {{Smith, J.}, \\LaTeX; graphs, graphs},\n  keyword = {extra}}"
    (record,) = read_bibtex(text).records
    assert record.keywords == ["Smith, J.", "LaTeX", "graphs", "extra"]
    assert record.tags == []


def test_keywords_are_capped(monkeypatch):
    from desktop_app.core.formats import bibtex_reader

    monkeypatch.setattr(bibtex_reader, "MAX_TAGS", 3)
    result = read_bibtex("@article{k, title={T}, keywords = {a, b, c, d, e}}")
    assert result.records[0].keywords == ["a", "b", "c"]
    assert [str(w) for w in result.warnings] == ["line 1: too long, cut: keywords (5; kept the first 3)"]


def test_editors_beside_authors():
    text = "@incollection{k, title={T}, author={Doe, Jane}, editor={Y. Bengio and Schuurmans, D. and others}}"
    (record,) = read_bibtex(text).records
    assert record.authors == ["Doe, Jane"]
    assert record.editors == ["Bengio, Y.", "Schuurmans, D."]
    (editor_only,) = read_bibtex("@book{k, title={T}, editor={Bengio, Y.}}").records
    assert editor_only.authors == ["Bengio, Y."] and editor_only.editors == []
    assert editor_only.extra["author_role"] == "editor"


@pytest.mark.parametrize(
    ("fields", "pmid"),
    [
        ("pmid = {23439512}", "23439512"),
        ("pmid = {PMID: 23439512}", "23439512"),
        ("eprint = {23439512}, eprinttype = {pubmed}", "23439512"),
        ("note = {{PMID:} 23439512}", "23439512"),  # Zotero's export of its "extra"
        ("pmid = {P123456}", None),
        ("note = {Cited by PMID 23439512 and others}", None),
    ],
)
def test_pubmed_id(fields, pmid):
    (record,) = read_bibtex("@article{k, title={T}, " + fields + "}").records
    assert record.pmid == pmid


def test_list_fields_given_twice_are_joined():
    text = (
        "@article{k, author={Ed von Test}, author={Second Author}, keywords={a},\n"
        "  Keywords={b, c}, editor={One, E.}, editor={Two, F.}, title={T}, title={U}}"
    )
    result = read_bibtex(text)
    (record,) = result.records
    assert record.authors == ["von Test, Ed", "Author, Second"]
    assert record.editors == ["One, E.", "Two, F."]
    assert record.keywords == ["a", "b", "c"]
    assert record.title == "T"  # other fields: the first value, with a warning
    assert [w.message for w in result.warnings] == ["k: field title appears twice; the first value is used"]


def test_entry_type_and_brace_on_separate_lines():
    text = "@misc{a, title={A}}\n    @article\n    {valid,\n      title = {Valid entry}\n    }\n@misc{c, title={C}}\n"
    result = read_bibtex(text)
    assert [(r.bibtex_key, r.line) for r in result.records] == [("a", 1), ("valid", 2), ("c", 6)]
    assert result.errors == [] and result.warnings == []


def test_url_from_howpublished():
    text = (
        "@misc{a, title={A}, howpublished = {\\url{http://x.org/~a}}}\n"
        "@misc{b, title={B}, howpublished = {\\href {https://www.gap-system.org} "
        "{\\texttt{https://www.gap-system.org}}}}\n"
    )
    a, b = read_bibtex(text).records
    assert a.url == "http://x.org/~a"
    assert b.url == "https://www.gap-system.org"
    assert b.extra["howpublished"] == "https://www.gap-system.org"
