"""What logging every status, rating and tag change (change_log) costs the bulk writes.

Median wall time of bulk tag add, tag remove, status and rating of 1,000 papers in a library of
``size`` papers (default 5,000). Runs on trees before change_log too, for an A/B comparison:

    git archive <commit> | tar -x -C /tmp/old; ln -s $PWD/migrations /tmp/old/desktop_app/migrations
    (cd /tmp/old && PYTHONPATH=$PWD python $OLDPWD/benchmarks/bench_change_log.py)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))

from benchmarks import corpus
from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("size", type=int, nargs="?", default=5000)
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        lib = Library.open(Path(tmp) / "lib", ensure_index=False)
        lib.imports.from_records([("bench", ParseResult("bibtex", corpus.make_corpus(a.size)))])
        ids = lib.query("").ids[:1000]
        times: dict[str, list[float]] = {"tag add": [], "tag remove": [], "status": [], "rating": []}
        for k in range(a.rounds):
            for name, call in (
                ("tag add", lambda k=k: lib.tags.add(ids, [f"bench/t{k}"])),
                ("tag remove", lambda k=k: lib.tags.remove(ids, [f"bench/t{k}"])),
                ("status", lambda k=k: lib.papers.set_status(ids, ("read", "skimmed")[k % 2])),
                ("rating", lambda k=k: lib.papers.set_rating(ids, 1 + k % 5)),
            ):
                t0 = time.perf_counter()
                call()
                times[name].append(time.perf_counter() - t0)
        lib.close()
    print(f"bench_change_log — 1,000 of {a.size:,} papers, median of {a.rounds}")
    for name, ts in times.items():
        print(f"  {name:<11} {statistics.median(ts) * 1000:7.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
