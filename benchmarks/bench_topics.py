"""Topics benchmark: do topics recover known groups, and how long do they take.

    .venv/bin/python benchmarks/bench_topics.py [--sizes 5000 20000] [--skip-quality]

Quality: a library of the included papers of the shared screening sets (each set one label) plus
the shared seed files; its topics (count chosen by the app) against the truth, as normalized
mutual information (sklearn's ``normalized_mutual_info_score``). The seeds are one venue
(NeurIPS 2026) in four files: scored with the venue as the label (primary) and with each file as
a label. Target NMI ≥ 0.6.

Time: topics of the whole library of the synthetic corpus (``benchmarks/corpus.py``) at each size,
fitting the semantic space included (cold) and with it cached (warm), wall and CPU time (the
computation runs on one thread: on a shared machine the CPU time is what it costs); scikit-learn
is imported before the clock starts (once per process, about a second). Targets: 5,000 ≤ 5 s,
100,000 ≤ 60 s.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from desktop_app.core.library import Library
from tests.helpers.labelled_sets import (
    SCREENING,
    SEEDS,
    import_records,
    screening_records,
    seed_records,
    truth,
)

TARGET_NMI = 0.6
TARGET_SECONDS = {5_000: 5.0, 100_000: 60.0}


def quality() -> float:
    from sklearn.metrics import normalized_mutual_info_score

    from desktop_app.core.insights.topics import find_topics

    records = []
    for path in SCREENING:
        records += screening_records(path, included_only=True, label=path.stem)
    for n, path in enumerate(SEEDS):
        records += seed_records(path, f"seeds-{n}")
    with tempfile.TemporaryDirectory() as tmp:
        lib = Library.open(Path(tmp) / "lib")
        try:
            import_records(lib, records)
            labels = truth(lib)
            t0 = time.perf_counter()
            topics = find_topics(lib.store)
            seconds = time.perf_counter() - t0
        finally:
            lib.close()
    found = {pid: t.number for t in topics.topics for pid in t.ids}
    ids = sorted(labels)
    by_file = [labels[i] for i in ids]
    by_venue = ["seeds" if x.startswith("seeds-") else x for x in by_file]
    predicted = [found.get(i, 0) for i in ids]
    nmi = normalized_mutual_info_score(by_venue, predicted)
    nmi_files = normalized_mutual_info_score(by_file, predicted)
    groups = {g: by_venue.count(g) for g in sorted(set(by_venue))}
    print(f"quality: {len(ids)} papers {groups}; {len(topics.topics)} topics chosen in {seconds:.2f} s")
    for t in topics.topics:
        mix = {g: sum(1 for i in t.ids if labels.get(i, "").startswith(g)) for g in groups}
        print(f"  {t.number:>2}. {t.name:<40} {t.size:>4}  {mix}")
    print(
        f"NMI (reviews and the seeds' venue): {nmi:.3f} (target ≥ {TARGET_NMI}: "
        f"{'ok' if nmi >= TARGET_NMI else 'MISSED'}); with each seed file a label: {nmi_files:.3f}"
    )
    return nmi


def _import_scikit_learn() -> None:
    """Imported once per process (about a second), before any clock starts."""
    import sklearn.cluster
    import sklearn.decomposition
    import sklearn.feature_extraction.text
    import sklearn.metrics  # noqa: F401


def timing(size: int) -> None:
    import shutil

    from common import cached_library

    from desktop_app.core.insights import semantic
    from desktop_app.core.insights.topics import find_topics

    folder = cached_library(size)
    _import_scikit_learn()
    work = Path(tempfile.mkdtemp(prefix="bench-topics-"))
    shutil.copy2(folder / "library.sqlite", work / "library.sqlite")  # migrated here, the cache left as it is
    lib = Library.open(work, ensure_index=False)
    try:
        t0, c0 = time.perf_counter(), time.process_time()
        space = semantic.library_space(lib.store)
        fit, fit_cpu = time.perf_counter() - t0, time.process_time() - c0
        topics = find_topics(lib.store)
        cold, cold_cpu = time.perf_counter() - t0, time.process_time() - c0
        t1, c1 = time.perf_counter(), time.process_time()
        find_topics(lib.store)
        warm, warm_cpu = time.perf_counter() - t1, time.process_time() - c1
    finally:
        lib.close()
        shutil.rmtree(work, ignore_errors=True)
    target = TARGET_SECONDS.get(size)
    verdict = "" if target is None else f" (target ≤ {target:.0f} s: {'ok' if cold <= target else 'MISSED'})"
    print(
        f"time at {size:,} papers: {cold:.1f} s wall, {cold_cpu:.1f} s CPU, cold{verdict} (space "
        f"{fit:.1f} s wall, {fit_cpu:.1f} s CPU; {space.vectors.shape[1]} dimensions, {space.weights.shape[1]:,} "
        f"words); {warm:.1f} s wall, {warm_cpu:.1f} s CPU with the space cached; {len(topics.topics)} topics"
    )
    print(f"  load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores: wall time above CPU time is waiting")


def timing_in_memory(size: int) -> None:
    """The same steps on the synthetic records' texts without a library (no import, no index):
    a size too large to build a library for on a shared machine."""
    import corpus
    import numpy as np
    from threadpoolctl import threadpool_limits

    from desktop_app.core.insights import semantic, topics

    _import_scikit_learn()
    records = corpus.make_corpus(size)  # the abstracts as written (LaTeX kept): close enough for words
    texts = [f"{r.title or ''}. {r.title or ''}. {r.abstract}" for r in records]
    ids = np.arange(1, size + 1, dtype=np.int64)
    with threadpool_limits(1):
        t0, c0 = time.perf_counter(), time.process_time()
        space = semantic.fit_space(ids, texts)
        fit, fit_cpu = time.perf_counter() - t0, time.process_time() - c0
        k = topics.choose_count(space.vectors)
        labels = topics.cluster(space.vectors, k)
        topics.distinctive_words(space, np.arange(size), labels, k)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(
        f"in memory, {size:,} papers: {wall:.1f} s wall, {cpu:.1f} s CPU (space {fit:.1f} s wall, "
        f"{fit_cpu:.1f} s CPU; {space.weights.shape[1]:,} words); {k} topics; no SQL read, no decision counts"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[5_000, 20_000])
    ap.add_argument(
        "--in-memory",
        type=int,
        nargs="*",
        default=[],
        metavar="SIZE",
        help="also time these sizes on the synthetic texts without building a library",
    )
    ap.add_argument("--skip-quality", action="store_true")
    args = ap.parse_args(argv)
    if not args.skip_quality:
        quality()
    for size in args.sizes:
        timing(size)
    for size in args.in_memory:
        timing_in_memory(size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
