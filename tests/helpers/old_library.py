"""A library at the first schema revision (0001), filled with real rows by plain sqlite3, for
the migration tests and the installed wheel's upgrade."""

from __future__ import annotations

import hashlib
import sqlite3
import uuid
from pathlib import Path

from desktop_app.core.formats import read_path
from desktop_app.core.store import migrate as db
from desktop_app.core.text import derive_title, to_plain
from tests.helpers.shared import SEEDS

NOW = "2026-11-01 10:00:00"


def connect(path: Path, fk: bool = True) -> sqlite3.Connection:
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA foreign_keys={'ON' if fk else 'OFF'}")
    return con


def fill_0001(path: Path) -> dict[str, int]:
    """Write real rows (the 76 seed abstracts and things attached to them) into a 0001 schema
    with plain sqlite3 and foreign keys on. Returns a few paper ids by role."""
    con = connect(path)
    with con:
        con.execute(
            "INSERT INTO import_batch (id, source, format, started_at, added, duplicates, merged, failed, undone) "
            "VALUES (1, ?, 'seed', ?, 76, 0, 0, 0, 0)",
            ("; ".join(map(str, SEEDS)), NOW),
        )
        pid = 0
        roles: dict[str, int] = {}
        for path_ in SEEDS:
            for rec in read_path(path_).records:
                pid += 1
                plain = to_plain(rec.abstract)
                digest = hashlib.sha1(plain.lower().encode()).hexdigest()
                con.execute(
                    "INSERT INTO paper (id, uid, title, title_source, abstract, abstract_text, authors_json, "
                    "venue, year, extra_json, raw, content_hash, status, rating, added_at, updated_at, "
                    "import_id) VALUES (?, ?, ?, 'derived', ?, ?, '[]', ?, ?, '{}', ?, ?, 'unread', 0, ?, ?, 1)",
                    (
                        pid,
                        uuid.uuid4().hex,
                        derive_title(rec.abstract),
                        rec.abstract,
                        plain,
                        rec.venue,
                        rec.year,
                        rec.raw,
                        digest,
                        NOW,
                        NOW,
                    ),
                )
                con.execute("INSERT INTO paper_identity (key, paper_id) VALUES (?, ?)", (f"abs:{digest}", pid))
                if "Recursive Automated Composition" in plain:
                    roles["races"] = pid
                if "Fixed-Point Reasoning Model" in plain:
                    roles["fprm"] = pid
        assert pid == 76
        races, fprm = roles["races"], roles["fprm"]
        roles["deleted"] = other = 5 if 5 not in (races, fprm) else 6
        con.execute("UPDATE paper SET deleted_at=?, status='read', rating=3 WHERE id=?", (NOW, other))
        con.execute(
            "UPDATE paper SET status='skimmed', rating=5, title='RACES (mine)', title_source='edited' WHERE id=?",
            (races,),
        )
        con.executemany(
            "INSERT INTO tag (id, name, color) VALUES (?, ?, ?)",
            [(1, "rl", "#1f77b4"), (2, "rl/env", ""), (3, "reasoning", "")],
        )
        con.executemany(
            "INSERT INTO paper_tag (paper_id, tag_id) VALUES (?, ?)",
            [(races, 1), (races, 2), (fprm, 3), (other, 3)] + [(i, 3) for i in range(10, 30)],
        )
        con.executemany(
            "INSERT INTO note (paper_id, text, updated_at) VALUES (?, ?, ?)",
            [
                (races, "compose **all** the environments; ask about the quokka", NOW),
                (fprm, "sudoku numbers", NOW),
                (other, "trashed but noted", NOW),
            ],
        )
        con.executemany(
            "INSERT INTO note_revision (paper_id, text, saved_at) VALUES (?, ?, ?)",
            [(races, "first draft", NOW), (races, "second draft", NOW)],
        )
        plain = con.execute("SELECT abstract_text FROM paper WHERE id=?", (races,)).fetchone()[0]
        for quote, color in (("composable building blocks", "yellow"), ("300 individual environments", "green")):
            s = plain.index(quote)
            con.execute(
                "INSERT INTO highlight (paper_id, start, end, quote, prefix, suffix, color, comment, orphaned, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'c', 0, ?)",
                (
                    races,
                    s,
                    s + len(quote),
                    quote,
                    plain[max(0, s - 32) : s],
                    plain[s + len(quote) : s + len(quote) + 32],
                    color,
                    NOW,
                ),
            )
        con.executemany(
            "INSERT INTO reading_list (id, name, description, created_at) VALUES (?, ?, ?, ?)",
            [(1, "Queue", "next week", NOW), (2, "Empty", "", NOW)],
        )
        con.executemany(
            "INSERT INTO reading_list_item (list_id, paper_id, position, note) VALUES (1, ?, ?, ?)",
            [(fprm, 0, "first"), (races, 1, ""), (other, 2, "in the trash")],
        )
        con.execute("INSERT INTO saved_search (name, query) VALUES ('mine', 'tag:rl AND NOT status:read')")
    con.close()
    return roles


def db_0001(folder: Path) -> tuple[Path, dict[str, int]]:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "library.sqlite"
    assert db.migrate(path, folder / "backups", "0001") is None  # a new database: nothing to back up
    assert db.current_revision(path) == "0001"
    return path, fill_0001(path)
