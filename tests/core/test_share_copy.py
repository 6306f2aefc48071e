"""``share --to`` an empty server: every table copied as it is in one transaction (COPY), the
folder's index taken as the desk's when current, the files attached by copy brought along; the
server library then works as any (new ids after the copied ones, the index following edits)."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.core.changelog.changes import ChangeFeed
from desktop_app.core.errors import LibraryError
from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from desktop_app.core.shared_library import SharedIndexSync
from tests.helpers.pg_fixtures import *  # noqa: F403 - pg_server, pg_url

RECORDS = [
    Record(
        title=f"Paper {i} on {w}",
        abstract=f"We study {w} with care, number {i}.",
        doi=f"10.7/{i}",
        year=2018 + i % 5,
        authors=[f"Author{i}, A."],
    )
    for i, w in enumerate(["graphs", "rewards", "diffusion", "zebras", "proteins", "agents"])
]


@pytest.fixture
def local(tmp_path: Path) -> Library:
    with Library.open(tmp_path / "local") as lib:
        ids = sorted(lib.imports.from_records([("t.bib", ParseResult("bibtex", list(RECORDS)))]).paper_ids)
        lib.tags.add(ids[:2], ["rl/rlvr"])
        lib.papers.set_status([ids[0]], "read")
        lib.notes.set(ids[1], "first")
        lib.notes.set(ids[1], "second")
        lib.highlights.add_quote(ids[2], "diffusion", comment="key")
        lib.lists.create("Group meeting")
        lib.lists.add("Group meeting", [ids[3], ids[0]])
        pdf = tmp_path / "paper.pdf"
        pdf.write_bytes(b"%PDF-1.4 zebras")
        lib.attachments.add(ids[3], pdf, "copy")
        lib.papers.delete([ids[5]])  # in the trash: a move keeps it
    return Library.open(tmp_path / "local")


@pytest.mark.postgresql
def test_an_empty_server_gets_every_row_as_it_is(local: Library, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop_app.sharing import share

    def no_rebuild(self, *args, **kwargs):
        raise AssertionError("the folder's current index is copied, not built again")

    with local:
        ids = local.query("", sort="id").ids
        views = {pid: local.papers.get(pid) for pid in ids}
        local_trash = local.trash.ids()
        assert len(local_trash) == 1
        searches = {q: local.query(q, sort="id").ids for q in ("zebras", "tag:rl", "status:read", "care")}
        history = [(r.kind, r.paper_id) for r in ChangeFeed(local.store).pull()]
        revisions = local.notes.revisions(ids[1])
        with monkeypatch.context() as m:
            m.setattr(SharedIndexSync, "rebuild", no_rebuild)
            report, _where = share(local, pg_url)
        assert report.added == len(ids) == 5
        attached = local.attachments.for_paper(ids[3])
    with Library.open(pg_url) as shared:
        assert shared.query("", sort="id").ids == ids  # the same ids
        for pid, view in views.items():
            got = shared.papers.get(pid)
            assert (got.uid, got.title, got.status, got.tags, got.added_at) == (
                view.uid,
                view.title,
                view.status,
                view.tags,
                view.added_at,
            )
        assert shared.notes.text(ids[1]) == "second" and shared.notes.revisions(ids[1]) == revisions
        for q, want in searches.items():
            assert shared.query(q, sort="id").ids == want, q
        assert shared.trash.ids() == local_trash
        # the history too, then one library-wide row: desks following the server re-read it all
        assert [(r.kind, r.paper_id) for r in ChangeFeed(shared.store).pull()] == [
            *history,
            ("imports.copy_library", None),
        ]
        files = shared.attachments.for_paper(ids[3])
        assert [a.name for a in files] == [a.name for a in attached] and files[0].exists
        assert shared.attachments.resolve(files[0].kind, files[0].path).read_bytes() == b"%PDF-1.4 zebras"
        # the copied ids are behind every sequence: new rows get new ids
        new = shared.imports.from_records(
            [("n.bib", ParseResult("bibtex", [Record(title="A new one", abstract="About okapis.", doi="10.7/new")]))]
        ).paper_ids
        assert new and new[0] > max(ids)
        shared.tags.add(new, ["fresh"])
        shared.notes.set(new[0], "okapi note")
        assert shared.query("okapis").ids == new  # the copied index follows the server's changes
        assert shared.query("tag:fresh").ids == new


@pytest.mark.postgresql
def test_a_server_with_rows_gets_the_json_restore(local: Library, pg_url: str) -> None:
    from desktop_app.sharing import share

    with Library.open(pg_url) as shared:
        shared.lists.create("Kept")
    with local:
        report, _where = share(local, pg_url, merge=True)
        assert report.added == 5
    with Library.open(pg_url) as shared:
        assert shared.papers.count() == 5
        assert shared.trash.count() == 0  # the restore copies live papers only


@pytest.mark.postgresql
def test_a_write_to_the_folder_during_the_copy_means_the_desk_builds_its_index(
    local: Library, pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop_app.core.importing.imports import Imports
    from desktop_app.sharing import share

    copy_library, rebuild = Imports.copy_library, SharedIndexSync.rebuild
    built: list[bool] = []

    def copy_then_write(self, *args, **kwargs):
        report = copy_library(self, *args, **kwargs)
        with Library.open(tmp_path / "local") as other:  # another process's write, meanwhile
            other.notes.set(other.query("", sort="id").ids[0], "written during the share")
        return report

    def counted(self, *args, **kwargs):
        built.append(True)
        return rebuild(self, *args, **kwargs)

    monkeypatch.setattr(Imports, "copy_library", copy_then_write)
    monkeypatch.setattr(SharedIndexSync, "rebuild", counted)
    with local:
        report, _where = share(local, pg_url)
    assert report.added == 5 and built == [True]
    with Library.open(pg_url) as shared:
        assert shared.query("zebras").total == 1 and shared.query("written").total == 0
        assert not list(shared.index.index.folder.parent.glob("*.copy"))


def test_a_folder_library_copied_into_an_empty_folder_is_indexed_there(local: Library, tmp_path: Path) -> None:
    with local, Library.open(tmp_path / "copy") as copy:
        assert copy.imports.holds_nothing()
        report = copy.imports.copy_library(local.store, local.folder)
        assert report.added == 5 and not copy.imports.holds_nothing()
        assert copy.query("", sort="id").ids == local.query("", sort="id").ids
        assert copy.query("zebras").ids == local.query("zebras").ids != []  # queued, then indexed
        assert copy.trash.ids() == local.trash.ids()
        assert copy.notes.revisions(local.query("second").ids[0]) != []
        pid = local.query("zebras").ids[0]
        (mine,), (theirs,) = copy.attachments.for_paper(pid), local.attachments.for_paper(pid)
        assert mine.exists and copy.attachments.resolve(mine.kind, mine.path) != local.attachments.resolve(
            theirs.kind, theirs.path
        )  # a file of its own
        with pytest.raises(LibraryError, match="must be empty"):
            copy.imports.copy_library(local.store, local.folder)
