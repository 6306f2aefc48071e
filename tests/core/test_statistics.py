"""change_log rows for status, rating and tag changes; lib.insights.statistics(); `marginalia stats`."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, update

from desktop_app.cli import main
from desktop_app.core.changelog.actor import current_actor
from desktop_app.core.changelog.rows import STATISTICS_KINDS
from desktop_app.core.errors import LibraryError
from desktop_app.core.library import Library
from desktop_app.core.store import tables as t


def _log(lib: Library, kind: str | None = None) -> list[tuple[int, dict, str]]:
    c = t.change_log.c
    stmt = select(c.paper_id, c.detail, c.actor).where(c.kind.in_(STATISTICS_KINDS)).order_by(c.seq)
    if kind:
        stmt = stmt.where(c.kind == kind)
    with lib.store.read() as conn:
        return [(pid, json.loads(d), actor) for pid, d, actor in conn.execute(stmt)]


def _age_log(lib: Library, days: int, after_seq: int = 0) -> None:
    """Move the log rows after ``after_seq`` ``days`` into the past (local noon of that day)."""
    noon = datetime.combine(date.today() - timedelta(days=days), datetime.min.time().replace(hour=12))
    at = noon.astimezone().astimezone(UTC)
    with lib.store.write() as tx:
        tx.conn.execute(update(t.change_log).where(t.change_log.c.seq > after_seq).values(at=at))


def _last_seq(lib: Library) -> int:
    with lib.store.read() as conn:
        return conn.execute(select(t.change_log.c.seq).order_by(t.change_log.c.seq.desc())).scalar() or 0


def test_status_changes_are_logged_one_row_per_changed_paper(seed_library: Library) -> None:
    lib = seed_library
    lib.papers.set_status([1], "read")
    lib.papers.set_status([1, 2, 3], "read")  # 1 is read already: no change, no row
    rows = _log(lib, "status")
    assert [(pid, d) for pid, d, _ in rows] == [
        (1, {"old": "unread", "new": "read"}),
        (2, {"old": "unread", "new": "read"}),
        (3, {"old": "unread", "new": "read"}),
    ]
    assert {actor for _, _, actor in rows} == {current_actor()}
    assert current_actor()  # the test machine has a user name


def test_a_status_change_and_its_log_row_commit_or_roll_back_together(
    seed_library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = seed_library

    def fail(_conn: object) -> None:
        raise RuntimeError("disk gone at commit")

    monkeypatch.setattr(lib.store.dialect, "bump_commit_count", fail)
    with pytest.raises(RuntimeError):
        lib.papers.set_status([5, 6], "skimmed")
    monkeypatch.undo()
    assert lib.papers.get(5).status == "unread"
    assert _log(lib) == []
    with pytest.raises(LibraryError):  # one id is no paper: nothing changes, nothing is logged
        lib.papers.set_status([5, 99999], "read")
    assert _log(lib) == []


def test_undoing_a_status_change_logs_the_reverse_change(seed_library: Library) -> None:
    lib = seed_library
    lib.papers.set_status([4], "skimmed")
    before = {pid: {"status": row.status} for pid, row in lib.papers.rows([7, 8]).items()}
    lib.papers.set_status([7, 8], "read")
    lib.papers.set_fields(before)  # what Edit → Undo runs (gui/editing.py)
    rows = [(pid, d) for pid, d, _ in _log(lib, "status")]
    assert rows == [
        (4, {"old": "unread", "new": "skimmed"}),
        (7, {"old": "unread", "new": "read"}),
        (8, {"old": "unread", "new": "read"}),
        (7, {"old": "read", "new": "unread"}),
        (8, {"old": "read", "new": "unread"}),
    ]


def test_ratings_and_tags_are_logged_and_bulk_tagging_writes_one_row_per_paper(seed_library: Library) -> None:
    lib = seed_library
    lib.papers.set_rating([1, 2], 4)
    lib.papers.set_fields({1: {"rating": 0}})
    assert [(pid, d) for pid, d, _ in _log(lib, "rating")] == [
        (1, {"old": 0, "new": 4}),
        (2, {"old": 0, "new": 4}),
        (1, {"old": 4, "new": 0}),
    ]
    ids = list(range(1, 77))
    lib.tags.add(ids[:10], ["rl"])
    change = lib.tags.add(ids, ["rl"])  # only the 66 papers without it get a row
    assert len(change.detail.links) == 66
    lib.tags.remove([3], ["rl"])
    tag_rows = [(pid, d) for pid, d, _ in _log(lib, "tag")]
    assert len(tag_rows) == 77
    assert tag_rows[0] == (1, {"added": "rl"}) and tag_rows[-1] == (3, {"removed": "rl"})
    lib.tags.set_links(change.detail.links, present=False)  # undo of the bulk add
    assert sum(d == {"removed": "rl"} for _, d, _ in _log(lib, "tag")) == 67


def test_merging_duplicates_logs_the_status_it_takes_as_via_merge(seed_library: Library) -> None:
    lib = seed_library
    lib.papers.set_status([2], "read")
    seq = _last_seq(lib)
    change = lib.duplicates.merge(1, 2)
    assert [(pid, d) for pid, d, _ in _log(lib, "status")][-1] == (1, {"old": "unread", "new": "read", "via": "merge"})
    lib.duplicates.undo_merge(change.detail.merge_id)
    assert [(pid, d) for pid, d, _ in _log(lib, "status")][-1] == (1, {"old": "read", "new": "unread", "via": "merge"})
    with lib.store.read() as conn:  # two statistics rows (the facade's own rows come beside them)
        c = t.change_log.c
        assert len(conn.execute(select(c.seq).where(c.seq > seq, c.kind.in_(STATISTICS_KINDS))).all()) == 2


def _edit_seeds(lib: Library) -> None:
    """Venues, years, tags, ratings and statuses on the 76 seeds (all NeurIPS 2026 as imported)."""
    for pid in range(1, 11):
        lib.papers.update_metadata(pid, {"venue": "ICML", "year": 2024})
    for pid in range(11, 15):
        lib.papers.update_metadata(pid, {"venue": "", "year": None})
    lib.tags.add(list(range(1, 31)), ["rl"])
    lib.tags.add(list(range(1, 6)), ["rl/rlvr"])
    lib.tags.add([70, 71], ["survey"])
    lib.papers.set_rating([1, 2, 3], 5)
    lib.papers.set_rating([4], 2)
    lib.papers.delete([71])  # the trash is not counted


def test_counts_by_tag_venue_year_rating_and_status(seed_library: Library) -> None:
    lib = seed_library
    empty = lib.insights.statistics()
    assert (empty.papers, empty.by_venue, empty.by_year, empty.by_tag) == (76, [("NeurIPS", 76)], [(2026, 76)], [])
    assert empty.ratings == {0: 76, 1: 0, 2: 0, 3: 0, 4: 0, 5: 0} and empty.progress == []
    _edit_seeds(lib)
    lib.papers.set_status([20, 21, 22], "read")
    lib.papers.set_status([23], "skimmed")
    st = lib.insights.statistics()
    assert st.papers == 75
    assert st.by_status == {"unread": 71, "skimmed": 1, "read": 3}
    assert st.by_venue == [("NeurIPS", 61), ("ICML", 10)] and st.no_venue == 4
    assert st.by_year == [(2024, 10), (2026, 61)] and st.no_year == 4
    assert st.by_tag == [("rl", 30), ("rl/rlvr", 5), ("survey", 1)]
    assert (st.tags, st.tagged) == (3, 31)
    assert st.ratings == {0: 71, 1: 0, 2: 1, 3: 0, 4: 0, 5: 3} and st.rated == 4


def test_top_twenty_tags_most_first(seed_library: Library) -> None:
    lib = seed_library
    for k in range(25):
        lib.tags.add(list(range(1, 2 + k)), [f"t{k:02d}"])
    st = lib.insights.statistics()
    assert len(st.by_tag) == 20
    assert st.by_tag[0] == ("t24", 25) and st.by_tag[-1] == ("t05", 6)


def test_reading_progress_per_day_and_cumulative(seed_library: Library) -> None:
    lib = seed_library
    lib.papers.set_status([1, 2], "read")  # read before the log began: the starting level
    with lib.store.write() as tx:
        tx.conn.execute(t.change_log.delete())
    lib.papers.set_status([10, 11, 12], "read")
    lib.papers.set_status([13], "skimmed")
    _age_log(lib, 3)
    seq = _last_seq(lib)
    lib.papers.set_status([14], "read")
    lib.papers.set_status([15], "skimmed")
    before = {15: {"status": "skimmed"}}
    lib.papers.set_status([15], "read")
    lib.papers.set_fields(before)  # marked read and undone the same day: not a read that day
    _age_log(lib, 1, seq)
    lib.papers.set_status([10], "unread")  # today: one read paper fewer
    st = lib.insights.statistics()
    today = date.today()
    days = {p.day: (p.skimmed, p.read, p.read_total) for p in st.progress}
    assert [p.day for p in st.progress] == [today - timedelta(days=k) for k in (3, 2, 1, 0)]
    assert days == {
        today - timedelta(days=3): (1, 3, 5),
        today - timedelta(days=2): (0, 0, 5),
        today - timedelta(days=1): (1, 1, 6),
        today: (0, 0, 5),
    }
    assert st.progress[-1].read_total == st.by_status["read"] == 5


def test_statuses_from_a_library_file_count_in_the_total_not_as_reading(seed_library: Library, tmp_path: Path) -> None:
    lib = seed_library
    lib.papers.set_status([1, 2], "read")
    other = Library.open(tmp_path / "other", ensure_index=False)
    try:
        out = tmp_path / "lib.json"
        assert main(["--library", str(lib.folder), "export", "--format", "json", "-o", str(out)]) == 0
        other.imports.from_files([out])
        st = other.insights.statistics()
        assert st.by_status["read"] == 2
        assert [(p.read, p.read_total) for p in st.progress] == [(0, 2)]
    finally:
        other.close()


def test_cli_stats_json(library_dir: Path, seed_paths: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    lib_arg = ["--library", str(library_dir)]
    assert main([*lib_arg, "import", *map(str, seed_paths)]) == 0
    assert main([*lib_arg, "status", "1", "2", "read"]) == 0
    assert main([*lib_arg, "tag", "1", "3", "--add", "rl"]) == 0
    assert main([*lib_arg, "rate", "2", "4"]) == 0
    capsys.readouterr()
    assert main([*lib_arg, "stats", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["papers"] == 76 and out["by_status"] == {"unread": 74, "skimmed": 0, "read": 2}
    assert out["by_tag"] == [{"tag": "rl", "papers": 2}]
    assert out["ratings"]["4"] == 1 and out["ratings"]["0"] == 75
    assert out["by_year"] == [{"year": 2026, "papers": 76}]
    assert out["progress"][-1] == {"day": date.today().isoformat(), "skimmed": 0, "read": 2, "read_total": 2}
    assert main([*lib_arg, "stats"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("76 papers: 74 unread, 0 skimmed, 2 read") and "NeurIPS" in text


def test_change_log_and_statistics_on_postgresql(tmp_path: Path) -> None:
    """The PostgreSQL forms: change_log rows from INSERT ... SELECT over unnest, hours by to_char."""
    pytest.importorskip("psycopg", reason="psycopg is a test dependency (pip install -e '.[test]')")
    from sqlalchemy import create_engine
    from sqlmodel import SQLModel

    import desktop_app.core.models  # noqa: F401 - the tables
    from desktop_app.core.importing.imports import Imports
    from desktop_app.core.insights.statistics import library_statistics
    from desktop_app.core.papers import Papers
    from desktop_app.core.records import ParseResult, Record
    from desktop_app.core.store import Store
    from desktop_app.core.tags import Tags
    from tests.helpers.postgres_server import postgres_server

    with postgres_server() as url:
        engine = create_engine(url)
        SQLModel.metadata.create_all(engine)
        try:
            store = Store(engine)
            records = [
                Record(
                    title=f"Paper {i}",
                    abstract=f"About topic {i}.",
                    year=2020 + i % 3,
                    venue="ICML" if i % 2 else "ACL",
                )
                for i in range(6)
            ]
            Imports(store, tmp_path).from_records([("x", ParseResult("bibtex", records))])
            papers, tags = Papers(store), Tags(store)
            ids = sorted(papers.rows(range(1, 7)))
            papers.set_status(ids[:3], "read")
            papers.set_status(ids[3:4], "skimmed")
            papers.set_rating(ids[:2], 5)
            tags.add(ids[:4], ["rl"])
            with store.read() as conn:
                kinds = (
                    conn.execute(select(t.change_log.c.kind).where(t.change_log.c.kind.in_(STATISTICS_KINDS)))
                    .scalars()
                    .all()
                )
            assert sorted(kinds) == ["rating"] * 2 + ["status"] * 4 + ["tag"] * 4
            st = library_statistics(store)
            assert (st.papers, st.by_status["read"], st.ratings[5], st.by_tag) == (6, 3, 2, [("rl", 4)])
            assert st.by_venue == [("ACL", 3), ("ICML", 3)]
            assert [(d.day, d.skimmed, d.read, d.read_total) for d in st.progress] == [(date.today(), 1, 3, 3)]
        finally:
            engine.dispose()
