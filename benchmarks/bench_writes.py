"""Write-path throughput in CPU time and wall time: import, listing, bulk tag, SQL queries.

Prints ``time.process_time`` beside ``perf_counter`` for each phase, so figures from a loaded
machine can still be compared. It also runs on the API before the managers (``lib.import_records``
instead of ``lib.imports.from_records``), so two trees can be compared A/B:

    git worktree add /tmp/old <commit>; ln -s /tmp/old/migrations /tmp/old/desktop_app/migrations
    ln -s /tmp/old/resources /tmp/old/desktop_app/resources
    (cd /tmp/old && PYTHONPATH=$PWD python /path/to/bench_writes.py 5000)   # alternate with the new tree
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))

from benchmarks import corpus
from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - cpu, time.perf_counter() - wall


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("size", type=int, nargs="?", default=5000, help="papers (default 5000)")
    n = ap.parse_args(argv).size
    records = corpus.make_corpus(n)
    with tempfile.TemporaryDirectory() as tmp:
        lib = Library.open(Path(tmp) / "lib", ensure_index=False)
        managers = hasattr(lib, "papers") and not callable(lib.papers)
        imp = lib.imports.from_records if managers else lib.import_records
        rows = lib.papers.rows if managers else lib.rows
        tag = lib.tags.add if managers else lib.add_tags
        out = {"import": timed(lambda: imp([("bench", ParseResult("bibtex", records))]))}

        def listing() -> None:
            res = lib.query("", sort="title")
            for i in range(0, len(res.ids), 200):
                rows(res.ids[i : i + 200])

        out["listing"] = timed(listing)
        ids = lib.query("").ids[:1000]
        tags = [timed(lambda k=k: tag(ids, [f"bench/t{k}"])) for k in range(5)]
        out["bulk tag 5×1000"] = (sum(c for c, _ in tags), sum(w for _, w in tags))
        out["20 SQL queries"] = timed(lambda: [lib.query("tag:bench/t1 year:>=2020", sort="year") for _ in range(20)])
        lib.close()
    api = "managers" if managers else "bound methods"
    print(f"bench_writes — {n:,} papers ({api} API)")
    for name, (cpu, wall) in out.items():
        print(f"  {name:<18} cpu {cpu:7.3f} s   wall {wall:7.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
