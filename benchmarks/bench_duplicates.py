"""Possible duplicates at scale: ``lib.duplicates.find()`` on a library of N papers.

    .venv/bin/python benchmarks/bench_duplicates.py --size 10000 [--planted 300] [--keep DIR]

The library is the seed abstracts (``../shared/seeds``, when present) and the synthetic corpus
written as BibTeX and imported from the file, then ``--planted`` records of it imported again with
a mistyped title and a revised venue, kept apart at import (so that ``find`` has pairs to offer).
Building is untimed; ``find`` is timed (the first run, then the median of the others, which
reuse the identities of papers that did not change), and so are a ``refresh_keys`` with
nothing to do and a merge with its undo. Target at 10,000 papers: find under 1 s.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from copy import copy
from pathlib import Path

from common import ROOT, TARGET_SIZE, corpus, environment, ms, verdict

from desktop_app.core.formats import read_path
from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult

TARGET_FIND_S = 1.0


def _typo(title: str) -> str:
    words = title.split()
    longest = max(range(len(words)), key=lambda i: len(words[i]))
    w = words[longest]
    words[longest] = w[:1] + w[2:] if len(w) > 2 else w + "s"
    return " ".join(words)


def build(folder: Path, size: int, planted: int, log=print) -> Library:  # noqa: ANN001
    if (folder / "library.sqlite").exists():
        log(f"  using the library built before in {folder}")
        return Library.open(folder, ensure_index=False)
    lib = Library.open(folder, ensure_index=False)
    t0 = time.perf_counter()
    seeds = sorted((ROOT.parent / "shared" / "seeds").glob("*.txt"))
    if seeds:
        lib.imports.from_files(seeds)
    records = corpus.make_corpus(size, corpus.DEFAULT_SEED)
    bib = corpus.write_bibtex(records, folder.parent / "corpus.bib")
    report = lib.imports.from_files([bib])
    log(f"  imported {len(seeds)} seed files and {report.added:,} BibTeX records "
        f"({time.perf_counter() - t0:.0f} s)")
    if planted:
        parsed = read_path(bib)
        again = []
        for rec in parsed.records[:: max(1, len(parsed.records) // planted)][:planted]:
            rec = copy(rec)
            if rec.title:
                rec.title = _typo(rec.title)
            rec.venue = (rec.venue or "") + " (preprint)"
            again.append(rec)
        preview = lib.imports.from_records([("planted", ParseResult("bibtex", again))], dry_run=True)
        keep = frozenset((0, m.index) for m in preview.files[0].matches)
        rep = lib.imports.from_records([("planted", ParseResult("bibtex", again))], keep_apart=keep)
        log(f"  planted {rep.added} near-copies ({len(keep)} kept apart from the paper they copy)")
    return lib


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=10_000)
    ap.add_argument("--planted", type=int, default=300)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--keep", help="build the library in this folder and keep it (used as it is when there)")
    args = ap.parse_args(argv)
    print(environment())
    with tempfile.TemporaryDirectory(prefix="marginalia-dups-") as tmp:
        folder = Path(args.keep) if args.keep else Path(tmp) / "library"
        lib = build(folder, args.size, args.planted)
        try:
            print(f"  {lib.papers.count():,} papers")
            t0 = time.perf_counter()
            change = lib.duplicates.refresh_keys()
            print(f"  refresh_keys: {ms(time.perf_counter() - t0)} ({len(change.paper_ids)} papers had no keys)")
            times, pairs = [], []
            for _ in range(max(2, args.reps)):
                t0 = time.perf_counter()
                pairs = lib.duplicates.find()
                times.append(time.perf_counter() - t0)
            first, warm = times[0], statistics.median(times[1:])
            reasons: dict[str, int] = {}
            for p in pairs:
                reasons[p.label] = reasons.get(p.label, 0) + 1
            print(f"  find: {len(pairs):,} pairs {reasons}")
            target = (f" — target {TARGET_FIND_S:.1f} s: {verdict(first < TARGET_FIND_S)}"
                      if args.size == TARGET_SIZE else " (the target is set for 10,000 papers)")
            print(f"  find, first: {ms(first)}{target}")
            print(f"  find again (identities of unchanged papers reused): median {ms(warm)} "
                  f"over {len(times) - 1} runs")
            if pairs:
                t0 = time.perf_counter()
                merged = lib.duplicates.merge(pairs[0].a, pairs[0].b)
                t1 = time.perf_counter()
                lib.duplicates.undo_merge(merged.detail["merge_id"])
                print(f"  merge {ms(t1 - t0)}, undo {ms(time.perf_counter() - t1)}")
        finally:
            lib.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
