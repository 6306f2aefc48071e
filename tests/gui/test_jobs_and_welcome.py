"""Long work off the GUI thread, the welcome panel, deleting with undo, and lists."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QMessageBox

from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from desktop_app.gui.jobs import start_job


def _synthetic(n: int) -> list[tuple[str, ParseResult]]:
    records = [
        Record(
            abstract=f"Paper number {i} studies topic{i % 37} with method{i % 11} in depth and detail.",
            title=f"Zorblax paper {i}",
            year=2020 + i % 7,
        )
        for i in range(n)
    ]
    return [("synthetic.csv", ParseResult(format="csv", records=records))]


def test_empty_library_shows_welcome_and_opens_the_sample(make_window, library_dir: Path, qtbot) -> None:
    win = make_window(library_dir)
    assert win.stack.currentWidget() is win.welcome
    button = win.welcome.findChild(object, "welcomeSample")
    assert "76 abstracts" in button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.library.papers.count() == 76, timeout=30000)
    qtbot.waitUntil(lambda: win.stack.currentWidget() is win.splitter, timeout=5000)
    assert win.model.rowCount() == 76
    assert win.sidebar.topLevelItem(0).child(0).text(0) == "All papers  (76)"


def test_import_job_reports_progress_and_completes(qtbot, empty_library: Library) -> None:
    from PySide6.QtWidgets import QWidget

    parent = QWidget()
    qtbot.addWidget(parent)
    seen: list[tuple[int, int]] = []
    done: list = []
    job = start_job(
        parent,
        "Importing…",
        lambda progress, cancelled: empty_library.imports.from_records(
            _synthetic(1500), progress=lambda n, t: (seen.append((n, t)), progress(n, t)), cancelled=cancelled
        ),
        done.append,
        lambda m: done.append(m),
    )
    finished: list[int] = []
    job.finished.connect(lambda: finished.append(1))
    qtbot.waitUntil(lambda: bool(done) and bool(finished), timeout=60000)
    assert done[0].added == 1500
    assert seen and seen[-1] == (1500, 1500)
    assert job is not None


def test_cancelled_import_leaves_the_library_as_it_was(qtbot, seed_library: Library) -> None:
    from PySide6.QtWidgets import QWidget

    parent = QWidget()
    qtbot.addWidget(parent)
    done: list = []
    progressed: list[int] = []

    def work(progress, cancelled):
        def prog(n: int, t: int) -> None:
            progressed.append(n)
            progress(n, t)
            if n >= 300:
                job.cancel()  # the user presses Cancel part-way

        return seed_library.imports.from_records(_synthetic(3000), progress=prog, cancelled=cancelled)

    job = start_job(parent, "Importing…", work, done.append, done.append)

    finished: list[int] = []

    job.finished.connect(lambda: finished.append(1))
    qtbot.waitUntil(lambda: bool(done) and bool(finished), timeout=60000)
    assert done[0].cancelled
    assert max(progressed) >= 300
    assert seed_library.papers.count() == 76
    assert seed_library.integrity_check() == []
    assert seed_library.query("zorblax").total == 0


def test_delete_moves_to_the_trash_without_asking_and_is_undoable(
    make_window, seeded_dir: Path, qtbot, monkeypatch
) -> None:
    win = make_window(seeded_dir)
    win.select_row(0)
    pid = win.current_id()
    asked: list[object] = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a) or QMessageBox.StandardButton.Cancel)
    win.table.setFocus()
    qtbot.keyClick(win.table, Qt.Key.Key_Delete)
    assert asked == []  # the trash keeps it: nothing to ask
    assert win.library.papers.count() == 75 and win.library.trash.ids() == [pid]
    assert win.model.row_of(pid) == -1
    assert win.statusBar().currentMessage() == "Moved 1 paper to the trash"
    win.undo_stack.undo()
    assert win.library.papers.count() == 76 and win.library.trash.count() == 0
    assert win.model.row_of(pid) >= 0


def test_reading_list_from_the_window(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    lib = win.library
    lib.lists.create("Group meeting")
    ids = win.model.ids[:3]
    win.edits.on_papers_dropped("list", "Group meeting", ids)  # what a drop on the sidebar list emits
    assert [p for p, _, _ in lib.lists.items("Group meeting")] == ids
    win.on_sidebar_filter("list", "Group meeting")
    assert win.model.ids == ids
    win.select_paper(ids[2])
    win.edits.move_in_list(-1)
    assert [p for p, _, _ in lib.lists.items("Group meeting")] == [ids[0], ids[2], ids[1]]
    assert win.model.ids == [ids[0], ids[2], ids[1]]
    win.undo_stack.undo()
    assert [p for p, _, _ in lib.lists.items("Group meeting")] == ids
    lib.lists.set_item_note("Group meeting", ids[0], "discuss section 3")
    win.select_paper(ids[0])
    qtbot.waitUntil(win.reader.list_note.isVisible, timeout=3000)  # the reader follows the table
    assert win.reader.list_note.text() == "Note in “Group meeting”: discuss section 3"
    win.on_sidebar_filter("all", "")
    qtbot.waitUntil(lambda: not win.reader.list_note.isVisible(), timeout=3000)


def test_status_and_rating_controls_by_mouse(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    pid = win.current_id()
    qtbot.mouseClick(win.reader.status.buttons["read"], Qt.MouseButton.LeftButton)
    assert win.library.papers.get(pid).status == "read"
    qtbot.mouseClick(win.reader.rating.buttons[2], Qt.MouseButton.LeftButton)
    assert win.library.papers.get(pid).rating == 3
    qtbot.waitUntil(
        lambda: "Read  (1)" in [win.sidebar.topLevelItem(0).child(i).text(0) for i in range(4)], timeout=3000
    )  # one event-loop turn later (the window's deferred refreshes)


def test_job_keeps_gui_responsive(qtbot, empty_library: Library) -> None:
    """While a long import runs, the GUI thread keeps ticking."""
    import time

    from PySide6.QtWidgets import QWidget

    parent = QWidget()
    qtbot.addWidget(parent)
    ticks: list[float] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(10)
    done: list = []
    job = start_job(
        parent,
        "Importing…",
        lambda p, c: empty_library.imports.from_records(_synthetic(3000), progress=p, cancelled=c),
        done.append,
        done.append,
        modal=False,
    )
    finished: list[int] = []
    job.finished.connect(lambda: finished.append(1))
    qtbot.waitUntil(lambda: bool(done) and bool(finished), timeout=60000)
    timer.stop()
    assert done[0].added == 3000
    assert len(ticks) > 10


def test_drag_reorder_inside_a_reading_list(make_window, seeded_dir: Path, qtbot) -> None:
    """Dropping rows of the shown list onto another row reorders the list (undoable)."""
    win = make_window(seeded_dir)
    lib = win.library
    ids = win.model.ids[:4]
    lib.lists.create("Order")
    lib.lists.add("Order", ids)
    win.on_sidebar_filter("list", "Order")
    assert win.model.reorderable
    data = win.model.mimeData([win.model.index(3, 0)])  # what dragging the 4th row carries
    assert win.model.canDropMimeData(data, Qt.DropAction.MoveAction, 1, 0, win.model.index(-1, -1))
    win.model.dropMimeData(data, Qt.DropAction.MoveAction, 1, 0, win.model.index(-1, -1))
    assert [p for p, _, _ in lib.lists.items("Order")] == [ids[0], ids[3], ids[1], ids[2]]
    assert win.model.ids == [ids[0], ids[3], ids[1], ids[2]]
    win.undo_stack.undo()
    assert [p for p, _, _ in lib.lists.items("Order")] == ids
    win.on_sidebar_filter("all", "")
    assert not win.model.reorderable


def test_saved_search_and_snapshot_list(make_window, seeded_dir: Path, qtbot, monkeypatch) -> None:
    from PySide6.QtWidgets import QInputDialog

    win = make_window(seeded_dir)
    qtbot.keyClicks(win.search.box, "reinforcement")
    win.search.apply_now()
    found = list(win.model.ids)
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("RL", True))
    qtbot.mouseClick(win.search.save, Qt.MouseButton.LeftButton)
    assert win.library.searches.all() == [("RL", "reinforcement")]
    win.edits.on_search_menu("snapshot", "RL")
    assert sorted(p for p, _, _ in win.library.lists.items("RL")) == sorted(found)
    win.search.box.clear()
    win.on_sidebar_filter("search", "RL")
    assert win.search.box.text() == "reinforcement" and sorted(win.model.ids) == sorted(found)


def test_dropping_files_on_the_window_imports_them(
    make_window, library_dir: Path, qtbot, monkeypatch, seed_paths: list[Path]
) -> None:
    from PySide6.QtCore import QMimeData, QPointF, QUrl
    from PySide6.QtGui import QDropEvent
    from PySide6.QtWidgets import QDialog

    from desktop_app.gui import import_export

    monkeypatch.setattr(import_export.ImportPreview, "exec", lambda self: QDialog.DialogCode.Accepted)
    win = make_window(library_dir)
    md = QMimeData()
    md.setUrls([QUrl.fromLocalFile(str(p)) for p in seed_paths[:2]])
    event = QDropEvent(
        QPointF(200, 200), Qt.DropAction.CopyAction, md, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    win.dropEvent(event)
    qtbot.waitUntil(lambda: win.library.papers.count() == 38, timeout=30000)
    qtbot.waitUntil(lambda: win.model.rowCount() == 38, timeout=5000)


def test_export_dialog_writes_the_chosen_format(
    make_window, seeded_dir: Path, qtbot, monkeypatch, tmp_path: Path
) -> None:
    from PySide6.QtWidgets import QDialog, QFileDialog

    from desktop_app.gui import import_export

    def choose(dialog) -> int:
        dialog.format.setCurrentIndex(dialog.format.findData("bib"))
        dialog.scope.setCurrentIndex(dialog.scope.findData("view:"))
        return QDialog.DialogCode.Accepted

    out = tmp_path / "view.bib"
    monkeypatch.setattr(import_export.ExportDialog, "exec", choose)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    win = make_window(seeded_dir)
    win.search.set_text("benchmark")
    win.search.apply_now()
    shown = win.model.rowCount()
    assert 0 < shown < 76
    win.files.export_dialog()
    qtbot.waitUntil(out.exists, timeout=30000)
    assert out.read_text("utf-8").count("\n@") + out.read_text("utf-8").startswith("@") == shown


def test_a_finished_job_lets_go_of_what_its_work_held(qtbot) -> None:
    """The job object stays with its owner (its listeners' queued slots), but the data its work
    closed over goes when the run ends: before, every finished ranking of a triage session kept
    its copy of the shown list for the window's life."""
    import gc
    import weakref

    from PySide6.QtWidgets import QWidget

    from desktop_app.gui.jobs import SerialJob

    class Held(list):
        """A list that a weak reference can follow."""

    owner = QWidget()
    qtbot.addWidget(owner)
    held = Held(range(100_000))
    gone = weakref.ref(held)
    results: list[object] = []
    serial = SerialJob(owner)
    serial.start(lambda _p, _c, ids=held: len(ids), results.append, results.append, lambda: None)
    del held
    qtbot.waitUntil(lambda: results == [100_000] and not serial.busy(), timeout=5000)
    job_threads = [c for c in owner.children() if c.__class__.__name__ == "Job"]
    assert job_threads  # the job is still there, a child of its owner
    qtbot.waitUntil(lambda: all(j.isFinished() for j in job_threads), timeout=5000)
    gc.collect()
    assert gone() is None


def test_a_cancelled_job_that_then_fails_tells_no_one(qtbot) -> None:
    """A job asked to stop (its window closing) whose work then raises (the library closed
    under it) emits no failure: its listener would warn over a window that is gone. A job that
    fails without being asked to stop still says so."""
    import threading

    from PySide6.QtWidgets import QWidget

    from desktop_app.core.errors import LibraryError
    from desktop_app.gui.jobs import Job

    owner = QWidget()
    qtbot.addWidget(owner)
    go = threading.Event()

    def work(_progress: object, _cancelled: object) -> None:
        go.wait(5)
        raise LibraryError("the library was closed")

    said: list[str] = []
    stopped = Job(work, owner)
    stopped.failed.connect(said.append)
    stopped.start()
    stopped.cancel()
    go.set()
    qtbot.waitUntil(stopped.isFinished, timeout=5000)
    qtbot.wait(50)  # the queued signal, had there been one
    assert said == []
    failing = Job(work, owner)
    failing.failed.connect(said.append)
    failing.start()
    qtbot.waitUntil(lambda: said == ["the library was closed"], timeout=5000)
    failing.wait(5000)
