"""Recognise what an import file is from its content; the file name is only a hint.

Two steps: :func:`sniff_binary` on the raw bytes (images, PDFs, archives, binary junk), then
:func:`detect_format` on the decoded text.
"""

from __future__ import annotations

import json
import re
from pathlib import PurePath

from desktop_app.core.formats import seeds
from desktop_app.core.formats.csv_reader import header_matches
from desktop_app.core.formats.encoding import looks_like_utf16_without_bom

_MAGIC = (
    (b"%PDF-", "a PDF document"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"PK\x03\x04", "a ZIP archive or an Office document"),
    (b"PK\x05\x06", "a ZIP archive"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"BZh", "a bzip2 archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Microsoft Office document"),
    (b"\x7fELF", "a program"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
)
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
_CONTROL = frozenset(set(range(32)) - {9, 10, 12, 13, 26} | {127})

_EXTENSION_HINTS = {
    ".bib": "bibtex",
    ".bibtex": "bibtex",
    ".biblatex": "bibtex",
    ".ris": "ris",
    ".enw": "ris",
    ".nbib": "medline",
    ".ciw": "wos",
    ".wos": "wos",
    ".json": "csljson",
    ".csl": "csljson",
    ".csljson": "csljson",
    ".xml": "arxiv",
    ".atom": "arxiv",
    ".csv": "csv",
    ".tsv": "csv",
    ".tab": "csv",
    ".txt": "seed",
}

_BIBTEX_BLOCK = re.compile(r"^[ \t]*@[A-Za-z]\w*[ \t]*[{(]", re.MULTILINE)
_BIBTEX_ENTRY = re.compile(r"^[ \t]*@(?!string\b|comment\b|preamble\b)[A-Za-z]\w*[ \t]*[{(]", re.MULTILINE | re.I)
# RIS puts two spaces between tag and dash; some exporters write one ("TY - JOUR")
_RIS_TAG = re.compile(r"^[A-Z][A-Z0-9] {1,2}-( |$)", re.MULTILINE)
_RIS_TY = re.compile(r"^TY {1,2}-", re.MULTILINE)
# MEDLINE (PubMed .nbib): each record starts with "PMID- "; ERIC's have no PMID but an OWN
# line; three- and four-letter tags with the dash in column 5 or 6 ("FAU - ", "STAT- ",
# "ISSN - ") are MEDLINE's alone
_MEDLINE_PMID = re.compile(r"^PMID- ?\d", re.MULTILINE)  # "PMID- 1", "PMID-1"
_MEDLINE_OWN = re.compile(r"^OWN - ", re.MULTILINE)
_MEDLINE_LONG_TAG = re.compile(r"^(?:[A-Z]{3} |[A-Z]{4} ?)- ", re.MULTILINE)
_WOS_TAG = re.compile(r"^(?:FN|VR|PT|TY|AU|AF|TI|SO|PY|AB|DI|UT|ER|EF)(?: |$)", re.MULTILINE)
# "PT J", "PT Journal Paper" (Inspec), or Inspec's "TY CONV" where a record has no PT line
_WOS_START = re.compile(r"^(?:FN |VR |PT [A-Z][\w ]*$|TY [A-Z]+[ \t]*$)", re.MULTILINE)
_SNIFF_CHARS = 64 * 1024
_FULL_JSON_CHECK = 8 * 1024 * 1024  # larger JSON is judged by its first characters


def sniff_binary(data: bytes) -> str | None:
    """Describe a file that cannot be bibliographic text ("a PDF document"), else None."""
    for magic, what in _MAGIC:
        if data.startswith(magic):
            return what
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "a WebP image"
    head = data[:4096]
    if head.startswith(_BOMS) or looks_like_utf16_without_bom(data):
        return None
    # a stray NUL byte in a text file costs only the record that holds it (formats.read_text);
    # binary data is recognised by its share of control bytes, NUL among them
    if head and sum(1 for b in head if b in _CONTROL) / len(head) > 0.05:
        return "binary data"
    return None


def extension_hint(name: str) -> str | None:
    """The format a file name suggests, if any ("x.bib" -> "bibtex")."""
    return _EXTENSION_HINTS.get(PurePath(name).suffix.lower()) if name else None


def _is_json_bibliography(text: str) -> bool:
    stripped = text.lstrip()
    if not stripped.startswith(("[", "{")):
        return False
    if len(stripped) > _FULL_JSON_CHECK:
        return bool(re.match(r'[\[{]\s*[\[{"]', stripped))
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        # Damaged JSON still goes to the CSL reader, which reports where it broke.
        return bool(re.match(r'[\[{]\s*[\[{"]', stripped))
    if isinstance(value, list):
        return any(isinstance(item, dict) for item in value)
    return isinstance(value, dict)


def _is_arxiv_atom(head: str) -> bool:
    return "<feed" in head and ("arxiv" in head.lower() or "http://www.w3.org/2005/Atom" in head)


def candidates(text: str) -> list[str]:
    """All formats the content could be, the strongest signal first.

    XML and JSON decide alone. Otherwise each text format scores the records it sees in the
    first 64 KB (entry starts, PMID, TY or PT lines); ties keep the order medline, wos, ris,
    bibtex, seed, csv. MEDLINE's two-letter tags ("TI  - ") look like RIS's: in a file with
    MEDLINE signs and no TY line they do not count for RIS.
    """
    head = text.lstrip("\ufeff \t\r\n")[:_SNIFF_CHARS]
    if head.startswith("<"):
        return ["arxiv"] if _is_arxiv_atom(head) else []
    if head.startswith(("[", "{")) and _is_json_bibliography(text):
        return ["csljson"]
    ris_tags = len(_RIS_TAG.findall(head))
    medline = _medline_score(head)
    scores = {
        "medline": medline,
        "wos": len(_WOS_START.findall(head)) if ris_tags == 0 and len(_WOS_TAG.findall(head)) >= 2 else 0,
        "ris": len(_RIS_TY.findall(head)) or (1 if ris_tags >= 2 and not medline else 0),
        "bibtex": len(_BIBTEX_ENTRY.findall(head)) or (1 if _BIBTEX_BLOCK.search(head) else 0),
        "seed": 1 if seeds.looks_like_seed(head) else 0,
        "csv": 1 if header_matches(head.split("\n", 1)[0]) else 0,
    }
    found = [fmt for fmt, score in scores.items() if score > 0]
    return sorted(found, key=lambda fmt: -scores[fmt])


def _medline_score(head: str) -> int:
    """Records that look like MEDLINE: its PMID lines, else (ERIC) its OWN lines, else 1 when
    at least two lines carry a MEDLINE-only long tag."""
    pmids = len(_MEDLINE_PMID.findall(head))
    if pmids:
        return pmids
    owners = len(_MEDLINE_OWN.findall(head))
    if owners:
        return owners
    return 1 if len(_MEDLINE_LONG_TAG.findall(head)) >= 2 else 0


def detect_format(text: str, name: str = "") -> str | None:
    """The format of ``text``: the extension's guess when the content allows it, else the
    strongest content signal; None when nothing fits."""
    found = candidates(text)
    if not found:
        return None
    hint = extension_hint(name)
    return hint if hint in found else found[0]


def describe_unrecognised(text: str) -> str:
    """A one-line reason why ``text`` is not an importable bibliography."""
    head = text.lstrip("\ufeff \t\r\n")[:2000].lower()
    if not head:
        return "the file is empty"
    if head.startswith("<"):
        if "<html" in head or "<!doctype html" in head:
            return "not a bibliographic file (looks like a web page)"
        return "not a bibliographic file (an XML document that is not an arXiv Atom feed)"
    if head.startswith(("{", "[")):
        return "not a bibliographic file (JSON, but not a CSL-JSON list of items)"
    return (
        "not a bibliographic file: found no BibTeX entries, RIS, Web of Science or "
        "PubMed/MEDLINE records, CSL-JSON, arXiv Atom, CSV header or seed list"
    )
