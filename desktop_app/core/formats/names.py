"""Author names: split name lists and write each person as "Family, Given".

The stored form follows BibTeX's own: ``"von Family, Given"`` or, with a suffix,
``"Family, Jr., Given"``; a name with no given part (an institution, a mononym) stays
literal (``"World Health Organization"``). Such strings round-trip through BibTeX.
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

_ET_AL = re.compile(r"^(?:others|et\.?\s*al\.?|\.\.\.|…)$", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
_SUFFIX = re.compile(r"^(?:jr|sr|jun|sen|[ivx]{1,4})\.?$", re.IGNORECASE)
_PARTICLES = {
    "van", "von", "der", "den", "de", "del", "della", "dei", "di", "da", "das", "dos", "du",
    "le", "la", "ter", "ten", "zu", "vom",
}
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)


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

    return format_name(
        join(parts.last), join(parts.first), particle=join(parts.von), suffix=join(parts.jr)
    )


def split_bibtex_names(
    value: str, convert: Callable[[str], str] = str
) -> tuple[list[str], bool]:
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
    try:
        return format_name_parts(parse_single_name_into_parts(raw, strict=False), convert)
    except Exception:  # noqa: BLE001 - keep an unparseable name as written
        return convert(raw)


def parse_display_name(name: str) -> str:
    """Normalise one person's name written either "Given Family" or "Family, Given".

    "Given Family" follows BibTeX's rules, except that a capitalised particle (Del, Van,
    De, ...) starts the family name as in "Adrian Del Maestro" -> "Del Maestro, Adrian".
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
    for i, word in enumerate(words[1:-1], start=1):
        if word.lower() in _PARTICLES:  # "Adrian Del Maestro": capitalised particle
            return format_name(" ".join(words[i:]), " ".join(words[:i]))
    try:
        parts = parse_single_name_into_parts(name, strict=False)
    except Exception:  # noqa: BLE001 - odd input: keep the name as written
        return name
    return format_name_parts(parts) or name


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


def family_key(author: str) -> str:
    """The comparable core of an author's family name: its last word, lower case, without
    accents or punctuation ("von Neumann, John" -> "neumann", "Del Maestro, A." -> "maestro")."""
    family = author.split(",", 1)[0]
    words = family.split()
    if not words:
        return ""
    decomposed = unicodedata.normalize("NFKD", words[-1].casefold())
    return "".join(ch for ch in decomposed if ch.isalnum())
