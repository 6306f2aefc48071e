"""Citations in CSL styles (core/citations.py), bibliography exports and related papers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from desktop_app import cli
from desktop_app.core import citations
from desktop_app.core.citations import (
    CitationStyleError,
    available_styles,
    cite_papers,
    format_citation,
)
from tests.helpers.library import find_paper
from tests.helpers.shared import CORPUS

ATTENTION = r"""
@inproceedings{vaswani2017,
  title = {Attention is All you Need},
  author = {Vaswani, Ashish and Shazeer, Noam and Parmar, Niki and Uszkoreit, Jakob},
  booktitle = {Advances in Neural Information Processing Systems},
  year = {2017},
  doi = {10.5555/3295222.3295349},
}
@article{hostile2020,
  title = {Breaking <script>alert(1)</script> \& the $\alpha$-divergence in Caf\'e},
  author = {O'Brien, Dana},
  journal = {Journal of <b>Bold</b> Claims},
  year = {2020},
}
"""


@pytest.fixture
def cited(empty_library, tmp_path: Path):
    bib = tmp_path / "attention.bib"
    bib.write_text(ATTENTION, encoding="utf-8")
    assert empty_library.imports.from_files([bib]).added == 2
    return empty_library


def _id(lib, words: str) -> int:
    return next(pid for pid in lib.query("").ids if words in lib.papers.get(pid).title)


def test_bundled_styles_are_listed_with_their_titles() -> None:
    styles = dict(available_styles())
    assert list(styles)[:5] == list(citations.BUNDLED)
    assert styles["apa"].startswith("APA")
    assert styles["ieee"].startswith("IEEE")
    for sid in citations.BUNDLED:  # each file is there, with the licence beside them
        assert (citations.bundled_dir() / f"{sid}.csl").is_file()
    assert "CC BY-SA 3.0" in (citations.bundled_dir() / "LICENSE").read_text(encoding="utf-8")


def test_apa_has_initials_and_the_year(cited) -> None:
    plain, html = cite_papers(cited, [_id(cited, "Attention")], "apa")
    assert plain[0].startswith("Vaswani, A., Shazeer, N., Parmar, N., & Uszkoreit, J. (2017). Attention")
    assert "https://doi.org/10.5555/3295222.3295349" in plain[0]
    assert "<i>Advances in Neural Information Processing Systems</i>" in html[0]
    assert "&amp; Uszkoreit" in html[0]


def test_ieee_is_numbered_in_the_given_order(cited) -> None:
    ids = [_id(cited, "Attention"), _id(cited, "Breaking")]
    plain, _ = cite_papers(cited, ids, "ieee")
    assert plain[0].startswith("[1] A. Vaswani, N. Shazeer, N. Parmar, and J. Uszkoreit, “Attention")
    assert plain[1].startswith("[2] D. O’Brien") or plain[1].startswith("[2] D. O'Brien")
    plain, _ = cite_papers(cited, ids[::-1], "ieee")
    assert plain[0].startswith("[1] D. O")


def test_every_bundled_style_formats_authors_and_year(cited) -> None:
    pid = _id(cited, "Attention")
    for sid in citations.BUNDLED:
        plain, html = cite_papers(cited, [pid], sid)
        assert len(plain) == len(html) == 1
        assert "Vaswani" in plain[0] and "2017" in plain[0], (sid, plain[0])


def test_html_escapes_the_papers_text_and_plain_keeps_it(cited) -> None:
    pid = _id(cited, "Breaking")
    for sid in citations.BUNDLED:
        plain, html = cite_papers(cited, [pid], sid)
        assert "<script>" not in html[0] and "<b>" not in html[0], (sid, html[0])
        assert "Breaking &lt;script&gt;alert(1)&lt;/script&gt; &amp; the " in html[0], (sid, html[0])
        assert "<i>Journal of &lt;b&gt;Bold&lt;/b&gt; Claims</i>" in html[0], (sid, html[0])
        assert "Breaking <script>alert(1)</script> & the " in plain[0], (sid, plain[0])
        assert "Journal of <b>Bold</b> Claims" in plain[0], (sid, plain[0])


def test_latex_in_titles_is_made_plain(cited) -> None:
    plain, _ = cite_papers(cited, [_id(cited, "Breaking")], "apa")
    assert "α-divergence" in plain[0] and "Café" in plain[0], plain[0]
    assert "$" not in plain[0] and "\\" not in plain[0]


def test_title_less_seed_papers_format_with_their_derived_title(seed_library) -> None:
    pid = find_paper(seed_library, "Reinforcement Learning with Verifiable Rewards (RLVR) has emerged")
    title = seed_library.papers.get(pid).title
    for sid in citations.BUNDLED:
        plain, _ = cite_papers(seed_library, [pid], sid)
        # the title stands in for the missing authors, once (citeproc-py printed it twice)
        assert plain[0].lower().count(title.lower()) == 1, (sid, plain[0])


@pytest.mark.shared
def test_a_corpus_entry_with_doi(empty_library) -> None:
    report = empty_library.imports.from_files([CORPUS / "bibtex" / "jabref__testjabref.bib"])
    assert report.added > 0
    pid = next(pid for pid in empty_library.query("").ids if empty_library.papers.get(pid).doi == "10.1063/1.2431650")
    plain, _ = cite_papers(empty_library, [pid], "apa")
    assert plain[0].startswith("Salcedo, L. L. (2007). Comment on"), plain[0]
    assert "https://doi.org/10.1063/1.2431650" in plain[0]
    assert "``" not in plain[0]  # the LaTeX quotes are typographic quotes now


def test_a_users_style_is_listed_and_used(cited, tmp_path: Path) -> None:
    from desktop_app.paths import user_styles_dir

    folder = user_styles_dir()  # the tests' XDG_DATA_HOME
    folder.mkdir(parents=True)
    text = (citations.bundled_dir() / "ieee.csl").read_text(encoding="utf-8")
    (folder / "my-lab.csl").write_text(
        text.replace("<title>IEEE Reference Guide", "<title>My Lab (IEEE-like)", 1), encoding="utf-8"
    )
    styles = dict(available_styles())
    assert styles["my-lab"].startswith("My Lab (IEEE-like)")
    plain, _ = cite_papers(cited, [_id(cited, "Attention")], "my-lab")
    assert plain[0].startswith("[1] A. Vaswani")
    # a user file named like a bundled style replaces it
    shutil.copy(folder / "my-lab.csl", folder / "apa.csl")
    assert dict(available_styles())["apa"].startswith("My Lab")
    assert cite_papers(cited, [_id(cited, "Attention")], "apa")[0][0].startswith("[1] A. Vaswani")
    # the preference may also name a .csl file anywhere
    elsewhere = tmp_path / "elsewhere.csl"
    shutil.copy(citations.bundled_dir() / "nature.csl", elsewhere)
    assert cite_papers(cited, [_id(cited, "Attention")], str(elsewhere))[0][0].startswith("1. Vaswani, A.")


@pytest.mark.parametrize(
    "content, why",
    [
        ("<style xmlns='http://purl.org/net/xbiblio/csl'><info>", "cannot be read"),
        ("<html><body>not a style</body></html>", "is not a CSL style with a bibliography"),
        ("", "cannot be read"),
    ],
)
def test_a_broken_style_is_a_clear_error_naming_the_file(cited, tmp_path: Path, content: str, why: str) -> None:
    (tmp_path / "broken.csl").write_text(content, encoding="utf-8")
    assert ("broken", "broken") in available_styles(tmp_path)  # listed by its file name
    with pytest.raises(CitationStyleError, match=f"citation style broken.csl {why}"):
        format_citation(cited.exports.papers([_id(cited, "Attention")]), "broken", user_dir=tmp_path)
    with pytest.raises(CitationStyleError, match="no citation style 'nope'; available: apa, "):
        format_citation(cited.exports.papers([_id(cited, "Attention")]), "nope", user_dir=tmp_path)


def test_cli_bibliography_exports_and_a_broken_style(
    cited, library_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cited.close()
    out = tmp_path / "refs.html"
    assert (
        cli.main(
            [
                "--library",
                str(library_dir),
                "export",
                "--format",
                "bibliography-html",
                "--style",
                "ieee",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<script>" not in page
    assert '<p class="csl-entry">[1] A. Vaswani' in page or '<p class="csl-entry">[2] A. Vaswani' in page
    capsys.readouterr()
    assert (
        cli.main(
            ["--library", str(library_dir), "export", "--format", "bibliography-txt", "--query", "attention", "-o", "-"]
        )
        == 0
    )
    assert capsys.readouterr().out.startswith("Vaswani, A., Shazeer, N., Parmar, N., & Uszkoreit, J. (2017).")
    from desktop_app.paths import user_styles_dir

    user_styles_dir().mkdir(parents=True)
    (user_styles_dir() / "broken.csl").write_text("<style", encoding="utf-8")
    assert (
        cli.main(
            ["--library", str(library_dir), "export", "--format", "bibliography-txt", "--style", "broken", "-o", "-"]
        )
        == 1
    )
    err = capsys.readouterr().err
    assert err.startswith("marginalia: citation style broken.csl cannot be read") and "Traceback" not in err


def test_the_two_rlvr_papers_are_each_others_closest(seed_library) -> None:
    lib = seed_library
    a = find_paper(lib, "Reinforcement Learning with Verifiable Rewards (RLVR) has emerged")
    b = find_paper(lib, "RLVR reliably improves reasoning")
    top_a = [pid for pid, _ in lib.insights.related(a, 3)]
    top_b = [pid for pid, _ in lib.insights.related(b, 3)]
    assert b in top_a and a in top_b, (top_a, top_b)
    assert a not in top_a and len(lib.insights.related(a, 10)) == 10
    scores = [s for _, s in lib.insights.related(a, 10)]
    assert scores == sorted(scores, reverse=True)


def test_related_query_ranks_by_similarity(seed_library) -> None:
    lib = seed_library
    a = find_paper(lib, "Reinforcement Learning with Verifiable Rewards (RLVR) has emerged")
    res = lib.query(f"related:{a}", sort="relevance")
    assert res.ids[:3] == [pid for pid, _ in lib.insights.related(a, 3)]
    assert a not in res.ids and res.total == 20
    unread_only = lib.query(f"related:{a} status:unread")
    assert set(unread_only.ids) == set(res.ids)
    from desktop_app.core.search.errors import QuerySyntaxError

    with pytest.raises(QuerySyntaxError, match="related: needs a paper id"):
        lib.query("related:abc")
    with pytest.raises(QuerySyntaxError, match="no paper with id 99999"):
        lib.query("related:99999")


def test_cli_related(seed_library, library_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = find_paper(seed_library, "Reinforcement Learning with Verifiable Rewards (RLVR) has emerged")
    b = find_paper(seed_library, "RLVR reliably improves reasoning")
    seed_library.close()
    assert cli.main(["--library", str(library_dir), "related", str(a), "--json", "--limit", "3"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["paper"] == a and b in [p["id"] for p in doc["papers"]] and len(doc["papers"]) == 3
    assert cli.main(["--library", str(library_dir), "related", str(a)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 10 and any(line.split()[0] == str(b) for line in lines[:3])
