"""Titles derived from abstracts are honest in every export: they say so
(BibTeX ``titleaddon``, a CSL-JSON and RIS note line, a marker in Markdown and HTML, a bracket in
a bibliography), never end in "…" and never get a second full stop."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from desktop_app.core.citations import render_bibliography
from desktop_app.core.formats.writer_common import DERIVED_LINE, DERIVED_NOTE
from desktop_app.core.formats.writers import render_export
from desktop_app.core.library import Library
from desktop_app.exporting import export_to_file


@pytest.fixture
def cut(seed_library: Library) -> tuple[Library, list[int]]:
    """The seed library and its papers whose derived title was cut ("…")."""
    lib = seed_library
    ids = [
        i
        for i in lib.query("").ids
        if lib.papers.get(i).title_source == "derived" and lib.papers.get(i).title.endswith("…")
    ]
    assert ids, "no seed title was cut"
    return lib, ids


def test_bibtex_and_csl_json_mark_the_title_and_drop_the_ellipsis(cut: tuple[Library, list[int]]) -> None:
    lib, ids = cut
    papers = lib.exports.papers(ids[:3])
    bib = render_export("bib", papers)
    titles = re.findall(r"^  title = \{(.*)\},$", bib, re.M)
    assert len(titles) == 3 and not any(t.endswith(("…", ".", "...")) for t in titles)
    assert bib.count(f"titleaddon = {{{DERIVED_NOTE}}}") == 3
    items = json.loads(render_export("csljson", papers))
    assert all(not i["title"].endswith(("…", ".")) and i["note"].startswith(DERIVED_LINE) for i in items)
    ris = render_export("ris", papers)
    assert ris.count(f"N1  - {DERIVED_LINE}") == 3 and "…\n" not in ris.split("AB  -")[0]


def test_markdown_html_and_bibliographies_say_so_without_a_second_full_stop(cut: tuple[Library, list[int]]) -> None:
    lib, ids = cut
    papers = lib.exports.papers(ids[:2])
    md = render_export("md", papers, title="T")
    assert md.count(f"*({DERIVED_NOTE})*") == 2
    html = render_export("html", papers, title="T")
    assert html.count(f'<span class="derived">({DERIVED_NOTE})</span>') == 2
    for style in ("apa", "ieee"):
        text = render_bibliography(papers, "bibliography-txt", style, "T")
        assert text.count(f"[{DERIVED_NOTE}]") == 2, style
        assert "…" not in text and ".." not in text.replace("...", ""), text


def test_a_given_title_is_written_as_it_is(tmp_path: Path) -> None:
    bib = tmp_path / "given.bib"
    bib.write_text(
        "@article{a, author = {Doe, J}, title = {Given... and kept.}, year = {2020},\n"
        "  abstract = {An abstract long enough to be one in this test file.}}\n",
        "utf-8",
    )
    with Library.open(tmp_path / "lib") as lib:
        lib.imports.from_files([bib])
        out = render_export("bib", lib.exports.papers(lib.query("").ids))
        assert "title = {Given... and kept.}" in out and "titleaddon" not in out


@pytest.mark.parametrize("fmt", ["bib", "ris", "csljson"])
def test_a_derived_title_is_derived_again_when_read_back(
    cut: tuple[Library, list[int]], fmt: str, tmp_path: Path
) -> None:
    lib, ids = cut
    path = tmp_path / f"out.{fmt}"
    export_to_file(lib, fmt, path, ids=ids)
    with Library.open(tmp_path / "fresh") as fresh:
        fresh.imports.from_files([path])
        back = [fresh.papers.get(i) for i in fresh.query("").ids]
        assert {p.title_source for p in back} == {"derived"}
        assert all(p.note == "" for p in back)  # the marker line is not taken for a note
