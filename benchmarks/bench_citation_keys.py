"""Migration 0008 (stable citation keys) on a large library: every paper given its key in one
pass, then the unique index, timed on a copy of the cached library as it was before 0008.

    .venv/bin/python benchmarks/bench_citation_keys.py [--size 100000]

Prints wall and CPU time side by side (the machine may be shared)."""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.common import cached_library, environment  # noqa: E402


def as_before_0008(db: Path) -> None:
    """The keys as 0007 left them: only where a file brought one (the corpus brings none)."""
    con = sqlite3.connect(db)
    con.execute("DROP INDEX IF EXISTS ix_tag_name_casefold")
    con.execute("DROP INDEX IF EXISTS ix_paper_citation_key")
    con.execute("UPDATE paper SET bibtex_key = NULL")
    con.execute("UPDATE alembic_version SET version_num = '0007'")
    con.commit()
    con.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--size", type=int, default=100_000)
    args = parser.parse_args()
    from desktop_app.core.store.migrate import migrate

    print(environment())
    source = cached_library(args.size)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "library.sqlite"
        shutil.copy(source / "library.sqlite", db)
        as_before_0008(db)
        wall, cpu = time.perf_counter(), time.process_time()
        migrate(db, Path(tmp) / "backups")  # (its backup of the old file included)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        con = sqlite3.connect(db)
        n, distinct = con.execute("SELECT count(*), count(DISTINCT lower(bibtex_key)) FROM paper").fetchone()
        con.close()
    print(
        f"migration 0007 -> head at {args.size:,} papers: {wall:.2f} s wall, {cpu:.2f} s CPU "
        f"(CPU/wall {cpu / wall:.2f}); {n:,} papers, {distinct:,} distinct keys"
    )
    return 0 if n == distinct else 1


if __name__ == "__main__":
    raise SystemExit(main())
