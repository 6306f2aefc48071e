"""Real exports of seed papers with a note holding a table and headings, and coloured highlights:
tables render as tables, colours are shown and never printed as words, note headings stay
below the paper's title."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from markdown_it import MarkdownIt

from desktop_app.core.highlights import COLORS
from desktop_app.core.library import Library
from desktop_app.exporting import export_text
from tests.helpers.library import find_paper

NOTE = """# Results

Compared on the held-out set.

## Numbers

| Model | Score |
|---|--:|
| GPT-cell | 91.5 |
| BERT-cell | 80.2 |

### Caveat

<script>alert('x')</script> <b>not bold</b>
"""
COLOUR_WORDS = re.compile(r"\b(" + "|".join(COLORS) + r")\b", re.IGNORECASE)
QUOTES = (
    ("composable building blocks", "yellow", "core claim"),
    ("300 individual environments", "green", ""),
    ("50 base environments", "blue", ""),
)


@pytest.fixture
def noted(seed_library: Library) -> tuple[Library, int]:
    pid = find_paper(seed_library, "composable building blocks")
    paper = seed_library.papers.get(pid)
    assert not COLOUR_WORDS.search(paper.title + " " + paper.abstract_text)  # so any colour word is ours
    seed_library.notes.set(pid, NOTE)
    for quote, color, comment in QUOTES:
        seed_library.highlights.add_quote(pid, quote, color=color, comment=comment)
    return seed_library, pid


class _Doc(HTMLParser):
    """Elements with their attributes and the visible text (style sheet excluded)."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in ("br", "hr", "meta"):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop() != tag:
            pass

    def handle_data(self, data):
        if "style" not in self.stack and "title" not in self.stack:
            self.text.append(data)


def _html(lib: Library, pid: int) -> str:
    query = f'"{lib.papers.get(pid).title}"'
    text, count = export_text(lib, "html", query=query)
    assert count >= 1
    return text


def test_html_export_renders_the_note_table_and_names_no_colour(noted) -> None:
    lib, pid = noted
    html = _html(lib, pid)
    doc = _Doc()
    doc.feed(html)
    names = [t for t, _ in doc.tags]
    assert "table" in names and names.count("th") == 2 and names.count("td") >= 4
    note = html[html.index('<div class="note">') : html.index("</div>", html.index('<div class="note">'))]
    assert "<td>GPT-cell</td>" in note and '<td style="text-align:right">91.5</td>' in note
    assert "| Model |" not in html  # not left as pipes
    visible = " ".join(doc.text)
    assert not COLOUR_WORDS.search(visible), COLOUR_WORDS.search(visible)
    assert "(yellow)" not in html and "yellow:" not in html
    # each highlight is marked in its colour instead
    marks = re.findall(r'<span class="mark" style="background-color: (#[0-9a-f]{6})">([^<]*)</span>', html)
    assert [q for _, q in marks] == [q for q, _, _ in QUOTES]
    assert len({c for c, _ in marks}) == 3
    # raw HTML in the note stays text
    assert "<script" not in html.lower() and "&lt;script&gt;" in html and "&lt;b&gt;not bold&lt;/b&gt;" in html


def test_html_note_headings_sit_below_the_paper_title(noted) -> None:
    lib, pid = noted
    html = _html(lib, pid)
    note = html[html.index('<div class="note">') : html.index("<h3>Highlights</h3>")]
    levels = [int(n) for n in re.findall(r"<h(\d)", note)]
    assert levels == [4, 5, 6]  # "#", "##", "###" below the paper's h2 and the section h3
    assert re.search(r'<h2><span class="num">1\.</span> ', html)
    for level in levels:
        assert re.search(rf'<h{level} style="font-size: large[;"]', note)


def test_markdown_export_quotes_highlights_without_colours_and_keeps_the_table(noted) -> None:
    lib, pid = noted
    md, _ = export_text(lib, "md", query=f'"{lib.papers.get(pid).title}"')
    section = md[md.index("### Highlights") :]
    section = section[: section.index("\n---")] if "\n---" in section else section
    assert not COLOUR_WORDS.search(section)
    for quote, _, _ in QUOTES:
        assert f"> {quote}" in section
    assert "— core claim" in section
    note = md[md.index("### Note") : md.index("### Highlights")]
    assert "#### Results" in note and "##### Numbers" in note and "###### Caveat" in note
    rendered = MarkdownIt("commonmark").enable("table").render(note)
    assert "<table>" in rendered and "<td>GPT-cell</td>" in rendered
    assert "<script" not in rendered
