"""The lossless Marginalia library document, for backups and for moving a library.

Every :class:`ExportPaper` field is kept (note revisions and highlights included), so
:func:`papers_from_library_json` gives back equal values.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

from desktop_app.core.records import ExportHighlight, ExportPaper

LIBRARY_FORMAT = "marginalia-library"
LIBRARY_VERSION = 1


def _jsonable(value: Any) -> Any:  # noqa: ANN401 - any JSON-ready value
    """A JSON-ready copy of *value*; datetimes become ISO 8601 strings."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, datetime | date):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _jsonable(dataclasses.asdict(value))
    return value


def library_json(
    papers: Sequence[ExportPaper],
    reading_lists: Sequence[Mapping[str, Any]] | None = None,
    *,
    exported_at: datetime | str | None = None,
) -> dict[str, Any]:
    """The library document as a JSON-ready dict.

    ``{"format": "marginalia-library", "version": 1, "exported_at": ISO 8601 UTC,
    "papers": [every ExportPaper field], "reading_lists": [...]}``. Reading lists are passed
    through as given; the expected shape is ``{"name", "description", "items": [{"uid",
    "position", "note"}]}``, items naming papers by uid.
    """
    if exported_at is None:
        exported_at = datetime.now(UTC).replace(microsecond=0)
    stamp = exported_at if isinstance(exported_at, str) else exported_at.isoformat()
    return {
        "format": LIBRARY_FORMAT,
        "version": LIBRARY_VERSION,
        "exported_at": stamp,
        "papers": [_jsonable(dataclasses.asdict(p)) for p in papers],
        "reading_lists": _jsonable(list(reading_lists or [])),
    }


def render_library_json(
    papers: Sequence[ExportPaper],
    reading_lists: Sequence[Mapping[str, Any]] | None = None,
    *,
    exported_at: datetime | str | None = None,
) -> str:
    """:func:`library_json` as pretty-printed UTF-8 JSON text."""
    document = library_json(papers, reading_lists, exported_at=exported_at)
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


_PAPER_FIELDS = {f.name for f in dataclasses.fields(ExportPaper)}
_HIGHLIGHT_FIELDS = {f.name for f in dataclasses.fields(ExportHighlight)}


def papers_from_library_json(document: Mapping[str, Any] | str) -> list[ExportPaper]:
    """The papers of a library document (a dict, or its JSON text).

    Raises ``ValueError`` when the document is not a Marginalia library of a known version.
    Unknown keys (from a newer minor revision) are ignored.
    """
    if isinstance(document, str):
        document = json.loads(document)
    if not isinstance(document, Mapping) or document.get("format") != LIBRARY_FORMAT:
        raise ValueError("not a Marginalia library document")
    if document.get("version") != LIBRARY_VERSION:
        raise ValueError(f"unsupported library document version {document.get('version')!r}")
    papers = []
    for raw in document.get("papers", []):
        values = {k: v for k, v in raw.items() if k in _PAPER_FIELDS}
        values["highlights"] = [
            ExportHighlight(**{k: v for k, v in h.items() if k in _HIGHLIGHT_FIELDS})
            for h in values.get("highlights", [])
        ]
        papers.append(ExportPaper(**values))
    return papers
