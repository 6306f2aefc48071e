""""Did you mean" and re-deriving titles at scale, on a copy of the cached benchmark library.

    .venv/bin/python benchmarks/bench_suggest.py --size 100000

Both run off the GUI thread (a worker after a result with fewer than 3 hits; the Re-derive
titles dialog's job), so the figures are waits, not freezes. The copy keeps the shared cache
untouched (opening a library may bring it up to date).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from common import cached_library, environment, ms

from desktop_app.core.library import Library

QUERIES = ("reinforcment lerning", "optimizaton", "title:transformr", "benchmrk AND tag:rl/rlvr",
           "graph neural netwrks", "zzzzqqq")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=10_000)
    args = ap.parse_args(argv)
    print(environment())
    source = cached_library(args.size)
    with tempfile.TemporaryDirectory(prefix="marginalia-suggest-") as tmp:
        folder = Path(tmp) / "library"
        shutil.copytree(source, folder)
        with Library.open(folder) as lib:
            print(f"  {lib.papers.count():,} papers")
            for q in QUERIES:
                hits = lib.query(q, limit=0).total
                t0 = time.perf_counter()
                fixed = lib.did_you_mean(q, hits)
                print(f"  did you mean {q!r} ({hits} hits): {fixed!r} in {ms(time.perf_counter() - t0)}")
            t0 = time.perf_counter()
            changes = lib.rederive_titles(dry_run=True)
            print(f"  re-derive titles (dry run): {len(changes):,} would change, {ms(time.perf_counter() - t0)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
