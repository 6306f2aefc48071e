"""A sparse record (no title, no abstract) imported again is recognised as the same record;
a record with nothing in it is reported with its line (by the reader), not imported."""

from __future__ import annotations

from pathlib import Path

from desktop_app.core.library import Library

RIS = """TY  - JOUR
TI  - Sparse reward shaping
AU  - Okafor, Ben
PY  - 2025
ER  -

TY  - BOOK
ER  -

TY  - JOUR
JO  - Prostate Cancer Mortality Statistics 2015
ER  -

TY  - JOUR
DO  - 10.1000/only-a-doi
ER  -
"""


def test_an_empty_record_is_reported_with_its_line_and_a_reimport_adds_nothing(tmp_path: Path) -> None:
    path = tmp_path / "three.ris"
    path.write_text(RIS, encoding="utf-8")
    with Library.open(tmp_path / "lib") as lib:
        report = lib.imports.from_files([path])
        fr = report.files[0]
        # the titled record, the venue-only one and the DOI-only one are papers (Zotero keeps
        # them too); the record with nothing but its type is not
        assert (fr.added, fr.failed) == (3, 1)
        assert any(e.startswith("line 7:") and "not imported" in e for e in fr.errors), fr.errors
        assert lib.papers.count() == 3
        again = lib.imports.from_files([path]).files[0]
        assert again.added == 0 and lib.papers.count() == 3
        venue_only = [m for m in again.matches if m.line == 10]
        assert [m.reason for m in venue_only] == ["same-record"], again.matches
