"""The reader underlines exactly what the search matched; the user's highlights keep their fills."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette, QTextDocument

from desktop_app.core.library import Library
from desktop_app.core.search.hit_spans import hit_spans
from desktop_app.core.text import to_plain
from tests.helpers.library import find_paper

PHRASE = '"in-context learning"'


def _runs(doc: QTextDocument, test) -> list[tuple[int, int]]:
    """Merged character ranges of the document whose format passes ``test``."""
    out: list[tuple[int, int]] = []
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            if test(frag.charFormat()):
                a, b = frag.position(), frag.position() + frag.length()
                if out and out[-1][1] == a:
                    out[-1] = (out[-1][0], b)
                else:
                    out.append((a, b))
            it += 1
        block = block.next()
    return out


def _search(win, qtbot, text: str) -> None:
    win.search.box.setFocus()
    win.search.box.selectAll()
    qtbot.keyClicks(win.search.box, text)
    qtbot.waitUntil(lambda: win.state.query == text and not win.follow_pending(), timeout=5000)


def test_the_abstract_is_underlined_exactly_on_the_hits(make_window, seeded_dir: Path, qtbot) -> None:
    with Library.open(seeded_dir) as lib:
        pid = find_paper(lib, "In-context learning plays a central role")
        plain = to_plain(lib.papers.get(pid).abstract)
        quote_at = plain.index("stable rank")
        lib.highlights.add(pid, quote_at, quote_at + len("stable rank"), "green")
    win = make_window(seeded_dir)
    _search(win, qtbot, PHRASE)
    win.select_row(win.model.row_of(pid))
    qtbot.waitUntil(lambda: win.reader.paper is not None and win.reader.paper.id == pid, timeout=3000)
    doc = win.reader.abstract.document()
    assert doc.toPlainText() == plain
    underlined = _runs(doc, lambda f: f.fontUnderline())
    expected = hit_spans(PHRASE, plain)
    assert underlined == expected
    assert [plain[a:b] for a, b in underlined] == ["In-context learning"]  # not "in", "In this", …
    accent = win.reader.abstract.palette().color(QPalette.ColorRole.Highlight)
    assert all(doc.findBlock(a).isValid() for a, _ in underlined)
    cursor_fmt = _runs(doc, lambda f: f.fontUnderline() and f.underlineColor() == accent)
    assert cursor_fmt == expected
    # hits have no fill; the user's highlight keeps its fill and is not underlined
    filled = _runs(doc, lambda f: f.background().style() != Qt.BrushStyle.NoBrush)
    assert [plain[a:b] for a, b in filled] == ["stable rank"]

    # a stemmed word: "learn" marks "learning" and "learn" (and "meta-learning"), nothing else
    _search(win, qtbot, "learn")
    win.select_row(win.model.row_of(pid))
    qtbot.waitUntil(lambda: win.reader.paper is not None and win.reader.paper.id == pid, timeout=3000)
    words = [plain[a:b].lower() for a, b in _runs(win.reader.abstract.document(), lambda f: f.fontUnderline())]
    assert words and set(words) <= {"learning", "learn"}
    assert words == [plain[a:b].lower() for a, b in hit_spans("learn", plain)]

    # clearing the search clears the underlines
    qtbot.keyClick(win.search.box, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: win.model.rowCount() == 76 and not win.follow_pending(), timeout=5000)
    win.select_row(win.model.row_of(pid))
    qtbot.waitUntil(lambda: win.reader.paper is not None and win.reader.paper.id == pid, timeout=3000)
    assert _runs(win.reader.abstract.document(), lambda f: f.fontUnderline()) == []


def test_a_not_term_is_not_underlined(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    _search(win, qtbot, "transformer NOT reinforcement")
    assert win.model.rowCount() > 0
    win.select_row(0)
    qtbot.waitUntil(lambda: win.reader.paper is not None and not win.follow_pending(), timeout=3000)
    plain = win.reader.abstract.document().toPlainText()
    words = {plain[a:b].lower() for a, b in _runs(win.reader.abstract.document(), lambda f: f.fontUnderline())}
    assert words and words <= {"transformer", "transformers"}
