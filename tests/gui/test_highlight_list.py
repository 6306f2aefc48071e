"""The reader's highlight list: every row as tall as its wrapped text, the whole comment shown,
no row clipped by the list."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication

from desktop_app.core.library import Library
from desktop_app.gui.highlight_list import MAX_HEIGHT, text_width

COMMENT = (
    "A long comment that has to wrap onto several lines in the highlight list, and whose last "
    "words must still be there: THE END"
)


def _rows_fit(lst) -> None:
    width = text_width(lst)
    fm = lst.fontMetrics()
    total = 0
    for i in range(lst.count()):
        item = lst.item(i)
        wrapped = fm.boundingRect(QRect(0, 0, width, 100_000), int(Qt.TextFlag.TextWordWrap), item.text())
        rect = lst.visualItemRect(item)
        assert rect.height() >= wrapped.height(), (item.text()[:30], rect.height(), wrapped.height())
        total += rect.height()
    if total < MAX_HEIGHT - 10:  # no scrolling needed: every row is inside the list
        last = lst.visualItemRect(lst.item(lst.count() - 1))
        assert last.bottom() <= lst.viewport().height(), (last, lst.viewport().height())


def test_rows_size_to_their_wrapped_text(make_window, seeded_dir: Path, qtbot) -> None:
    with Library.open(seeded_dir) as lib:
        pid = lib.query("").ids[0]
        words = lib.papers.get(pid).abstract_text.split()
        lib.highlights.add_quote(pid, " ".join(words[2:6]), "yellow", COMMENT)
        lib.highlights.add_quote(pid, " ".join(words[10:13]), "green", "second")
    win = make_window(seeded_dir)
    win.resize(1400, 900)
    assert win.select_paper(pid)
    qtbot.waitUntil(lambda: win.reader.paper is not None and win.reader.paper.id == pid, timeout=5000)
    QApplication.processEvents()
    lst = win.reader.hl_list
    assert lst.count() == 2 and lst.isVisible()
    assert lst.item(0).text().endswith("THE END")  # the whole comment, not cut
    first, second = (lst.visualItemRect(lst.item(i)) for i in range(2))
    assert first.height() > 1.8 * second.height()  # the long one wraps onto more lines
    _rows_fit(lst)
    # a wider reader wraps onto fewer lines: the rows and the list follow
    win.resize(2000, 900)
    QApplication.processEvents()
    sizes = win.splitter.sizes()
    win.splitter.setSizes([sizes[0], 600, sum(sizes) - sizes[0] - 600])
    qtbot.waitUntil(lambda: lst.visualItemRect(lst.item(0)).height() < first.height(), timeout=3000)
    _rows_fit(lst)
    rows = sum(lst.visualItemRect(lst.item(i)).height() for i in range(lst.count()))
    assert abs(lst.viewport().height() - rows) <= 4  # the list shrank with its rows: no empty band
