"""Stable citation keys: one per paper, made once, unique, editable,
searchable as ``key:``, kept through merges, used unchanged by every export, and given to an
existing library's papers by migration 0008 as its last whole-library export named them."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from desktop_app.core.citation_keys import is_valid_key, pattern_key, unique_key
from desktop_app.core.errors import LibraryError
from desktop_app.core.formats.bibtex_writer import assign_keys, render_bibtex
from desktop_app.core.formats.csljson_writer import render_csljson
from desktop_app.core.library import Library
from desktop_app.core.store import migrate as db

BIB = """@article{Vaswani:2017,
  author = {Vaswani, Ashish and Shazeer, Noam},
  title = {Attention Is All You Need},
  year = {2017},
  abstract = {The dominant sequence transduction models are based on recurrent networks.},
}
@article{smith2020,
  author = {Smith, Jane},
  title = {On Graphs},
  year = {2020},
  abstract = {We study graphs and their colourings in depth.},
}
@article{bad key here,
  author = {Smith, Jane},
  title = {On Graphs Again},
  year = {2020},
  abstract = {A second paper on graphs, with a key no LaTeX document can cite.},
}
"""


def _keys(lib: Library) -> dict[int, str]:
    ids = lib.query("").ids
    return {pid: lib.papers.get(pid).bibtex_key for pid in ids}


def _bib_keys(text: str) -> list[str]:
    return re.findall(r"^@\w+\{([^,]+),", text, re.M)


def test_the_pattern_is_family_year_first_word() -> None:
    assert pattern_key(["Vaswani, Ashish"], 2017, "Attention Is All You Need") == "vaswani2017attention"
    assert pattern_key([], None, "The Müller effect") == "anonndmuller"
    assert pattern_key(["Ødegård, Kari"], 2025, "On the \\emph{Quokka}") == "odegard2025quokka"
    assert unique_key("smith2020graphs", {"smith2020graphs", "smith2020graphsa"}) == "smith2020graphsb"
    assert is_valid_key("Vaswani:2017") and not is_valid_key("bad key") and not is_valid_key("")


def test_every_seed_paper_gets_a_unique_key_once(seed_library: Library) -> None:
    keys = _keys(seed_library)
    assert len(keys) == 76 and all(is_valid_key(k) for k in keys.values())
    assert len({k.lower() for k in keys.values()}) == 76
    # a title-less seed list still gets keys of the pattern (anon + year/nd + a word of the derived title)
    assert all(re.fullmatch(r"[a-z]+(\d{4}|nd)[a-z0-9]*", k) for k in keys.values()), keys


def test_exports_use_the_stored_key_whatever_subset(seed_library: Library) -> None:
    lib = seed_library
    ids = lib.query("").ids
    keys = _keys(lib)
    papers = lib.exports.papers(ids)
    whole = dict(zip(ids, _bib_keys(render_bibtex(papers)), strict=True))
    assert whole == keys
    # one paper alone, or with a different neighbour, is cited by the same key
    for pid in (ids[5], ids[40]):
        alone = _bib_keys(render_bibtex(lib.exports.papers([pid])))
        assert alone == [keys[pid]]
        pair = _bib_keys(render_bibtex(lib.exports.papers([ids[-1], pid])))
        assert pair == [keys[ids[-1]], keys[pid]]
    items = json.loads(render_csljson(lib.exports.papers([ids[7]])))
    assert items[0]["citation-key"] == keys[ids[7]]


def test_a_files_own_key_is_kept_and_a_clash_is_reported(empty_library: Library, tmp_path: Path) -> None:
    lib = empty_library
    path = tmp_path / "refs.bib"
    path.write_text(BIB, "utf-8")
    report = lib.imports.from_files([path])
    assert report.added == 3
    keys = sorted(_keys(lib).values())
    assert "Vaswani:2017" in keys and "smith2020" in keys
    assert "smith2020graphs" in keys  # the invalid key replaced by the pattern's, and said so
    warnings = report.files[0].warnings
    assert any("'bad key here' is not a valid BibTeX key" in w and "'smith2020graphs'" in w for w in warnings), warnings

    other = tmp_path / "other.bib"  # another file brings a key a paper of the library has
    other.write_text(
        "@article{smith2020,\n  author = {Doe, John},\n  title = {Trees},\n  year = {2021},\n"
        "  abstract = {A paper about trees, not graphs, with a key already taken.},\n}\n",
        "utf-8",
    )
    report = lib.imports.from_files([other])
    assert report.added == 1
    (new_id,) = report.paper_ids
    assert lib.papers.get(new_id).bibtex_key == "doe2021trees"
    assert any("'smith2020' is another paper's already" in w for w in report.files[0].warnings)


def test_the_key_is_edited_checked_undone_and_searched(seed_library: Library) -> None:
    lib = seed_library
    a, b = lib.query("").ids[:2]
    key_b = lib.papers.get(b).bibtex_key
    with pytest.raises(LibraryError, match="not a citation key"):
        lib.papers.update_metadata(a, {"citation_key": "has space"})
    with pytest.raises(LibraryError, match="cannot be empty"):
        lib.papers.update_metadata(a, {"citation_key": " "})
    with pytest.raises(LibraryError, match=f"paper {b}'s already"):
        lib.papers.update_metadata(a, {"citation_key": key_b.upper()})  # keys compare without case
    old = lib.papers.get(a).bibtex_key
    change = lib.papers.update_metadata(a, {"citation_key": "Mine:Quokka2026"})
    assert lib.papers.get(a).bibtex_key == "Mine:Quokka2026"
    assert change.detail.fields == ("citation_key",) and change.detail.old == {"citation_key": old}
    assert lib.query('key:"mine:quokka2026"').ids == [a]
    assert lib.query("key:mine*").ids == [a]
    assert lib.query(f"key:{key_b}").ids == [b]
    lib.papers.update_metadata(a, change.detail.old)  # what undo passes back
    assert lib.papers.get(a).bibtex_key == old
    assert lib.query('key:"mine:quokka2026"').ids == []


def test_a_merge_keeps_the_kept_key_or_swaps_by_choice(seed_library: Library) -> None:
    lib = seed_library
    a, b = lib.query("").ids[:2]
    ka, kb = lib.papers.get(a).bibtex_key, lib.papers.get(b).bibtex_key
    change = lib.duplicates.merge(a, b)
    assert lib.papers.get(a).bibtex_key == ka
    lib.duplicates.undo_merge(change.detail.merge_id)
    change = lib.duplicates.merge(a, b, {"bibtex_key": "other"})
    assert lib.papers.get(a).bibtex_key == kb  # the kept paper is now cited as the other was
    lib.duplicates.undo_merge(change.detail.merge_id)
    assert (lib.papers.get(a).bibtex_key, lib.papers.get(b).bibtex_key) == (ka, kb)


def test_migration_0008_gives_the_keys_the_last_export_used(library_dir: Path, seed_paths: list[Path]) -> None:
    with Library.open(library_dir) as lib:
        lib.imports.from_files(seed_paths[:2])
        ids = lib.query("", sort="added").ids
    path = library_dir / "library.sqlite"
    con = sqlite3.connect(path)  # the library as 0007 left it: keys only where a file brought one
    rows = con.execute("SELECT id FROM paper ORDER BY id").fetchall()
    first, second, third = (r[0] for r in rows[:3])
    con.execute("DROP INDEX ix_paper_citation_key")
    con.execute("DROP INDEX IF EXISTS ix_tag_name_casefold")  # 0009's, made again by the upgrade
    con.execute("DROP INDEX IF EXISTS ix_paper_live_title")  # 0010's, likewise
    con.execute("DROP INDEX IF EXISTS ix_paper_live_year")
    con.execute("DROP INDEX IF EXISTS ix_paper_live_decision")  # 0011's
    con.execute("DROP TABLE IF EXISTS applied_edit")  # 0012's
    con.execute("UPDATE paper SET bibtex_key = NULL")
    con.execute("UPDATE paper SET bibtex_key = 'Own:Key' WHERE id IN (?, ?)", (second, third))  # a clash
    con.execute("UPDATE alembic_version SET version_num = '0007'")
    con.commit()
    con.close()
    with Library.open(library_dir) as lib:
        assert db.current_revision(path) == db.SCHEMA_HEAD
        papers = lib.exports.papers(sorted(ids))
        # what an export of the whole library, in id order, named each paper before 0008
        for p in papers:
            p.bibtex_key = "Own:Key" if p.id in (second, third) else None
        expected = assign_keys(papers)
        keys = _keys(lib)
        assert [keys[p.id] for p in papers] == expected
        assert keys[second] == "Own:Key" and keys[third] != "Own:Key" and keys[first]
        with pytest.raises(LibraryError):
            lib.papers.update_metadata(first, {"citation_key": "own:key"})  # the unique index stands


def test_many_papers_sharing_one_base_cost_linear_look_ups() -> None:
    """20,000 identical entries share one pattern key: each search for a free suffix starts
    where the last one stopped (it scanned every suffix from "a": 10,000 look-ups a paper)."""
    from desktop_app.core.citation_keys import unique_key

    class Counting(set):
        looked = 0

        def __contains__(self, key: object) -> bool:
            Counting.looked += 1
            return super().__contains__(key)

    taken, tried, made = Counting({"roe2019same"}), {}, []
    for _ in range(2000):
        key = unique_key("roe2019same", taken, tried)
        taken.add(key.lower())
        made.append(key)
    assert made[:3] == ["roe2019samea", "roe2019sameb", "roe2019samec"]
    assert made[26] == "roe2019sameaa" and len(set(made)) == 2000
    assert Counting.looked <= 3 * 2000, Counting.looked
    untried = Counting({"roe2019same", "roe2019samea"})  # without ``tried``: the first free one
    assert unique_key("roe2019same", untried) == "roe2019sameb"
