"""Author names: split name lists and write each person as "Family, Given".

The stored form follows BibTeX's own: ``"von Family, Given"`` or, with a suffix,
``"Family, Jr., Given"``; a name with no given part (an institution, a mononym) stays
literal (``"World Health Organization"``). Such strings round-trip through BibTeX.

A name without a comma is "Given Family" to BibTeX, but many exports write the family name
first with no comma: "Smith J", "YANG Y", "YANG Yi-Ming" (the family name in capitals, as
Chinese and French databases write it). :func:`family_first` recognises these shapes, which
"Given Family" names do not take, and both the BibTeX and the display-name parsers use it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache

from bibtexparser.middlewares.names import (
    NameParts,
    parse_single_name_into_parts,
    split_multiple_persons_names,
)

from desktop_app.core.formats.identity import family_key  # noqa: F401  (moved there; re-exported)

_ET_AL = re.compile(r"^(?:others|et\.?\s*al\.?|\.\.\.|…)$", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
_SUFFIX = re.compile(r"^(?:jr|sr|jun|sen|[ivx]{1,4})\.?$", re.IGNORECASE)
_PARTICLES = {
    "van",
    "von",
    "der",
    "den",
    "de",
    "del",
    "della",
    "dei",
    "di",
    "da",
    "das",
    "dos",
    "du",
    "le",
    "la",
    "ter",
    "ten",
    "zu",
    "vom",
}
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_LETTER = r"[^\W\d_]"
_INITIALS = re.compile(rf"(?:{_LETTER}[.\-]*)+")  # "Y", "Y.", "Y.-M.", "YM"
_TWO_LETTERS = re.compile(rf"{_LETTER}{{2}}")
_VOWELS = set("AEIOUY")
_SPACES_OUTSIDE = r"\s+"


def _clean(text: str) -> str:
    return _SPACES.sub(" ", text.replace("\xa0", " ")).strip(" ,")


def format_name(family: str, given: str = "", *, particle: str = "", suffix: str = "") -> str:
    """Join name parts as "particle Family, Suffix, Given" (empty parts left out)."""
    family = _clean(f"{particle} {family}")
    given, suffix = _clean(given), _clean(suffix)
    if not family:
        return given
    parts = [family, suffix, given] if suffix else [family, given]
    return ", ".join(p for p in parts if p)


def is_et_al(name: str) -> bool:
    """True for the "and others" / "et al." placeholders that stand for more authors."""
    return bool(_ET_AL.match(name.strip()))


def format_name_parts(parts: NameParts, convert: Callable[[str], str] = str) -> str:
    """Format bibtexparser :class:`NameParts`, converting each part (e.g. LaTeX to text)."""

    def join(words: list[str]) -> str:
        return convert(" ".join(words)) if words else ""

    return format_name(join(parts.last), join(parts.first), particle=join(parts.von), suffix=join(parts.jr))


def _letters(word: str) -> str:
    return "".join(ch for ch in word if ch.isalpha())


def _is_initials(word: str, *, clusters: bool = False) -> bool:
    """ "Y", "Y.", "Y.-M.", "Y-M" (capitals, each followed by a dot or hyphen but the last);
    two or three capitals written together when they hold no vowel ("PJ", "JRR"), and with
    ``clusters`` also when they do ("YM", "JA": a short family name could look so)."""
    if not _INITIALS.fullmatch(word) or not _letters(word).isupper():
        return False
    if not _TWO_LETTERS.search(word):
        return True
    if len(word) > 3 or "." in word or "-" in word:
        return False
    return clusters or not any(ch in _VOWELS for ch in word)


def _is_capitals(word: str) -> bool:
    """A word in capitals of two letters or more: "YANG", "O'BRIEN", "GARCÍA-LÓPEZ"."""
    letters = _letters(word)
    return len(letters) >= 2 and letters.isupper()


def _is_given_name(word: str) -> bool:
    """A capitalised word with small letters ("Yi-Ming", "María"), or initials."""
    letters = _letters(word)
    return bool(letters) and (letters[0].isupper() and not letters.isupper() or _is_initials(word))


def _sounds_like_a_word(word: str) -> bool:
    """Three letters or more with a vowel: "YANG", "FUENTE"; not "JRR" or "AB"."""
    letters = unicodedata.normalize("NFKD", _letters(word))
    return len(_letters(word)) >= 3 and any(ch in _VOWELS for ch in letters.upper())


def family_first(words: list[str]) -> int:
    """How many leading ``words`` of a comma-less name are the family name when it is written
    family first; 0 when the name reads as BibTeX's "Given Family".

    Two shapes are family first, since no "Given Family" name takes them:

    - the name ends in initials: "Smith J", "Smith J.-P.", "Smith PJ", "van der Berg J",
      "YANG Y", and, after a family name in capitals, "YANG YM" (a family name is never an
      initial). "Smith JA" stays "Given Family": "Wei WU" is written so too;
    - a family name in capitals comes before one or two given names: "YANG Yi-Ming",
      "DE LA FUENTE María", "WANG Xiao Ming" (one of its words has three letters or more and
      a vowel, so initials such as "JRR Tolkien" or "AB Smith" stay "Given Family"; a
      two-letter family name, "LI Wei", cannot be told from them and stays so too).
    """
    if len(words) < 2:
        return 0
    head_in_capitals = _is_capitals(words[0])
    end = len(words)
    while end > 1 and _is_initials(words[end - 1], clusters=head_in_capitals):
        end -= 1
    if (
        end < len(words)
        and len(_letters(words[end - 1])) >= 2
        and not (_is_initials(words[end - 1]) or head_in_capitals and not _is_capitals(words[end - 1]))
    ):
        return end
    capitals = 0
    while capitals < len(words) and _is_capitals(words[capitals]):
        capitals += 1
    given = words[capitals:]
    if not capitals or not 1 <= len(given) <= 2 or not all(map(_is_given_name, given)):
        return 0
    return capitals if any(map(_sounds_like_a_word, words[:capitals])) else 0


@lru_cache(maxsize=8)
def _braces_or(separator: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\\)[{{}}]|{separator}")


def split_outside_braces(value: str, separator: str) -> list[str]:
    """``value`` split at the matches of the regular expression ``separator`` that stand
    outside BibTeX braces (an escaped ``\\{`` is no brace): ``{Smith, J.}, X`` at "," gives
    ``["{Smith, J.}", " X"]``."""
    pieces, depth, start = [], 0, 0
    for m in _braces_or(separator).finditer(value):
        char = m.group()
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
        elif not depth:
            pieces.append(value[start : m.start()])
            start = m.end()
    pieces.append(value[start:])
    return pieces


def _words_outside_braces(raw: str) -> list[str] | None:
    """The words of a BibTeX name, split at spaces outside braces; None when it has a comma
    outside braces (then BibTeX's "Family, Given" reading applies)."""
    words = [w for w in split_outside_braces(raw, _SPACES_OUTSIDE) if w]
    if any("," in _outside_braces(w) for w in words):
        return None
    return words


def _outside_braces(word: str) -> str:
    out, depth = [], 0
    for ch in word:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif not depth:
            out.append(ch)
    return "".join(out)


def split_bibtex_names(value: str, convert: Callable[[str], str] = str) -> tuple[list[str], bool]:
    """Split a BibTeX ``author`` value ("A and B and others").

    Returns the formatted names (each part passed through ``convert``) and whether the
    list ended in "and others".
    """
    people: list[str] = []
    et_al = False
    try:
        raw_names = split_multiple_persons_names(value)
    except Exception:  # noqa: BLE001 - malformed braces: fall back to a plain split
        raw_names = _AND.split(value)
    for raw in raw_names:
        if is_et_al(raw):
            et_al = True
            continue
        if name := _bibtex_person(raw, convert):
            people.append(name)
    return people, et_al


@lru_cache(maxsize=16384)
def _bibtex_person(raw: str, convert: Callable[[str], str]) -> str:
    """One BibTeX name formatted (cached: the same people recur throughout a file)."""
    words = _words_outside_braces(raw.strip())
    if words and (split := family_first([convert(w) for w in words])):
        return format_name(convert(" ".join(words[:split])), convert(" ".join(words[split:])))
    try:
        return format_name_parts(parse_single_name_into_parts(raw, strict=False), convert)
    except Exception:  # noqa: BLE001 - keep an unparseable name as written
        return convert(raw)


def parse_display_name(name: str) -> str:
    """Normalise one person's name written either "Given Family" or "Family, Given".

    "Given Family" follows BibTeX's rules, except that a capitalised particle (Del, Van,
    De, ...) starts the family name as in "Adrian Del Maestro" -> "Del Maestro, Adrian", and
    that a name written family first ("YANG Yi-Ming", "Smith J"; see :func:`family_first`)
    keeps that order.
    """
    name = _clean(name)
    if not name:
        return ""
    if "," in name:
        parts = [p.strip() for p in name.split(",") if p.strip()]
        if len(parts) == 3 and _SUFFIX.match(parts[2]) and not _SUFFIX.match(parts[1]):
            parts = [parts[0], parts[2], parts[1]]  # RIS "Family, Given, Jr." order
        return ", ".join(parts)
    words = name.split(" ")
    if split := family_first(words):  # "YANG Yi-Ming", "Smith J"
        return format_name(" ".join(words[:split]), " ".join(words[split:]))
    for i, word in enumerate(words[1:-1], start=1):
        if word.lower() in _PARTICLES:  # "Adrian Del Maestro": capitalised particle
            return format_name(" ".join(words[i:]), " ".join(words[:i]))
    try:
        name_parts = parse_single_name_into_parts(name, strict=False)
    except Exception:  # noqa: BLE001 - odd input: keep the name as written
        return name
    return format_name_parts(name_parts) or name


def split_name_list(text: str) -> tuple[list[str], bool]:
    """Split a free-text author list on ";" (or " and " when there is no ";").

    Returns normalised names and whether an "et al." placeholder was present.
    """
    pieces = text.split(";") if ";" in text else _AND.split(text)
    names: list[str] = []
    et_al = False
    for piece in pieces:
        if is_et_al(piece):
            et_al = True
        elif name := parse_display_name(piece):
            names.append(name)
    return names, et_al
