"""Identity and merging across formats, and the BibTeX round trip (issue: import what
researchers already have)."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.core.formats import read_path
from desktop_app.core.library import Library
from desktop_app.exporting import export_to_file
from tests.helpers.shared import CORPUS

ATOM = CORPUS / "arxiv-atom" / "arxiv.py__search_query_au_del_maestro.xml"
BIBTEX = sorted((CORPUS / "bibtex").glob("*.bib"))


@pytest.mark.shared
def test_bibtex_export_of_arxiv_papers_merges_without_touching_user_data(
    empty_library: Library, tmp_path: Path
) -> None:
    lib = empty_library
    assert lib.imports.from_files([ATOM]).added == 10
    pid = lib.query("").ids[0]
    p = lib.papers.get(pid)
    assert p.arxiv_id and not p.venue
    lib.papers.set_title(pid, "My own title for this")
    lib.tags.add([pid], ["to-cite"])
    lib.notes.set(pid, "my note")
    lib.papers.set_status([pid], "read")
    bib = tmp_path / "from-zotero.bib"
    bib.write_text(
        "@article{delmaestro2020,\n"
        f"  title = {{{p.title.upper()}}},\n"
        f"  author = {{{' and '.join(p.authors)}}},\n"
        f"  year = {{{p.year}}},\n"
        "  journal = {Physical Review B},\n"
        "  pages = {1--10},\n"
        f"  eprint = {{{p.arxiv_id}v3}},\n  archiveprefix = {{arXiv}},\n"
        "}\n",
        "utf-8",
    )
    report = lib.imports.from_files([bib])
    assert (report.added, report.duplicates, report.merged) == (0, 1, 1)
    after = lib.papers.get(pid)
    assert after.venue == "Physical Review B"  # filled in
    assert after.title == "My own title for this"  # the user's edit stays
    assert (after.tags, after.note, after.status) == (["to-cite"], "my note", "read")
    # the paper keeps the key it was given (a document may cite it); the file's is kept beside it
    assert after.bibtex_key == p.bibtex_key != "delmaestro2020"
    assert after.extra["file_key"] == "delmaestro2020"


@pytest.mark.shared
def test_bibtex_corpus_round_trip(empty_library: Library, tmp_path: Path) -> None:
    lib = empty_library
    first = lib.imports.from_files(BIBTEX)
    n = lib.papers.count()
    assert first.added == n and n > 450
    out = tmp_path / "all.bib"
    export_to_file(lib, "bib", out)
    again = lib.imports.from_files([out])
    assert again.added == 0 and again.duplicates == n, again.as_dict()["files"][0]["errors"][:3]
    parsed = read_path(out)
    assert len(parsed.records) == n and not parsed.errors
    with Library.open(tmp_path / "fresh") as fresh:
        assert fresh.imports.from_files([out]).added == n

        def fields(library: Library) -> set[tuple]:
            out = set()
            for i in library.query("").ids:
                p = library.papers.get(i)
                out.add((p.title, tuple(p.authors), p.year, p.venue, (p.doi or "").lower(), p.arxiv_id, tuple(p.tags)))
            return out

        assert fields(fresh) == fields(lib)


def test_undo_import_removes_exactly_that_import(seed_library: Library) -> None:
    before = seed_library.papers.count()
    report = seed_library.imports.from_files([ATOM])
    assert seed_library.papers.count() == before + 10
    seed_library.imports.undo(report.batch_id)
    assert seed_library.papers.count() == before
    assert seed_library.integrity_check() == []
    # and it can be imported again afterwards
    assert seed_library.imports.from_files([ATOM]).added == 10


def test_not_bibliographic_files_get_one_line_and_change_nothing(seed_library: Library, tmp_path: Path) -> None:
    png = tmp_path / "figure.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    empty = tmp_path / "empty.bib"
    empty.write_bytes(b"")
    report = seed_library.imports.from_files([png, empty])
    assert report.added == 0 and report.failed == 2
    assert all(len(f.errors) == 1 and "\n" not in f.errors[0] for f in report.files)
    assert seed_library.papers.count() == 76
