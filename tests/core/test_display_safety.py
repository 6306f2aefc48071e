"""Untrusted text cannot spoof the display: bidi overrides are removed from
titles, authors and venues (neutralised, length kept, in abstracts), stacked combining marks cut;
the Markdown export follows no ``javascript:`` link; a JSON backup links files outside the
library folder only when the user accepts."""

from __future__ import annotations

import json
from pathlib import Path

from desktop_app.core.display_text import BIDI_CONTROLS, MAX_MARKS, display_text
from desktop_app.core.formats.markdown_writer import note_markdown
from desktop_app.core.formats.writers import render_export
from desktop_app.core.library import Library
from desktop_app.exporting import export_to_file

RLO, PDF = "\u202e", "\u202c"
ZALGO = "Z" + "\u0301\u0302\u0303\u0304\u0305\u0306" * 20 + "algo"
BIB = f"""@article{{spoof,
  author = {{Ev{RLO}il{PDF}, Mallory}},
  title = {{Invoice{RLO}fdp.exe{PDF} and {ZALGO} text}},
  journal = {{Venue{RLO}x}},
  year = {{2024}},
  abstract = {{An abstract with an {RLO}override{PDF} inside it, long enough to be read as one.}},
}}
"""


def _marks(text: str) -> int:
    """The longest run of combining marks in ``text``."""
    import unicodedata

    best = run = 0
    for c in text:
        run = run + 1 if unicodedata.combining(c) else 0
        best = max(best, run)
    return best


def test_titles_authors_and_venues_are_shown_without_overrides(tmp_path: Path) -> None:
    path = tmp_path / "spoof.bib"
    path.write_text(BIB, "utf-8")
    with Library.open(tmp_path / "lib") as lib:
        (pid,) = lib.imports.from_files([path]).paper_ids
        p = lib.papers.get(pid)
        row = lib.papers.rows([pid])[pid]
        for text in (p.title, row.title, p.venue or "", row.venue or "", *p.authors, row.authors):
            assert not set(text) & set(BIDI_CONTROLS), repr(text)
        assert "Invoicefdp.exe" in p.title and _marks(p.title) == MAX_MARKS
        # the abstract keeps its length (highlights are offsets into it), without the override
        assert RLO not in p.abstract_text and p.abstract_text.count("\u200b") == 2
        lib.highlights.add_quote(pid, "inside it")
        assert lib.papers.get(pid).highlights[0].quote == "inside it"
        for fmt in ("md", "html", "bib", "ris", "csljson"):
            text = render_export(fmt, lib.exports.papers([pid]), title="T")
            assert RLO not in text and _marks(text) <= MAX_MARKS, fmt


def test_combining_marks_of_real_scripts_stay() -> None:
    for text in ("Tiếng Việt", "שָׁלוֹם", "Ǹ̃", "naïve café"):
        assert display_text(text) == text


def test_the_markdown_export_follows_no_script_link(seed_library: Library, tmp_path: Path) -> None:
    note = (
        "see [x](javascript:alert(1)), [y](JaVa&#115;cript:alert(2)), [z]( vbscript:msg ),\n"
        "[ok](https://example.org/a_(b)) and <javascript:alert(3)>\n\n[ref]: javascript:alert(4)"
    )
    out = note_markdown(note)
    assert "javascript:" not in out.lower().replace("&lt;javascript:", "")
    assert "[x](#)" in out and "[y](#)" in out and "[ok](https://example.org/a_(b))" in out
    assert "[ref]: #" in out
    pid = seed_library.query("").ids[0]
    seed_library.notes.set(pid, note)
    md = tmp_path / "out.md"
    export_to_file(seed_library, "md", md, ids=[pid])
    assert "](javascript" not in md.read_text("utf-8").lower()
    html = tmp_path / "out.html"
    export_to_file(seed_library, "html", html, ids=[pid])
    assert 'href="javascript' not in html.read_text("utf-8").lower()


def test_a_backups_links_outside_the_library_need_consent(seed_library: Library, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "secret.txt"
    outside.parent.mkdir()
    outside.write_text("not a paper", "utf-8")
    pid = seed_library.query("").ids[0]
    seed_library.attachments.add(pid, outside, mode="link")
    backup = tmp_path / "backup.json"
    export_to_file(seed_library, "json", backup)
    assert json.loads(backup.read_text("utf-8"))["papers"][0]["attachments"]
    with Library.open(tmp_path / "other") as lib:
        report = lib.imports.from_files([backup])
        (fr,) = report.files
        assert fr.refused_links == 1 and any("outside the library folder" in w for w in fr.warnings)
        assert all(not lib.attachments.for_paper(i) for i in lib.query("").ids)
        again = lib.imports.from_files([backup], accept_links=True)  # the user accepts
        assert again.added == 0 and again.files[0].refused_links == 0
        linked = [a for i in lib.query("").ids for a in lib.attachments.for_paper(i)]
        assert [a.path for a in linked] == [str(outside)]
