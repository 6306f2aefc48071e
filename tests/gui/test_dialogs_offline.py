"""The dialogs' edits while a shared library's server is away wait like the window's others: the
metadata editor (opened on the paper the reader shows, without the server), Re-derive titles, a
duplicate merged or set apart, a file attached or removed. Each is said, closes its dialog, is
journaled, is sent in order when the server is back and is an undo step there; a window closed
or killed meanwhile leaves them to the next one. A metadata edit that meets fields another desk
changed meanwhile reopens the editor with the field-by-field choice, naming the paper."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDialogButtonBox

from desktop_app.core.changelog.undo_data import AttachmentRef
from desktop_app.core.library import Library
from desktop_app.core.records import Record
from tests.helpers.duplicates import duplicate_pairs_and_derived
from tests.helpers.offline_server import Server, quiet, shared_window, undo_texts
from tests.helpers.pg_fixtures import new_database

pytestmark = pytest.mark.postgresql


def _journaled(win) -> list[dict]:
    """The edits the window's journal file holds (the one file of its desk's outbox folder)."""
    files = list((win.library.folder / "outbox").glob("*.json"))
    assert len(files) == 1, files
    return json.loads(files[0].read_text("utf-8"))["edits"]


def _gone(win, own_server: Server, qtbot) -> None:
    win.elsewhere_timer.stop()
    own_server.stop()
    quiet(win.library.tags.all)  # the store notices: the banner shows
    qtbot.waitUntil(win.offline_banner.isVisible, timeout=3000)


def _back(win, own_server: Server, qtbot) -> None:
    own_server.start()
    qtbot.waitUntil(lambda: not win.offline_banner.isVisible(), timeout=30000)
    qtbot.waitUntil(lambda: not win.edits.outbox, timeout=10000)


def _save(dialog, qtbot) -> None:
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Save), Qt.MouseButton.LeftButton)


def test_a_metadata_edit_made_while_the_server_is_away_waits_and_is_saved(
    qtbot, settings: QSettings, own_server: Server
) -> None:
    from desktop_app.gui.launch import close_window
    from desktop_app.gui.metadata_editor import MetadataEditor

    win = shared_window(
        own_server, settings, qtbot, [Record(title=f"Paper {n} on lenses", abstract=f"Abstract {n}.") for n in range(5)]
    )
    try:
        win.follow.flush()
        pid = win.current_id()
        assert pid is not None and win.reader.paper is not None and win.reader.paper.id == pid
        title = win.reader.paper.title
        _gone(win, own_server, qtbot)

        # it opens on the paper the reader shows: no read of the server, no wait
        started = time.monotonic()
        win.edit_metadata()
        took = time.monotonic() - started
        dialog = win.metadata_editor
        assert isinstance(dialog, MetadataEditor) and dialog.isVisible(), win.statusBar().currentMessage()
        assert took < 0.5 and dialog.title.text() == title
        dialog.venue.setText("Optics Letters")
        dialog.year.setText("2021")
        _save(dialog, qtbot)
        assert not dialog.isVisible() and not dialog.error.isVisible()  # closed: it waits, no error
        said = win.statusBar().currentMessage()
        assert "“Edit metadata” waits and is sent when it is back" in said
        [edit] = _journaled(win)
        assert edit["do"]["method"] == "update_metadata"
        assert edit["do"]["args"][1] == {"venue": "Optics Letters", "year": "2021"}
        assert edit["do"]["args"][2] == {"venue": "", "year": ""}  # the base goes with it

        _back(win, own_server, qtbot)
        paper = win.library.papers.get(pid)
        assert (paper.venue, paper.year) == ("Optics Letters", 2021)
        assert not list((win.library.folder / "outbox").glob("*.json"))
        assert win.undo_stack.undoText() == "Edit metadata"
        win.undo_stack.undo()
        paper = win.library.papers.get(pid)
        assert (paper.venue, paper.year) == (None, None)
    finally:
        close_window(win)


def test_a_waiting_metadata_edit_that_meets_a_change_elsewhere_offers_the_choice(
    qtbot, settings: QSettings, own_server: Server
) -> None:
    """The window closes with the edit waiting (journaled); meanwhile another desk sets the same
    field; the next window sends it: nothing is written over theirs, the editor opens with the
    waiting values, theirs and mine for the venue, and the paper's title in its message."""
    from desktop_app.gui.launch import close_window, open_shared_window

    win = shared_window(
        own_server, settings, qtbot, [Record(title="Focal lengths of thin lenses", abstract="On lenses.")]
    )
    url = win.library.server.url
    win.follow.flush()
    pid = win.current_id()
    _gone(win, own_server, qtbot)
    win.edit_metadata()
    dialog = win.metadata_editor
    dialog.venue.setText("Mine: Optics Letters")
    dialog.doi.setText("10.1234/lenses")
    _save(dialog, qtbot)
    assert not dialog.isVisible() and len(win.edits.outbox) == 1
    close_window(win)  # no question: the edit is journaled

    own_server.start()
    with Library.open(url) as other:  # another desk, while this one has no window
        other.papers.update_metadata(pid, {"venue": "Theirs: Applied Optics"})
    again = open_shared_window(url, settings)
    qtbot.addWidget(again)
    try:
        qtbot.waitUntil(lambda: not again.edits.outbox, timeout=20000)
        qtbot.waitUntil(lambda: again.metadata_editor is not None and again.metadata_editor.isVisible(), timeout=5000)
        editor = again.metadata_editor
        assert again.library.papers.get(pid).venue == "Theirs: Applied Optics"  # not written over
        assert again.library.papers.get(pid).doi is None  # nothing of the edit was written
        message = editor.error.text()
        assert "Focal lengths of thin lenses" in message and "venue" in message and "server was away" in message
        assert editor.choices.asking() and set(editor.choices.chosen()) == {"venue"}
        assert editor.venue.text() == "Mine: Optics Letters" and editor.doi.text() == "10.1234/lenses"
        said = again.statusBar().currentMessage()
        assert "was not saved" in said and "venue" in said
        _save(editor, qtbot)  # mine is checked by default
        assert not editor.isVisible()
        paper = again.library.papers.get(pid)
        assert (paper.venue, paper.doi) == ("Mine: Optics Letters", "10.1234/lenses")
        again.undo_stack.undo()
        assert again.library.papers.get(pid).venue == "Theirs: Applied Optics"
    finally:
        close_window(again)


def _library_with_duplicates(own_server: Server, tmp_path: Path) -> tuple[str, dict[str, int]]:
    """A new database holding two duplicate pairs and two papers with derived titles."""
    url = new_database(own_server.url)
    with Library.open(url) as lib:
        derived = duplicate_pairs_and_derived(lib, tmp_path, 2)
        ids = {p.title: p.id for p in (lib.papers.get(i) for i in lib.query("").ids)}
        ids["derived"], ids["derived2"] = derived
        ids["derived title"] = lib.papers.get(derived[0]).title
        lib.set_derived_titles({derived[0]: "An older derived title"})
    return url, ids


def _pdf(folder: Path, name: str) -> Path:
    path = folder / name
    path.write_bytes(b"%PDF-1.4\n%%EOF\n")
    return path


def test_retitles_merges_dismissals_and_attachments_wait_and_are_sent_in_order(
    qtbot, settings: QSettings, own_server: Server, tmp_path: Path
) -> None:
    from PySide6.QtGui import QAction

    from desktop_app.gui.duplicates_view import show_duplicates
    from desktop_app.gui.launch import close_window, open_shared_window
    from desktop_app.gui.retitle_dialog import RetitleDialog

    url, ids = _library_with_duplicates(own_server, tmp_path)
    cats, lerning = ids["Deep Learning for Cats"], ids["Deep Lerning for Cats"]
    win = open_shared_window(url, settings)
    qtbot.addWidget(win)
    try:
        qtbot.waitUntil(lambda: win.files.index_ready, timeout=60000)
        lib = win.library
        removed_pdf = (
            lib.attachments.add(ids["derived2"], str(_pdf(tmp_path, "old.pdf"))).detail_as(AttachmentRef).attachment_id
        )
        dups = show_duplicates(win)  # what these dialogs show is read while the server answers
        qtbot.waitUntil(lambda: not dups.is_searching() and dups.pair_list.topLevelItemCount() == 2, timeout=20000)
        win.findChild(QAction, "retitleAction").trigger()
        qtbot.waitUntil(lambda: win.findChild(RetitleDialog) is not None, timeout=20000)
        retitle = win.findChild(RetitleDialog)
        assert retitle.chosen() == {ids["derived"]: ids["derived title"]}
        win.select_paper(ids["derived2"])
        win.follow.flush()
        assert [v.id for v in win.reader.attachments.items] == [removed_pdf]
        _gone(win, own_server, qtbot)

        qtbot.mouseClick(retitle.apply_button, Qt.MouseButton.LeftButton)
        assert "“Re-derive titles” waits" in win.statusBar().currentMessage()
        assert dups.current_sides() == (cats, lerning)
        dups.merge_current()
        assert "when the library's server is back" in dups.status.text()
        assert dups.pair_list.topLevelItemCount() == 1  # the merged pair left the list
        dups.dismiss_current()
        assert dups.pair_list.topLevelItemCount() == 0 and "set apart" in dups.status.text()
        new_pdf = _pdf(tmp_path, "new.pdf")
        assert win.attach.attach_paths(ids["derived2"], [str(new_pdf)]) == []
        assert "new.pdf is copied into the library and attached to paper" in win.statusBar().currentMessage()
        # the copy is made at once, into the desk's folder: the file may go meanwhile
        [staged] = (lib.folder / "outbox" / "attachments").glob("*/new.pdf")
        new_pdf.unlink()
        win.reader.attachments.menu_for(removed_pdf).findChild(QAction, "removeAttachment").trigger()
        assert "old.pdf is removed from the paper when" in win.statusBar().currentMessage()
        assert [(e["do"]["manager"], e["do"]["method"]) for e in _journaled(win)] == [
            ("papers", "set_derived_titles"),
            ("duplicates", "merge"),
            ("duplicates", "dismiss"),
            ("attachments", "add_staged"),
            ("attachments", "remove"),
        ]
        assert win.edits.waiting_in_memory() == 0

        _back(win, own_server, qtbot)
        assert lib.papers.get(ids["derived"]).title == ids["derived title"]
        assert lerning not in lib.query("").ids
        assert lib.papers.get(cats).url == "https://example.org/cats"  # the other's, the kept one had none
        assert lib.duplicates.dismissed() == [
            tuple(sorted((ids["Scripts, Plans and Goals"], ids["Conceptual Dependency"])))
        ]
        [attached] = lib.attachments.for_paper(ids["derived2"])
        assert attached.name == "new.pdf" and attached.exists and attached.path.startswith("files/")
        assert not staged.exists() and not staged.parent.exists()  # attached: the staged copy goes
        stack = win.undo_stack
        assert undo_texts(win) == [
            "Re-derive titles",
            "Merge duplicate “Deep Lerning for Cats”",
            "Not duplicates",
            "Attach new.pdf",
            "Remove attached file old.pdf",
        ]
        stack.undo()
        stack.undo()
        assert [v.name for v in lib.attachments.for_paper(ids["derived2"])] == ["old.pdf"]
        stack.redo()  # attached again: restored, the copy made once
        assert [v.name for v in lib.attachments.for_paper(ids["derived2"])] == ["old.pdf", "new.pdf"]
        stack.undo()
        stack.undo()
        assert lib.duplicates.dismissed() == []
        stack.undo()
        assert lerning in lib.query("").ids
        stack.undo()
        assert lib.papers.get(ids["derived"]).title == "An older derived title"
    finally:
        close_window(win)


def test_a_merge_and_an_attachment_waiting_in_a_killed_window_are_sent_by_the_next(
    qtbot, settings: QSettings, own_server: Server, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    import shiboken6

    from desktop_app.gui.duplicates_view import show_duplicates
    from desktop_app.gui.launch import close_window, open_shared_window

    url, ids = _library_with_duplicates(own_server, tmp_path)
    cats, lerning = ids["Deep Learning for Cats"], ids["Deep Lerning for Cats"]
    win = open_shared_window(url, settings)
    qtbot.addWidget(win)
    qtbot.waitUntil(lambda: win.files.index_ready, timeout=60000)
    dups = show_duplicates(win)
    qtbot.waitUntil(lambda: not dups.is_searching() and dups.pair_list.topLevelItemCount() == 2, timeout=20000)
    _gone(win, own_server, qtbot)
    dups.merge_current()
    win.attach.attach_paths(cats, [str(_pdf(tmp_path, "cats.pdf"))], mode="link")
    assert len(_journaled(win)) == 2
    lib = win.library
    # pytest-qt would close it at the end: it is no longer there to close
    request.node.qt_widgets = [(w, f) for w, f in request.node.qt_widgets if w() is not win]
    shiboken6.delete(win)  # gone without its closeEvent, as a kill leaves it
    lib.close()

    own_server.start()
    again = open_shared_window(url, settings)
    qtbot.addWidget(again)
    try:
        qtbot.waitUntil(lambda: not again.edits.outbox, timeout=20000)
        lib = again.library
        assert lerning not in lib.query("").ids
        [linked] = lib.attachments.for_paper(cats)
        assert (linked.kind, linked.path) == ("link", str(tmp_path / "cats.pdf"))
        assert again.statusBar().currentMessage().startswith("2 edits made")
        again.undo_stack.undo()
        again.undo_stack.undo()
        assert lerning in lib.query("").ids and lib.attachments.for_paper(cats) == []
    finally:
        close_window(again)
