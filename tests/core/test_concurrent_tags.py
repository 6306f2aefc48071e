"""Two desks editing tags at once lose nothing.

Two Library objects on one library (a throwaway PostgreSQL database, or one SQLite folder), a
thread each, released together by a barrier, 30 rounds per operation: every call returns without
an exception, and every tag a call acknowledged is on its papers afterwards (a tag renamed or
merged away by the other desk is found under its new name). Before the fix a rename onto an
existing tag lost 20 of 30 such tags, a removal of a tag's last use 10 of 30 (18 more raised),
and two desks creating one new tag raised IntegrityError."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from desktop_app.core.store import tables as t
from tests.helpers.pg_fixtures import *  # noqa: F403 - pg_server, pg_url

ROUNDS = 30
RECORDS = [
    Record(
        title=f"Paper number {i}",
        abstract=f"An abstract about subject {i}.",
        year=2020 + i,
        authors=[f"Author{i}, A."],
        doi=f"10.30/{i}",
    )
    for i in range(4)
]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def desks(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Library, Library, list[int]]]:
    """Two desks on one library with four papers."""
    if request.param == "sqlite":
        where: str | Path = tmp_path / "lib"
    else:
        where = request.getfixturevalue("pg_url")
    libs = []
    for desk in ("a", "b"):  # each desk its own cache and data folders, as on two machines
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / desk / "cache"))
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / desk / "data"))
        libs.append(Library.open(where))
    a, b = libs
    ids = sorted(a.imports.from_records([("t.bib", ParseResult("bibtex", list(RECORDS)))]).paper_ids)
    try:
        yield a, b, ids
    finally:
        for lib in libs:
            lib.close()


def _at_once(first: Callable[[], object], second: Callable[[], object]) -> None:
    """Run both calls in two threads released together; re-raise what either raised."""
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def run(call: Callable[[], object]) -> None:
        barrier.wait()
        try:
            call()
        except BaseException as exc:  # noqa: BLE001 - collected, re-raised below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(c,)) for c in (first, second)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    assert not errors, errors


def _tags(lib: Library, pid: int) -> set[str]:
    return {n.lower() for n in lib.papers.get(pid).tags}


def _count_folded(lib: Library, name: str) -> int:
    with lib.store.read() as conn:
        return conn.execute(
            select(func.count()).select_from(t.tag).where(func.lower(t.tag.c.name) == name.lower())
        ).scalar_one()


def test_creating_one_new_tag_at_two_desks_gives_one_tag(desks: tuple[Library, Library, list[int]]) -> None:
    a, b, (p0, p1, _p2, _p3) = desks
    for r in range(ROUNDS):
        _at_once(lambda r=r: a.tags.add([p0], [f"Topic{r}"]), lambda r=r: b.tags.add([p1], [f"topic{r}"]))
        assert _count_folded(a, f"topic{r}") == 1, r
        assert f"topic{r}" in _tags(a, p0) and f"topic{r}" in _tags(a, p1), r


def test_renaming_onto_an_existing_tag_keeps_a_tag_added_meanwhile(desks: tuple[Library, Library, list[int]]) -> None:
    a, b, (p0, p1, p2, p3) = desks
    for r in range(ROUNDS):
        old, new = f"old{r}", f"new{r}"
        a.tags.add([p0], [old])
        a.tags.add([p1], [new])
        _at_once(
            lambda old=old, new=new: a.tags.rename(old, new),
            lambda old=old, new=new: (b.tags.add([p2], [old]), b.tags.add([p3], [new])),
        )
        assert new in _tags(a, p0) and new in _tags(a, p1) and new in _tags(a, p3), r
        assert _tags(a, p2) & {old, new}, r  # tagged before the rename (now new) or after it (old)
        assert _count_folded(a, new) == 1, r


def test_removing_a_tags_last_use_keeps_the_other_desks_new_use(desks: tuple[Library, Library, list[int]]) -> None:
    a, b, (p0, p1, _p2, _p3) = desks
    for r in range(ROUNDS):
        name = f"last{r}"
        a.tags.add([p0], [name])
        _at_once(lambda name=name: a.tags.remove([p0], [name]), lambda name=name: b.tags.add([p1], [name]))
        assert name not in _tags(a, p0), r
        assert name in _tags(a, p1), r
        assert _count_folded(a, name) == 1, r


def test_merging_keeps_a_tag_added_meanwhile(desks: tuple[Library, Library, list[int]]) -> None:
    a, b, (p0, p1, p2, p3) = desks
    for r in range(ROUNDS):
        src, dst = f"src{r}", f"dst{r}"
        a.tags.add([p0], [src])
        a.tags.add([p1], [dst])
        _at_once(
            lambda src=src, dst=dst: a.tags.merge(src, dst),
            lambda src=src, dst=dst: (b.tags.add([p2], [src]), b.tags.add([p3], [dst])),
        )
        assert dst in _tags(a, p0) and dst in _tags(a, p1) and dst in _tags(a, p3), r
        assert _tags(a, p2) & {src, dst}, r


def test_adding_and_removing_other_tags_at_once_keeps_both(desks: tuple[Library, Library, list[int]]) -> None:
    a, b, (p0, p1, p2, p3) = desks
    for r in range(ROUNDS):
        keep, drop = f"keep{r}", f"drop{r}"
        a.tags.add([p0, p1], [drop])
        _at_once(
            lambda keep=keep, r=r: a.tags.add([p3, p1, p2], [keep, f"Both{r}"]),
            lambda keep=keep, drop=drop, r=r: (
                b.tags.add([p2, p0], [f"both{r}", keep]),
                b.tags.remove([p0, p1], [drop]),
            ),
        )
        for pid in (p0, p1, p2, p3):
            assert keep in _tags(a, pid), (r, pid)
            assert drop not in _tags(a, pid), (r, pid)
        assert all(f"both{r}" in _tags(a, pid) for pid in (p0, p1, p2, p3)), r
        assert _count_folded(a, f"both{r}") == 1 and _count_folded(a, drop) == 0, r
