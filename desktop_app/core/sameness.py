"""When two records are one paper, and why.

The rules (they replace "any equal key is the same paper", which merged too much), in the order they are tried:

1. **A shared strong identifier**: the same DOI, the same version-free arXiv id, or the same
   PubMed id. This holds between two entries of one file too, unless they give different
   titles (a book and its chapter under the book's DOI: the file keeps both).
2. Entries of **one file** are distinct papers unless rule 1 says otherwise.
3. **A conflicting identifier** keeps two records apart: both carry a DOI (or an arXiv id, a
   PubMed id, an ISBN) and they differ.
4. **The same normalized title, first author's family name and year** (all three known).
5. **The same record again**: equal abstracts, and the same title, authors, year and venue
   (all of them; a paper's title derived from its abstract counts as its title, so a re-imported
   seed list, or our own export of it, is recognised). Without an abstract, the same title,
   authors, year and venue; with neither title nor abstract, the same citation key or the same
   authors, year and venue.

Equal abstracts alone (two chapters that carry their book's blurb; a seed-list abstract and the
BibTeX entry that gives it a title and authors), or equal citation keys (``Schank:80`` twice, for
two books), never make two records one paper: they are offered as possible duplicates
(:mod:`.duplicates`), where the user merges them.

:func:`candidate_keys` are the look-up keys under which a paper is filed in ``paper_identity``:
they only find candidates; :func:`same_paper` decides.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from desktop_app.core.formats.identity import (
    family_key,
    is_placeholder_abstract,
    normalize_abstract,
    normalize_arxiv_id,
    normalize_doi,
    normalize_isbn,
    normalize_pmid,
    normalize_title,
)
from desktop_app.core.importing.keys import UNTITLED
from desktop_app.core.records import Record

if TYPE_CHECKING:
    from sqlalchemy import RowMapping

REASON_LABELS = {
    "doi": "same DOI",
    "arxiv": "same arXiv id",
    "pmid": "same PubMed id",
    "title-author-year": "same title, author and year",
    "same-record": "the same record",
}
STRONG_REASONS = ("doi", "arxiv", "pmid")
RULE_REASONS = tuple(REASON_LABELS)  # what same_paper() says, strongest first
LIKENESSES = ("same abstract", "same title", "same citation key")  # what likeness() says, strongest first
NEAR_REASON = "similar title and abstract"  # nearly one text in the semantic space (duplicates.py)


def reason_rank(reason: str) -> int:
    """Where a reason of :func:`same_paper` or :func:`likeness` stands, strongest (0) first."""
    order = (*RULE_REASONS, *LIKENESSES, NEAR_REASON)
    return order.index(reason) if reason in order else len(order)


def _digest(text: str) -> str | None:
    """The digest an abstract is known by; None for an empty or placeholder one."""
    if is_placeholder_abstract(text):
        return None
    normalized = normalize_abstract(text)
    return hashlib.sha1(normalized.encode("utf-8")).hexdigest() if normalized else None


@dataclass(frozen=True)
class Identity:
    """What the rules compare, in normal form ("" or None when unknown)."""

    doi: str | None = None
    arxiv: str | None = None
    pmid: str | None = None
    isbn: str | None = None
    title: str = ""  # a given (or the user's) title, normalized; "" when none was given
    shown: str = ""  # the title the paper shows, a derived one too, normalized
    families: tuple[str, ...] = ()
    year: int | None = None
    venue: str = ""
    abstracts: frozenset[str] = field(default_factory=frozenset)  # digests of raw and plain text
    citation_key: str = ""

    @property
    def family(self) -> str:
        return self.families[0] if self.families else ""


def _title(title: str | None) -> str:
    return normalize_title(title) if title and title.strip().lower() != UNTITLED.lower() else ""


def _identity(
    *,
    doi: str | None,
    arxiv: str | None,
    pmid: str | None,
    isbn: str | None,
    title: str | None,
    shown: str | None,
    authors: list[str],
    year: int | None,
    venue: str | None,
    abstracts: frozenset[str],
    citation_key: str | None,
) -> Identity:
    return Identity(
        doi=normalize_doi(doi),
        arxiv=normalize_arxiv_id(arxiv),
        pmid=normalize_pmid(pmid),
        isbn=normalize_isbn(isbn),
        title=_title(title),
        shown=_title(shown),
        families=tuple(family_key(a) for a in authors),
        year=year,
        venue=normalize_title(venue),
        citation_key=(citation_key or "").strip().lower(),
        abstracts=abstracts,
    )


def _digests(*texts: str | None) -> frozenset[str]:
    """The digests of the given abstract texts (raw and plain; equal texts digested once)."""
    return frozenset(d for d in (_digest(a) for a in dict.fromkeys(texts) if a) if d)


def record_identity(rec: Record, plain: str, title: str, *, given: bool = True) -> Identity:
    """The identity of a record read from a file whose abstract reads ``plain``. ``title`` is the
    title as a paper made from it would show it (LaTeX rendered, as stored; derived from the
    abstract when ``given`` is False)."""
    return _identity(
        doi=rec.doi,
        arxiv=rec.arxiv_id,
        pmid=rec.pmid or rec.extra.get("pmid"),
        isbn=rec.isbn or rec.extra.get("isbn"),
        title=title if given else None,
        shown=title,
        authors=rec.authors,
        year=rec.year,
        venue=rec.venue,
        abstracts=_digests(rec.abstract, plain),
        citation_key=rec.bibtex_key,
    )


def row_identity(row: RowMapping | Mapping[str, Any], digests: frozenset[str] | None = None) -> Identity:
    """The identity of a paper row (a mapping of ``paper`` columns). ``digests`` are its abstract
    digests when already known (from its ``abs:`` keys), which spares normalizing the abstract."""
    extra = json.loads(row["extra_json"] or "{}")
    title = row["title"] if row["title_source"] != "derived" else None
    return _identity(
        doi=row["doi"],
        arxiv=row["arxiv_id"],
        pmid=extra.get("pmid"),
        isbn=extra.get("isbn"),
        title=title,
        shown=row["title"],
        authors=json.loads(row["authors_json"] or "[]"),
        year=row["year"],
        venue=row["venue"],
        abstracts=_digests(row["abstract"], row["abstract_text"]) if digests is None else digests,
        # the key its file gave it where that was another paper's (import_writer.FILE_KEY)
        citation_key=extra.get("file_key") or row["bibtex_key"],
    )


def candidate_keys(ident: Identity) -> list[str]:
    """The keys a paper is filed under: any shared key makes two papers candidates."""
    keys = []
    if ident.doi:
        keys.append(f"doi:{ident.doi}")
    if ident.arxiv:
        keys.append(f"arxiv:{ident.arxiv}")
    if ident.pmid:
        keys.append(f"pmid:{ident.pmid}")
    if ident.title and ident.family and ident.year is not None:
        keys.append(f"tya:{ident.title}|{ident.family}|{ident.year}")
    if ident.title:
        keys.append(f"t:{ident.title}")
    keys.extend(sorted(f"abs:{d}" for d in ident.abstracts))
    if not ident.title and not ident.abstracts and ident.families:
        keys.append(f"ay:{';'.join(ident.families)}|{ident.year or ''}")
    if ident.citation_key:
        keys.append(f"cite:{ident.citation_key}")
    if ident.shown or ident.families:
        # what the same-record rule compares, in one key: among many papers sharing a title
        # ("Title", "Editorial") the look-up still reaches the one this record is
        whole = json.dumps([ident.shown, ident.families, ident.year, ident.venue], ensure_ascii=False)
        keys.append("rec:" + hashlib.sha1(whole.encode("utf-8")).hexdigest())
    return keys


def _conflict(a: Identity, b: Identity) -> bool:
    return any(x and y and x != y for x, y in ((a.doi, b.doi), (a.arxiv, b.arxiv), (a.pmid, b.pmid), (a.isbn, b.isbn)))


def _same_record(a: Identity, b: Identity) -> bool:
    if (a.families, a.year, a.venue) != (b.families, b.year, b.venue):
        return False
    if a.abstracts or b.abstracts:
        # two titles derived from the abstract say nothing the abstract does not; they differ
        # when the derivation rules changed between the imports: not a new paper
        derived = not a.title and not b.title
        return bool(a.abstracts & b.abstracts) and (a.shown == b.shown or derived)
    if a.shown or b.shown:
        return a.shown == b.shown
    # neither title nor abstract: only a record written again (by its citation key, or by
    # everything else it holds when a writer gave it a new key)
    if a.citation_key and a.citation_key == b.citation_key:
        return True
    return bool(a.families)


def same_paper(new: Identity, old: Identity, *, same_file: bool = False) -> str | None:
    """Why ``new`` and ``old`` are one paper (a key of :data:`REASON_LABELS`), or None."""
    # two entries of one file that give different titles are two works even where they share
    # an identifier (a book and its chapter under the book's DOI; a preprint and its published
    # version; a library exported with its own duplicates): the file's author kept both
    if same_file and new.title and old.title and new.title != old.title:
        return None
    for reason, x, y in (("doi", new.doi, old.doi), ("arxiv", new.arxiv, old.arxiv), ("pmid", new.pmid, old.pmid)):
        if x and x == y:
            return reason
    if same_file or _conflict(new, old):
        return None
    if (
        new.title
        and new.family
        and new.year is not None
        and (new.title, new.family, new.year) == (old.title, old.family, old.year)
    ):
        return "title-author-year"
    return "same-record" if _same_record(new, old) else None


def likeness(a: Identity, b: Identity) -> str | None:
    """Why two papers that are not one paper by :func:`same_paper` may still be duplicates
    (offered to the user, never merged on their own), or None."""
    if a.abstracts & b.abstracts:
        return "same abstract"
    if a.title and a.title == b.title:
        return "same title"
    if a.citation_key and a.citation_key == b.citation_key and a.family == b.family:
        return "same citation key"
    return None
