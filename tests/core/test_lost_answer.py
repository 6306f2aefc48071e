"""The answer to a COMMIT lost with the connection (tests/helpers/lossy_proxy.py): the server
committed the edit, the desk was told the server is gone. Sent again with its id, the edit is
not applied twice, and its undo undoes it; sent again without one (a journal of an earlier
version), it is applied twice, as before ids: what the ids are for."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

import desktop_app.core.store.store as store_module
from desktop_app.core.changelog.undo_data import AttachmentRef, HighlightId
from desktop_app.core.errors import ServerUnreachable
from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from desktop_app.core.store import tables as t
from tests.helpers.lossy_proxy import LossyProxy, lossy_proxy
from tests.helpers.pg_fixtures import new_database

pytestmark = pytest.mark.postgresql


@pytest.fixture
def desk(pg_server: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Library, LossyProxy]]:
    """A library of two papers opened through the lossy proxy."""
    monkeypatch.setattr(store_module, "FAIL_FAST_SECONDS", 0.0)  # the store tries the server again at once
    url = new_database(pg_server)
    with Library.open(url) as lib:
        records = [Record(title=f"Paper {i} on lenses", abstract=f"Thin lenses focus light {i}.") for i in range(2)]
        lib.imports.from_records([("t.bib", ParseResult("bibtex", records))])
    with lossy_proxy(pg_server) as proxy, Library.open(proxy.url_of(url)) as lib:
        yield lib, proxy


def _back(lib: Library) -> None:
    """Until the store reaches the server again (the main thread fails at once a short while)."""
    deadline = time.monotonic() + 10
    while True:
        try:
            lib.papers.count()
            return
        except ServerUnreachable:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _highlights(lib: Library) -> int:
    with lib.store.read() as conn:
        return int(conn.execute(select(func.count()).select_from(t.highlight)).scalar_one())


def test_a_highlight_whose_commit_answer_was_lost_is_added_once(desk: tuple[Library, LossyProxy]) -> None:
    lib, proxy = desk
    pid = lib.query("", sort="added").ids[0]
    key = uuid.uuid4().hex
    proxy.lose_next_commit_answer()
    with pytest.raises(ServerUnreachable):
        lib.apply_once(key, lambda: lib.highlights.add(pid, 0, 4, "green", "lens"))
    assert proxy.lost and not lib.reachable
    _back(lib)
    assert _highlights(lib) == 1  # committed all the same (and the store reaches the server again)
    change = lib.apply_once(key, lambda: lib.highlights.add(pid, 0, 4, "green", "lens"))  # the outbox's resend
    assert _highlights(lib) == 1
    with lib.store.read() as conn:
        stored = conn.execute(select(t.highlight.c.id, t.highlight.c.comment)).one()
    assert change.detail_as(HighlightId) == HighlightId(stored.id) and stored.comment == "lens"
    lib.undo(change)
    assert _highlights(lib) == 0


def test_without_an_id_the_resend_applies_it_twice(desk: tuple[Library, LossyProxy]) -> None:
    lib, proxy = desk
    pid = lib.query("", sort="added").ids[0]
    proxy.lose_next_commit_answer()
    with pytest.raises(ServerUnreachable):
        lib.highlights.add(pid, 0, 4)
    _back(lib)
    lib.highlights.add(pid, 0, 4)
    assert _highlights(lib) == 2


def test_a_staged_attachment_whose_commit_answer_was_lost_is_attached_once(
    desk: tuple[Library, LossyProxy], tmp_path: Path
) -> None:
    """The copy staged for it stays until its transaction is committed for good, then goes."""
    lib, proxy = desk
    pid = lib.query("", sort="added").ids[0]
    pdf = tmp_path / "lens.pdf"
    pdf.write_bytes(b"%PDF-1.4\n%%EOF\n")
    staged = lib.attachments.stage(pdf)
    key = uuid.uuid4().hex
    proxy.lose_next_commit_answer()
    with pytest.raises(ServerUnreachable):
        lib.apply_once(key, lambda: lib.attachments.add_staged(pid, str(staged)))
    assert staged.exists()  # not known to be committed: kept for the resend
    _back(lib)
    change = lib.apply_once(key, lambda: lib.attachments.add_staged(pid, str(staged)))
    [attached] = lib.attachments.for_paper(pid)
    assert change.detail_as(AttachmentRef).attachment_id == attached.id and attached.exists
    assert not staged.exists()
    lib.undo(change)
    assert lib.attachments.for_paper(pid) == []
    # sent once and answered: the staged copy goes after the commit
    staged = lib.attachments.stage(pdf)
    lib.apply_once(uuid.uuid4().hex, lambda: lib.attachments.add_staged(pid, str(staged)))
    assert not staged.exists() and len(lib.attachments.for_paper(pid)) == 1
