"""Markdown export: a readable document that also renders well on GitHub.

Imported and typed plain text (titles, authors, venue, tags, quotes, comments) is escaped so
that ``*``, ``_``, ``[``, ``<img>`` and the like show as typed. The user's note is markdown
and is kept as markdown, with three changes: its headings are moved below the paper's heading,
raw HTML in it is neutralised (``<`` becomes ``&lt;`` everywhere except in code), and its images
become links (``![x](url)`` -> ``[image: x](url)``), so that viewing the export loads no remote file.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from urllib.parse import quote

from markdown_it import MarkdownIt

from desktop_app.core.formats.writer_common import (
    DERIVED_NOTE,
    display_author,
    export_title,
    images_as_links,
    is_derived,
    one_line,
    paper_links,
    plain_abstract,
    rating_label,
)
from desktop_app.core.records import ExportHighlight, ExportPaper

# --- escaping plain text ----------------------------------------------------------------------

_INLINE_SPECIAL = re.compile(r"[\\`*_\[\]#|~$]")
_ENTITY_AMP = re.compile(r"&(?=#?[A-Za-z0-9]+;)")
_BLOCK_START = re.compile(r"^(\s*)([+=-]|\d{1,9}(?=[.)](\s|$)))")
_URL_SAFE = ":/?#[]@!$&'()*+,;=%~"
_LINK_SCHEMES = ("http://", "https://", "ftp://")


def md_escape(text: str) -> str:
    """Escape one line of plain text for inline use in Markdown (no line-start escaping)."""
    text = _ENTITY_AMP.sub("&amp;", text)
    text = _INLINE_SPECIAL.sub(lambda m: "\\" + m.group(0), text)
    return text.replace("<", "&lt;").replace(">", "&gt;")


def md_line(text: str) -> str:
    """Escape a line of plain text that may start a Markdown block (``-``, ``+``, ``1.``)."""
    escaped = md_escape(text.strip())  # ">" and "#" are escaped by now
    match = _BLOCK_START.match(escaped)
    if not match:
        return escaped
    lead, marker, rest = match.group(1), match.group(2), escaped[match.end() :]
    if marker[0].isdigit():
        return f"{lead}{marker}\\{rest}"  # "1\\." does not start a list
    return f"{lead}\\{marker}{rest}"


def md_paragraphs(text: str, *, hard_breaks: bool = True) -> list[str]:
    """Plain text as escaped Markdown paragraphs; line breaks kept (``hard_breaks``) or joined."""
    paragraphs = []
    for block in re.split(r"\n\s*\n", text.replace("\r\n", "\n").replace("\r", "\n")):
        lines = [md_line(line) for line in block.split("\n") if line.strip()]
        if lines:
            paragraphs.append(("\\\n" if hard_breaks else " ").join(lines))
    return paragraphs


def md_link(label: str, url: str) -> str:
    """``[label](<url>)`` for a web URL; otherwise the escaped text alone."""
    url = url.strip()
    if not url.lower().startswith(_LINK_SCHEMES):
        return md_escape(label)
    return f"[{md_escape(label)}](<{quote(url, safe=_URL_SAFE)}>)"


# --- the user's markdown note -----------------------------------------------------------------

_PARSER = MarkdownIt("commonmark")
_CHECKER = MarkdownIt("commonmark").enable(["table", "strikethrough"])
_LINE_START_LT = re.compile(r"\n([ \t>*+\-\d.)]*)<")
_ATX = re.compile(r"^(\s{0,3})#{1,6}(?=\s|$)")


def _closing_run(text: str, start: int, length: int) -> int | None:
    """Index of the next run of exactly *length* backticks at or after *start*."""
    k = start
    while k < len(text):
        if text[k] != "`":
            k += 1
            continue
        end = k
        while end < len(text) and text[end] == "`":
            end += 1
        if end - k == length:
            return k
        k = end
    return None


def _escape_lt_in_text(text: str) -> str:
    """``<`` -> ``&lt;`` except inside code spans (CommonMark rules, backslash escapes kept).

    A would-be code span that contains ``|`` is not trusted (a GFM table splits cells first),
    and a ``<`` that starts a line inside a span is escaped anyway (it could open HTML).
    """
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\":
            out.append(text[i : i + 2])
            i += 2
        elif char == "`":
            j = i
            while j < len(text) and text[j] == "`":
                j += 1
            close = _closing_run(text, j, j - i)
            if close is not None and "|" not in text[j:close]:
                content = _LINE_START_LT.sub(r"\n\1&lt;", text[j:close])
                out.append(text[i:j] + content + text[i:j])
                i = close + (j - i)
            else:
                out.append(text[i:j])
                i = j
        else:
            out.append("&lt;" if char == "<" else char)
            i += 1
    return "".join(out)


def _escape_lt_outside_code(note: str) -> str:
    """``<`` -> ``&lt;`` everywhere but in code blocks and code spans (first, precise pass)."""
    lines = note.split("\n")
    out = list(lines)
    done: set[int] = set()
    for token in _PARSER.parse(note):
        if token.map is None:
            continue
        if token.type in ("fence", "code_block"):
            done.update(range(*token.map))
        elif token.type == "inline":
            indexes = [i for i in range(*token.map) if i not in done]
            escaped = _escape_lt_in_text("\n".join(lines[i] for i in indexes))
            for i, line in zip(indexes, escaped.split("\n"), strict=True):
                out[i] = line
            done.update(indexes)
    for i, line in enumerate(lines):
        if i not in done:  # HTML blocks and the rest: escape every "<"
            out[i] = line.replace("<", "&lt;")
    return "\n".join(out)


def has_raw_html(markdown: str) -> bool:
    """True when a CommonMark/GFM renderer would pass raw HTML from *markdown* through."""
    stack = list(_CHECKER.parse(markdown))
    while stack:
        token = stack.pop()
        if token.type in ("html_block", "html_inline"):
            return True
        stack.extend(token.children or ())
    return False


def neutralise_html(note: str) -> str:
    """Make raw HTML in a markdown *note* show as text; code is left alone where possible.

    The precise pass keeps ``<`` in code; escaping can change the block structure around a
    former HTML block, so its result is re-parsed, and if any raw HTML is left every ``<``
    is escaped instead (code then shows ``&lt;``, but nothing can be HTML).
    """
    candidate = _escape_lt_outside_code(note)
    return note.replace("<", "&lt;") if has_raw_html(candidate) else candidate


def demote_headings(note: str, shift: int = 3) -> str:
    """Move the note's headings *shift* levels down (at most ``######``)."""
    lines = note.split("\n")
    tokens = _PARSER.parse(note)
    drop: set[int] = set()
    for index, token in enumerate(tokens):
        if token.type != "heading_open" or token.map is None:
            continue
        hashes = "#" * min(int(token.tag[1]) + shift, 6)
        start, end = token.map
        if token.markup.startswith("#"):
            lines[start] = _ATX.sub(r"\g<1>" + hashes, lines[start], count=1)  # the indent kept
        else:  # setext: fold the text lines into one ATX heading, drop the underline
            text = tokens[index + 1].content
            lines[start] = f"{hashes} {' '.join(text.split())}"
            drop.update(range(start + 1, end))
    return "\n".join(line for i, line in enumerate(lines) if i not in drop)


# a link's destination in markdown: inline ``](dest``, a reference ``[x]: dest``, an autolink ``<dest>``
_DESTINATION = re.compile(r"(\]\(\s*<?|^[ ]{0,3}\[[^\]\n]+\]:[ \t]*<?|<)((?:[^\s()<>]|\([^\s()]*\))+)", re.M)
_UNSAFE_SCHEMES = ("javascript:", "vbscript:", "data:", "file:")


def neutralise_links(markdown: str) -> str:
    """Link destinations with a scheme that runs code or reads local files (``javascript:``,
    ``vbscript:``, ``data:``, ``file:``, also hidden behind entities or control characters)
    replaced by ``#``: a Markdown viewer opening the export follows no such link."""

    def repl(match: re.Match[str]) -> str:
        dest = html.unescape(match.group(2))
        folded = re.sub(r"[\x00-\x20\x7f]+", "", dest).lower()
        return match.group(1) + "#" if folded.startswith(_UNSAFE_SCHEMES) else match.group(0)

    return _DESTINATION.sub(repl, markdown)


def note_markdown(note: str) -> str:
    """The user's markdown note, safe to embed in the export: no raw HTML (see
    :func:`neutralise_html`) and its images as links (see :func:`images_as_links`), so that
    viewing the export loads nothing from elsewhere."""
    note = note.replace("\r\n", "\n").replace("\r", "\n").strip("\n")
    out = demote_headings(images_as_links(neutralise_links(neutralise_html(note))))
    if has_raw_html(out):  # cannot happen today; a guard should demotion ever change
        out = demote_headings(images_as_links(note.replace("<", "&lt;")))
    return out.strip()


# --- the document -----------------------------------------------------------------------------


def _blockquote(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in text.split("\n"))


def _highlight(h: ExportHighlight) -> str:
    parts = [_blockquote("\n\n".join(md_paragraphs(h.quote, hard_breaks=False)) or "…")]
    caption = []
    if h.comment.strip():
        caption.append("\n\n".join(md_paragraphs(h.comment)))
    if h.orphaned:  # the colour is not written: a quote is a quote, whatever its colour
        caption.append("*(no longer found in the abstract)*")
    if caption:
        parts.append("— " + " ".join(caption))
    return "\n\n".join(parts)


def _links(paper: ExportPaper) -> list[str]:
    return paper_links(paper, md_link)


def paper_markdown(paper: ExportPaper, number: int) -> str:
    """One paper as a Markdown section headed ``## number. title``."""
    title = md_escape(export_title(paper)) or "*Untitled*"
    if is_derived(paper):
        title += f" *({DERIVED_NOTE})*"
    out = [f"## {number}. {title}"]
    meta = []
    venue = " ".join(p for p in (one_line(paper.venue or ""), str(paper.year or "")) if p)
    if venue:
        meta.append(f"**Venue:** {md_escape(venue)}")
    if paper.authors:
        names = ", ".join(md_escape(one_line(display_author(a))) for a in paper.authors)
        meta.append(f"**Authors:** {names}")
    if paper.tags:
        meta.append("**Tags:** " + ", ".join(md_escape(one_line(t)) for t in paper.tags))
    meta.append(f"**Status:** {md_escape(paper.status)} · **Rating:** {rating_label(paper.rating)}")
    links = _links(paper)
    if links:
        meta.append("**Links:** " + " · ".join(links))
    out.append("\n".join("- " + m for m in meta))
    abstract = md_paragraphs(plain_abstract(paper), hard_breaks=False)
    if abstract:
        out += ["### Abstract", *abstract]
    if paper.item_note and paper.item_note.strip():
        out += ["### List note", *md_paragraphs(paper.item_note)]
    if paper.note.strip():
        out += ["### Note", note_markdown(paper.note)]
    if paper.highlights:
        out += ["### Highlights", *(_highlight(h) for h in paper.highlights)]
    return "\n\n".join(out)


def render_markdown(papers: Sequence[ExportPaper], *, title: str = "Marginalia export", description: str = "") -> str:
    """The whole export as one Markdown document."""
    out = [f"# {md_escape(one_line(title)) or 'Marginalia export'}"]
    out += md_paragraphs(description)
    count = len(papers)
    out.append(f"*{count} paper{'s' if count != 1 else ''}*")
    for number, paper in enumerate(papers, start=1):
        out += ["---", paper_markdown(paper, number)]
    return "\n\n".join(out) + "\n"
