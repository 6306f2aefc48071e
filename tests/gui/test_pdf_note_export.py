"""PDF export of a seed paper whose note has a table and headings, with coloured highlights: read
back with pypdf, the table's cells are there as cells, no colour is named, the note's headings
are no bigger than the paper's title nor smaller than the text."""

from __future__ import annotations

import re
from pathlib import Path

import pypdf

from desktop_app.core.highlights import COLORS
from desktop_app.core.library import Library
from desktop_app.exporting import export_to_file
from tests.helpers.library import find_paper

NOTE = """# Results

Compared on the held-out set.

## Numbers

| Model | Score |
|---|--:|
| GPT-cell | 91.5 |
| BERT-cell | 80.2 |

<script>alert('x')</script>
"""


def test_pdf_export_has_table_cells_no_colour_words_and_ordered_headings(
    seed_library: Library, tmp_path: Path, qapp
) -> None:
    lib = seed_library
    pid = find_paper(lib, "composable building blocks")
    lib.notes.set(pid, NOTE)
    lib.highlights.add_quote(pid, "composable building blocks", color="yellow", comment="core claim")
    lib.highlights.add_quote(pid, "300 individual environments", color="green")
    out = tmp_path / "export.pdf"
    assert export_to_file(lib, "pdf", out, ids=[pid]) == 1
    runs: list[tuple[str, float]] = []

    def visit(text, cm, tm, font, size) -> None:
        if text.strip():
            runs.append((" ".join(text.split()), abs(size * tm[3] * cm[3])))

    pages = pypdf.PdfReader(str(out)).pages
    text = "\n".join(page.extract_text(visitor_text=visit) for page in pages)
    words = " ".join(text.split())
    # the table: its cells, not the markdown pipes
    for cell in ("Model", "Score", "GPT-cell", "91.5", "BERT-cell", "80.2"):
        assert any(r == cell for r, _ in runs), cell
    assert "|" not in words and "---" not in words
    # highlights: the quotes, no colour names; raw HTML shown as text
    assert "composable building blocks" in words and "core claim" in words
    assert not re.search(r"\b(" + "|".join(COLORS) + r")\b", words, re.IGNORECASE)
    assert "<script>alert('x')</script>" in words
    # sizes: paper title > note headings >= the note's text
    size = {r: s for r, s in runs}
    title = max(s for r, s in runs if r.startswith("RACES:"))
    body = size["Compared on the held-out set."]
    for heading in ("Results", "Numbers"):
        assert body <= size[heading] < title, (heading, size[heading], body, title)
