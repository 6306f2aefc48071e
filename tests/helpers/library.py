"""Reading a library in tests: a seed paper by its words, and counts read with plain sqlite3."""

from __future__ import annotations

import sqlite3
from pathlib import Path

# words from three seed abstracts, each found in one paper only
RACES_WORDS = "Recursive Automated Composition for Environment Scaling"
RLVR_WORDS = "shrinkage issue of RLVR"
FPRM_WORDS = "Fixed-Point Reasoning Model"


def find_paper(lib, words: str) -> int:
    """The id of the seed paper whose plain abstract contains ``words``."""
    for pid in lib.query("").ids:
        if words in lib.papers.get(pid).abstract_text:
            return pid
    raise AssertionError(f"no paper contains {words!r}")


def queued_ids(folder: Path) -> list[int]:
    """The paper ids waiting in a library's ``index_queue``, read with plain sqlite3."""
    con = sqlite3.connect(folder / "library.sqlite")
    try:
        return [r[0] for r in con.execute("SELECT paper_id FROM index_queue ORDER BY paper_id")]
    finally:
        con.close()


def papers_in(db: Path) -> int:
    """Live papers in a database file, read with plain sqlite3 (no Library, no migration).
    The path is made absolute: this SQLite treats a relative "file:..." name as a URI."""
    con = sqlite3.connect(db.absolute())
    try:
        return con.execute("SELECT count(*) FROM paper WHERE deleted_at IS NULL").fetchone()[0]
    finally:
        con.close()
