"""The shared labelled sets as libraries: screening CSVs (``../shared/screening``) and the seed
files (``../shared/seeds``), each paper tagged with its truth under ``truth/``.

``screening_records(path)`` gives a screening CSV's papers as Records tagged ``truth/included`` or
``truth/excluded``; ``seed_records(path, label)`` a seed file's abstracts tagged ``truth/<label>``;
``import_records(lib, records)`` imports them (a paper that two records share keeps both tags)
and ``truth(lib)`` reads the labels back: {paper id: label}.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path

from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from tests.helpers.shared import SEEDS, SHARED

SCREENING = sorted((SHARED / "screening").glob("*.csv"))


def screening_records(path: Path, included_only: bool = False, label: str | None = None) -> list[Record]:
    """The papers of a screening CSV; tagged ``truth/<label>`` when given, else
    ``truth/included`` / ``truth/excluded``."""
    csv.field_size_limit(10_000_000)
    out = []
    with path.open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            included = row.get("label_included", "0").strip() == "1"
            if included_only and not included:
                continue
            title, abstract = (row.get("title") or "").strip(), (row.get("abstract") or "").strip()
            if not title and not abstract:
                continue
            tag = label or ("included" if included else "excluded")
            out.append(
                Record(
                    abstract=abstract,
                    title=title or None,
                    tags=[f"truth/{tag}"],
                    extra={"record_id": row.get("record_id", "")},
                )
            )
    return out


def seed_records(path: Path, label: str) -> list[Record]:
    from desktop_app.core.formats.seeds import read_seeds

    records = read_seeds(path.read_text(encoding="utf-8")).records
    for r in records:
        r.tags = [f"truth/{label}"]
    return records


def import_records(lib: Library, records: Sequence[Record], name: str = "labelled") -> None:
    lib.imports.from_records([(name, ParseResult(format="csv", records=list(records)))])
    lib.flush_index()


def truth(lib: Library) -> dict[int, str]:
    """{paper id: its truth label}; a paper with two labels keeps the first in name order."""
    out: dict[int, str] = {}
    ids = lib.query("tag:truth", limit=None).ids
    for pid, row in lib.papers.rows(ids).items():
        labels = sorted(t.removeprefix("truth/") for t in row.tags if t.startswith("truth/"))
        if labels:
            out[pid] = labels[0]
    return out


# the two screening sets of the topics mix
ADHD = next((p for p in SCREENING if p.stem == "ADHD"), None)
DEPRESSION = next((p for p in SCREENING if p.stem.startswith("Bannach-Brown")), None)


def mix_records() -> list[Record]:
    """Three groups nobody confuses: ADHD drug trials (20), animal models of depression (the
    first 60 included), machine-learning abstracts (the seeds, 76)."""
    assert ADHD is not None and DEPRESSION is not None, f"the screening sets, expected in {SEEDS[0].parents[1]}"
    return (
        screening_records(ADHD, included_only=True, label="adhd")
        + screening_records(DEPRESSION, included_only=True, label="depression")[:60]
        + [r for n, path in enumerate(SEEDS) for r in seed_records(path, "ml")]
    )
