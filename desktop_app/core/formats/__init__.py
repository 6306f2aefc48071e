"""Import files: detect the format by content and read it into a :class:`ParseResult`.

>>> from desktop_app.core.formats import read_path, read_bytes, FORMATS
>>> result = read_path("papers.bib")          # format detected from the content
>>> result = read_bytes(data, fmt="ris")       # format forced

Neither function raises for bad input: a file that is not bibliographic, too large, or
broken comes back as a ParseResult whose ``errors`` say why (``format="unknown"`` when
nothing bibliographic was recognised). Decoding guesses are reported in ``warnings``.

Hostile files end in a report, in time and memory linear in their size (see
``benchmarks/hostile_files.py``): files over ``max_bytes`` are refused; the time budget stops
every stage of a reader; a BibTeX ``@string`` may grow a value to ``MAX_EXPANSION_CHARS``
(the entry that needs more is reported, not imported); a record holding a NUL byte is dropped
with an error, the rest of the file imports; an abstract or note over ``MAX_ABSTRACT_CHARS``
(100,000 characters), any other field over ``MAX_FIELD_CHARS`` (10,000), more than
``MAX_TAGS`` tags or keywords, more than ``MAX_NAMES`` authors or editors, or a source text over
``MAX_RAW_CHARS`` are cut with a warning; a file imports at most ``MAX_RECORDS`` records (all in
:mod:`.limits`). A record with nothing in it (no title, abstract, authors, venue or identifier)
is reported, not imported; only regular files are opened (:mod:`.regular_file`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from desktop_app.core.formats.reading import (
        FORMAT_LABELS,
        FORMATS,
        ImportTooLarge,
        read_bytes,
        read_path,
        read_text,
    )

__all__ = ["FORMATS", "FORMAT_LABELS", "ImportTooLarge", "read_bytes", "read_path", "read_text"]


def __getattr__(name: str) -> object:
    """The readers load at first use (``formats.reading``): importing ``formats.identity`` or
    ``formats.atomic`` alone stays light (a shorter start-up)."""
    if name.startswith("__") or name == "reading":  # "reading": asked while it is imported
        raise AttributeError(name)
    import importlib

    reading = importlib.import_module("desktop_app.core.formats.reading")
    try:
        return getattr(reading, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
