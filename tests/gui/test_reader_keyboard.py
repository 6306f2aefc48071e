"""The reader without the mouse: a highlight made with Shift+arrows, h
and a colour digit; related papers, links and tag suggestions reached by Tab, moved through with
the arrows and opened with Enter; Alt+← back from a related paper opened so. Keys go to the
window (Qt routes them to the focus widget); what the library saved is asserted."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel

from tests.helpers.keyboard import focus_name, press, type_keys

SHIFT, CTRL = Qt.KeyboardModifier.ShiftModifier, Qt.KeyboardModifier.ControlModifier


def _shown(make_window, folder: Path, qtbot):
    win = make_window(folder)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=3000)
    qtbot.waitUntil(lambda: win.start_stage.done and not win.model.partial, timeout=5000)
    qtbot.waitUntil(lambda: not win.follow_pending(), timeout=3000)
    return win


def _similar_done(win, qtbot) -> None:
    qtbot.waitUntil(lambda: win.current_id() in win.similar._cache and not win.follow_pending(), timeout=30000)


def _tab_to(win, qtbot, widget) -> None:
    """Tab from the table until ``widget`` (or a child of it) has the focus."""
    win.table.setFocus()
    for _ in range(20):
        w = QApplication.focusWidget()
        if w is widget or widget.isAncestorOf(w):
            return
        press(win, Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never reached {widget.objectName()}; at {focus_name(win)}")


# ---- item 5: a highlight by keyboard ---------------------------------------------------------
def test_a_highlight_by_shift_arrows_h_and_a_digit(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    reader, lib = win.reader, win.library
    pid = win.current_id()
    rating = lib.papers.get(pid).rating
    _tab_to(win, qtbot, reader.abstract)
    assert QApplication.focusWidget() is reader.abstract
    plain = lib.papers.get(pid).abstract_text
    press(win, Qt.Key.Key_Home, CTRL)
    for _ in range(2):  # the first two words, by the keyboard
        press(win, Qt.Key.Key_Right, CTRL | SHIFT)
    span = reader.selection_span()
    assert span is not None and span[0] == 0, span
    words = plain[: span[1]]
    assert len(words.split()) == 2, words
    type_keys(win, "h")
    assert reader.highlight_keys.pending
    assert "1 Yellow" in reader.hl_label.text() or "1 yellow" in reader.hl_label.text().lower()
    type_keys(win, "2")  # green; not the rating 2
    saved = lib.papers.get(pid)
    assert [(h.start, h.end, h.quote, h.color) for h in saved.highlights] == [(0, span[1], words, "green")]
    assert saved.rating == rating
    assert reader.hl_list.count() == 1 and reader.hl_label.text() == "Highlight:"
    assert not reader.highlight_keys.pending
    win.undo_stack.undo()  # the mouse path's undoable edit
    assert lib.papers.get(pid).highlights == []


def test_h_then_another_key_cancels_and_the_digits_rate_again(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    reader, lib = win.reader, win.library
    pid = win.current_id()
    _tab_to(win, qtbot, reader.abstract)
    press(win, Qt.Key.Key_Home, CTRL)
    press(win, Qt.Key.Key_Right, CTRL | SHIFT)
    type_keys(win, "h\x1b")  # Esc: no highlight
    assert lib.papers.get(pid).highlights == [] and not reader.highlight_keys.pending
    type_keys(win, "3")  # the abstract's rating key once more
    assert lib.papers.get(pid).rating == 3
    type_keys(win, "hh")  # h twice: the first colour
    assert [h.color for h in lib.papers.get(pid).highlights] == ["yellow"]
    # without a selection h says what to do and highlights nothing
    press(win, Qt.Key.Key_Home, CTRL)
    type_keys(win, "h")
    assert not reader.highlight_keys.pending and "Shift+arrows" in reader.hl_label.text()
    type_keys(win, "4")
    assert len(lib.papers.get(pid).highlights) == 1 and lib.papers.get(pid).rating == 4


def test_h_in_the_note_types_an_h(make_window, seeded_dir: Path, qtbot) -> None:
    """A text field keeps its letters: h and digits typed in the note are text."""
    win = _shown(make_window, seeded_dir, qtbot)
    reader, lib = win.reader, win.library
    pid = win.current_id()
    type_keys(win, "n")
    assert QApplication.focusWidget() is reader.notes.edit, focus_name(win)
    type_keys(win, "h2")
    assert reader.notes.edit.toPlainText().endswith("h2")
    assert lib.papers.get(pid).highlights == [] and lib.papers.get(pid).rating != 2


# ---- item 5: links, suggestions, related papers by Tab, arrows and Enter -----------------------
def test_links_are_a_tab_stop_with_arrows_and_enter(make_window, seeded_dir: Path, qtbot, monkeypatch) -> None:
    from desktop_app.core.library import Library
    from desktop_app.gui import paper_links

    with Library.open(seeded_dir) as lib:
        pid = lib.query("").ids[0]
        lib.papers.update_metadata(pid, {"doi": "10.1000/abc.123", "url": "https://example.org/p"})
    opened: list[str] = []
    monkeypatch.setattr(paper_links, "open_external", lambda url: opened.append(str(url)) or True)
    win = _shown(make_window, seeded_dir, qtbot)
    assert win.current_id() == pid
    links = win.reader.links
    assert [b.objectName() for b in links.buttons] == ["link_doi", "link_url"]
    press(win, Qt.Key.Key_Tab)  # table → title
    assert QApplication.focusWidget() is win.reader.title_edit, focus_name(win)
    press(win, Qt.Key.Key_Tab)  # title → the links
    assert QApplication.focusWidget() is links.buttons[0], focus_name(win)
    press(win, Qt.Key.Key_Right)
    assert QApplication.focusWidget() is links.buttons[1]
    press(win, Qt.Key.Key_Return)
    assert opened == ["https://example.org/p"]
    press(win, Qt.Key.Key_Left)
    press(win, Qt.Key.Key_Enter)
    assert opened[-1] == "https://doi.org/10.1000/abc.123"
    press(win, Qt.Key.Key_Tab)  # on to the status buttons
    assert QApplication.focusWidget().parent() is win.reader.status, focus_name(win)


def test_tag_suggestions_are_a_tab_stop_after_the_tag_field(make_window, seeded_dir: Path, qtbot) -> None:
    from desktop_app.core.library import Library

    with Library.open(seeded_dir) as lib:  # tags on the neighbours of the first paper: suggestions
        first = lib.query("").ids[0]
        near = [p for p, _ in lib.insights.related(first, 6)]
        lib.tags.add(near, ["agents"])
        lib.tags.add(near[:4], ["rl/environments"])
    win = _shown(make_window, seeded_dir, qtbot)
    _similar_done(win, qtbot)
    chips = win.similar.chips
    qtbot.waitUntil(lambda: chips.isVisible() and len(chips.chips) >= 2, timeout=10000)
    names = list(chips._names)
    _tab_to(win, qtbot, win.reader.tags)
    press(win, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is chips.chips[0], focus_name(win)
    press(win, Qt.Key.Key_Right)
    assert QApplication.focusWidget() is chips.chips[1]
    press(win, Qt.Key.Key_Return)
    assert names[1] in win.library.papers.get(first).tags
    w = QApplication.focusWidget()
    assert w is not None and (chips.isAncestorOf(w) or w is win.reader.tags.line), focus_name(win)
    win.undo_stack.undo()
    assert names[1] not in win.library.papers.get(first).tags


def test_related_papers_show_their_strength_and_open_by_keyboard(make_window, seeded_dir: Path, qtbot) -> None:
    win = _shown(make_window, seeded_dir, qtbot)
    start = win.current_id()
    _similar_done(win, qtbot)
    panel = win.similar.panel
    _, shown = win.library.insights.related_shown(start)
    assert [b.title for b in panel.buttons] == [win.library.papers.get(r.paper_id).title for r in shown]
    words = [w.text() for w in panel.findChildren(QLabel) if w.objectName().startswith("relatedStrength_")]
    assert words == [r.strength for r in shown] and set(words) <= {"strong", "related", "weak"}
    assert "similarity" in panel.buttons[0].toolTip() and words[0] in panel.buttons[0].accessibleName()
    _tab_to(win, qtbot, panel)
    assert QApplication.focusWidget() is panel.buttons[0], focus_name(win)
    press(win, Qt.Key.Key_Down)
    assert QApplication.focusWidget() is panel.buttons[1]
    press(win, Qt.Key.Key_Return)
    second = shown[1].paper_id
    assert win.current_id() == second
    _similar_done(win, qtbot)
    # the keys stay in the panel: the new paper's first related paper has them
    qtbot.waitUntil(lambda: bool(panel.buttons) and QApplication.focusWidget() is panel.buttons[0], timeout=5000)
    press(win, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)  # back to the paper we came from
    assert win.current_id() == start


def test_fewer_than_ten_related_when_the_rest_are_weak(make_window, seeded_dir: Path, qtbot) -> None:
    from desktop_app.core.insights.related import FLOOR, RELATIVE
    from desktop_app.core.library import Library

    with Library.open(seeded_dir) as lib:
        few = None
        for pid in lib.query("").ids:
            ranked, shown = lib.insights.related_shown(pid)
            if len(shown) < 10:
                few = pid
                break
    assert few is not None
    assert len(ranked) == 10 and ranked[len(shown)][1] < max(FLOOR, RELATIVE * ranked[0][1])
    win = _shown(make_window, seeded_dir, qtbot)
    win.select_paper(few)
    _similar_done(win, qtbot)
    assert len(win.similar.panel.buttons) == len(shown) < 10


# ---- item 8: a triage decision shows that it was taken ------------------------------------------
def test_a_triage_decision_flashes_on_a_highlighted_pill(make_window, seeded_dir: Path, qtbot) -> None:
    from PySide6.QtGui import QAction, QPalette

    win = _shown(make_window, seeded_dir, qtbot)
    win.findChild(QAction, "triageAction").trigger()
    view = win.triage.view
    qtbot.waitUntil(view.hasFocus, timeout=3000)
    highlight = QApplication.palette().color(QPalette.ColorRole.Highlight)

    def fill():
        image = view.flash.grab().toImage()
        return image.pixelColor(2, image.height() // 2)

    decided = view.current_id()
    type_keys(win, "y")  # keep, and on to the next paper
    assert win.library.papers.get(decided).decision == "keep"
    assert view.current_id() != decided
    assert view.flash.isVisible() and "Keep" in view.flash.text()
    qtbot.wait(20)
    assert fill() == highlight
    qtbot.waitUntil(lambda: view.flash.text() == "", timeout=3000)
    qtbot.wait(20)
    assert fill() != highlight
