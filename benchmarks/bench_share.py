"""``marginalia share --to`` of the cached N-paper library to a throwaway PostgreSQL server.

    python benchmarks/bench_share.py --size 100000

A copy of the cached library (benchmarks/common.py) is shared with :func:`desktop_app.sharing.share`
into an empty database: the tables by COPY in one transaction, then the folder's index copied as
the desk's. Wall time, this process's CPU time and the server's beside the target, then the server library opened as a desk would and checked to hold every paper.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))

from benchmarks.common import cached_library, environment, verdict
from desktop_app.core.library import Library

TARGET_S = 180.0  # at 100,000 papers


def server_cpu(url: str) -> float:
    """CPU seconds of the throwaway server so far: the postmaster, its live backends, and the
    backends it has reaped (cutime, cstime), from /proc."""
    from urllib.parse import parse_qs, urlsplit

    folder = Path(parse_qs(urlsplit(url).query)["host"][0])
    postmaster = int((folder / "data" / "postmaster.pid").read_text().split()[0])
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(proc.name), int(fields[1])
        if pid == postmaster:
            total += sum(int(v) for v in fields[11:15]) / tick  # utime stime cutime cstime
        elif ppid == postmaster:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=100_000)
    args = ap.parse_args(argv)
    from tests.core.postgres_server import postgres_server

    print(f"bench_share: {args.size:,} papers ({environment()}, load {os.getloadavg()[0]:.1f})")
    source = cached_library(args.size)
    with tempfile.TemporaryDirectory(prefix="marginalia-share-") as tmp, postgres_server() as sa_url:
        os.environ["HOME"] = str(Path(tmp) / "home")  # the desk's index and folder: thrown away
        os.environ.pop("XDG_CACHE_HOME", None)
        os.environ.pop("XDG_DATA_HOME", None)
        url = sa_url.replace("postgresql+psycopg://", "postgresql://", 1)
        folder = Path(tmp) / "library"
        shutil.copytree(source, folder)
        from desktop_app.sharing import share

        with Library.open(folder, ensure_index=False) as lib:  # as the CLI opens it for share
            wall, cpu, pg = time.perf_counter(), time.process_time(), server_cpu(url)
            report, where = share(lib, url)
            wall, cpu, pg = time.perf_counter() - wall, time.process_time() - cpu, server_cpu(url) - pg
        print(
            f"  share --to: {report.added:,} papers to {where} in {wall:.1f} s wall, {cpu:.1f} s CPU (this "
            f"process) + {pg:.1f} s CPU (the server); target <= {TARGET_S:.0f} s at 100,000: {verdict(wall <= TARGET_S * args.size / 100_000)}"
        )
        t0 = time.perf_counter()
        with Library.open(url) as shared:
            n = shared.query("", limit=0).total
            hits = shared.query("learning", limit=0).total
        print(
            f"  the server library opened with its index in {time.perf_counter() - t0:.1f} s: "
            f"{n:,} live papers, 'learning' {hits:,} hits"
        )
    print(f"  load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
