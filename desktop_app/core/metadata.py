"""A paper's bibliographic fields as the user edits them: which fields, their entry types, and
the checks that turn what was typed into stored values (``lib.papers.update_metadata``).

Every check raises :class:`LibraryError` with a sentence the window can show as it is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from urllib.parse import urlsplit

from desktop_app.core.errors import LibraryError

FIELDS = ("title", "authors", "venue", "year", "doi", "arxiv_id", "url", "entry_type", "citation_key", "abstract")
"""The fields ``update_metadata`` takes (``title_source`` too, which undo passes back)."""

ENTRY_TYPES: dict[str, str] = {
    # the BibTeX types the readers make and the writers know; the label says what the CSL-JSON
    # and RIS writers make of it (csljson_writer.csl_type, ris_writer)
    "article": "Journal article",
    "inproceedings": "Conference paper",
    "proceedings": "Conference proceedings",
    "book": "Book",
    "incollection": "Book chapter",
    "phdthesis": "PhD thesis",
    "mastersthesis": "Master's thesis",
    "techreport": "Technical report",
    "unpublished": "Unpublished / preprint",
    "online": "Web page",
    "patent": "Patent",
    "misc": "Other",
}
"""Entry types offered; ``None`` (no type) lets the exporters guess one from the venue."""

YEAR_MIN = 1000
MAX_AUTHORS = 2000
MAX_FIELD_CHARS = 2000


def year_max() -> int:
    return datetime.now(UTC).year + 5


def clean_text(value: object, field: str, *, required: bool = False) -> str | None:
    """One line of text, spaces collapsed; None when empty (an error when ``required``)."""
    text = " ".join(str(value or "").split())
    if not text:
        if required:
            raise LibraryError(f"the {field} cannot be empty")
        return None
    if len(text) > MAX_FIELD_CHARS:
        raise LibraryError(f"the {field} is at most {MAX_FIELD_CHARS} characters")
    return text


def check_year(value: object) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    top = year_max()
    try:
        year = int(str(value).strip())
    except ValueError:
        raise LibraryError(f"the year is a number from {YEAR_MIN} to {top}, not “{value}”") from None
    if not YEAR_MIN <= year <= top:
        raise LibraryError(f"the year is a number from {YEAR_MIN} to {top}, not {year}")
    return year


def check_doi(value: object) -> str | None:
    """A DOI ("10.1234/abc"), also given as ``doi:…`` or a doi.org link; stored without those."""
    from desktop_app.core.formats.identity import clean_doi

    text = str(value or "").strip()
    if not text:
        return None
    doi = clean_doi(text)
    if doi is None:
        raise LibraryError(
            f"“{text}” is not a DOI: a DOI looks like 10.1234/abc.567 (it starts with “10.”, "
            "then digits, a slash and the item's own part)"
        )
    return doi


def check_arxiv_id(value: object) -> str | None:
    """An arXiv id, new ("2101.01234", "2101.01234v2") or old ("hep-th/9901001") form, also as
    ``arXiv:…`` or an arxiv.org link; stored without prefix or version, as imports store it."""
    from desktop_app.core.formats.identity import normalize_arxiv_id

    text = str(value or "").strip()
    if not text:
        return None
    arxiv = normalize_arxiv_id(text)
    if arxiv is None:
        raise LibraryError(
            f"“{text}” is not an arXiv id: one looks like 2101.01234 (or 2101.01234v2) or, before 2007, hep-th/9901001"
        )
    return arxiv


def check_url(value: object) -> str | None:
    text = str(value or "").strip()
    if not text:
        return None
    parts = urlsplit(text)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc or any(c.isspace() for c in text):
        raise LibraryError(f"“{text}” is not a web address: it starts with http:// or https:// and names a site")
    if len(text) > MAX_FIELD_CHARS:
        raise LibraryError(f"a URL is at most {MAX_FIELD_CHARS} characters")
    return text


def check_entry_type(value: object) -> str | None:
    text = str(value or "").strip().lower()
    if not text:
        return None
    if text not in ENTRY_TYPES:
        raise LibraryError(f"the entry type is one of {', '.join(ENTRY_TYPES)}, not “{value}”")
    return text


def check_citation_key(value: object) -> str:
    """A citation key as typed: required, no spaces, BibTeX's characters (core/citation_keys.py).
    Whether another paper has it already is checked in the edit's transaction."""
    from desktop_app.core.citation_keys import MAX_KEY_LENGTH, is_valid_key

    text = str(value or "").strip()
    if not text:
        raise LibraryError("the citation key cannot be empty (it is how a LaTeX document cites the paper)")
    if not is_valid_key(text):
        raise LibraryError(
            f"“{text}” is not a citation key: no spaces and none of , {{ }} \" # % ' ( ) = \\ ~ "
            f"(BibTeX cannot cite it), at most {MAX_KEY_LENGTH} characters"
        )
    return text


def check_authors(value: object) -> list[str]:
    """A list of names as the user arranged them ("Family, Given" preferred), blanks dropped."""
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise LibraryError("the authors are a list of names")
    names = [" ".join(str(n).split()) for n in value]
    names = [n for n in names if n]
    if len(names) > MAX_AUTHORS:
        raise LibraryError(f"a paper has at most {MAX_AUTHORS} authors here")
    for n in names:
        if len(n) > MAX_FIELD_CHARS:
            raise LibraryError(f"an author's name is at most {MAX_FIELD_CHARS} characters")
    return names


def parse_author(text: str) -> str:
    """What the user typed for one author, as stored: "Family, Given" ("Ashish Vaswani" and
    "Vaswani, Ashish" both give "Vaswani, Ashish"); an institution stays as written."""
    from desktop_app.core.formats.names import parse_display_name

    return parse_display_name(text)


def parse_authors(text: str) -> list[str]:
    """Names typed or pasted at once, one per line or separated by ";" (each as
    :func:`parse_author`)."""
    pieces = text.replace("\n", ";").split(";")
    return [name for name in (parse_author(p) for p in pieces) if name]


def check_changes(changes: Mapping[str, object]) -> dict[str, object]:
    """The changes as stored values (``authors`` as its JSON text in ``authors_json``)."""
    from desktop_app.core.store.column_types import TITLE_SOURCES

    out: dict[str, object] = {}
    for key, value in changes.items():
        if key == "title":
            out["title"] = clean_text(value, "title", required=True)
        elif key == "title_source":
            if value not in TITLE_SOURCES:
                raise LibraryError(f"a title's source is one of {', '.join(TITLE_SOURCES)}")
            out["title_source"] = value
        elif key == "authors":
            out["authors_json"] = json.dumps(check_authors(value), ensure_ascii=False)
        elif key == "venue":
            out["venue"] = clean_text(value, "venue")
        elif key == "year":
            out["year"] = check_year(value)
        elif key == "doi":
            out["doi"] = check_doi(value)
        elif key == "arxiv_id":
            out["arxiv_id"] = check_arxiv_id(value)
        elif key == "url":
            out["url"] = check_url(value)
        elif key == "entry_type":
            out["entry_type"] = check_entry_type(value)
        elif key == "citation_key":
            out["bibtex_key"] = check_citation_key(value)
        elif key == "abstract":
            if not isinstance(value, str):
                raise LibraryError("an abstract is text")
            out["abstract"] = value
        else:
            raise LibraryError(f"“{key}” is not a field that can be edited here")
    return out


def short_authors(authors: list[str]) -> str:
    """The table's Authors cell: "Vaswani, Shazeer et al." (two family names, then et al.);
    one author: the family name; none: empty."""
    families = [_family(a) for a in authors[:3]]
    if not families:
        return ""
    if len(families) == 1:
        return families[0]
    if len(families) == 2:
        return f"{families[0]}, {families[1]}"
    return f"{families[0]}, {families[1]} et al."


def _family(name: str) -> str:
    """The family name of a stored name: before the first comma ("Vaswani, Ashish"); a name with
    no comma (an institution, a name left as typed) is shown whole."""
    return name.split(",", 1)[0].strip() if "," in name else name.strip()
