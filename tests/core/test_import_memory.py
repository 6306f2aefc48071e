"""What a large import keeps while it writes: its look-up structures (the candidate keys of the
papers it added, the citation keys taken) cost a bounded, small amount per record; the caller
holds the records, and SQLite the rows. 100,000 records of a million-item CSL-JSON file must
import within 300 MB (benchmarks/hostile_files.py many_items.json)."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

from desktop_app.core.importing import writer as import_writer
from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record

RECORDS = 20_000
BYTES_PER_RECORD = 800  # five keys a record here: 620 as hashes, 1,190 as strings in lists


def test_the_writer_keeps_little_per_record(tmp_path: Path, monkeypatch) -> None:
    records = [
        Record(
            title=f"Item {i}",
            authors=[f"Writer{i}, A."],
            year=2000 + i % 20,
            doi=f"10.1000/item.{i}",
            bibtex_key=f"i{i}",
        )
        for i in range(RECORDS)
    ]
    kept: list[int] = []
    finish = import_writer.ImportWriter.finish

    def measured_finish(self) -> None:
        if tracemalloc.is_tracing():
            snapshot = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(True, import_writer.__file__), tracemalloc.Filter(True, "*/core/sameness.py")]
            )
            kept.append(sum(stat.size for stat in snapshot.statistics("filename")))
        finish(self)

    monkeypatch.setattr(import_writer.ImportWriter, "finish", measured_finish)
    with Library.open(tmp_path / "lib", ensure_index=False) as lib:
        tracemalloc.start()
        try:
            report = lib.imports.from_records([("items.json", ParseResult("csljson", records))])
        finally:
            tracemalloc.stop()
        assert len(report.paper_ids) == RECORDS
        again = lib.imports.from_records([("items.json", ParseResult("csljson", records[:50]))])
        assert again.files[0].duplicates == 50 and not again.paper_ids  # still found: same papers
    per_record = kept[0] / RECORDS
    assert per_record <= BYTES_PER_RECORD, f"{per_record:.0f} bytes a record"
