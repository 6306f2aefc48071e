"""The learned triage queue against ASReview on labelled systematic reviews.

For each shared labelled set (``../shared/screening/*.csv``): write the set with its label columns
removed (title and abstract only) and import it into a fresh library; choose the prior (one
included and one excluded paper) with a seed; then play the user: ask the queue
(``lib.triage.queue``, the code path of ``marginalia triage queue``) and decide its top paper by
its label (``lib.triage.decide``, the code path of ``triage decide``), re-ranking as the window
does. The window re-ranks in the background while the user reads, so it re-ranks after every
decision until 10 % of the set is screened, then after every ``n/500`` decisions (the user
decides the next papers of the last ranking meanwhile).

Prints WSS@95 (work saved over sampling at 95 % recall), recall at 10 % and 25 % screened, the
estimate of the keeps left against the truth at 10/25/50 % screened, and the re-rank time (wall
and CPU), beside ASReview 3.0.8's figures for the same files and prior seeds (``asreview simulate
FILE --n-prior-included 1 --n-prior-excluded 1 --prior-seed S --seed S``, S = 1, 2, 3; see
../shared/screening/SOURCES.md). Run: ``python benchmarks/bench_screening.py [--seeds 1 2 3]``.
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import sys
import tempfile
import time
from pathlib import Path

import common

from desktop_app.core.formats import read_path
from desktop_app.core.library import Library

SHARED = Path(__file__).resolve().parents[2] / "shared" / "screening"
# ASReview 3.0.8, default model, seeds 1, 2, 3 (SOURCES.md)
PEER = {"ADHD": (0.650, 0.650, 0.734), "Bannach-Brown_2019": (0.414, 0.414, 0.414)}


def labelled_set(path: Path, out_dir: Path) -> tuple[Path, list[int]]:
    """A CSV of title and abstract only (the labels kept aside, in file order)."""
    csv.field_size_limit(2**31 - 1)
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    plain = out_dir / f"{path.stem}-unlabelled.csv"
    with plain.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["title", "abstract"])
        for r in rows:
            w.writerow([r.get("title") or "", r.get("abstract") or ""])
    return plain, [int(r["label_included"]) for r in rows]


def simulate(lib: Library, labels: dict[int, int], seed: int) -> dict[str, float]:
    ids = sorted(labels)
    n, npos = len(ids), sum(labels.values())
    rng = random.Random(seed)
    prior = [rng.choice([i for i in ids if labels[i] == 1]), rng.choice([i for i in ids if labels[i] == 0])]
    screened: list[int] = []
    for pid in prior:
        lib.triage.decide([pid], "keep" if labels[pid] else "skip")
        screened.append(pid)
    wall: list[float] = []
    cpu: list[float] = []
    estimates: dict[int, tuple[float, int]] = {}
    marks = {int(n * f): f for f in (0.10, 0.25, 0.50)}
    while len(screened) < n:
        step = 1 if len(screened) < n // 10 else max(1, math.ceil(n / 500))
        t0, c0 = time.perf_counter(), time.process_time()
        q = lib.triage.queue("", limit=step, why=0)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        if not q.entries:
            break
        for e in q.entries:
            lib.triage.decide([e.id], "keep" if labels[e.id] else "skip")
            screened.append(e.id)
            for mark in [m for m in marks if len(screened) >= m and m not in estimates]:
                left = sum(labels[i] for i in ids if i not in set(screened))
                est = q.summary.likely_keeps if q.summary.likely_keeps is not None else float("nan")
                estimates[mark] = (est, left)
    found = 0
    k95 = n
    hits = []
    for k, pid in enumerate(screened, 1):
        found += labels[pid]
        hits.append(found)
        if found >= math.ceil(0.95 * npos) and k95 == n:
            k95 = k
    wall.sort()
    cpu.sort()
    out = {
        "wss95": (n - k95) / n - 0.05,
        "r10": hits[int(0.10 * n) - 1] / npos,
        "r25": hits[int(0.25 * n) - 1] / npos,
        "rerank_p50_ms": 1000 * wall[len(wall) // 2],
        "rerank_p95_ms": 1000 * wall[int(len(wall) * 0.95)],
        "rerank_cpu_p50_ms": 1000 * cpu[len(cpu) // 2],
        "rerank_cpu_p95_ms": 1000 * cpu[int(len(cpu) * 0.95)],
    }
    for mark, (est, left) in sorted(estimates.items()):
        out[f"estimate@{marks[mark]:.0%}"] = est
        out[f"truth@{marks[mark]:.0%}"] = left
    return out


def run_set(path: Path, seeds: list[int]) -> list[dict[str, float]]:
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-screening-") as tmp:
        plain, file_labels = labelled_set(path, Path(tmp))
        for seed in seeds:
            folder = Path(tmp) / f"lib-{seed}"
            with Library.open(folder) as lib:
                parsed = [(str(plain), read_path(plain))]
                # every record a paper of its own, as ASReview counts them (the sets hold a few
                # records that Marginalia's import would merge as one paper)
                apart = frozenset((0, i) for i in range(len(parsed[0][1].records)))
                report = lib.imports.from_records(parsed, keep_apart=apart)
                pids = sorted(report.paper_ids)
                if len(pids) != len(file_labels):
                    sys.exit(f"{path.name}: imported {len(pids)} papers of {len(file_labels)}")
                labels = dict(zip(pids, file_labels, strict=True))
                results.append(simulate(lib, labels, seed))
            r = results[-1]
            print(
                f"  seed {seed}: WSS@95 {r['wss95']:.3f}  recall@10% {r['r10']:.3f}  recall@25% {r['r25']:.3f}  "
                f"re-rank p50 {r['rerank_p50_ms']:.0f} ms (CPU {r['rerank_cpu_p50_ms']:.0f}), "
                f"p95 {r['rerank_p95_ms']:.0f} ms (CPU {r['rerank_cpu_p95_ms']:.0f})  keeps left "
                + ", ".join(
                    f"{k.split('@')[1]}: est {r[k]:.1f} / true {r['truth@' + k.split('@')[1]]:.0f}"
                    for k in r
                    if k.startswith("estimate@")
                ),
                flush=True,
            )
    return results


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--sets", nargs="+", default=sorted(PEER))
    args = ap.parse_args()
    print(common.environment())
    ours_all, peer_all = [], []
    for name in args.sets:
        path = SHARED / f"{name}.csv"
        if not path.exists():
            print(f"{name}: {path} is missing (../shared/screening); skipped")
            continue
        print(f"{name}:")
        res = run_set(path, args.seeds)
        ours = sum(r["wss95"] for r in res) / len(res)
        peer_seeds = [PEER[name][s - 1] for s in args.seeds if 1 <= s <= 3] if name in PEER else []
        peer = sum(peer_seeds) / len(peer_seeds) if peer_seeds else float("nan")
        ours_all.append(ours)
        peer_all.append(peer)
        target = min(PEER.get(name, (0,)))
        print(
            f"  mean WSS@95 {ours:.3f} vs ASReview {peer:.3f} (target ≥ {target:.2f}): {common.verdict(ours >= target)}"
        )
    if ours_all:
        a, b = sum(ours_all) / len(ours_all), sum(peer_all) / len(peer_all)
        print(f"average WSS@95 {a:.3f} vs ASReview {b:.3f}: {common.verdict(a > b)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
