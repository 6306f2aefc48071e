"""Helpers the export writers share: abstracts as plain text or HTML, author names, stars,
entry types, links.

Imported by the writers (``bibtex_writer``, ``ris_writer``, ...); imports none of them, nor the
dispatcher :mod:`desktop_app.core.formats.writers`.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from desktop_app.core.records import ExportPaper

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

MAX_RATING = 5


def latex_to_plain(raw: str) -> str:
    """Plain text for a LaTeX-laden string, via ``desktop_app.core.text.to_plain``.

    Falls back to the raw string while the text module is not available.
    """
    try:
        from desktop_app.core.text import to_plain
    except ImportError:
        return raw
    return to_plain(raw)


def plain_abstract(paper: ExportPaper) -> str:
    """The abstract as the reader sees it: the stored plain text, else converted from LaTeX."""
    if paper.abstract_text.strip():
        return paper.abstract_text
    return latex_to_plain(paper.abstract) if paper.abstract else ""


def html_abstract(paper: ExportPaper) -> str:
    """The abstract as a SAFE HTML fragment (math made readable by ``core.text.to_html``).

    Highlights whose offsets still match their quote are marked in the text. While the text
    module is not available, the escaped plain text is used instead.
    """
    try:
        from desktop_app.core.text import to_html, to_plain
    except ImportError:
        return html.escape(paper.abstract_text or paper.abstract)
    try:
        from desktop_app.core.text import Mark
    except ImportError:
        return to_html(paper.abstract)
    plain = to_plain(paper.abstract)
    marks = [
        Mark(h.start, h.end, h.color, key=str(index))
        for index, h in enumerate(paper.highlights)
        if not h.orphaned and 0 <= h.start < h.end <= len(plain) and plain[h.start : h.end] == h.quote
    ]
    return to_html(paper.abstract, marks=marks)


def stars(rating: int) -> str:
    """``★★★☆☆`` for a rating of 3 (clamped to 0..5)."""
    filled = max(0, min(MAX_RATING, int(rating or 0)))
    return "★" * filled + "☆" * (MAX_RATING - filled)


def rating_label(rating: int) -> str:
    """Stars for a rated paper, ``not rated`` for 0."""
    return stars(rating) if rating and rating > 0 else "not rated"


def split_author(name: str) -> tuple[str, str, str] | None:
    """Split ``"Family, Given"`` (or ``"Family, Suffix, Given"``) into (family, given, suffix).

    Returns None for a literal name (no comma), e.g. ``"OpenAI"`` or ``"Jane Doe"``.
    """
    parts = [p.strip() for p in name.split(",")]
    if len(parts) < 2 or not parts[0]:
        return None
    if len(parts) == 2:
        return parts[0], parts[1], ""
    return parts[0], ", ".join(parts[2:]), parts[1]


def family_name(name: str) -> str:
    """The family name of an author given as ``"Family, Given"`` or as a literal name."""
    split = split_author(name)
    if split:
        return split[0]
    words = name.split()
    return words[-1] if words else ""


def display_author(name: str) -> str:
    """``"Given Family"`` for ``"Family, Given"``; a literal name unchanged."""
    split = split_author(name)
    if not split:
        return name.strip()
    family, given, suffix = split
    return " ".join(p for p in (given, family) if p) + (f", {suffix}" if suffix else "")


_CONFERENCE = re.compile(
    r"\b(conference|proceedings|proc\.|workshop|symposium|congress|meeting|summit|"
    r"neurips|nips|icml|iclr|aaai|ijcai|acl|emnlp|naacl|eacl|coling|cvpr|iccv|eccv|"
    r"kdd|sigir|www|uai|aistats|colt|corl|interspeech|icassp|chi|uist|sosp|osdi|nsdi)\b",
    re.IGNORECASE,
)


def entry_type(paper: ExportPaper) -> str:
    """The BibTeX entry type: the paper's own, else guessed from the venue, else ``misc``.

    A venue that names a conference (``NeurIPS``, ``Proceedings of ...``) gives
    ``inproceedings``; any other venue gives ``article``.
    """
    if paper.entry_type and paper.entry_type.strip():
        return paper.entry_type.strip().lower()
    if paper.venue and paper.venue.strip():
        return "inproceedings" if _CONFERENCE.search(paper.venue) else "article"
    return "misc"


CONFERENCE_TYPES = frozenset({"inproceedings", "conference", "proceedings"})
ARTICLE_TYPES = frozenset({"article"})


def keywords_and_tags(paper: ExportPaper) -> list[str]:
    """What interchange formats write as keywords: the paper's own keywords, then the user's tags
    (other reference managers read keywords as tags), each once."""
    words, folded = [], set()
    for word in (w.strip() for w in [*paper.keywords, *paper.tags]):
        if word and word.casefold() not in folded:
            folded.add(word.casefold())
            words.append(word)
    return words


def one_line(text: str) -> str:
    """Collapse all whitespace (newlines included) into single spaces."""
    return " ".join(text.split())


def paper_links(paper: ExportPaper, link: Callable[[str, str], str]) -> list[str]:
    """DOI, arXiv and URL links of a paper, each rendered by ``link(label, url)``."""
    from urllib.parse import quote

    out = []
    if paper.doi and paper.doi.strip():
        doi = one_line(paper.doi)
        out.append("DOI " + link(doi, "https://doi.org/" + quote(doi, safe="/")))
    if paper.arxiv_id and paper.arxiv_id.strip():
        arxiv = one_line(paper.arxiv_id)
        out.append("arXiv " + link(arxiv, "https://arxiv.org/abs/" + quote(arxiv, safe="/")))
    if paper.url and paper.url.strip():
        out.append(link(one_line(paper.url), one_line(paper.url)))
    return out


# --- images in the user's markdown ------------------------------------------------------------

_IMAGE_START = "!["
_IMAGE_AS_LINK = "[image: "


@functools.cache
def _gfm_parser() -> MarkdownIt:
    """markdown_it is imported on first need (only md and html need it)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable(["table", "strikethrough"])


def _counts(markdown: str) -> tuple[int, int]:
    """(images, links) a CommonMark/GFM renderer would make of *markdown*."""
    images = links = 0
    stack = list(_gfm_parser().parse(markdown))
    while stack:
        token = stack.pop()
        images += token.type == "image"
        links += token.type == "link_open"
        stack.extend(token.children or ())
    return images, links


def _label_end(markdown: str, start: int) -> int | None:
    """Index of the ``]`` closing the bracket opened just before *start* (escapes skipped)."""
    depth, i = 1, start
    while i < len(markdown):
        char = markdown[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


def _candidates(markdown: str, at: int) -> list[str]:
    """Rewrites of the ``![`` at *at* as a link: a shortcut or collapsed reference image
    (``![logo]``, ``![logo][]``) keeps its reference as ``[image: logo][logo]``; any image
    becomes ``[image: ...`` with the rest unchanged."""
    inner = at + len(_IMAGE_START)
    plain = markdown[:at] + _IMAGE_AS_LINK + markdown[inner:]
    end = _label_end(markdown, inner)
    if end is None:
        return [plain]
    label, after = markdown[inner:end], markdown[end + 1 :]
    if after.startswith("[]"):
        after = after[2:]
    elif after.startswith(("(", "[")):
        return [plain]
    return [f"{markdown[:at]}{_IMAGE_AS_LINK}{label}][{label}]{after}", plain]


def images_as_links(markdown: str) -> str:
    """Every image in the user's *markdown* as a link to it: ``![alt](url)`` becomes
    ``[image: alt](url)`` (``![logo]`` becomes ``[image: logo][logo]``), so that viewing an
    export loads nothing.

    Only a ``![`` that starts an image is changed (one in code, or ``Wow![sic]``, is kept): each
    rewrite is tried and kept when the parse has an image fewer and no link fewer. Should an
    image still be left, every ``![`` is escaped as ``!\\[``, which cannot start an image.
    """
    images, links = _counts(markdown)
    start = 0
    while images:
        at = markdown.find(_IMAGE_START, start)
        if at < 0:
            break
        start = at + len(_IMAGE_START)
        for candidate in _candidates(markdown, at):
            fewer, more = _counts(candidate)
            if fewer < images and more >= links:
                markdown, images, links = candidate, fewer, more
                start = at + len(_IMAGE_AS_LINK)
                break
    return markdown.replace(_IMAGE_START, "!\\[") if images else markdown


DERIVED_NOTE = "title derived from the abstract"
"""What an export says beside a title Marginalia derived from the abstract, so an export never passes it off as the paper's own."""
_DERIVED_END = re.compile(r"(?:\s*(?:…|\.\.\.)|[\s.;:,])+$")


DERIVED_LINE = "Title derived from the abstract."
"""The note line of a derived title (CSL-JSON, RIS); formats/own_fields.py drops it when read back."""


def derived_line(paper: ExportPaper) -> str:
    return DERIVED_LINE if is_derived(paper) else ""


def is_derived(paper: ExportPaper) -> bool:
    return paper.title_source == "derived"


def export_title(paper: ExportPaper) -> str:
    """The title as exports write it: a derived one without its "…" (where it was cut) or a
    final full stop (a citation style adds its own), so it never reads "… ." or ".."."""
    title = one_line(paper.title)
    return _DERIVED_END.sub("", title) if is_derived(paper) else title
