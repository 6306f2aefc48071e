"""Triage with decisions and the learned order, driven with real keys on the real view."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication

from desktop_app.gui import preferences


def _triage(make_window, folder: Path, qtbot):
    win = make_window(folder)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=3000)
    win.findChild(QAction, "triageAction").trigger()
    view = win.triage.view
    assert view is not None
    qtbot.waitUntil(view.hasFocus, timeout=3000)
    qtbot.waitUntil(lambda: view.ranker.runs >= 1 and not view.ranker.busy(), timeout=20000)
    return win, view


def test_decision_keys_learned_order_and_undo(make_window, seeded_dir: Path, qtbot) -> None:
    win, view = _triage(make_window, seeded_dir, qtbot)
    lib = win.library
    listed = list(win.model.ids)
    assert view.ids == listed  # nothing learned yet: the list's own order
    assert "one keep and one skip" in view.queue_line.text()
    keys = view.decision_keys()
    assert keys == {"keep": "y", "maybe": "m", "skip": "x"}
    assert "Keep (y)" in view.decision.buttons["keep"].text()
    geometry = view.decision.mapTo(view, view.decision.rect().topLeft())

    rlvr = lib.query("RLVR").ids
    view.go_to(rlvr[0])
    qtbot.keyClick(view, Qt.Key.Key_Y)  # keep, and on to the next paper at once
    assert lib.papers.get(rlvr[0]).decision == "keep"
    assert lib.papers.get(rlvr[0]).status == "unread"  # a decision is not a status
    assert view.current_id() != rlvr[0]
    assert "Keep" in view.flash.text()
    skipped = view.current_id()
    qtbot.keyClick(view, Qt.Key.Key_X)
    assert lib.papers.get(skipped).decision == "skip"
    # the re-rank runs in the background; the papers after the one on screen take its order
    qtbot.waitUntil(lambda: view.ranker.runs >= 3 and not view.ranker.busy(), timeout=20000)
    qtbot.waitUntil(lambda: "decided" in view.queue_line.text(), timeout=5000)
    assert view.queue_line.text().startswith("2 of 76 decided")
    rest = view.ids[view.pos + 1 :]
    if rlvr[1] not in view.ids[: view.pos + 1]:
        assert rest.index(rlvr[1]) < 10, (rest.index(rlvr[1]), rest[:10])
    assert sorted(view.ids) == sorted(listed)  # reordered, nothing hidden
    # the buttons stay where they were, whatever paper is shown
    assert view.decision.mapTo(view, view.decision.rect().topLeft()) == geometry

    # undo brings the decision back
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert lib.papers.get(skipped).decision is None
    assert view.current_id() == skipped

    # o: back to the list's order (and remembered)
    qtbot.keyClick(view, Qt.Key.Key_O)
    assert not view.learned.isChecked()
    assert preferences.get_bool(win.settings, preferences.TRIAGE_LEARNED_ORDER) is False


def test_decision_column_reader_and_sidebar(make_window, seeded_dir: Path, qtbot) -> None:
    from desktop_app.gui.paper_model import COL_DECISION

    win = make_window(seeded_dir)
    win.show()
    qtbot.waitExposed(win)
    lib = win.library
    pid = win.model.ids[0]
    win.select_paper(pid)
    win.reader.decision.buttons["maybe"].click()
    assert lib.papers.get(pid).decision == "maybe"
    qtbot.waitUntil(lambda: win.model.data(win.model.index(0, COL_DECISION)) == "Maybe", timeout=3000)
    win.reader.decision.buttons["maybe"].click()  # again: cleared
    assert lib.papers.get(pid).decision is None
    win.undo_stack.undo()
    assert lib.papers.get(pid).decision == "maybe"
    win.sidebar.filterChosen.emit("decision", "maybe")
    qtbot.waitUntil(lambda: list(win.model.ids) == [pid], timeout=5000)
    assert win.search.box.text() == "decision:maybe"


def _colour_share(image, color) -> float:
    from PySide6.QtGui import QColor

    want = QColor(color)
    hits = total = 0
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            c = image.pixelColor(x, y)
            total += 1
            if abs(c.red() - want.red()) + abs(c.green() - want.green()) + abs(c.blue() - want.blue()) <= 6:
                hits += 1
    return hits / max(total, 1)


import pytest  # noqa: E402


@pytest.fixture
def _theme_back():
    yield
    from desktop_app.gui import theme

    m = theme.manager()
    m.override = None
    m.set_choice("system")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_word_lists_are_drawn_in_both_themes(
    make_window, seeded_dir: Path, settings, qtbot, _theme_back, scheme: str
) -> None:
    from desktop_app.gui import theme, word_marks

    preferences.put(settings, preferences.THEME, scheme)
    win, view = _triage(make_window, seeded_dir, qtbot)
    win.resize(1400, 900)
    races = win.library.query('"Recursive Automated Composition"').ids[0]
    view.go_to(races)
    qtbot.wait(50)
    colors = theme.colors()
    assert colors.dark is (scheme == "dark")
    before = view.abstract.viewport().grab().toImage()
    assert _colour_share(before, colors.include_word) == 0 and _colour_share(before, colors.exclude_word) == 0
    key = win.window_settings.key
    settings.setValue(key(word_marks.INCLUDE_KEY), "reinforcement, verifiable")
    view.add_word("benchmarks", include=False)  # the abstract's menu path
    assert view.word_lists() == (["reinforcement", "verifiable"], ["benchmarks"])
    assert view.marked["include"] >= 3 and view.marked["exclude"] >= 1
    qtbot.wait(50)
    after = view.abstract.viewport().grab().toImage()
    assert _colour_share(after, colors.include_word) > 0.002
    assert _colour_share(after, colors.exclude_word) > 0.0003
    # the text on the marks stays readable
    assert theme.contrast_ratio(theme.readable(colors.text, colors.include_word), colors.include_word) >= 4.5
    # the contribution sentence is bold; e turns that off
    emphasised = sum(f.fontWeight() >= 700 for f in _formats(view))
    qtbot.keyClick(view, Qt.Key.Key_E)
    plain = sum(f.fontWeight() >= 700 for f in _formats(view))  # the abstract's own \textbf letters
    assert plain <= 10 and emphasised >= plain + 60, (plain, emphasised)  # "This paper introduces …"


def _formats(view):
    from PySide6.QtGui import QTextCursor

    out = []
    doc = view.abstract.document()
    cursor = QTextCursor(doc)
    while not cursor.atEnd():
        cursor.movePosition(QTextCursor.MoveOperation.NextCharacter)
        if cursor.block().text().strip():
            out.append(cursor.charFormat())
    return out


def test_remapped_keys_and_near_duplicate_offer(
    make_window, library_dir: Path, tmp_path: Path, settings, qtbot
) -> None:
    import csv

    from desktop_app.core.library import Library

    text = (
        "We introduce a benchmark of verifiable reasoning tasks for language models and show that "
        "reinforcement learning with verifiable rewards improves accuracy on all of them."
    )
    src = tmp_path / "versions.csv"
    with src.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["title", "abstract"])
        w.writerow(["Verifiable reasoning", text])
        w.writerow(["Graph spectra", "Eigenvalues of random graphs concentrate around the semicircle law."])
        w.writerow(["Verifiable reasoning, workshop version", text.replace("all of them", "most of them")])
    with Library.open(library_dir) as lib:
        lib.imports.from_files([src], duplicates="skip")
    preferences.put(settings, preferences.TRIAGE_DECISION_KEYS, ["a", "b", "c"])
    win, view = _triage(make_window, library_dir, qtbot)
    assert view.decision_keys() == {"keep": "a", "maybe": "b", "skip": "c"}
    assert "Keep (a)" in view.decision.buttons["keep"].text()
    first = view.current_id()
    qtbot.keyClick(view, Qt.Key.Key_A)
    assert win.library.papers.get(first).decision == "keep"
    qtbot.waitUntil(lambda: view.offer.isVisible(), timeout=20000)
    assert "1 near-duplicate" in view.offer.text()
    qtbot.keyClick(view, Qt.Key.Key_D)  # the same decision for the other version, one undo step
    ids = sorted(win.library.query("").ids)
    assert win.library.papers.get(ids[2]).decision == "keep"
    assert win.library.papers.get(ids[1]).decision is None  # never the unrelated paper
    win.undo_stack.undo()
    assert win.library.papers.get(ids[2]).decision is None
    assert win.library.papers.get(first).decision == "keep"


def test_the_table_sorts_by_likely_keep(make_window, seeded_dir: Path, qtbot) -> None:
    from desktop_app.gui.paper_model import COL_LIKELY

    win = make_window(seeded_dir)
    win.show()
    qtbot.waitExposed(win)
    lib = win.library
    listed = list(win.model.ids)
    rlvr = lib.query("RLVR").ids
    other = next(pid for pid in lib.query("benchmark").ids if pid not in rlvr)
    win.edits.set_decision("keep", [rlvr[0]])
    win.edits.set_decision("skip", [other])
    assert win.table.isColumnHidden(COL_LIKELY)  # shown from the header's menu
    win.on_sort_changed(COL_LIKELY, Qt.SortOrder.AscendingOrder)
    qtbot.waitUntil(lambda: win.likely_sort.learned and list(win.model.ids) != listed, timeout=20000)
    ids = list(win.model.ids)
    assert sorted(ids) == sorted(listed)  # reordered, nothing hidden
    assert set(ids[-2:]) == {rlvr[0], other}  # the decided papers after the undecided
    assert ids.index(rlvr[1]) < 10
    first = win.model.data(win.model.index(0, COL_LIKELY))
    assert first.endswith("%") and int(first[:-1]) >= 90
    assert win.model.data(win.model.index(len(ids) - 1, COL_LIKELY)) == ""  # decided: no score
    win.on_sort_changed(COL_LIKELY, Qt.SortOrder.DescendingOrder)  # least likely first
    qtbot.waitUntil(lambda: list(win.model.ids)[0] != ids[0], timeout=5000)
