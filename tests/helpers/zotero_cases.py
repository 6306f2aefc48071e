"""Zotero's own import test cases (``../shared/corpus/zotero-translators``), read by our readers
and compared field by field with the items Zotero expects.

``compare_all()`` gives one :class:`Outcome` per case; ``python -m tests.helpers.zotero_cases``
prints the agreement table (how often our readers agree with Zotero's).
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from desktop_app.core.formats import read_path
from desktop_app.core.formats.identity import normalize_abstract, normalize_doi, normalize_title
from desktop_app.core.formats.names import family_key
from desktop_app.core.records import Record
from tests.helpers.shared import CORPUS

ROOT = CORPUS / "zotero-translators"
FORMATS = ("ris", "bibtex", "wos", "nbib", "csljson")
FIELDS = ("title", "authors", "first_author", "year", "doi", "venue", "abstract", "keywords")

# Zotero's creator roles that are not the work's own authors
_SECONDARY = {
    "editor",
    "seriesEditor",
    "translator",
    "contributor",
    "bookAuthor",
    "reviewedAuthor",
    "wordsBy",
    "commenter",
    "counsel",
    "guest",
    "producer",
    "scriptwriter",
    "attorneyAgent",
    "castMember",
    "cosponsor",
    "recipient",
    "interviewer",
}
_TITLE_KEYS = ("title", "caseName", "nameOfAct", "subject")
_VENUE_KEYS = (
    "publicationTitle",
    "proceedingsTitle",
    "bookTitle",
    "websiteTitle",
    "blogTitle",
    "encyclopediaTitle",
    "dictionaryTitle",
)
_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")
_MARKUP = re.compile(r"</?(?:i|b|sup|sub|span)\b[^>]*>", re.IGNORECASE)
_DOI_IN_EXTRA = re.compile(r"^DOI:\s*(\S+)", re.IGNORECASE | re.MULTILINE)


@dataclass
class Outcome:
    """One case: how many records Zotero expects and we read, and each field compared."""

    fmt: str
    case: str
    expected: int
    got: int
    # (field, record index) -> (zotero's value, ours), only where both sides have a value to compare
    compared: dict[tuple[str, int], tuple[object, object]] = field(default_factory=dict)

    def disagreements(self) -> dict[tuple[str, int], tuple[object, object]]:
        return {k: v for k, v in self.compared.items() if v[0] != v[1]}


def _authors_expected(item: dict) -> list[str]:
    creators = item.get("creators") or []
    primary = [c for c in creators if c.get("creatorType") not in _SECONDARY]
    chosen = primary or [c for c in creators if c.get("creatorType") == "editor"]
    return [family_key(c.get("lastName") or c.get("name") or "") for c in chosen]


def _year_expected(item: dict) -> int | None:
    for key in ("date", "dateDecided", "dateEnacted", "issueDate"):
        if m := _YEAR.search(str(item.get(key) or "")):
            return int(m.group(1))
    return None


def _doi_expected(item: dict) -> str | None:
    if item.get("DOI"):
        return normalize_doi(item["DOI"])
    m = _DOI_IN_EXTRA.search(item.get("extra") or "")
    return normalize_doi(m.group(1)) if m else None


def _first(item: dict, keys: tuple[str, ...]) -> str:
    return next((str(item[k]) for k in keys if item.get(k)), "")


def _text(value: str) -> str:
    """A title or venue in comparable form: Zotero's rich-text markup (``<i>``, ``<sup>``,
    ``<span class="nocase">``) dropped, normalized, and without spaces ("DNA<sup>2</sup>" is
    "dna2", and our "DNA 2" too)."""
    return normalize_title(_MARKUP.sub("", value)).casefold().replace(" ", "")


def _tag(tag: dict | str) -> str:
    return tag.get("tag", "") if isinstance(tag, dict) else str(tag)


def expected_values(item: dict) -> dict[str, object]:
    authors = _authors_expected(item)
    return {
        "title": _text(_first(item, _TITLE_KEYS)),
        "authors": authors,
        "first_author": authors[0] if authors else "",
        "year": _year_expected(item),
        "doi": _doi_expected(item),
        "venue": _text(_first(item, _VENUE_KEYS)),
        "abstract": normalize_abstract(item.get("abstractNote") or ""),
        "keywords": sorted({normalize_title(_tag(t)) for t in item.get("tags") or [] if _tag(t)}),
    }


def our_values(rec: Record) -> dict[str, object]:
    from desktop_app.core.text import to_plain

    authors = [family_key(a) for a in rec.authors]
    return {
        "title": _text(rec.title or ""),
        "authors": authors,
        "first_author": authors[0] if authors else "",
        "year": rec.year,
        "doi": normalize_doi(rec.doi),
        "venue": _text(rec.venue or ""),
        "abstract": normalize_abstract(to_plain(rec.abstract) if rec.abstract else ""),
        "keywords": sorted({normalize_title(k) for k in rec.keywords + rec.tags if k.strip()}),
    }


def _inputs(fmt: str) -> list[Path]:
    return sorted(p for p in (ROOT / fmt).glob("case*.*") if not p.name.endswith(".expected.json"))


def compare_case(fmt: str, path: Path) -> Outcome:
    items = json.loads(path.with_name(path.name.split(".")[0] + ".expected.json").read_text("utf-8"))["items"]
    items = [i for i in items if i.get("itemType") not in ("note", "attachment")]
    records = read_path(path).records
    out = Outcome(fmt, path.stem, len(items), len(records))
    for n, (item, rec) in enumerate(zip(items, records, strict=False)):
        want, have = expected_values(item), our_values(rec)
        for name in FIELDS:
            if want[name] not in ("", None, []):  # Zotero has nothing to compare with
                out.compared[(name, n)] = (want[name], have[name])
    return out


def compare_all() -> list[Outcome]:
    return [compare_case(fmt, p) for fmt in FORMATS for p in _inputs(fmt)]


def agreement(outcomes: list[Outcome]) -> dict[str, tuple[int, int]]:
    """Per field: (records that agree, records compared)."""
    table = {name: [0, 0] for name in FIELDS}
    for o in outcomes:
        for (name, _), (want, have) in o.compared.items():
            table[name][1] += 1
            table[name][0] += want == have
    return {k: (a, b) for k, (a, b) in table.items()}


def main() -> None:
    outcomes = compare_all()
    expected = sum(o.expected for o in outcomes)
    got = sum(o.got for o in outcomes)
    wrong = [f"{o.fmt}/{o.case} ({o.got} of {o.expected})" for o in outcomes if o.got != o.expected]
    print(f"{len(outcomes)} cases, {expected} records expected, {got} read; wrong counts: {wrong or 'none'}")
    for name, (a, b) in agreement(outcomes).items():
        print(f"  {name:13} {a:4}/{b:<4} {100 * a / b if b else 100:5.1f}%")
    if "-v" in sys.argv:
        for o in outcomes:
            for (name, n), (want, have) in o.disagreements().items():
                print(f"{o.fmt}/{o.case} #{n} {name}: zotero={want!r} ours={have!r}")


if __name__ == "__main__":
    main()
