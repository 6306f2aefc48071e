"""HTML export: one standalone, print-friendly page (the GUI prints it to PDF).

No scripts and no external resources. Every piece of user or imported text is escaped;
the abstract comes from ``core.text.to_html`` (a safe fragment) and the note is rendered by
markdown-it in safe mode (raw HTML escaped, images shown as links, headings moved down).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from urllib.parse import quote

from markdown_it import MarkdownIt

from desktop_app.core.formats.writer_common import (
    DERIVED_NOTE,
    display_author,
    export_title,
    html_abstract,
    images_as_links,
    is_derived,
    one_line,
    paper_links,
    rating_label,
)
from desktop_app.core.records import ExportHighlight, ExportPaper

STYLE = """
@page { margin: 2cm; }
html { background: #fff; color: #1f2328; }
body { font: 16px/1.6 Charter, "Bitstream Charter", "Iowan Old Style", Georgia, "Noto Serif",
       "Source Han Serif", serif; max-width: 46em; margin: 2em auto; padding: 0 1.25em; }
h1, h2, h3, .meta, .toc, .tags, .count, figcaption { font-family: system-ui, -apple-system,
       "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 1.9em; line-height: 1.2; margin: 0 0 .3em; }
h2 { font-size: 1.3em; line-height: 1.3; margin: 0 0 .4em; }
h3 { font-size: .8em; text-transform: uppercase; letter-spacing: .06em; color: #57606a;
     margin: 1.2em 0 .3em; }
.description { font-size: 1.05em; }
.count, .meta { color: #57606a; font-size: .9em; }
.meta p { margin: .15em 0; }
.toc { border-top: 1px solid #d0d7de; border-bottom: 1px solid #d0d7de; margin: 1.5em 0;
       padding: .5em 0; }
.toc ol { margin: .3em 0; padding-left: 2em; }
.toc a { color: inherit; text-decoration: none; }
.toc a:hover { text-decoration: underline; }
.paper { margin: 0; page-break-inside: avoid; break-inside: avoid; }
hr.sep { border: 0; border-top: 1px solid #d0d7de; margin: 2em 0 1.2em; }
.num { color: #8c959f; font-weight: normal; }
.tag { display: inline-block; padding: 0 .55em; margin: 0 .2em .2em 0; border-radius: 1em;
       background: #ddf4ff; color: #0a3069; font-size: .85em; }
.stars { color: #bf8700; letter-spacing: .05em; }
.abstract { hyphens: auto; }
.note, .item-note { background: #f6f8fa; border-radius: 6px; padding: .4em 1em; }
.note pre { white-space: pre-wrap; }
.note h4, .note h5, .note h6 { margin: .6em 0 .2em; }
.note table { border-collapse: collapse; margin: .5em 0; }
.note th, .note td { border: 1px solid #d0d7de; padding: .15em .6em; }
.note th { background: #eaeef2; }
figure.highlight { margin: .6em 0; page-break-inside: avoid; break-inside: avoid; }
figure.highlight blockquote { margin: 0; padding: .1em 1em; border-left: 4px solid #d4a72c; }
figcaption { margin: .2em 0 0 1.25em; }
figcaption p { margin: .2em 0; }
.hl-meta { font-size: .85em; color: #57606a; }
a { color: #0969da; }
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 11pt; }
  .toc { page-break-after: always; break-after: page; border: 0; }
  hr.sep { border-top-color: #999; }
  a { color: inherit; text-decoration: none; }
  .tag { border: 1px solid #999; background: none; color: inherit; }
}
""".strip()

_COLOR = re.compile(r"^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30})$")


def _text_styles() -> tuple[dict[str, str], str]:
    """The reader's highlight palette and the stylesheet for ``to_html`` spans, if available."""
    try:
        from desktop_app.core.text import HIGHLIGHT_COLORS, STYLESHEET
    except ImportError:
        return {}, ""
    return dict(HIGHLIGHT_COLORS), STYLESHEET


def css_color(color: str) -> str | None:
    """A CSS colour for a highlight colour name: the reader's palette, else a plain name or
    ``#hex``; None for anything else (never put unchecked text into a style attribute)."""
    name = one_line(color).lower()
    palette, _ = _text_styles()
    if name in palette:
        return palette[name]
    return name if _COLOR.match(name) else None


_LINK_SCHEMES = ("http://", "https://", "ftp://")
_URL_SAFE = ":/?#[]@!$&'()*+,;=%~"


def _markdown_parser() -> MarkdownIt:
    """CommonMark with GFM tables, raw HTML escaped and images off (they would load external
    files)."""
    parser = MarkdownIt("commonmark", {"html": False}).enable("table")
    parser.disable("image")
    return parser


_MD = _markdown_parser()
# The note's own headings sit below the paper's title (h2) and its section labels (h3): a
# note's "#" becomes h4, "##" h5, deeper ones h6. Their size is set here in a CSS keyword, the
# only unit Qt's renderer (the PDF) obeys on headings: it ignores px/pt/em there and draws h5
# smaller than the text. "large" is the text's size in the PDF and a little more in a browser:
# never larger than the paper's title, never smaller than the text.
NOTE_HEADING_STYLE = {
    4: "font-size: large",
    5: "font-size: large; font-style: italic",
    6: "font-size: large; font-style: italic; font-weight: normal",
}


def note_html(note: str, shift: int = 3) -> str:
    """The user's markdown note as safe HTML, headings moved *shift* levels down (at most h6)
    and sized by :data:`NOTE_HEADING_STYLE`; tables as tables; raw HTML as text."""
    tokens = _MD.parse(images_as_links(note))
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            level = min(int(token.tag[1]) + shift, 6)
            token.tag = f"h{level}"
            if token.type == "heading_open" and level in NOTE_HEADING_STYLE:
                token.attrSet("style", NOTE_HEADING_STYLE[level])
    rendered: str = _MD.renderer.render(tokens, _MD.options, {})  # RendererHTML (the default)
    return rendered


def text_html(text: str) -> str:
    """Plain text as escaped ``<p>`` paragraphs, line breaks kept."""
    blocks = re.split(r"\n\s*\n", text.replace("\r\n", "\n").replace("\r", "\n").strip())
    return "".join(
        "<p>" + "<br>".join(escape(line.strip()) for line in b.split("\n")) + "</p>" for b in blocks if b.strip()
    )


def link(label: str, url: str) -> str:
    """An ``<a>`` for a web URL; otherwise the escaped label alone."""
    url = url.strip()
    if not url.lower().startswith(_LINK_SCHEMES):
        return escape(label)
    return f'<a href="{escape(quote(url, safe=_URL_SAFE))}">{escape(label)}</a>'


def _highlight(h: ExportHighlight) -> str:
    """A highlight: the quote marked in its colour (a background, as in the reader; the
    colour's name is not printed), then the comment and whether it is orphaned."""
    color = css_color(h.color)
    style = f' style="border-left-color: {color}"' if color else ""
    quote = escape(one_line(h.quote)) or "…"
    if color:
        quote = f'<span class="mark" style="background-color: {color}">{quote}</span>'
    caption = text_html(h.comment) if h.comment.strip() else ""
    if h.orphaned:
        caption += '<p class="hl-meta">no longer found in the abstract</p>'
    return (
        f'<figure class="highlight"><blockquote{style}><p>{quote}'
        f"</p></blockquote>{f'<figcaption>{caption}</figcaption>' if caption else ''}</figure>"
    )


def _links(paper: ExportPaper) -> list[str]:
    return paper_links(paper, link)


def _title(paper: ExportPaper, *, marked: bool = True) -> str:
    """The title as HTML; a derived one says so (``marked``; not in the table of contents)."""
    title = escape(export_title(paper)) or "<em>Untitled</em>"
    return title + (f' <span class="derived">({DERIVED_NOTE})</span>' if marked and is_derived(paper) else "")


def paper_html(paper: ExportPaper, number: int) -> str:
    """One paper as an ``<article id="paper-N">``."""
    meta = []
    venue = " ".join(p for p in (one_line(paper.venue or ""), str(paper.year or "")) if p)
    if venue:
        meta.append(f'<p class="venue">{escape(venue)}</p>')
    if paper.authors:
        names = ", ".join(escape(one_line(display_author(a))) for a in paper.authors)
        meta.append(f'<p class="authors">{names}</p>')
    if paper.tags:
        tags = " ".join(f'<span class="tag">{escape(one_line(t))}</span>' for t in paper.tags)
        meta.append(f'<p class="tags">{tags}</p>')
    meta.append(
        f'<p class="status">{escape(paper.status)} · '
        f'<span class="stars" title="rating {max(0, min(5, paper.rating))} of 5">'
        f"{rating_label(paper.rating)}</span></p>"
    )
    links = _links(paper)
    if links:
        meta.append(f'<p class="links">{" · ".join(links)}</p>')
    out = [
        f'<article class="paper" id="paper-{number}">',
        f'<h2><span class="num">{number}.</span> {_title(paper)}</h2>',
        f'<div class="meta">{"".join(meta)}</div>',
    ]
    if paper.abstract.strip() or paper.abstract_text.strip():
        out.append(f'<h3>Abstract</h3><div class="abstract">{html_abstract(paper)}</div>')
    if paper.item_note and paper.item_note.strip():
        out.append(f'<h3>List note</h3><div class="item-note">{text_html(paper.item_note)}</div>')
    if paper.note.strip():
        out.append(f'<h3>Note</h3><div class="note">{note_html(paper.note)}</div>')
    if paper.highlights:
        out.append('<h3>Highlights</h3><div class="highlights">')
        out += [_highlight(h) for h in paper.highlights]
        out.append("</div>")
    out.append("</article>")
    return "\n".join(out)


def render_html(papers: Sequence[ExportPaper], *, title: str = "Marginalia export", description: str = "") -> str:
    """The whole export as one standalone HTML5 document."""
    doc_title = escape(one_line(title)) or "Marginalia export"
    count = len(papers)
    toc = "\n".join(
        f'<li><a href="#paper-{n}">{_title(p, marked=False)}</a></li>' for n, p in enumerate(papers, start=1)
    )
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="generator" content="Marginalia">',
        f"<title>{doc_title}</title>",
        f"<style>\n{STYLE}\n{_text_styles()[1]}</style>",
        "</head>",
        "<body>",
        f"<header><h1>{doc_title}</h1>",
        f'<div class="description">{text_html(description)}</div>' if description.strip() else "",
        f'<p class="count">{count} paper{"s" if count != 1 else ""}</p></header>',
    ]
    if papers:
        parts.append(f'<nav class="toc"><h3>Contents</h3>\n<ol>\n{toc}\n</ol></nav>')
    parts.append("<main>")
    for number, paper in enumerate(papers, start=1):
        parts += ['<hr class="sep">', paper_html(paper, number)]
    parts += ["</main>", "</body>", "</html>", ""]
    return "\n".join(p for p in parts if p != "") + "\n"
