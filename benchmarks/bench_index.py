"""Full rebuild of the search index (``lib.reindex()``) with one process against two (the
bulk writer's forked helper, one segment per process; ``MARGINALIA_INDEX_PROCS``), wall and CPU time.

    .venv/bin/python benchmarks/bench_index.py [--size 10000] [--runs 2]

Each rebuild runs in a fresh child process on the cached library (``common.cached_library``);
CPU is the child's own plus its helpers' (``RUSAGE_CHILDREN`` in the child). Both builds must
give the same document count and the same matches for a few queries.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGET_SECONDS, TARGET_PAPERS = 120, 100_000  # a full build of 100,000 papers in two minutes
QUERIES = ["learning", "transf*", '"in-context learning"', "graph neural", "quas*"]


def child(lib_dir: str) -> None:
    sys.path.insert(0, str(HERE.parent))
    from desktop_app.core.library import Library
    from desktop_app.core.search.worker import build_procs

    lib = Library.open(lib_dir)
    t0, c0 = time.perf_counter(), time.process_time()
    assert lib.reindex()
    wall, cpu_self = time.perf_counter() - t0, time.process_time() - c0
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak_self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # MB (Linux: KiB)
    counts = {q: lib.query(q).total for q in QUERIES}
    segments = len(lib.index.index.searcher.reader().leaf_readers()) if lib.index.index.doc_count() else 0
    out = {
        "procs": build_procs(lib.papers.count()),
        "wall": wall,
        "cpu_self": cpu_self,
        "cpu_children": kids.ru_utime + kids.ru_stime,
        "peak_mb": peak_self,
        "helper_peak_mb": kids.ru_maxrss / 1024,
        "docs": lib.index.index.doc_count(),
        "segments": segments,
        "counts": counts,
    }
    lib.close()
    print(json.dumps(out), flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--procs", default="1,2")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child)
        return 0
    sys.path.insert(0, str(HERE))
    from common import cached_library, environment

    folder = cached_library(args.size)
    print(f"full index rebuild of {args.size:,} papers; {environment()}; load average {os.getloadavg()[0]:.1f}")
    results: dict[int, list[dict]] = {}
    for _ in range(args.runs):
        for procs in [int(p) for p in args.procs.split(",")]:
            env = dict(os.environ, MARGINALIA_INDEX_PROCS=str(procs))
            out = subprocess.run(
                [sys.executable, __file__, "--child", str(folder)], env=env, check=True, capture_output=True, text=True
            ).stdout
            r = json.loads(out.strip().splitlines()[-1])
            results.setdefault(procs, []).append(r)
            print(
                f"  procs {r['procs']}: wall {r['wall']:.1f} s, CPU {r['cpu_self'] + r['cpu_children']:.1f} s "
                f"(this process {r['cpu_self']:.1f} s, helpers {r['cpu_children']:.1f} s); {r['docs']:,} docs in "
                f"{r['segments']} segment(s); peak RSS {r['peak_mb']:.0f} MB (helper {r['helper_peak_mb']:.0f} MB); "
                f"matches {r['counts']}",
                flush=True,
            )
    base = statistics.median(r["wall"] for r in results[min(results)])
    for procs, rs in sorted(results.items()):
        wall = statistics.median(r["wall"] for r in rs)
        cpu = statistics.median(r["cpu_self"] + r["cpu_children"] for r in rs)
        print(
            f"procs {procs}: median wall {wall:.1f} s ({wall / base:.2f}× procs {min(results)}), median CPU {cpu:.1f} s"
        )
    best = min(statistics.median(r["wall"] for r in rs) for rs in results.values())
    target = TARGET_SECONDS * args.size / TARGET_PAPERS
    verdict = "PASS" if best <= target else "MISS"
    print(
        f"full build {best:.1f} s wall   target ≤ {target:.0f} s ({TARGET_SECONDS} s for {TARGET_PAPERS:,} papers, "
        f"scaled to {args.size:,})   {verdict}"
    )
    counts = {json.dumps(r["counts"], sort_keys=True) for rs in results.values() for r in rs}
    print("same matches in every build" if len(counts) == 1 else f"MATCHES DIFFER: {counts}")
    return 0 if len(counts) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
