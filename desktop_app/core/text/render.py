"""Plain text and safe HTML from one segment list.

``to_html`` output is an inline HTML fragment for QTextBrowser. Every character of the
source is escaped; the only tags are the ones made here:

* ``<b>``, ``<i>``, ``<code>`` for emphasis and code;
* ``<span class="math">`` and ``<span class="ref">`` for formulas and "[ref]"/"[cite]";
* ``<span class="hit" style="background-color:…">`` around search-term matches;
* ``<span class="hl hl-COLOR" data-key="KEY" style="background-color:…">`` for highlights.

Highlights and hits carry an inline ``background-color`` (QTextBrowser renders it on spans
without any stylesheet); the classes let the GUI restyle them through
``QTextDocument.setDefaultStyleSheet`` (see :data:`STYLESHEET`). ``<mark>`` is not used:
Qt's rich text ignores it. The fragment adds no characters of its own, so the document's
plain text equals :func:`to_plain` and a QTextCursor position is a plain-text offset.
Tags are closed and reopened where styles, hits and highlights cross, so the output is
always well formed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape

from desktop_app.core.text.segments import segments

__all__ = ["HIGHLIGHT_COLORS", "HIT_BACKGROUND", "STYLESHEET", "Mark", "to_html", "to_plain"]

#: Named highlight colours (soft backgrounds that keep black text readable).
HIGHLIGHT_COLORS = {
    "yellow": "#fff59d",
    "green": "#c5e1a5",
    "blue": "#b3e5fc",
    "pink": "#f8bbd0",
    "orange": "#ffcc80",
    "purple": "#d1c4e9",
    "red": "#ef9a9a",
    "gray": "#e0e0e0",
}
HIT_BACKGROUND = "#ffd54f"
#: Default stylesheet for the reader's QTextDocument (class selectors for our spans).
STYLESHEET = (
    ".math { font-family: 'STIX Two Math', 'Cambria Math', serif; }\n"
    ".ref { color: #6b7280; }\n"
    "code { font-family: monospace; }\n"
    f".hit {{ background-color: {HIT_BACKGROUND}; }}\n"
    + "".join(f".hl-{name} {{ background-color: {hex_}; }}\n" for name, hex_ in HIGHLIGHT_COLORS.items())
)

_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
_CLASS_SAFE = re.compile(r"[^a-z0-9-]")


@dataclass(frozen=True)
class Mark:
    """A highlight over ``to_plain(raw)[start:end]``. Orphans (no longer placeable) are not drawn."""

    start: int
    end: int
    color: str
    key: str = ""
    orphan: bool = False


def to_plain(raw: str) -> str:
    """What the reader sees, as plain text: for search, titles, CSV and the CLI."""
    return "".join(s.text for s in segments(raw))


def _color(color: str) -> tuple[str, str]:
    """(class suffix, CSS background) for a named colour or a ``#rgb``/``#rrggbb`` value."""
    name = (color or "").strip().lower()
    if name in HIGHLIGHT_COLORS:
        return name, HIGHLIGHT_COLORS[name]
    if _HEX.fullmatch(name):
        return "custom", name
    return (_CLASS_SAFE.sub("", name) or "yellow"), HIGHLIGHT_COLORS["yellow"]


@lru_cache(maxsize=256)
def _term_pattern(terms: tuple[str, ...]) -> re.Pattern[str] | None:
    """One regex for all terms: whole words, case-insensitive; ``*`` any word chars, ``?`` one."""
    parts = []
    for term in terms:
        words = term.strip().strip("\"'").split()
        pieces = [
            "".join(r"\w*" if ch == "*" else r"\w" if ch == "?" else re.escape(ch) for ch in word) for word in words
        ]
        body = r"\s+".join(p for p in pieces if p)
        if body and body.replace(r"\w*", "").replace(r"\s+", ""):
            parts.append(body)
    if not parts:
        return None
    parts.sort(key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(parts) + r")(?!\w)", re.IGNORECASE)


def term_spans(plain: str, terms: Sequence[str]) -> list[tuple[int, int]]:
    """Offsets in ``plain`` of the words matching ``terms`` (merged where they touch)."""
    if not terms:
        return []
    pattern = _term_pattern(tuple(t for t in terms if isinstance(t, str)))
    if pattern is None:
        return []
    spans: list[tuple[int, int]] = []
    for m in pattern.finditer(plain):
        if m.end() <= m.start():
            continue
        if spans and m.start() <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], m.end()))
        else:
            spans.append((m.start(), m.end()))
    return spans


_STYLE_TAGS = (
    ("bold", "<b>", "</b>"),
    ("italic", "<i>", "</i>"),
    ("code", "<code>", "</code>"),
    ("math", '<span class="math">', "</span>"),
    ("ref", '<span class="ref">', "</span>"),
)
_HIT_OPEN = f'<span class="hit" style="background-color:{HIT_BACKGROUND}">'


def to_html(raw: str, *, terms: Sequence[str] = (), marks: Sequence[Mark] = ()) -> str:
    """Safe inline HTML for the reader, with search hits and highlights (see module doc)."""
    segs = segments(raw)
    plain = "".join(s.text for s in segs)
    n = len(plain)
    hits = term_spans(plain, [terms] if isinstance(terms, str) else terms or ())
    placed = []
    for index, mark in enumerate(marks or ()):
        try:
            start, end = max(0, int(mark.start)), min(n, int(mark.end))
        except (TypeError, ValueError, AttributeError):
            continue
        if start < end and not mark.orphan:
            placed.append((start, -end, index, mark))
    placed.sort(key=lambda item: item[:3])

    cuts = {0, n}
    offset, seg_starts = 0, []
    for seg in segs:
        seg_starts.append(offset)
        offset += len(seg.text)
    cuts.update(seg_starts)
    for a, b in hits:
        cuts.update((a, b))
    for start, neg_end, _, _ in placed:
        cuts.update((start, -neg_end))
    points = sorted(cuts)

    out: list[str] = []
    stack: list[tuple[object, str]] = []  # (identity, closing tag)
    seg_i = hit_i = 0
    for a, b in zip(points, points[1:], strict=False):
        while seg_i + 1 < len(segs) and seg_starts[seg_i + 1] <= a:
            seg_i += 1
        while hit_i < len(hits) and hits[hit_i][1] <= a:
            hit_i += 1
        wanted: list[tuple[object, str, str]] = []
        for start, neg_end, index, mark in placed:
            if start <= a and b <= -neg_end:
                cls, bg = _color(mark.color)
                opening = f'<span class="hl hl-{cls}" data-key="{escape(str(mark.key))}" style="background-color:{bg}">'
                wanted.append((("mark", index), opening, "</span>"))
        if hit_i < len(hits) and hits[hit_i][0] <= a:
            wanted.append(("hit", _HIT_OPEN, "</span>"))
        seg = segs[seg_i]
        for flag, opening, closing in _STYLE_TAGS:
            if getattr(seg, flag):
                wanted.append((flag, opening, closing))
        keep = 0
        while keep < len(stack) and keep < len(wanted) and stack[keep][0] == wanted[keep][0]:
            keep += 1
        while len(stack) > keep:
            out.append(stack.pop()[1])
        for identity, opening, closing in wanted[keep:]:
            out.append(opening)
            stack.append((identity, closing))
        out.append(escape(plain[a:b]))
    while stack:
        out.append(stack.pop()[1])
    return "".join(out)
