"""The import preview lists each match with its reason; a ticked match is kept apart, and the
files' keywords become tags only when asked."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QDialog, QLabel, QRadioButton

from desktop_app.core.library import Library
from desktop_app.core.values import FileReport, ImportReport, MatchNote
from desktop_app.gui import import_export
from desktop_app.gui.import_preview import KEEP_COLUMN, ImportPreview

FIRST = """@article{smith2020,
  title = {Learning to Rank with Partial Labels},
  author = {Smith, Jane and Doe, John},
  year = {2020},
  doi = {10.1234/ltr.2020.7},
  keywords = {ranking, weak supervision},
}
"""
# the same DOI with another title (a preprint's), and a different paper by the same key
SECOND = """@article{smith2020,
  title = {Learning to rank from partial labels (preprint)},
  author = {Smith, Jane},
  year = {2019},
  doi = {https://doi.org/10.1234/LTR.2020.7},
  keywords = {ranking},
}
@book{smith2020b,
  title = {<b>Memory</b>, Meaning and Syntax},
  author = {Smith, Jane},
  year = {2020},
  keywords = {linguistics, memory},
}
"""


def _files(tmp_path: Path) -> tuple[Path, Path]:
    first, second = tmp_path / "first.bib", tmp_path / "second.bib"
    first.write_text(FIRST, "utf-8")
    second.write_text(SECOND, "utf-8")
    return first, second


def _import(win, qtbot, monkeypatch, path: Path, choose) -> list:
    shown: list = []

    def exec_(dialog) -> int:
        shown.append(dialog)
        choose(dialog)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(import_export.ImportPreview, "exec", exec_)
    # the window's import is finished (its report shown, its first new paper selected) when the
    # controller says the library changed; only then may the test select a paper of its own
    with qtbot.waitSignal(win.files.changed, timeout=20000):
        win.files.import_paths([str(path)])
    qtbot.waitUntil(lambda: win.model.rowCount() == win.library.papers.count(), timeout=5000)
    # the index writer (a child process) makes the new papers searchable a moment later, as
    # the status bar's "Indexing…" says; text searches below need it to have caught up
    qtbot.waitUntil(win.library.index.caught_up, timeout=60000)
    return shown


def test_preview_lists_the_match_with_its_reason_and_keeps_it_apart_when_ticked(
    make_window, library_dir: Path, tmp_path: Path, qtbot, monkeypatch
) -> None:
    first, second = _files(tmp_path)
    with Library.open(library_dir) as lib:
        lib.imports.from_files([first])
    win = make_window(library_dir)

    def tick_the_doi_match(dialog) -> None:
        tree = dialog.matches
        assert tree.topLevelItemCount() == 1
        item = tree.topLevelItem(0)
        assert item.text(1) == "Learning to rank from partial labels (preprint)"
        assert item.text(2) == "Learning to Rank with Partial Labels"
        assert item.text(3) == "same DOI"
        assert item.text(4) == "line 1"
        head = dialog.findChild(QLabel, "importHeadline").text()
        assert head.startswith("1 new paper, 1 already there (same DOI: 1)"), head
        item.setCheckState(KEEP_COLUMN, Qt.CheckState.Checked)
        assert dialog.keep_apart() == frozenset({(0, 0)})
        assert dialog.offers_keywords and not dialog.add_keywords_as_tags()

    shown = _import(win, qtbot, monkeypatch, second, tick_the_doi_match)
    assert len(shown) == 1
    titles = sorted(win.library.papers.get(i).title for i in win.library.query("").ids)
    assert titles == [
        "<b>Memory</b>, Meaning and Syntax",
        "Learning to Rank with Partial Labels",
        "Learning to rank from partial labels (preprint)",
    ]
    # keywords are each paper's own, not tags
    memory = win.library.query("title:syntax").ids
    paper = win.library.papers.get(memory[0])
    assert paper.keywords == ["linguistics", "memory"] and paper.tags == []
    assert win.library.query("keyword:linguistics").ids == memory
    assert [t.name for t in win.library.tags.all()] == []
    win.table.select_paper(memory[0])
    qtbot.waitUntil(lambda: win.reader.paper is not None and win.reader.paper.id == memory[0], timeout=5000)
    assert win.reader.keywords.text() == "Keywords: linguistics; memory"
    assert win.reader.keywords.isVisibleTo(win)


def test_keywords_become_tags_under_keywords_only_when_asked(
    make_window, library_dir: Path, tmp_path: Path, qtbot, monkeypatch
) -> None:
    _, second = _files(tmp_path)
    win = make_window(library_dir)

    def ask_for_tags(dialog) -> None:
        assert dialog.matches.topLevelItemCount() == 0  # entries of one file stay apart
        box = dialog.keywords_as_tags
        assert "3 keywords on 2 records" in box.text()
        box.setChecked(True)

    _import(win, qtbot, monkeypatch, second, ask_for_tags)
    assert win.library.papers.count() == 2
    names = sorted(t.name for t in win.library.tags.all())
    assert names == ["keywords/linguistics", "keywords/memory", "keywords/ranking"]


def test_preview_renders_to_a_png(make_window, library_dir: Path, tmp_path: Path, qtbot) -> None:
    first, second = _files(tmp_path)
    win = make_window(library_dir)
    win.library.imports.from_files([first])
    report, parsed = win.library.imports.preview([second])
    dialog = import_export.ImportPreview(report, parsed, win)
    qtbot.addWidget(dialog)
    dialog.show()
    out = tmp_path / "preview.png"
    assert dialog.grab().save(str(out)) and out.stat().st_size > 5000
    # untrusted markup in a title is text, not HTML
    assert dialog.matches.topLevelItem(0).text(1).startswith("Learning")


def _report(added: int, duplicates: int) -> ImportReport:
    matches = [
        MatchNote(index=n, line=n + 1, title=f"Record {n}", paper_id=1, reason="doi", paper_title="A paper")
        for n in range(duplicates)
    ]
    return ImportReport(files=[FileReport("a.bib", "bibtex", added=added, duplicates=duplicates, matches=matches)])


def _on_dialog(widget, dialog) -> QRect:
    return QRect(widget.mapTo(dialog, QPoint(0, 0)), widget.size())


@pytest.mark.parametrize("duplicates", [0, 2])
def test_no_radio_button_is_painted_over_the_summary(qtbot, duplicates: int) -> None:
    dialog = ImportPreview(_report(3, duplicates))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    head = dialog.findChild(QLabel, "importHeadline")
    shown = [b for b in dialog.findChildren(QRadioButton) if b.isVisible()]
    assert len(shown) == (2 if duplicates else 0)  # offered only when there are duplicates
    for button in shown:
        assert not _on_dialog(button, dialog).intersects(_on_dialog(head, dialog)), button.text()
    # nothing at all is drawn over the headline: no visible widget but the label covers its centre
    centre = _on_dialog(head, dialog).center()
    assert dialog.childAt(centre) is head


@pytest.mark.parametrize(("added", "expected"), [(0, "0 new papers"), (1, "1 new paper,"), (2, "2 new papers")])
def test_the_headline_says_paper_or_papers(qtbot, added: int, expected: str) -> None:
    dialog = ImportPreview(_report(added, 0))
    qtbot.addWidget(dialog)
    assert dialog.findChild(QLabel, "importHeadline").text().startswith(expected)


def test_plural(qtbot) -> None:
    dialog = ImportPreview(_report(1, 0))
    qtbot.addWidget(dialog)
    assert [dialog.tr("%n keyword(s)", "", n) for n in (0, 1, 2)] == ["0 keywords", "1 keyword", "2 keywords"]
    assert dialog.tr("%n record(s)", "", 1) == "1 record"
