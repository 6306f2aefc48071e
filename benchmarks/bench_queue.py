"""The learned triage queue's cost: re-rank time in-process, and a `triage queue` process.

For each size (synthetic corpus, ``benchmarks/corpus.py``; the library is cached): 10 keeps and
90 skips are recorded on papers chosen with a fixed seed, then

- the first ranking (tf-idf features built and cached under ``<library>/cache``), and
- 20 re-ranks (``lib.triage.queue("", limit=10)`` after one more decision each, as the window's
  worker does), wall and CPU;
- at 2,000 papers also the CPU of a ``marginalia triage queue --limit 10`` process against a
  ``marginalia list --limit 1`` process (median of 5 runs each, the features already cached).

Targets (issue "the queue learns"): a re-rank ≤ 300 ms CPU at 5,000 papers and ≤ 3 s at
100,000; ``triage queue --limit 10`` ≤ 300 ms CPU beyond ``list --limit 1`` at 2,000.
Run: ``python benchmarks/bench_queue.py [--sizes 2000 5000 100000]``.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import cached_library, environment, verdict

from desktop_app.core.library import Library

TARGET_CPU = {5_000: 0.300, 100_000: 3.0}


def _child_cpu(cmd: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, capture_output=True, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run(size: int) -> None:
    src = cached_library(size)
    with tempfile.TemporaryDirectory(prefix="bench-queue-") as tmp:
        folder = Path(tmp) / "library"
        shutil.copytree(src, folder)
        with Library.open(folder) as lib:
            ids = lib.query("").ids
            rng = random.Random(7)
            chosen = rng.sample(ids, 120)
            lib.triage.decide(chosen[:10], "keep")
            lib.triage.decide(chosen[10:100], "skip")
            t0, c0 = time.perf_counter(), time.process_time()
            q = lib.triage.queue("", limit=10)
            first_wall, first_cpu = time.perf_counter() - t0, time.process_time() - c0
            assert q.summary.learned
            walls, cpus = [], []
            for pid in chosen[100:120]:
                lib.triage.decide([pid], rng.choice(["keep", "skip"]))
                t0, c0 = time.perf_counter(), time.process_time()
                lib.triage.queue("", limit=10)
                walls.append(time.perf_counter() - t0)
                cpus.append(time.process_time() - c0)
        line = (
            f"{size:>7,} papers: first ranking (features built) {first_wall:.2f} s wall / {first_cpu:.2f} s CPU; "
            f"re-rank median {1000 * statistics.median(walls):.0f} ms wall / {1000 * statistics.median(cpus):.0f} ms CPU, "
            f"max {1000 * max(walls):.0f} / {1000 * max(cpus):.0f} ms"
        )
        target = TARGET_CPU.get(size)
        if target is not None:
            line += f"  (target ≤ {1000 * target:.0f} ms CPU: {verdict(statistics.median(cpus) <= target)})"
        print(line, flush=True)
        if size <= 5_000:
            base = [sys.executable, "-m", "desktop_app", "--library", str(folder)]
            queue = [_child_cpu([*base, "triage", "queue", "--limit", "10"]) for _ in range(5)]
            listing = [_child_cpu([*base, "list", "--limit", "1"]) for _ in range(5)]
            extra = statistics.median(queue) - statistics.median(listing)
            print(
                f"         `triage queue --limit 10` {1000 * statistics.median(queue):.0f} ms CPU, "
                f"`list --limit 1` {1000 * statistics.median(listing):.0f} ms CPU: {1000 * extra:+.0f} ms "
                f"(target ≤ +300 ms: {verdict(extra <= 0.300)})",
                flush=True,
            )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[2_000, 5_000, 100_000])
    args = ap.parse_args()
    print(f"learned queue ({environment()})")
    for size in args.sizes:
        run(size)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
