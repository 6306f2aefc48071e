"""Helpers shared by the benchmark scripts: paths, percentiles, PASS/MISS lines, the library cache.

Built libraries are cached under ``/tmp/marginalia-bench/`` (``MARGINALIA_BENCH_CACHE``
overrides), keyed by corpus size, seed and ``corpus.GENERATOR_VERSION``; a library is built in a
sibling folder and renamed into place only when complete, so an interrupted build is never used.
"""

from __future__ import annotations

import math
import os
import platform
import shutil
import sqlite3
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
BENCH_DIR = Path(__file__).resolve().parent
if str(BENCH_DIR) not in sys.path:
    sys.path.insert(0, str(BENCH_DIR))

import corpus  # noqa: E402

CACHE = Path(os.environ.get("MARGINALIA_BENCH_CACHE", "/tmp/marginalia-bench"))
TARGET_SIZE = 10_000  # the size the core targets are set for


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of a non-empty sequence."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(p / 100 * len(ordered)) - 1))
    return ordered[k]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms"


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def environment() -> str:
    return (
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, "
        f"{os.cpu_count()} CPUs, {platform.system()} {platform.machine()}"
    )


def library_cache_dir(size: int, seed: int = corpus.DEFAULT_SEED) -> Path:
    return CACHE / f"lib-g{corpus.GENERATOR_VERSION}-s{seed}-n{size}"


def cached_library(size: int, seed: int = corpus.DEFAULT_SEED, log=print) -> Path:  # noqa: ANN001
    """A library folder holding the ``size``-paper corpus with its index built (cached).

    Building is untimed set-up; opening it once here also brings an old cache up to date
    (migrations, index schema or app version) so the timed runs never pay for that.
    """
    from desktop_app.core.library import Library
    from desktop_app.core.records import ParseResult

    folder = library_cache_dir(size, seed)
    if not (folder / "complete").exists():
        building = folder.with_name(folder.name + ".building")
        shutil.rmtree(building, ignore_errors=True)
        building.parent.mkdir(parents=True, exist_ok=True)
        log(f"  building the cached {size:,}-paper library in {folder} (untimed, once) …")
        t0 = time.perf_counter()
        records = corpus.make_corpus(size, seed)
        lib = Library.open(building, ensure_index=False)
        try:
            report = lib.imports.from_records([("benchmark corpus", ParseResult("bibtex", records))])
            if report.added != size:
                log(
                    f"  NOTE: the importer kept {report.added:,} of {size:,} papers; it took "
                    f"{report.duplicates:,} for duplicates of others (identity rules changed?)"
                )
            t1 = time.perf_counter()
            lib.ensure_index()
        finally:
            lib.close()
        (building / "complete").write_text(f"{size}\n", "utf-8")
        shutil.rmtree(folder, ignore_errors=True)
        building.rename(folder)
        log(
            f"  built in {time.perf_counter() - t0:.0f} s (import {t1 - t0:.0f} s, "
            f"index {time.perf_counter() - t1:.0f} s)"
        )
    lib = Library.open(folder, ensure_index=True)  # migrate / repair the index, untimed
    lib.close()
    return folder
