"""The outbox's journal: edits told as data survive a round trip through the file, apply to a
library, are written atomically, and a damaged file is set aside with one line, never raised."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from desktop_app.core.library import Library
from desktop_app.core.library_call import BadCall, ChangeRef, DescribedEdit, LibraryCall
from desktop_app.core.records import ParseResult, Record
from desktop_app.core.store import outbox_journal
from desktop_app.core.store.outbox_journal import OutboxJournal

URL = "postgresql://lin@/papers?host=/run/postgresql"


def _edits() -> list[DescribedEdit]:
    return [
        DescribedEdit(
            "Add tag x",
            LibraryCall("tags", "add", ([1, 2], ["x"])),
            LibraryCall("tags", "set_links", (ChangeRef(("detail", "links")),), {"present": False}),
        ),
        DescribedEdit(
            "Mark read “é”",
            LibraryCall("papers", "set_status", ([1], "read")),
            LibraryCall("papers", "set_fields", (ChangeRef(("detail", "old")),)),
        ),
        DescribedEdit(
            "Rate",
            LibraryCall("papers", "set_rating", ([2], 4), {"x": [None, True, 1.5]}),
            LibraryCall("tags", "unmerge", (ChangeRef(),)),
        ),
    ]


def test_round_trip_through_json() -> None:
    for edit in _edits():
        assert DescribedEdit.from_json(json.loads(json.dumps(edit.to_json()))) == edit


def test_only_the_managers_and_public_methods_are_called() -> None:
    with pytest.raises(BadCall):
        LibraryCall("store", "write")
    with pytest.raises(BadCall):
        LibraryCall("tags", "_store")
    with pytest.raises(BadCall):
        DescribedEdit.from_json({"text": "x", "do": {"manager": "papers"}, "undo": None})
    with pytest.raises(BadCall):
        LibraryCall("tags", "add", (object(),)).to_json()


def test_a_call_and_its_undo_apply_to_a_library(library_dir: Path) -> None:
    with Library.open(library_dir) as lib:
        lib.imports.from_records(
            [("t.bib", ParseResult("bibtex", [Record(title="A paper on graphs"), Record(title="Another on optics")]))]
        )
        ids = sorted(lib.query("").ids)
        assert ids == [1, 2]
        tag, status = _edits()[:2]
        change = tag.do(lib)
        assert all("x" in row.tags for row in lib.papers.rows(ids).values())
        tag.undo(lib, change)
        assert not any("x" in row.tags for row in lib.papers.rows(ids).values())
        change = status.do(lib)
        assert lib.papers.rows([1])[1].status == "read"
        status.undo(lib, change)
        assert lib.papers.rows([1])[1].status == "unread"


def test_the_journal_follows_the_outbox_and_is_adopted_when_its_window_is_gone(tmp_path: Path) -> None:
    mine = OutboxJournal(tmp_path, URL)
    mine.write(_edits())
    stored = json.loads(mine.path.read_text("utf-8"))
    assert stored["library"] == URL and len(stored["edits"]) == 3
    assert not [p for p in mine.folder.iterdir() if p.suffix == ".tmp"]  # written beside, then replaced
    other = OutboxJournal(tmp_path, URL)
    assert other.adopt() == ([], [])  # its window is alive: not taken
    mine.release()  # that window is gone
    edits, problems = other.adopt()
    assert edits == _edits() and problems == [] and not mine.path.exists()
    mine.write([])
    assert not mine.path.exists()
    other.release()


def test_a_killed_process_journal_is_adopted_and_another_library_left(tmp_path: Path) -> None:
    folder = tmp_path / "outbox"
    folder.mkdir()
    dead = 2**22 + 12345  # above the default pid_max: no such process
    killed = folder / f"{outbox_journal.library_key(URL)}-{dead}-abcd.json"
    killed.write_text(json.dumps({"version": 1, "library": URL, "edits": [e.to_json() for e in _edits()[:1]]}))
    elsewhere = folder / f"{outbox_journal.library_key('postgresql:///other')}-{dead}-abcd.json"
    elsewhere.write_text("{}")
    journal = OutboxJournal(tmp_path, URL)
    assert journal.adopt() == (_edits()[:1], [])
    assert not killed.exists() and elsewhere.exists()
    journal.release()


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"\xff\xfe",
        b'{"version": 1, "library": "'
        + URL.encode()
        + b'", "edits": [{"text": "x", "do": {"manager": "os", "method": "system"}}]}',
    ],
)
def test_a_damaged_journal_is_set_aside_with_a_message(tmp_path: Path, content: bytes) -> None:
    folder = tmp_path / "outbox"
    folder.mkdir()
    bad = folder / f"{outbox_journal.library_key(URL)}-{2**22 + 1}-beef.json"
    bad.write_bytes(content)
    journal = OutboxJournal(tmp_path, URL)
    edits, problems = journal.adopt()
    assert edits == [] and len(problems) == 1 and "could not be read" in problems[0]
    assert not bad.exists() and bad.with_suffix(".corrupt").read_bytes() == content
    assert journal.adopt() == ([], [])  # set aside: not read again
    journal.release()


def test_a_failed_write_leaves_the_old_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    journal = OutboxJournal(tmp_path, URL)
    journal.write(_edits()[:1])
    before = journal.path.read_bytes()

    def full(*_args: object) -> int:
        raise OSError(28, os.strerror(28))

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError):
        journal.write(_edits())
    monkeypatch.undo()
    assert journal.path.read_bytes() == before
    assert [p.name for p in journal.folder.iterdir()] == [journal.path.name]
    journal.release()


def _adopt_at_once(tmp: str, start: object, out: object) -> None:
    """One of several processes opening the library at the same moment: adopts what it can."""
    start.wait()  # type: ignore[attr-defined]
    journal = OutboxJournal(Path(tmp), URL)
    edits, _problems = journal.adopt()
    out.put(len(edits))  # type: ignore[attr-defined]


def test_windows_starting_at_once_adopt_each_journal_once(tmp_path: Path) -> None:
    """Three processes adopt the journals of killed windows at the same moment, 20 times over:
    every edit is adopted exactly once (a journal read twice would send its edits twice)."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    folder = tmp_path / "outbox"
    folder.mkdir()
    document = json.dumps({"version": 1, "library": URL, "edits": [e.to_json() for e in _edits()]})
    for round_ in range(20):
        for n in range(4):  # four killed windows' journals
            (folder / f"{outbox_journal.library_key(URL)}-{2**22 + n}-{round_:02d}{n:02d}.json").write_text(document)
        start, out = ctx.Event(), ctx.Queue()
        procs = [ctx.Process(target=_adopt_at_once, args=(str(tmp_path), start, out)) for _ in range(3)]
        for p in procs:
            p.start()
        start.set()
        adopted = sorted(out.get(timeout=60) for _ in procs)
        for p in procs:
            p.join(timeout=60)
        assert sum(adopted) == 4 * len(_edits()), (round_, adopted)
        assert not list(folder.glob("*.json"))
