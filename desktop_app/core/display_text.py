"""Text from imported files made safe to show (a file can be crafted to spoof the screen): a title, author or venue can
hold Unicode's bidirectional overrides (U+202E turns "gpj.exe" into "exe.jpg" on screen) or
hundreds of stacked combining marks ("Zalgo" text that paints over the rows around it).

:func:`display_text` removes the bidi embeddings, overrides and isolates and keeps at most
:data:`MAX_MARKS` combining marks on one letter (enough for Vietnamese, Hebrew vowel points
and IPA); applied where a paper is read for the reader, the table and the exports. An abstract's
text keeps its length (highlights are offsets into it), so :func:`neutral_bidi` replaces each of
those controls with a zero-width space instead of removing it.
"""

from __future__ import annotations

import re
import unicodedata

# LRE RLE PDF LRO RLO, LRI RLI FSI PDI (the marks LRM/RLM change no order beyond a character)
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
MAX_MARKS = 3
_BIDI = re.compile(f"[{BIDI_CONTROLS}]")
_NEUTRAL = str.maketrans({c: "\u200b" for c in BIDI_CONTROLS})
_MARK_RANGES = r"\u0300-\u036f\u0483-\u0489\u0591-\u05bd\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_MARKS = re.compile(f"[{_MARK_RANGES}]{{{MAX_MARKS + 1},}}")


def _keep_marks(match: re.Match[str]) -> str:
    marks = [c for c in match.group() if unicodedata.combining(c)]
    return "".join(marks[:MAX_MARKS]) if marks else match.group()[:MAX_MARKS]


def display_text(text: str | None) -> str:
    """``text`` without bidi controls and with runs of combining marks cut to MAX_MARKS."""
    if not text:
        return text or ""
    if text.isascii():
        return text
    return _MARKS.sub(_keep_marks, _BIDI.sub("", text))


def neutral_bidi(text: str) -> str:
    """``text`` with each bidi control replaced by a zero-width space (the length is kept)."""
    return text if text.isascii() else text.translate(_NEUTRAL)
