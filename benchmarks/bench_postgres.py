"""A shared library on PostgreSQL with two desks: list and filter p95, bulk tag, edit-to-other-desk delay.

A throwaway server (initdb + pg_ctl on a Unix socket, as the tests start it) holds ``--size``
papers (benchmarks/corpus.py). Desk A is this process; desk B is another process that opens
the same library, builds its own index, LISTENs, and on each wake-up pulls the change log and
re-reads the changed papers (what the window does before it repaints) and prints when. For each
phase CPU (``process_time``) and wall (``perf_counter``) are printed.

    python benchmarks/bench_postgres.py --size 100000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))

from benchmarks import corpus  # noqa: E402
from benchmarks.common import environment, ms, percentile, verdict  # noqa: E402
from desktop_app.core.library import Library  # noqa: E402
from desktop_app.core.records import ParseResult  # noqa: E402

DELAY_TARGET = 2.0  # seconds from an edit's commit at desk A to desk B having re-read the paper

DESK_B = r"""
import json, sys, time
from desktop_app.core.library import Library
t0 = time.perf_counter()
lib = Library.open(sys.argv[1])
print(json.dumps({"open": time.perf_counter() - t0}), flush=True)
def changed(rows):
    ids = sorted({r.paper_id for r in rows if r.paper_id is not None})
    if ids:
        lib.papers.rows(ids)  # what the window re-reads before it repaints
    print(json.dumps({"at": time.time(), "ids": ids, "seqs": [r.seq for r in rows]}), flush=True)
lib.follow(changed)
print(json.dumps({"ready": True}), flush=True)
sys.stdin.readline()  # until desk A is done
lib.close()
"""


def timed(label: str, fn: Callable[[], object]) -> object:
    cpu, wall = time.process_time(), time.perf_counter()
    out = fn()
    print(f"  {label:<38} wall {ms(time.perf_counter() - wall):>10}   cpu {ms(time.process_time() - cpu):>10}")
    return out


def p95(label: str, fn: Callable[[], object], runs: int = 20) -> float:
    walls, cpus = [], []
    for _ in range(runs):
        cpu, wall = time.process_time(), time.perf_counter()
        fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    print(f"  {label:<38} p95 wall {ms(percentile(walls, 95)):>8}   p95 cpu {ms(percentile(cpus, 95)):>8}"
          f"   (median wall {ms(percentile(walls, 50))})")
    return percentile(walls, 95)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=100_000)
    ap.add_argument("--edits", type=int, default=20, help="edits timed from desk A to desk B")
    args = ap.parse_args(argv)
    from tests.core.postgres_server import postgres_server

    print(f"bench_postgres: {args.size:,} papers, two desks ({environment()})")
    with tempfile.TemporaryDirectory(prefix="marginalia-bench-") as home, postgres_server() as sa_url:
        os.environ["HOME"] = home  # the desks' index and data folders: thrown away after
        os.environ.pop("XDG_CACHE_HOME", None)
        os.environ.pop("XDG_DATA_HOME", None)
        url = sa_url.replace("postgresql+psycopg://", "postgresql://", 1)
        lib = Library.open(url, ensure_index=False)
        records = corpus.make_corpus(args.size)

        def load() -> None:
            for start in range(0, len(records), 10_000):
                lib.imports.from_records([("c.bib", ParseResult("bibtex", records[start:start + 10_000]))])

        print("desk A")
        timed(f"import {args.size:,} papers", load)
        timed("build desk A's index", lib.ensure_index)
        env = {**os.environ, "PYTHONPATH": str(Path.cwd())}
        desk_b = subprocess.Popen([sys.executable, "-c", DESK_B, url], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, env=env)
        lines: list[dict] = []
        ready = threading.Event()
        arrived = threading.Condition()

        def read_b() -> None:
            for line in desk_b.stdout:  # type: ignore[union-attr]
                msg = json.loads(line)
                if "open" in msg:
                    print(f"desk B (another process): opened and built its index in {msg['open']:.1f} s")
                if msg.get("ready"):
                    ready.set()
                with arrived:
                    lines.append(msg)
                    arrived.notify_all()

        threading.Thread(target=read_b, daemon=True).start()
        ids = lib.query("", limit=0).total
        print(f"  live papers: {ids:,}")
        p95("list all, by title", lambda: lib.query("", sort="title"))
        p95("list all, by year descending", lambda: lib.query("", sort="year", descending=True))
        p95("filter status:unread year>=2020", lambda: lib.query("status:unread year:>=2020"))
        p95("text search 'reinforcement'", lambda: lib.query("reinforcement"))
        all_ids = lib.query("", sort="id").ids
        rng = random.Random(7)
        batch = rng.sample(all_ids, min(1000, len(all_ids)))
        timed("bulk tag 1,000 papers", lambda: lib.tags.add(batch, ["bench/bulk"]))
        p95("filter tag:bench", lambda: lib.query("tag:bench"))
        timed("bulk status of the same 1,000", lambda: lib.papers.set_status(batch, "read"))
        if not ready.wait(1800):
            print("desk B did not start")
            return 1
        delays = []
        for n in range(args.edits):
            pid = rng.choice(all_ids)
            start = time.time()
            lib.notes.set(pid, f"edit {n} at desk A")
            with arrived:
                ok = arrived.wait_for(lambda p=pid, s=start: any(p in m.get("ids", []) and m["at"] >= s
                                                                   for m in lines), timeout=10)
                seen = [m["at"] for m in lines if pid in m.get("ids", []) and m["at"] >= start]
            delays.append(seen[0] - start if ok and seen else 10.0)
            time.sleep(0.2)
        worst = max(delays)
        print("two desks")
        print(f"  edit at A -> re-read at B (n={len(delays)})   p50 {ms(percentile(delays, 50))}   "
              f"p95 {ms(percentile(delays, 95))}   max {ms(worst)}   "
              f"target <= {DELAY_TARGET:.0f} s: {verdict(worst <= DELAY_TARGET)}")
        desk_b.stdin.write("\n")  # type: ignore[union-attr]
        desk_b.stdin.flush()  # type: ignore[union-attr]
        desk_b.wait(120)
        lib.close()
    return 0 if worst <= DELAY_TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
