"""A library survives its own exports: exported to BibTeX, RIS, CSL-JSON or
Marginalia JSON and imported into a new library, the papers come back with their tags, status,
rating, decision, note, reading-list order and citation key, as far as each format carries them;
a file of another tool keeps its keywords as keywords."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.core.library import Library
from desktop_app.exporting import export_to_file

from ..conftest import SEEDS

NOTE = "First line -- with *markdown*, 50% & $x^2$ {braces}\n\n@second paragraph\n  - a list item"
TAGS = ["rl/rlvr", "to read", "ideas, later", "方法", "a_b{c}"]
# what each format carries: RIS keeps a note's lines, not its blank lines or indents
FORMATS = ["bib", "ris", "csljson", "json"]
SUFFIX = {"bib": "bib", "ris": "ris", "csljson": "json", "json": "json"}


def _made(lib: Library) -> dict[str, list[int]]:
    """What a user made of the seeds: tags, statuses, ratings, decisions, notes and two lists."""
    ids = lib.query("", sort="added").ids
    a, b, c, d, e = ids[:5]
    lib.tags.add([a, b], TAGS[:2])
    lib.tags.add([c], TAGS[2:])
    lib.papers.set_status([a], "read")
    lib.papers.set_status([b, d], "skimmed")
    lib.papers.set_rating([a], 5)
    lib.papers.set_rating([c], 2)
    lib.papers.set_decision([a, c], "keep")
    lib.papers.set_decision([e], "skip")
    lib.notes.set(a, NOTE)
    lib.notes.set(d, "short note")
    lib.lists.create("Group meeting; week 3")
    lib.lists.add("Group meeting; week 3", [e, a, c])
    lib.lists.create("Later")
    lib.lists.add("Later", [c, b])
    return {"ids": ids}


def _state(lib: Library, *, note_lines: bool = False) -> dict[str, dict]:
    """Per paper (by its citation key): what the user made of it; lists in order, by key."""
    out = {}
    for pid in lib.query("").ids:
        p = lib.papers.get(pid)
        note = p.note
        if note_lines:
            note = "\n".join(line.strip() for line in note.splitlines() if line.strip())
        out[p.bibtex_key] = {
            "tags": sorted(p.tags),
            "status": p.status,
            "rating": p.rating,
            "decision": p.decision,
            "note": note.strip(),
            "keywords": sorted(p.keywords),
        }
    lists = {
        info.name: [lib.papers.get(pid).bibtex_key for pid, _, _ in lib.lists.items(info.name)]
        for info in lib.lists.all()
    }
    return {"papers": out, "lists": lists}


@pytest.mark.shared
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_library_comes_back_from_its_own_export(fmt: str, tmp_path: Path) -> None:
    with Library.open(tmp_path / "first") as lib:
        lib.imports.from_files(list(SEEDS))
        ids = _made(lib)["ids"]
        path = tmp_path / f"export.{SUFFIX[fmt]}"
        assert export_to_file(lib, fmt, path, ids=ids, notes_in_bibtex=True) == 76
        want = _state(lib, note_lines=fmt == "ris")
        assert len(want["papers"]) == 76 and want["lists"]["Later"]
    with Library.open(tmp_path / "second") as lib:
        report = lib.imports.from_files([path])
        assert report.added == 76, report.as_dict()
        got = _state(lib, note_lines=fmt == "ris")
        assert got["lists"] == want["lists"]
        assert set(got["papers"]) == set(want["papers"])  # the same citation keys
        for key, made in want["papers"].items():
            assert got["papers"][key] == made, (fmt, key)
        if fmt != "json":  # an import is one step: undone, the papers go (the lists it made stay)
            lib.imports.undo(report.batch_id)
            assert lib.papers.count() == 0


@pytest.mark.shared
@pytest.mark.parametrize("fmt", ["bib", "ris", "csljson"])
def test_an_export_edited_by_hand_comes_back_as_edited(fmt: str, tmp_path: Path) -> None:
    with Library.open(tmp_path / "first") as lib:
        lib.imports.from_files(list(SEEDS[:1]))
        _made(lib)
        path = tmp_path / f"export.{SUFFIX[fmt]}"
        export_to_file(lib, fmt, path, ids=lib.query("", sort="added").ids)
    text = path.read_text("utf-8")
    assert text.count("to read") == 4  # keywords and Marginalia's tags, twice each
    edited = text.replace("to read, ", "").replace(", to read", "").replace('"to read", ', "")
    path.write_text(edited, "utf-8")
    with Library.open(tmp_path / "second") as lib:
        lib.imports.from_files([path])
        tagged = {t.name for t in lib.tags.all()}
        assert "to read" not in tagged and "rl/rlvr" in tagged
        assert lib.query("tag:rl/rlvr").total == 2


def test_another_tools_keywords_stay_keywords(tmp_path: Path) -> None:
    bib = tmp_path / "zotero.bib"
    bib.write_text(
        "@article{doe2020,\n  author = {Doe, Jane},\n  title = {Graphs},\n  year = {2020},\n"
        "  keywords = {graphs, colouring},\n  note = {Accepted at a workshop},\n"
        "  abstract = {We study the colouring of graphs in some depth here.},\n}\n",
        "utf-8",
    )
    with Library.open(tmp_path / "lib") as lib:
        report = lib.imports.from_files([bib])
        p = lib.papers.get(report.paper_ids[0])
        assert p.keywords == ["graphs", "colouring"] and p.tags == []
        assert p.note == "" and p.status == "unread" and p.extra.get("note") == "Accepted at a workshop"
