"""Marginalia's own fields in the interchange files it writes, so that a library survives its
own exports (out and back in, nothing the user wrote is lost): the user's tags, reading status, rating, triage decision and reading-list
places, each under a name no other tool writes (BibTeX ``marginalia-tags = {...}``, an RIS
``U1`` line ``marginalia: tags=...; status=...``, CSL-JSON ``"custom": {"marginalia": {...}}``).

Every exported paper carries at least its status, so an entry Marginalia wrote is always
marked: only then are its keywords split back into the file's keywords and the user's tags (the
writers list the tags among the keywords too, for the tools that read keywords as tags), and its
note read back as the paper's note. A file from another tool has none of these fields, so its
keywords stay keywords and its notes stay the file's notes.

Values are text; the separators and BibTeX's braces inside a value are percent-encoded
(``%2C`` for a comma in a tag, ``%7B`` for a brace), so any tag or list name comes back as it was.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import replace
from urllib.parse import unquote

from desktop_app.core.formats.writer_common import DERIVED_LINE
from desktop_app.core.records import DECISIONS, ExportPaper, Record

PREFIX = "marginalia-"
NAMES = ("status", "rating", "decision", "tags", "lists", "title")
"""The fields, in the order they are written (BibTeX field ``marginalia-<name>``)."""
STATUSES = ("unread", "skimmed", "read")  # models.STATUSES (the readers do not load the ORM)
_ENCODED = re.compile(r"[%,;={}\\\r\n]")


def _encode(text: str) -> str:
    return _ENCODED.sub(lambda m: f"%{ord(m.group()):02X}", text)


def own_fields(paper: ExportPaper) -> dict[str, str]:
    """The paper's own fields as ``{name: text}`` (names of :data:`NAMES`); status always."""
    out = {"status": paper.status or "unread"}
    if paper.rating:
        out["rating"] = str(paper.rating)
    if paper.decision:
        out["decision"] = paper.decision
    if paper.tags:
        out["tags"] = ", ".join(_encode(t) for t in paper.tags)
    if paper.lists:
        out["lists"] = "; ".join(f"{_encode(name)}={pos}" for name, pos in paper.lists.items())
    if paper.title_source == "derived":  # read back, the title stays "derived" (not the file's own)
        out["title"] = "derived"
    return out


def one_line(paper: ExportPaper, key: str | None = None) -> str:
    """The fields as one line of JSON (RIS's ``U1`` value), with the citation key ``key`` (RIS
    has no field of its own for one)."""
    fields = own_fields(paper)
    if key:
        fields["key"] = key
    return json.dumps(fields, ensure_ascii=False)


def from_one_line(text: str) -> dict[str, str]:
    """:func:`one_line` read back ({} for a line of another tool)."""
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def is_marked(fields: Mapping[str, str]) -> bool:
    """Whether a record carries Marginalia's own fields (it was written by Marginalia)."""
    return "status" in fields


def applied(rec: Record, fields: Mapping[str, str], *, note: str | None = None) -> Record:
    """``rec`` with the user's data of ``fields`` (as :func:`own_fields` wrote them); ``note`` is
    the entry's note, taken as the paper's note when the entry is Marginalia's. A value that does
    not read (a status of another vocabulary, a rating of 9) is left out, not guessed."""
    if not is_marked(fields):
        return rec
    status = fields.get("status", "").strip().lower()
    rating_text = fields.get("rating", "").strip()
    rating = int(rating_text) if rating_text.isdigit() and 0 <= int(rating_text) <= 5 else None
    decision = fields.get("decision", "").strip().lower()
    tags = [unquote(t.strip()) for t in fields.get("tags", "").split(",") if t.strip()]
    lists: dict[str, int] = {}
    for part in fields.get("lists", "").split(";"):
        name, eq, pos = part.strip().rpartition("=")
        if eq and name and pos.strip().isdigit():
            lists[unquote(name)] = int(pos)
    # the writers list the tags among the keywords too (where a comma in a tag splits it)
    folded = {t.casefold() for t in tags} | {p.strip().casefold() for t in tags for p in re.split(r"[,;]", t)}
    keywords = [k for k in rec.keywords if k.strip().casefold() not in folded]
    derived = fields.get("title") == "derived"
    if note and derived:  # the line the writers add for a derived title (writer_common.DERIVED_LINE)
        note = "\n".join(line for line in note.split("\n") if line.strip() != DERIVED_LINE).strip()
    return replace(
        rec,
        title_derived=derived,
        status=status if status in STATUSES else None,
        rating=rating,
        decision=decision if decision in DECISIONS else rec.decision,
        tags=list(dict.fromkeys([*rec.tags, *tags])),
        keywords=keywords,
        lists=lists,
        note=note if note and note.strip() else rec.note,
    )
