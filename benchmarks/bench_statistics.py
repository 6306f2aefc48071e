"""``lib.insights.statistics()`` at N papers (default 100,000) with a reading history in change_log.

The database is a copy of the cached benchmark library's (``common.library_cache_dir``; built
without its index in a temporary folder when there is none), so the shared cache is never changed.
Set-up (untimed): 40,000 papers marked read or skimmed in 1,000-paper bulk edits, half of them
also rated, the log spread over 120 days. Then the median of 7 calls, wall and CPU.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import common, corpus
from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("size", type=int, nargs="?", default=100_000)
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "lib"
        folder.mkdir()
        cached = common.library_cache_dir(a.size) / "library.sqlite"
        if cached.exists():
            shutil.copyfile(cached, folder / "library.sqlite")
            lib = Library.open(folder, ensure_index=False)
        else:
            lib = Library.open(folder, ensure_index=False)
            lib.imports.from_records([("bench", ParseResult("bibtex", corpus.make_corpus(a.size)))])
        ids = list(lib.query("").ids)
        random.Random(1).shuffle(ids)
        marked = min(40_000, len(ids))
        for k in range(0, marked, 1000):
            lib.papers.set_status(ids[k : k + 1000], "read" if k % 3000 else "skimmed")
            lib.papers.set_rating(ids[k : k + 500], 1 + (k // 1000) % 5)
        with lib.store.write() as tx:  # spread the history over 120 days
            tx.conn.exec_driver_sql("UPDATE change_log SET at = datetime(at, '-' || (seq % 120) || ' days')")
        walls, cpus = [], []
        for _ in range(7):
            w, c = time.perf_counter(), time.process_time()
            st = lib.insights.statistics()
            walls.append(time.perf_counter() - w)
            cpus.append(time.process_time() - c)
        lib.close()
    print(f"bench_statistics — {st.papers:,} papers, {marked:,} marked, {len(st.progress)} days")
    print(
        f"  lib.insights.statistics()  wall {common.ms(statistics.median(walls))}  cpu {common.ms(statistics.median(cpus))}"
        f"  (median of 7; {common.environment()})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
