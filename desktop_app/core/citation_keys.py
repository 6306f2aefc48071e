"""Citation keys: each paper gets one when it enters the library, unique there, and keeps it.

The pattern (:func:`pattern_key`) is ``familyYEARfirstword`` in lower-case ASCII, the way
Google Scholar and Better BibTeX's default name papers: ``vaswani2017attention``; ``anon``
stands in for a missing author, ``nd`` for a missing year. A file's own key is kept when it is
valid (:func:`is_valid_key`) and free; a clash gets ``a``, ``b``, ... appended
(:func:`unique_key`). Keys are compared case-insensitively, as BibTeX does. Used by the imports,
the metadata editor, the exports (which never change a stored key) and migration 0008.
Imports nothing but the author-name splitter (the file readers and migrations use it).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from desktop_app.core.formats.writer_common import family_name

_FOLD = str.maketrans(
    {
        "ß": "ss",
        "æ": "ae",
        "Æ": "AE",
        "ø": "o",
        "Ø": "O",
        "œ": "oe",
        "Œ": "OE",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "þ": "th",
        "Þ": "Th",
        "ð": "d",
        "ı": "i",
    }
)
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+\*?|\\.")
_STOPWORDS = frozenset(
    "a an the on of in for and or to with from by at as is are via towards toward into "
    "when what why how do does can we our its this that".split()
)
# what BibTeX and biber take in a key: no spaces, none of , { } " # % ' ( ) = \ ~ (letters
# beyond ASCII too, as biber and Better BibTeX write them)
_KEY_OK = re.compile(r"^[^\s,{}\"#%'()=\\~]+$")
MAX_KEY_LENGTH = 100


def ascii_fold(text: str) -> str:
    """Lower-case ASCII letters and digits only: ``"Müller"`` -> ``"muller"``."""
    if text.isascii():
        return "".join(c for c in text if c.isalnum()).lower()
    text = unicodedata.normalize("NFKD", text.translate(_FOLD))
    return "".join(c for c in text if c.isascii() and c.isalnum()).lower()


def _first_word(title: str) -> str:
    """First significant word of *title*, folded; LaTeX commands are dropped first (the words
    are folded one by one, only as far as the first that is not a stop word)."""
    first = ""
    for piece in re.split(r"[^\w]+", _LATEX_COMMAND.sub("", title) if "\\" in title else title):
        word = ascii_fold(piece) if piece else ""
        if not word:
            continue
        if word not in _STOPWORDS:
            return word
        first = first or word
    return first


def is_valid_key(key: str) -> bool:
    """Whether ``key`` can stand as a BibTeX key: no spaces, none of ``,{}"#%'()=\\~``."""
    return bool(key) and len(key) <= MAX_KEY_LENGTH and bool(_KEY_OK.match(key))


def pattern_key(authors: Sequence[str], year: int | None, title: str) -> str:
    """``familyYEARfirstword``, e.g. ``vaswani2017attention``; ``anon`` and ``nd`` stand in."""
    family = ascii_fold(family_name(authors[0])) if authors else ""
    # (a name or word of hundreds of letters is cut: a suffix must still fit MAX_KEY_LENGTH)
    return f"{family or 'anon'}{year or 'nd'}{_first_word(title)}"[: MAX_KEY_LENGTH - 10]


def _suffix_at(n: int) -> str:
    """The ``n``-th (from 0) of ``a``, ``b``, ..., ``z``, ``aa``, ``ab``, ..., computed without the
    ones before it."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    width, total = 1, len(letters)
    while n >= total:
        n -= total
        width += 1
        total = len(letters) ** width
    out = ""
    for _ in range(width):
        n, r = divmod(n, len(letters))
        out = letters[r] + out
    return out


def unique_key(base: str, taken: AbstractSet[str], tried: dict[str, int] | None = None) -> str:
    """``base``, or the first of ``base`` + ``a``, ``b``, ... not in ``taken`` (lower-case keys).

    ``tried`` (lower-case base -> how many of its suffixes were found taken) lets a caller whose
    ``taken`` only grows start where the last search stopped: an import of 20,000 entries that
    share one base took 20,000 × 10,000 look-ups without it."""
    folded = base.lower()
    if folded not in taken:
        return base
    start = tried.get(folded, 0) if tried is not None else 0
    for n in itertools.count(start):
        key = base + _suffix_at(n)
        if key.lower() not in taken:
            if tried is not None:
                tried[folded] = n + 1
            return key
    raise AssertionError("unreachable: the suffixes never end")
