"""Generators of hostile import files and a child-process runner that measures reading them.

Used by ``tests/core/test_formats_hostile.py`` and ``benchmarks/hostile_files.py``: each case
writes a small generator's output (never a committed blob) beside good entries that must still
be imported. :func:`measure` reads one file in a fresh Python process under an address-space
limit (``RLIMIT_AS``) and a wall-clock timeout, and returns what the reader reported together
with the wall time, CPU time and peak resident memory (``ru_maxrss``) of that process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

GOOD_BIB = (
    "@article{good1,\n  title = {A good paper},\n  author = {Doe, Jane},\n  year = 2020,\n"
    "  abstract = {Nothing wrong here.}\n}\n"
)
GOOD_BIB_2 = "@misc{good2, title = {Another good paper}, year = 2021}\n"
GOOD_RIS = "TY  - JOUR\nTI  - A good paper\nAU  - Doe, Jane\nPY  - 2020\nER  - \n"
GOOD_RIS_2 = "TY  - JOUR\nTI  - Another good paper\nPY  - 2021\nER  - \n"


def string_bomb(levels: int = 28) -> bytes:
    """``@string`` macros that double at each level: about 1.2 KB that expands to
    10 * 2**28 characters (2.7 GB), used by one entry between two good ones."""
    lines = [GOOD_BIB, '@string{s0 = "xxxxxxxxxx"}\n']
    lines += [f"@string{{s{i} = s{i - 1} # s{i - 1}}}\n" for i in range(1, levels + 1)]
    lines.append(f"@article{{bomb, title = s{levels}, year = 2020}}\n")
    lines.append(GOOD_BIB_2)
    return "".join(lines).encode()


def nested_braces(depth: int = 200_000) -> bytes:
    """A title and an abstract of ``depth`` nested braces each, between two good entries."""
    value = "{" * depth + "deep" + "}" * depth
    return (GOOD_BIB + f"@article{{deep, title = {value}, abstract = {value}, year = 2020}}\n" + GOOD_BIB_2).encode()


def ris_long_record(lines: int = 1_000_000) -> bytes:
    """One RIS record of ``lines`` lines (an abstract continued line after line)."""
    body = "AB  - start of a very long abstract\n" + "continued line of the abstract\n" * lines
    return (GOOD_RIS + "TY  - JOUR\nTI  - The long one\n" + body + "ER  - \n" + GOOD_RIS_2).encode()


def ris_many_tags(lines: int = 1_000_000) -> bytes:
    """One RIS record of ``lines`` keyword lines."""
    body = "".join(f"KW  - keyword {i}\n" for i in range(lines))
    return (GOOD_RIS + "TY  - JOUR\nTI  - Many tags\n" + body + "ER  - \n" + GOOD_RIS_2).encode()


def bibtex_nul() -> bytes:
    """A NUL byte inside the middle entry of three (in the first 4 KB, where binary sniffing
    looks)."""
    return (GOOD_BIB + "@article{nul, title = {Has a \x00 byte}, year = 2020}\n" + GOOD_BIB_2).encode()


def ris_nul() -> bytes:
    """A NUL byte inside the middle RIS record of three."""
    return (GOOD_RIS + "TY  - JOUR\nTI  - Has a \x00 byte\nER  - \n" + GOOD_RIS_2).encode()


def csljson_nul() -> bytes:
    """A NUL byte (raw, not escaped) inside the second of three CSL-JSON items."""
    items = [
        '{"id": "a", "type": "article", "title": "A good paper"}',
        '{"id": "b", "type": "article", "title": "Has a \x00 byte"}',
        '{"id": "c", "type": "article", "title": "Another good paper"}',
    ]
    return ("[\n" + ",\n".join(items) + "\n]\n").encode()


def csv_nul() -> bytes:
    """A NUL byte inside the second of three CSV rows."""
    return b"title,year\nA good paper,2020\nHas a \x00 byte,2020\nAnother good paper,2021\n"


def bibtex_huge_abstract(mb: int = 50) -> bytes:
    """One entry with an abstract of ``mb`` megabytes between two good entries."""
    sentence = "All work and no play makes a very long abstract. "
    abstract = sentence * (mb * 1024 * 1024 // len(sentence))
    return (GOOD_BIB + f"@article{{huge, title = {{Huge}}, abstract = {{{abstract}}}}}\n" + GOOD_BIB_2).encode()


def ris_huge_abstract(mb: int = 50) -> bytes:
    """One RIS record whose abstract is a single line of ``mb`` megabytes."""
    sentence = "All work and no play makes a very long abstract. "
    abstract = sentence * (mb * 1024 * 1024 // len(sentence))
    return (GOOD_RIS + f"TY  - JOUR\nTI  - Huge\nAB  - {abstract}\nER  - \n" + GOOD_RIS_2).encode()


def csljson_huge_abstract(mb: int = 50) -> bytes:
    """Three CSL-JSON items, the second with an HTML abstract of ``mb`` megabytes."""
    paragraph = "<p>All work and <i>no play</i> makes a very long abstract.</p>"
    abstract = paragraph * (mb * 1024 * 1024 // len(paragraph))
    items = [
        {"id": "a", "type": "article", "title": "A good paper"},
        {"id": "h", "type": "article", "title": "Huge", "abstract": abstract},
        {"id": "c", "type": "article", "title": "Another good paper"},
    ]
    return json.dumps(items, indent=1).encode()


def arxiv_huge_abstract(mb: int = 50) -> bytes:
    """An arXiv Atom feed of three entries, the second with a summary of ``mb`` megabytes."""
    sentence = "All work and no play makes a very long abstract. "

    def entry(number: int, title: str, summary: str) -> str:
        return (
            f"<entry><id>http://arxiv.org/abs/2101.0000{number}v1</id><title>{title}</title>"
            f"<summary>{summary}</summary><published>2021-01-01T00:00:00Z</published>"
            "</entry>\n"
        )

    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom">\n'
        + entry(1, "A good paper", "Fine.")
        + entry(2, "Huge", sentence * (mb * 1024 * 1024 // len(sentence)))
        + entry(3, "Another good paper", "Fine.")
        + "</feed>\n"
    ).encode()


def empty_entries(mb: float = 3.6) -> bytes:
    """``@article{,}`` again and again (``mb`` megabytes), between two good entries."""
    return (GOOD_BIB + "@article{,}\n" * int(mb * 1024 * 1024 / 12) + GOOD_BIB_2).encode()


def identical_entries(count: int = 20_000) -> bytes:
    """One entry ``count`` times over, with a placeholder abstract, and two good entries."""
    same = (
        "@article{same, title = {The same paper}, author = {Roe, Ann}, year = 2019,\n"
        "  abstract = {[No abstract available]}}\n"
    )
    return (GOOD_BIB + same * count + GOOD_BIB_2).encode()


def csljson_many_authors(count: int = 1_000_000) -> bytes:
    """Three CSL-JSON items, the second with ``count`` authors."""
    authors = [{"family": f"Author{i}", "given": "A."} for i in range(count)]
    items = [
        {"id": "a", "type": "article", "title": "A good paper"},
        {"id": "m", "type": "article", "title": "Many authors", "author": authors},
        {"id": "c", "type": "article", "title": "Another good paper"},
    ]
    return json.dumps(items).encode()


def csljson_many_items(count: int = 1_000_000) -> bytes:
    """``count`` small CSL-JSON items after two good ones."""
    items = [
        '{"id": "a", "type": "article", "title": "A good paper"}',
        '{"id": "c", "type": "article", "title": "Another good paper"}',
    ]
    items += [f'{{"id": "i{i}", "type": "article", "title": "Item {i}"}}' for i in range(count)]
    return ("[" + ",\n".join(items) + "]").encode()


def csv_huge_cell(mb: int = 100) -> bytes:
    """A CSV of three rows, the second with an abstract cell of ``mb`` megabytes."""
    cell = "x" * (mb * 1024 * 1024)
    return (f"title,year,abstract\nA good paper,2020,fine\nHuge,2020,{cell}\nAnother good paper,2021,fine\n").encode()


def error_lines(mb: float = 3.0) -> bytes:
    """``mb`` megabytes of lines that each make an error (a broken BibTeX entry), between two
    good entries."""
    return (GOOD_BIB + "@article{x\n" * int(mb * 1024 * 1024 / 11) + GOOD_BIB_2).encode()


def crossref_cycle() -> bytes:
    """An entry referring to itself and two referring to each other, beside two good ones."""
    return (
        GOOD_BIB + "@inproceedings{self, title = {Self}, crossref = {self}}\n"
        "@inproceedings{ping, title = {Ping}, crossref = {pong}}\n"
        "@proceedings{pong, title = {Pong}, crossref = {ping}}\n" + GOOD_BIB_2
    ).encode()


@dataclass(frozen=True)
class Case:
    """A hostile file: its generator, its name (the extension picks the format) and the
    titles of the good records that must still be imported from it."""

    name: str
    make: Callable[[], bytes]
    good_titles: tuple[str, ...]
    imports: bool = False  # measured through a whole import into a new library, not a read


_BIB_GOOD = ("A good paper", "Another good paper")
CASES = (
    Case("string_bomb.bib", string_bomb, _BIB_GOOD),
    Case("nested_braces.bib", nested_braces, _BIB_GOOD),
    Case("long_record.ris", ris_long_record, _BIB_GOOD),
    Case("many_tags.ris", ris_many_tags, _BIB_GOOD),
    Case("nul.bib", bibtex_nul, _BIB_GOOD),
    Case("nul.ris", ris_nul, _BIB_GOOD),
    Case("nul.json", csljson_nul, _BIB_GOOD),
    Case("nul.csv", csv_nul, _BIB_GOOD),
    Case("huge_abstract.bib", bibtex_huge_abstract, _BIB_GOOD),
    Case("huge_abstract.ris", ris_huge_abstract, _BIB_GOOD),
    Case("huge_abstract.json", csljson_huge_abstract, _BIB_GOOD),
    Case("huge_abstract.xml", arxiv_huge_abstract, _BIB_GOOD),
    Case("empty_entries.bib", empty_entries, _BIB_GOOD, imports=True),
    Case("identical_entries.bib", identical_entries, _BIB_GOOD, imports=True),
    Case("many_authors.json", csljson_many_authors, _BIB_GOOD, imports=True),
    Case("many_items.json", csljson_many_items, _BIB_GOOD, imports=True),
    Case("huge_cell.csv", csv_huge_cell, _BIB_GOOD, imports=True),
    Case("error_lines.bib", error_lines, _BIB_GOOD, imports=True),
    Case("crossref_cycle.bib", crossref_cycle, _BIB_GOOD, imports=True),
)
CASE_BY_NAME = {case.name: case for case in CASES}

MEMORY_LIMIT = 1024 * 1024 * 1024  # RLIMIT_AS of the child: 1 GB


def _child(path: str, memory_limit: int, library: str = "") -> None:
    """Run in the child: read ``path`` (and import it into a new library in the folder
    ``library``, when given) and print one JSON line about the result."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
    from desktop_app.core.formats import read_path

    lib = None
    if library:
        from desktop_app.core.library import Library

        # opened (made) before the clock starts; the index is written after the import's
        # commit, by the window's index process (the CLI: inline) and is not timed here
        lib = Library.open(Path(library), background_index="thread")
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    result = read_path(path)
    imported: list[str] | None = None
    if lib is not None:
        from desktop_app.core.records import summarised

        report = lib.imports.from_records([(path, result)])
        wall = time.perf_counter() - start
        lib.index.close(drain=False)  # the queued papers stay queued, for the next open
        imported = [lib.papers.get(pid).title for pid in report.paper_ids[:5]]
        imported.append(f"{len(report.paper_ids)} papers")
        result.errors = summarised(result.errors)
        result.warnings = summarised(result.warnings)
        lib.close()
    else:
        wall = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (usage.ru_utime - before.ru_utime) + (usage.ru_stime - before.ru_stime)
    print(
        json.dumps(
            {
                "peak_mb": _peak_mb(),
                "format": result.format,
                "titles": [r.title for r in _ends(result.records)],
                "records": len(result.records),
                "imported": imported,
                "keys": [r.bibtex_key for r in _ends(result.records)],
                "abstract_lengths": [len(r.abstract) for r in _ends(result.records)],
                "errors": [[p.line, p.message] for p in result.errors[:200]],
                "error_count": len(result.errors),
                "warnings": [[p.line, p.message] for p in result.warnings[:200]],
                "wall": wall,
                "cpu": cpu,
                # kilobytes on Linux; note that Linux carries the parent's peak over fork + exec
                "maxrss_mb": usage.ru_maxrss / 1024,
            }
        )
    )


def _ends(records: list) -> list:
    """All records, or the first thousand and the last two of a longer list."""
    return records if len(records) <= 1002 else [*records[:1000], *records[-2:]]


def _peak_mb() -> float | None:
    """The peak resident memory of this process's own address space (``VmHWM``, Linux), which
    unlike ``ru_maxrss`` starts afresh at exec; None where /proc is missing."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return None


def measure(
    path: Path, *, timeout: float = 60.0, memory_limit: int = MEMORY_LIMIT, library: Path | None = None
) -> dict:
    """Read ``path`` in a fresh interpreter (and import it into a new library in ``library``,
    when given); return the child's report plus ``returncode``, ``stderr`` and ``elapsed``
    (wall clock of the whole child, start-up included)."""
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), *filter(None, [os.environ.get("PYTHONPATH")])]))
    code = (
        f"from tests.helpers.hostile_cases import _child; _child({str(path)!r}, {memory_limit}, {str(library or '')!r})"
    )
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=env, check=False
        )
    except subprocess.TimeoutExpired:
        return {"returncode": None, "stderr": f"timed out after {timeout:g} s", "elapsed": time.perf_counter() - start}
    report: dict = {}
    lines = done.stdout.strip().splitlines()
    if done.returncode == 0 and lines:
        report = json.loads(lines[-1])
    report.update(returncode=done.returncode, stderr=done.stderr, elapsed=time.perf_counter() - start)
    return report
