"""LaTeX-lite abstracts to plain text and safe HTML, and derived titles.

Both outputs come from one segment list, so offsets into :func:`to_plain` (search hits,
highlights) map exactly onto the rendered HTML::

    from desktop_app.core.text import to_plain, to_html, derive_title, Segment, segments, Mark
"""

from desktop_app.core.text.render import (
    HIGHLIGHT_COLORS,
    HIT_BACKGROUND,
    STYLESHEET,
    Mark,
    term_spans,
    to_html,
    to_plain,
)
from desktop_app.core.text.segments import Segment, segments
from desktop_app.core.text.titles import derive_title

__all__ = [
    "HIGHLIGHT_COLORS",
    "HIT_BACKGROUND",
    "STYLESHEET",
    "Mark",
    "Segment",
    "derive_title",
    "segments",
    "term_spans",
    "to_html",
    "to_plain",
]
