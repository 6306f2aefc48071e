"""Normal forms of identifiers (DOI, arXiv id, ISBN, PubMed id) and of texts (titles,
abstracts), and whether a record holds anything at all. When two records are one paper is
:mod:`desktop_app.core.sameness`, built on these."""

from __future__ import annotations

import re
import unicodedata

from desktop_app.core.records import Record

_DOI_PREFIX = re.compile(
    r"^\s*(?:doi\s*:\s*|(?:https?://)?(?:dx\.|www\.)?doi\.org/|"
    r"(?:https?://)?hdl\.handle\.net/)",
    re.IGNORECASE,
)
_DOI_SHAPE = re.compile(r"^10\.\d+(?:\.\d+)*/\S+$")
_ARXIV_PREFIX = re.compile(
    r"^\s*(?:arxiv\s*:\s*|(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/)",
    re.IGNORECASE,
)
_ARXIV_NEW = re.compile(r"^(\d{4}\.\d{4,5})(?:v\d+)?$")
_ARXIV_OLD = re.compile(r"^([a-z][a-z.\-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?$", re.IGNORECASE)
_NON_WORD = re.compile(r"[\W_]+")
_PUNCTUATION = re.compile(r"[^\w\s]|_")
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")
_SPACES = re.compile(r"\s+")
_ISBN_LABEL = re.compile(r"^\s*ISBN(?:-1[03])?\s*:?\s*", re.IGNORECASE)
_ISBN_SHAPE = re.compile(r"^(?:97[89][- ]?)?\d(?:[- ]?\d){8}[- ]?[\dX]$", re.IGNORECASE)


def clean_doi(doi: str | None) -> str | None:
    """A DOI without resolver prefix or surrounding junk, in its original case; None if the
    text is not a DOI."""
    if not doi:
        return None
    value = _DOI_PREFIX.sub("", doi.strip()).strip().rstrip(".,;")
    return value if _DOI_SHAPE.match(value) else None


def normalize_doi(doi: str | None) -> str | None:
    """The DOI in comparable form: lower case, no ``https://doi.org/`` or ``doi:`` prefix."""
    value = clean_doi(doi)
    return value.lower() if value else None


def normalize_arxiv_id(arxiv_id: str | None) -> str | None:
    """An arXiv identifier without "arXiv:" prefix, URL form, ".pdf" or version ("v2");
    None when the text is not an arXiv id."""
    if not arxiv_id:
        return None
    value = _ARXIV_PREFIX.sub("", arxiv_id.strip()).strip().rstrip("/")
    value = value.removesuffix(".pdf")
    if m := _ARXIV_NEW.match(value):
        return m.group(1)
    if m := _ARXIV_OLD.match(value):
        return m.group(1)
    return None


def _plain_words(text: str) -> str:
    """Lower case, no accents, punctuation removed, whitespace collapsed."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return _SPACES.sub(" ", _NON_WORD.sub(" ", text)).strip()


def normalize_title(title: str | None) -> str:
    """A title in comparable form: lower case, accents, LaTeX commands and punctuation
    dropped, whitespace collapsed ("{B}ayesian \\emph{Nets}!" -> "bayesian nets")."""
    if not title:
        return ""
    without_commands = _LATEX_COMMAND.sub(" ", title)
    return _plain_words(without_commands.replace("{", "").replace("}", ""))


_PLACEHOLDER_ABSTRACTS = frozenset(
    {
        "no abstract available",
        "no abstract",
        "abstract not available",
        "abstract unavailable",
        "not available",
        "no abstract provided",
        "abstract missing",
        "missing abstract",
        "none",
        "na",
        "n a",
        "abstract",
        "no summary available",
        "summary not available",
        "tbd",
        "tba",
    }
)
"""Abstracts (in :func:`normalize_abstract` form) that databases write where they have none."""


def is_placeholder_abstract(abstract: str | None) -> bool:
    """True for an abstract that only says there is none ("[No abstract available]",
    "Abstract not available.", "N/A"): it identifies nothing, so two records sharing it are
    not alike for it."""
    text = normalize_abstract(abstract)
    return text in _PLACEHOLDER_ABSTRACTS or (text.startswith("no abstract") and len(text) < 40)


def normalize_abstract(abstract: str | None) -> str:
    """An abstract in comparable form: lower case, whitespace collapsed, punctuation removed."""
    if not abstract:
        return ""
    text = _PUNCTUATION.sub("", unicodedata.normalize("NFKC", abstract).casefold())
    return _SPACES.sub(" ", text).strip()


def has_content(record: Record) -> bool:
    """True when a record holds anything to show or identify it by (title, abstract, authors,
    editors, venue, DOI, arXiv id, PubMed id, ISBN or URL); readers skip, and report, records
    without any. A reference that names only where it appeared (Scopus writes such records for
    cited reports) is kept, as Zotero keeps it."""
    return bool(
        record.title
        or record.abstract.strip()
        or record.authors
        or record.editors
        or record.venue
        or record.doi
        or record.arxiv_id
        or record.pmid
        or record.isbn
        or record.url
    )


def isbn_from(text: str) -> str | None:
    """The ISBN ``text`` holds, as written (hyphens kept): 10 or 13 digits (the last of ten may
    be X) with a valid check digit, optionally after "ISBN:" and before a qualifier such as
    "(pbk.)" or a second number after ";". None for anything else (an ISSN, a report number)."""
    value = _ISBN_LABEL.sub("", text or "")
    value = re.split(r"[;,]|\s\(", value, maxsplit=1)[0].strip()
    if not _ISBN_SHAPE.match(value):
        return None
    digits = re.sub(r"[- ]", "", value).upper()
    if len(digits) == 10:
        total = sum((10 - i) * (10 if ch == "X" else int(ch)) for i, ch in enumerate(digits))
        return value if total % 11 == 0 else None
    if not digits.isdigit():
        return None
    total = sum(int(ch) * (3 if i % 2 else 1) for i, ch in enumerate(digits))
    return value if total % 10 == 0 else None


_ISBN_JUNK = re.compile(r"[\s\-‐‑]")
_PMID = re.compile(r"^\s*(?:pmid\s*:?\s*)?(\d{1,9})\s*$", re.IGNORECASE)


def normalize_isbn(isbn: str | None) -> str | None:
    """An ISBN as 13 digits (an ISBN-10 converted), or None when the text holds no ISBN."""
    if not isbn:
        return None
    value = _ISBN_JUNK.sub("", isbn.split()[0] if isbn.split() else "").upper()
    if re.fullmatch(r"\d{9}[\dX]", value):
        core = "978" + value[:9]
        check = (10 - sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(core)) % 10) % 10
        return core + str(check)
    return value if re.fullmatch(r"97[89]\d{10}", value) else None


def normalize_pmid(pmid: str | None) -> str | None:
    """A PubMed id as digits without leading zeros, or None."""
    m = _PMID.match(pmid or "")
    if not m or not int(m.group(1)):
        return None
    return str(int(m.group(1)))


def family_key(author: str) -> str:
    """The comparable core of an author's family name: its last word, lower case, without
    accents or punctuation ("von Neumann, John" -> "neumann", "Del Maestro, A." -> "maestro").

    Here rather than in ``names`` (which needs bibtexparser): the duplicate rules load at
    start-up, which should not pay for bibtexparser."""
    family = author.split(",", 1)[0]
    words = family.split()
    if not words:
        return ""
    decomposed = unicodedata.normalize("NFKD", words[-1].casefold())
    return "".join(ch for ch in decomposed if ch.isalnum())
