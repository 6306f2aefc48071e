"""Every export format written from the seed library reads back (issue: reading lists and exports)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from desktop_app.core.formats import read_path
from desktop_app.core.formats.writer_common import export_title
from desktop_app.core.library import Library
from desktop_app.exporting import export_to_file
from tests.helpers.library import find_paper


@pytest.fixture
def annotated(seed_library: Library) -> Library:
    """The seed library with tags, a note, a highlight, a status, a rating and a list."""
    lib = seed_library
    races = find_paper(lib, "composable building blocks")
    ids = lib.query("").ids
    lib.tags.add(ids[:10], ["rl/rlvr"])
    lib.tags.add([races], ["to-cite"])
    lib.notes.set(races, "First thoughts")
    lib.notes.set(races, "**Key idea**: composition. <script>alert(1)</script>")
    lib.highlights.add_quote(races, "composable building blocks", comment="core claim", color="green")
    lib.papers.set_status([races], "read")
    lib.papers.set_rating([races], 5)
    lib.papers.set_title(ids[3], '=HYPERLINK("http://x") My edited title')
    lib.lists.create("Group meeting", "RL papers for Friday")
    lib.lists.add("Group meeting", [ids[5], races, ids[3]])
    lib.lists.set_item_note("Group meeting", races, "discuss section 3")
    return lib


@pytest.mark.parametrize("fmt", ["bib", "ris", "csljson", "csv"])
def test_bibliographic_formats_reimport_without_duplicates(annotated: Library, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"all.{fmt}"
    assert export_to_file(annotated, fmt, out) == 76
    parsed = read_path(out)
    assert not parsed.errors, parsed.errors[:3]
    assert len(parsed.records) == 76
    # (Marginalia's own formats carry the citation key, the key to compare by)
    by_key = {r.bibtex_key if fmt != "csv" else r.title: r for r in parsed.records}
    tagged = 0
    for pid in annotated.query("").ids[:12]:
        p = annotated.papers.get(pid)
        r = by_key[p.bibtex_key if fmt != "csv" else p.title]
        assert r.year == 2026 and r.venue == "NeurIPS"
        # tags travel as keywords (what other reference managers read) and in Marginalia's own
        # field, so that they come back as tags, not keywords; CSV keeps both columns
        assert set(r.tags) >= set(p.tags) and not set(r.keywords) & set(p.tags)
        assert all(tag in r.raw for tag in p.tags)
        tagged += bool(p.tags)
    assert tagged
    # re-importing the export into the same library adds nothing
    report = annotated.imports.from_files([out])
    assert report.added == 0 and report.duplicates == 76
    # into a fresh library: 76 papers whose given titles are the exported ones
    with Library.open(tmp_path / "fresh") as fresh:
        assert fresh.imports.from_files([out]).added == 76
        # (a derived title as exported: without the "…" where it was cut; still "derived" when
        # Marginalia's own fields say so)
        shown = {export_title(p) for p in annotated.exports.papers(annotated.query("").ids)}
        back = [fresh.papers.get(i) for i in fresh.query("").ids]
        assert {p.title for p in back} == shown
        if fmt != "csv":
            sources = {
                "given" if p.title_source == "edited" else p.title_source  # an edited title is the file's
                for p in annotated.exports.papers(annotated.query("").ids)
            }
            assert {p.title_source for p in back} == sources


def test_csv_cells_that_look_like_formulas_are_defused(annotated: Library, tmp_path: Path) -> None:
    out = tmp_path / "list.csv"
    export_to_file(annotated, "csv", out, list_name="Group meeting")
    with out.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 3
    titles = [r["title"] for r in rows]
    assert '\'=HYPERLINK("http://x") My edited title' in titles
    for r in rows:
        for value in r.values():
            assert (value or " ")[0] not in "=+-@\t\r", value


def test_markdown_and_html_carry_notes_and_highlights(annotated: Library, tmp_path: Path) -> None:
    md, html = tmp_path / "l.md", tmp_path / "l.html"
    export_to_file(annotated, "md", md, list_name="Group meeting")
    export_to_file(annotated, "html", html, list_name="Group meeting")
    m, h = md.read_text("utf-8"), html.read_text("utf-8")
    for text in (m, h):
        assert "Group meeting" in text and "RL papers for Friday" in text
        assert "composable building blocks" in text and "core claim" in text
        assert "discuss section 3" in text
        assert "Key idea" in text
    assert "<script>alert(1)</script>" not in h and "&lt;script&gt;" in h
    # order of the list is kept
    races = annotated.papers.get(find_paper(annotated, "composable building blocks")).title
    assert h.index(races) < h.index("My edited title")


def test_json_is_lossless_and_restores_into_a_new_library(annotated: Library, tmp_path: Path) -> None:
    out = tmp_path / "backup.json"
    export_to_file(annotated, "json", out)
    doc = json.loads(out.read_text("utf-8"))
    assert doc["format"] == "marginalia-library" and len(doc["papers"]) == 76
    races_id = find_paper(annotated, "composable building blocks")
    src = annotated.papers.get(races_id)
    with Library.open(tmp_path / "moved") as moved:
        report = moved.imports.from_files([out])
        assert report.added == 76
        dst = moved.papers.get(find_paper(moved, "composable building blocks"))
        assert (dst.uid, dst.title, dst.status, dst.rating, dst.tags, dst.note) == (
            src.uid,
            src.title,
            src.status,
            src.rating,
            src.tags,
            src.note,
        )
        assert [(h.quote, h.comment, h.color, h.start, h.end) for h in dst.highlights] == [
            (h.quote, h.comment, h.color, h.start, h.end) for h in src.highlights
        ]
        assert [t for _, t in moved.notes.revisions(dst.id)] == ["First thoughts"]
        items = moved.lists.items("Group meeting")
        assert [moved.papers.get(p).uid for p, _, _ in items] == [
            annotated.papers.get(p).uid for p, _, _ in annotated.lists.items("Group meeting")
        ]
        assert moved.query("note:composition").ids == [dst.id]
        # restoring twice adds nothing
        assert moved.imports.from_files([out]).added == 0
        assert len(moved.papers.get(dst.id).highlights) == 1
