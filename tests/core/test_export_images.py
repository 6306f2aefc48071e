"""No image from a note or an abstract loads when an export is viewed: remote images are a
tracking pixel (the viewer's address and the time they read the export go to a stranger).
Markdown exports show a note's images as links ``[image: alt](url)``; HTML exports carry no
``<img>`` at all."""

from __future__ import annotations

import dataclasses
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from desktop_app.core.formats.markdown_writer import note_markdown
from desktop_app.core.formats.writer_common import images_as_links
from desktop_app.core.formats.writers import render_export
from desktop_app.core.records import ExportPaper

#: Markdown images in all the forms CommonMark and GFM accept, and some that only look like one.
IMAGE_NOTES = [
    "![pixel](http://tracker.example/p.png)",
    'See ![a *diagram*](https://example.org/d.png "title") here.',
    "![ref][logo] and ![logo] and ![logo][]\n\n[logo]: https://example.org/logo.png",
    "[![badge](https://img.example/b.svg)](https://example.org/)",
    "- item ![x](<https://example.org/a b.png>)\n> quote ![y](https://example.org/y.png)",
    "| a | b |\n|---|---|\n| ![t](https://example.org/t.png) | c |",
    "# Heading ![h](https://example.org/h.png)",
    "![outer ![inner](https://example.org/i.png)](https://example.org/o.png)",
    "\\![not an image](https://example.org/link)",
]
GFM = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def _images(markdown: str) -> list[str]:
    found, stack = [], list(GFM.parse(markdown))
    while stack:
        token = stack.pop()
        if token.type == "image":
            found.append(token.attrs.get("src", ""))
        stack.extend(token.children or ())
    return found


def _paper(note: str = "", abstract: str = "An abstract.") -> ExportPaper:
    return ExportPaper(
        id=1,
        uid="u1",
        title="T",
        title_source="derived",
        abstract=abstract,
        abstract_text=abstract,
        authors=[],
        venue=None,
        year=2026,
        doi=None,
        arxiv_id=None,
        url=None,
        bibtex_key=None,
        entry_type=None,
        tags=[],
        status="unread",
        rating=0,
        note=note,
        note_revisions=[],
        highlights=[],
        added_at="2026-01-01T00:00:00",
        item_note=None,
        extra={},
    )


@pytest.mark.parametrize("note", IMAGE_NOTES)
def test_markdown_note_images_become_links(note: str) -> None:
    out = note_markdown(note)
    assert _images(out) == [], out
    text = render_export("md", [_paper(note)])
    assert _images(text) == []
    rendered = GFM.render(text)
    assert "<img" not in rendered
    if _images(note):
        assert "[image: " in out, out


def test_the_link_keeps_the_alt_text_and_the_address() -> None:
    out = note_markdown("Before ![pixel](http://tracker.example/p.png) after.\n\n`![code](x)` stays")
    assert out == "Before [image: pixel](http://tracker.example/p.png) after.\n\n`![code](x)` stays"
    rendered = GFM.render(out)
    assert '<a href="http://tracker.example/p.png">image: pixel</a>' in rendered
    assert "<code>![code](x)</code>" in rendered


def test_text_that_only_looks_like_an_image_is_unchanged() -> None:
    for note in ("Wow![sic] that is loud", "```\n![x](http://e.org/x.png)\n```", "a ! [b](c)"):
        assert note_markdown(note) == note


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append((tag, dict(attrs)))


ABSTRACTS = [
    'Results <img src="http://tracker.example/a.png"> shown.',
    "Results ![a](http://tracker.example/a.png) shown.",
    r"Figure \includegraphics{http://tracker.example/a.png} and $\alpha$.",
    '<p>Para <IMG SRC=http://tracker.example/a.png onerror=alert(1)></p><picture><source srcset="x"></picture>',
]


@pytest.mark.parametrize("note", IMAGE_NOTES)
@pytest.mark.parametrize("abstract", ABSTRACTS)
def test_no_img_reaches_the_html_export(note: str, abstract: str) -> None:
    paper = _paper(note, abstract)
    text = render_export("html", [paper, dataclasses.replace(paper, id=2, item_note=note)])
    parser = _Tags()
    parser.feed(text)
    assert not [t for t, _ in parser.tags if t in ("img", "picture", "source", "image", "svg", "object")]
    assert not any(k in a for _, a in parser.tags for k in ("src", "srcset", "background"))
    assert "url(" not in text.lower()


def test_reference_images_keep_their_address() -> None:
    out = note_markdown("![ref][logo], ![logo] and ![logo][]\n\n[logo]: https://example.org/logo.png")
    assert out.startswith("[image: ref][logo], [image: logo][logo] and [image: logo][logo]\n"), out
    rendered = GFM.render(out)
    assert rendered.count('<a href="https://example.org/logo.png">') == 3 and "<img" not in rendered


@given(st.text(alphabet="![]()<>`\\ \nab:/x*#|-", max_size=60))
@settings(max_examples=300, deadline=None)
def test_no_markdown_note_keeps_an_image(note: str) -> None:
    for text in (note, note + "\n\n[a]: http://e.org/a.png\n[b]: http://e.org/b.png"):
        out = note_markdown(text)
        assert _images(out) == [], (text, out)
        assert _images(images_as_links(text)) == []
