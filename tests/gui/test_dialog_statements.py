"""How many SQL statements the dialogs' edits send to a shared library's server, counted on the
engine (``before_cursor_execute``) on the window's thread while each runs: the edit, its
recorded id (``lib.apply_once``) and what the window re-reads at once. A bound a little above
the count measured, so a regression to a statement per paper (or per field) fails; the counts
are printed (``pytest -s``). Re-derive titles writes six papers in 13: one statement per paper
more would break its bound."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialogButtonBox
from sqlalchemy import event

from desktop_app.core.library import Library
from tests.helpers.duplicates import duplicate_pairs_and_derived
from tests.helpers.pg_fixtures import new_database

pytestmark = pytest.mark.postgresql

# measured on PostgreSQL (19, 13, 53, 17, 16, 15: the printed counts), plus a small margin. The
# merge's 53 are 22 of the merge itself and the window re-reading the pairs' papers (5 each)
BOUNDS = {"metadata": 23, "retitle": 16, "merge": 60, "attach copy": 21, "attach link": 20, "remove": 18}


@contextmanager
def counted(engine) -> Iterator[list[str]]:
    """The statements the window's thread sends through ``engine`` inside the block."""
    seen: list[str] = []

    def note(_conn, _cursor, statement: str, *_args: object) -> None:
        if threading.current_thread() is threading.main_thread():
            seen.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)


def _library(pg_server: str, tmp_path: Path) -> str:
    url = new_database(pg_server)
    with Library.open(url) as lib:
        derived = duplicate_pairs_and_derived(lib, tmp_path, 6)
        lib.set_derived_titles({pid: f"An older derived title {pid}" for pid in derived})
    return url


def test_the_dialogs_edits_send_a_bounded_number_of_statements(
    qtbot, settings: QSettings, pg_server: str, tmp_path: Path
) -> None:
    from desktop_app.gui.duplicates_view import show_duplicates
    from desktop_app.gui.launch import close_window, open_shared_window
    from desktop_app.gui.retitle_dialog import RetitleDialog

    win = open_shared_window(_library(pg_server, tmp_path), settings)
    qtbot.addWidget(win)
    counts: dict[str, int] = {}
    try:
        qtbot.waitUntil(lambda: win.files.index_ready, timeout=60000)
        win.elsewhere_timer.stop()
        lib = win.library
        engine = lib.store.engine

        def measure(name: str, action: Callable[[], object]) -> None:
            win.follow.flush()
            with counted(engine) as seen:
                action()
            counts[name] = len(seen)
            print(f"{name}: {len(seen)} statements")
            assert len(seen) <= BOUNDS[name], (name, seen)

        pid = win.current_id()
        assert pid is not None
        win.edit_metadata()
        dialog = win.metadata_editor
        dialog.venue.setText("Optics Letters")
        dialog.year.setText("2021")
        dialog.doi.setText("10.1234/lenses")
        measure(
            "metadata",
            lambda: qtbot.mouseClick(
                dialog.buttons.button(QDialogButtonBox.StandardButton.Save), Qt.MouseButton.LeftButton
            ),
        )
        assert lib.papers.get(pid).venue == "Optics Letters" and not dialog.isVisible()

        win.findChild(QAction, "retitleAction").trigger()
        qtbot.waitUntil(lambda: win.findChild(RetitleDialog) is not None, timeout=20000)
        retitle = win.findChild(RetitleDialog)
        assert len(retitle.chosen()) == 6
        measure("retitle", lambda: qtbot.mouseClick(retitle.apply_button, Qt.MouseButton.LeftButton))
        assert win.undo_stack.undoText() == "Re-derive titles"

        dups = show_duplicates(win)
        qtbot.waitUntil(lambda: not dups.is_searching() and dups.pair_list.topLevelItemCount() >= 2, timeout=20000)
        pairs = dups.pair_list.topLevelItemCount()
        measure("merge", dups.merge_current)
        assert dups.pair_list.topLevelItemCount() < pairs and win.undo_stack.undoText().startswith("Merge duplicate")

        pdf = tmp_path / "lens.pdf"
        pdf.write_bytes(b"%PDF-1.4\n%%EOF\n")
        measure("attach copy", lambda: win.attach.attach_paths(pid, [str(pdf)], mode="copy"))
        measure("attach link", lambda: win.attach.attach_paths(pid, [str(pdf)], mode="link"))
        copied, linked = lib.attachments.for_paper(pid)
        assert (copied.kind, linked.kind) == ("copy", "link")
        measure("remove", lambda: win.attach.remove_attachment(linked.id))
        assert [a.id for a in lib.attachments.for_paper(pid)] == [copied.id]
    finally:
        close_window(win)
    print("statements per dialog edit:", counts)
