"""A library this user may not write opens in a window that says so and offers no editing."""

from __future__ import annotations

from pathlib import Path

import pytest


def test_read_only_library_window(make_window, seeded_dir: Path, qtbot, monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop_app.core import library as library_module

    # what os.access says for a folder on a read-only mount (root can write anything here)
    monkeypatch.setattr(library_module, "_not_writable", lambda *_a: True)
    before = (seeded_dir / "library.sqlite").read_bytes()
    win = make_window(seeded_dir)
    assert win.library.read_only
    assert "(read-only)" in win.windowTitle()
    banner = win.findChild(type(win.status_label), "readOnlyBanner")
    assert banner is not None and "read-only" in banner.text()
    reader = win.reader
    assert reader.paper is not None  # reading works
    assert not reader.title_edit.isEnabled() and not reader.tags.isEnabled()
    assert not reader.status.isEnabled() and not reader.rating.isEnabled()
    assert reader.notes.edit.isReadOnly()
    assert reader.abstract.isEnabled()  # still selectable
    win.search.box.setText("tag:none OR status:unread")  # searching works
    qtbot.waitUntil(lambda: win.model.rowCount() > 0, timeout=10000)
    assert (seeded_dir / "library.sqlite").read_bytes() == before
