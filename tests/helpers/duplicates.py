"""Records the duplicate rules match: one article in two versions, the chapters of one book."""

from __future__ import annotations

from pathlib import Path

from desktop_app.core.library import Library

ABSTRACT = "We study cats with deep networks and find that they are cute."

REVISED = "We study cats with deep neural networks and find that they are very cute indeed."

FIRST = f"""@article{{smith2020deep,
  title = {{Deep Learning for Cats}},
  author = {{Smith, John and Doe, Jane}},
  year = {{2020}},
  journal = {{Journal of Cats}},
  doi = {{10.1234/cats.2020.1}},
  abstract = {{{ABSTRACT}}},
}}
@book{{Schank:80,
  title = {{Scripts, Plans and Goals}},
  author = {{Schank, Roger}},
  year = {{1980}},
}}
"""

SECOND = f"""@article{{smith2020,
  title = {{Deep Lerning for Cats}},
  author = {{Smith, John and Doe, Jane}},
  year = {{2020}},
  journal = {{J. Cats}},
  doi = {{10.1234/CATS.2020.1}},
  url = {{https://example.org/cats}},
  abstract = {{{REVISED}}},
}}
@incollection{{Schank:80,
  title = {{Conceptual Dependency}},
  author = {{Schank, Roger}},
  year = {{1980}},
  booktitle = {{Inside Computer Understanding}},
}}
"""

BLURB = (
    "This volume collects the lectures of the 2019 summer school on causal inference, from "
    "potential outcomes to structural models and their identification."
)

CHAPTERS = f"""TY  - CHAP
TI  - Potential outcomes
AU  - Rubin, Donald
PY  - 2019
AB  - {BLURB}
ER  -

TY  - CHAP
TI  - Structural causal models
AU  - Pearl, Judea
PY  - 2019
AB  - {BLURB}
ER  -
"""


def write_file(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def import_kept_apart(lib: Library, path: Path) -> None:
    """Import ``path`` keeping apart every record the rules would merge (the import's choice)."""
    preview, parsed = lib.imports.preview([path])
    keep = frozenset((0, m.index) for f in preview.files for m in f.matches)
    assert keep, "the rules should have matched something"
    report = lib.imports.from_records(parsed, keep_apart=keep)
    assert report.files[0].kept_apart == len(keep)


def duplicate_pairs_and_derived(lib: Library, folder: Path, derived: int) -> list[int]:
    """Both files imported (two duplicate pairs kept apart), then ``derived`` papers whose title
    is derived from the abstract; their ids, in order."""
    from desktop_app.core.records import ParseResult, Record

    lib.imports.from_files([write_file(folder, "first.bib", FIRST)])
    import_kept_apart(lib, write_file(folder, "second.bib", SECOND))
    records = [Record(title="", abstract=f"We grind lenses of kind {n} and measure them.") for n in range(derived)]
    change = lib.imports.from_records([("t.bib", ParseResult("bibtex", records))])
    return sorted(change.paper_ids)
