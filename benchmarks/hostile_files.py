"""Time and memory of reading each hostile import file (tests/helpers/hostile_cases.py).

Every file is generated, then read by ``read_path`` (the cases marked ``imports``: read and
imported into a new library, the whole of ``Imports.from_records``) in a fresh interpreter under
RLIMIT_AS = 1 GB; the table shows the wall clock and CPU time (``resource.getrusage``) of the
read, the peak memory of that interpreter (``VmHWM``, and ``ru_maxrss``, which on Linux also
carries the parent's peak over fork + exec), what was imported and what was reported. The
targets are 10 s per 10 MB of file (10 s at least) and 300 MB per file.

    .venv/bin/python benchmarks/hostile_files.py [case-name ...]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.helpers.hostile_cases import CASES, measure  # noqa: E402

SECONDS, MEGABYTES = 10.0, 300.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("cases", nargs="*", help="case names (default: all)")
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"{'case':<20}{'size':>10}{'wall s':>9}{'cpu s':>8}{'peak MB':>9}{'maxrss':>8}"
        f"{'child s':>9}  records / errors / warnings  verdict"
    )
    missed = 0
    with tempfile.TemporaryDirectory() as folder:
        for case in CASES:
            if args.cases and case.name not in args.cases:
                continue
            path = Path(folder) / case.name
            path.write_bytes(case.make())
            size = path.stat().st_size
            library = Path(folder) / f"library-{case.name}" if case.imports else None
            report = measure(path, timeout=args.timeout, library=library)
            path.unlink()
            if report["returncode"] != 0:
                missed += 1
                tail = report["stderr"].strip().splitlines()[-1:] or ["?"]
                print(f"{case.name:<20}{size:>10,}  FAILED after {report['elapsed']:.1f} s: {tail[0][:120]}")
                continue
            peak = report["peak_mb"] or report["maxrss_mb"]
            good = all(t in report["titles"] for t in case.good_titles)
            seconds = max(SECONDS, SECONDS * size / (10 * 1024 * 1024))
            ok = report["wall"] <= seconds and peak <= MEGABYTES and good
            missed += not ok
            print(
                f"{case.name:<20}{size:>10,}{report['wall']:>9.2f}{report['cpu']:>8.2f}"
                f"{peak:>9.0f}{report['maxrss_mb']:>8.0f}{report['elapsed']:>9.2f}  "
                f"{report['records']} / {report['error_count']} / "
                f"{len(report['warnings'])}  {'PASS' if ok else 'MISS'}"
                + (f"  imported {report['imported'][-1]}" if report.get("imported") else "")
            )
            for line, message in report["errors"][-3:] + report["warnings"][-3:]:
                print(f"{'':<20}line {line}: {message[:150]}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
