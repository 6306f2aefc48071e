"""Normal forms of identifiers and texts, and the keys that say two records are one paper.

``identity_keys(record)`` lists every key a record has; two records are the same paper when
any of their keys is equal:

- ``doi:<doi>``                      lower case, without resolver prefix
- ``arxiv:<id>``                     without "arXiv:" prefix, URL or version
- ``tya:<title>|<family>|<year>``    only when title, first author and year are all known
- ``abs:<sha1>``                     only for abstracts of at least 20 words
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from desktop_app.core.formats.names import family_key
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
ABSTRACT_MIN_WORDS = 20


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


def normalize_abstract(abstract: str | None) -> str:
    """An abstract in comparable form: lower case, whitespace collapsed, punctuation removed."""
    if not abstract:
        return ""
    text = _PUNCTUATION.sub("", unicodedata.normalize("NFKC", abstract).casefold())
    return _SPACES.sub(" ", text).strip()


def abstract_hash(abstract: str | None) -> str | None:
    """SHA-1 of the normalised abstract, or None when it has fewer than 20 words."""
    normalized = normalize_abstract(abstract)
    if len(normalized.split()) < ABSTRACT_MIN_WORDS:
        return None
    return hashlib.sha1(normalized.encode("utf-8")).hexdigest()


def has_content(record: Record) -> bool:
    """True when a record holds anything to show or identify it by (title, abstract, authors,
    editors, venue, DOI, arXiv id, PubMed id, ISBN or URL); readers skip, and report, records
    without any. A reference that names only where it appeared (Scopus writes such records for
    cited reports) is kept, as Zotero keeps it."""
    return bool(
        record.title or record.abstract.strip() or record.authors or record.editors or record.venue
        or record.doi or record.arxiv_id or record.pmid or record.isbn or record.url
    )


def identity_keys(record: Record) -> list[str]:
    """Every identity key of ``record`` (see the module docstring); possibly empty."""
    keys: list[str] = []
    if doi := normalize_doi(record.doi):
        keys.append(f"doi:{doi}")
    if arxiv := normalize_arxiv_id(record.arxiv_id):
        keys.append(f"arxiv:{arxiv}")
    title = normalize_title(record.title)
    family = family_key(record.authors[0]) if record.authors else ""
    if title and family and record.year is not None:
        keys.append(f"tya:{title}|{family}|{record.year}")
    if digest := abstract_hash(record.abstract):
        keys.append(f"abs:{digest}")
    return keys
