"""The paper one click away, in a real window: links under the meta line (opened on a click only,
never a javascript: URL), files dropped on a row or the reader are attached, listed, opened,
removed and brought back with Ctrl+Z; Open paper prefers the file, then arXiv, DOI, URL.

No browser or PDF viewer exists here: QDesktopServices.openUrl is replaced by a recorder."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QToolButton

from desktop_app.core.library import Library
from desktop_app.gui import preferences
from desktop_app.gui.attach_controller import attachable_paths
from desktop_app.gui.paper_links import arxiv_url, doi_url, open_external, web_url

PDF = b"%PDF-1.4\n" + b"x" * 3000 + b"\n%%EOF\n"
BIB = r"""
@article{links2024,
  title = {A Paper With Links},
  author = {Doe, Jane},
  year = {2024},
  doi = {10.1000/abc.123},
  eprint = {2401.01234},
  archivePrefix = {arXiv},
  url = {https://example.org/paper?a=1&b=2},
  abstract = {An abstract about links and where they lead.},
}
@article{evil2023,
  title = {A Paper With A Hostile Link},
  author = {Roe, Rich},
  year = {2023},
  url = {javascript:alert(document.cookie)},
  abstract = {Another abstract, whose URL must never be opened.},
}
@article{plain2022,
  title = {A Paper With Nothing To Open},
  author = {Poe, Pat},
  year = {2022},
  abstract = {A third abstract with no identifier at all.},
}
"""


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[QUrl]:
    """Every URL handed to the desktop (browser or viewer), in order."""
    seen: list[QUrl] = []

    def record(url: QUrl) -> bool:
        seen.append(QUrl(url))
        return True

    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(record))
    return seen


@pytest.fixture
def links_dir(library_dir: Path, tmp_path: Path) -> Path:
    bib = tmp_path / "links.bib"
    bib.write_text(BIB, "utf-8")
    with Library.open(library_dir) as lib:
        assert lib.imports.from_files([str(bib)]).added == 3
    return library_dir


def _pdf(tmp_path: Path, name: str = "paper.pdf") -> Path:
    path = tmp_path / "downloads" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(PDF)
    return path


def _pid(win, title_word: str) -> int:
    return next(pid for pid in win.model.ids if title_word in win.library.papers.get(pid).title)


def _show(win, qtbot, pid: int) -> None:
    assert win.select_paper(pid)
    win.follow.flush()
    qtbot.waitUntil(lambda: win.reader.paper is not None and win.reader.paper.id == pid, timeout=5000)


def _drop(target, pos: QPointF, paths: list[Path]) -> bool:
    """A real drag of these files onto ``target``: enter, move, drop, as the window system sends
    them (a drop without an accepted enter is not delivered). Whether the drop was accepted."""
    md = QMimeData()
    md.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    args = (Qt.DropAction.CopyAction, md, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(target, QDragEnterEvent(pos.toPoint(), *args))
    QApplication.sendEvent(target, QDragMoveEvent(pos.toPoint(), *args))
    event = QDropEvent(pos, *args)
    event.ignore()
    QApplication.sendEvent(target, event)
    return event.isAccepted()


def _link_texts(win) -> list[str]:
    return [b.text() for b in win.reader.links.findChildren(QToolButton) if b.isVisibleTo(win.reader)]


def test_links_are_shown_and_opened_only_on_a_click(make_window, links_dir: Path, qtbot, opened: list[QUrl]) -> None:
    win = make_window(links_dir)
    _show(win, qtbot, _pid(win, "With Links"))
    assert win.reader.links.isVisibleTo(win.reader)
    assert _link_texts(win) == ["arXiv:2401.01234", "doi:10.1000/abc.123", "example.org/paper?a=1&&b=2"]
    assert opened == []  # showing a paper opens nothing
    doi = win.reader.links.findChild(QToolButton, "link_doi")
    assert doi.toolTip() == "https://doi.org/10.1000/abc.123"
    qtbot.mouseClick(doi, Qt.MouseButton.LeftButton)
    assert [u.toString() for u in opened] == ["https://doi.org/10.1000/abc.123"]
    qtbot.mouseClick(win.reader.links.findChild(QToolButton, "link_url"), Qt.MouseButton.LeftButton)
    assert opened[-1].toString() == "https://example.org/paper?a=1&b=2"


def test_a_javascript_url_is_neither_shown_nor_opened(make_window, links_dir: Path, qtbot, opened: list[QUrl]) -> None:
    win = make_window(links_dir)
    pid = _pid(win, "Hostile Link")
    assert win.library.papers.get(pid).url == "javascript:alert(document.cookie)"  # kept as data
    _show(win, qtbot, pid)
    assert not win.reader.links.isVisibleTo(win.reader) and _link_texts(win) == []
    assert win.attach.open_paper() is None
    assert opened == []
    assert "no attached file, arXiv id, DOI or web address" in win.statusBar().currentMessage()
    assert not open_external("javascript:alert(1)") and not open_external("file:///etc/passwd")
    assert opened == []


def test_addresses_are_built_from_validated_ids() -> None:
    assert doi_url("10.1000/a<b>#c") == "https://doi.org/10.1000/a%3Cb%3E%23c"
    assert doi_url("https://doi.org/10.1000/x") == doi_url("doi: 10.1000/x") == "https://doi.org/10.1000/x"
    for bad in ("", "11.1000/x", "10.1000/has space", "javascript:alert(1)", "10.12/x"):
        assert doi_url(bad) is None, bad
    assert arxiv_url("2401.01234v2") == "https://arxiv.org/abs/2401.01234v2"
    assert arxiv_url("hep-th/9901001") == "https://arxiv.org/abs/hep-th/9901001"
    for bad in ("2401.1", "../../etc", "2401.01234?x=1", "javascript:alert(1)"):
        assert arxiv_url(bad) is None, bad
    assert web_url("http://example.org/a b") is None
    for bad in (
        "javascript:alert(1)",
        "JAVASCRIPT:alert(1)",
        "file:///etc/passwd",
        "data:text/html,<b>",
        "https://",
        "//example.org",
        "https://ex\nample.org",
        'https://x.org/"onmouseover="',
    ):
        assert web_url(bad) is None, bad
    assert web_url(" https://example.org/x ") == "https://example.org/x"


def test_a_pdf_dropped_on_a_row_is_attached_to_that_paper(
    make_window, seeded_dir: Path, qtbot, tmp_path: Path, settings
) -> None:
    win = make_window(seeded_dir)
    win.show()
    qtbot.waitExposed(win)
    count = win.library.papers.count()
    target = win.model.paper_id(2)
    assert win.current_id() != target
    rect = win.table.visualRect(win.model.index(2, 0))
    assert _drop(win.table.viewport(), QPointF(rect.center()), [_pdf(tmp_path)])
    [v] = win.library.attachments.for_paper(target)
    assert (v.kind, v.path, v.exists) == ("copy", f"files/{target}/paper.pdf", True)
    assert win.library.papers.count() == count  # attached, not imported
    assert f"to paper {target}" in win.statusBar().currentMessage()

    _show(win, qtbot, target)
    strip = win.reader.attachments
    assert strip.isVisibleTo(win.reader)
    [button] = [b for b in strip.findChildren(QToolButton) if b.isVisibleTo(win.reader)]
    assert "paper.pdf (3.0 KB)" in button.text()

    win.undo_stack.undo()  # Ctrl+Z: the attachment goes, the copy stays for a redo
    assert win.library.attachments.for_paper(target) == [] and v.location.exists()
    assert not strip.isVisibleTo(win.reader)
    win.undo_stack.redo()
    assert [a.id for a in win.library.attachments.for_paper(target)] == [v.id]
    assert strip.isVisibleTo(win.reader)

    settings.setValue(preferences.ATTACH_MODE.name, "link")  # the preference decides; the drop asks nothing
    linked = _pdf(tmp_path, "linked.pdf")
    _drop(win.table.viewport(), QPointF(rect.center()), [linked])
    assert [(a.kind, a.path) for a in win.library.attachments.for_paper(target)][1] == ("link", str(linked))


def test_a_bibliography_dropped_on_a_row_is_imported_not_attached(
    make_window, seeded_dir: Path, qtbot, tmp_path: Path, monkeypatch
) -> None:
    from PySide6.QtWidgets import QDialog

    from desktop_app.gui import import_export

    monkeypatch.setattr(import_export.ImportPreview, "exec", lambda self: QDialog.DialogCode.Accepted)
    win = make_window(seeded_dir)
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{x, title={Dropped Reference}, abstract={A dropped bibliography entry.}}\n", "utf-8")
    md = QMimeData()
    md.setUrls([QUrl.fromLocalFile(str(bib))])
    assert attachable_paths(md) == []  # left to the window's import
    md.setUrls([QUrl.fromLocalFile(str(_pdf(tmp_path))), QUrl.fromLocalFile(str(bib))])
    assert attachable_paths(md) == []
    md.setUrls([QUrl("https://example.org/paper.pdf")])
    assert attachable_paths(md) == []
    target = win.model.paper_id(0)
    rect = win.table.visualRect(win.model.index(0, 0))
    assert _drop(win.table.viewport(), QPointF(rect.center()), [bib])  # the window took it
    qtbot.waitUntil(lambda: win.library.papers.count() == 77, timeout=30000)
    assert win.library.attachments.for_paper(target) == []


def test_a_file_dropped_on_the_reader_is_attached_to_the_shown_paper(
    make_window, seeded_dir: Path, qtbot, tmp_path: Path
) -> None:
    win = make_window(seeded_dir)
    pid = win.model.paper_id(5)
    _show(win, qtbot, pid)
    assert _drop(win.reader, QPointF(20, 20), [_pdf(tmp_path, "notes.pdf")])
    assert [v.name for v in win.library.attachments.for_paper(pid)] == ["notes.pdf"]
    assert any("notes.pdf" in b.text() for b in win.reader.attachments.findChildren(QToolButton))


def test_open_paper_prefers_the_file_then_arxiv_doi_url(
    make_window, links_dir: Path, qtbot, tmp_path: Path, opened: list[QUrl]
) -> None:
    win = make_window(links_dir)
    win.show()
    qtbot.waitExposed(win)
    pid = _pid(win, "With Links")
    _show(win, qtbot, pid)
    action = win.findChild(QAction, "openPaperAction")
    assert "Ctrl+Return" in [k.toString() for k in action.shortcuts()]
    action.trigger()
    assert [u.toString() for u in opened] == ["https://arxiv.org/abs/2401.01234"]

    win.attach.attach_paths(pid, [str(_pdf(tmp_path))])
    win.table.setFocus()
    qtbot.keyClick(win.table, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: len(opened) == 2, timeout=3000)
    where = win.library.attachments.for_paper(pid)[0].location
    assert opened[1] == QUrl.fromLocalFile(str(where))

    _show(win, qtbot, _pid(win, "Nothing To Open"))
    win.open_paper()
    assert len(opened) == 2
    assert "no attached file, arXiv id, DOI or web address" in win.statusBar().currentMessage()


def test_a_program_is_never_opened(make_window, seeded_dir: Path, qtbot, tmp_path: Path, opened: list[QUrl]) -> None:
    win = make_window(seeded_dir)
    pid = win.model.paper_id(0)
    script = tmp_path / "paper.pdf"
    script.write_bytes(b"#!/bin/sh\necho gotcha\n")
    win.attach.attach_paths(pid, [str(script)], mode="link")
    assert win.attach.open_paper(pid) is None
    assert opened == []
    assert "does not run programs" in win.statusBar().currentMessage()


def test_remove_from_the_context_menu_is_undoable(
    make_window, seeded_dir: Path, qtbot, tmp_path: Path, opened: list[QUrl]
) -> None:
    win = make_window(seeded_dir)
    pid = win.model.paper_id(1)
    _show(win, qtbot, pid)
    [aid] = win.attach.attach_paths(pid, [str(_pdf(tmp_path))])
    strip = win.reader.attachments
    button = strip.findChild(QToolButton, f"attachment_{aid}")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # a click opens it
    assert opened == [QUrl.fromLocalFile(str(win.library.attachments.get(aid).location))]
    menu = strip.menu_for(aid)
    menu.findChild(QAction, "removeAttachment").trigger()
    assert win.library.attachments.for_paper(pid) == []
    assert not strip.isVisibleTo(win.reader)
    assert "Ctrl+Z" in win.statusBar().currentMessage()
    win.undo_stack.undo()
    assert [v.id for v in win.library.attachments.for_paper(pid)] == [aid]
    assert strip.findChild(QToolButton, f"attachment_{aid}") is not None


def test_screenshot_view_shows_links_and_a_file(make_window, links_dir: Path, qtbot, tmp_path: Path) -> None:
    from desktop_app.gui.attach_controller import screenshot_view

    win = make_window(links_dir)
    win.resize(1400, 900)
    shown = screenshot_view(win)
    assert shown is win
    assert _link_texts(win)[:2] == ["arXiv:2401.01234", "doi:10.1000/abc.123"]
    assert win.reader.attachments.isVisibleTo(win.reader)
    shown.grab().save(str(tmp_path / "attachments.png"))


def test_check_library_names_a_missing_file_as_plain_text(
    make_window, seeded_dir: Path, qtbot, tmp_path: Path, monkeypatch
) -> None:
    from PySide6.QtWidgets import QMessageBox

    shown: list[tuple[str, Qt.TextFormat]] = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: shown.append((box.text(), box.textFormat())) or 0)
    win = make_window(seeded_dir)
    pid = win.model.paper_id(0)
    [aid] = win.attach.attach_paths(pid, [str(_pdf(tmp_path, "<b>bold.pdf"))])
    win.library.attachments.get(aid).location.unlink()
    win.files.check_library()
    [(text, fmt)] = shown
    assert text.startswith(f"paper {pid}: attached file '<b>bold.pdf'") and "is missing" in text
    assert fmt == Qt.TextFormat.PlainText


def test_a_large_file_is_copied_in_a_worker_and_still_undoable(
    make_window, seeded_dir: Path, qtbot, tmp_path: Path
) -> None:
    from desktop_app.gui.attach_controller import BACKGROUND_BYTES

    win = make_window(seeded_dir)
    pid = win.model.paper_id(0)
    _show(win, qtbot, pid)
    big = tmp_path / "big.pdf"
    with open(big, "wb") as fh:
        fh.write(b"%PDF-1.4\n")
        fh.truncate(BACKGROUND_BYTES + 1)
    assert win.attach.attach_paths(pid, [str(big)]) == []  # not done yet: a worker copies it
    qtbot.waitUntil(lambda: len(win.library.attachments.for_paper(pid)) == 1, timeout=30000)
    qtbot.waitUntil(lambda: win.undo_stack.count() == 1, timeout=5000)
    [v] = win.library.attachments.for_paper(pid)
    assert v.size == BACKGROUND_BYTES + 1 and v.location.stat().st_size == v.size
    qtbot.waitUntil(
        lambda: win.reader.attachments.findChild(QToolButton, f"attachment_{v.id}") is not None, timeout=5000
    )
    win.undo_stack.undo()
    assert win.library.attachments.for_paper(pid) == []
    win.undo_stack.redo()
    assert [a.id for a in win.library.attachments.for_paper(pid)] == [v.id]
