"""The tag completer: choosing a suggestion adds that tag and leaves the box empty."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from desktop_app.gui.tag_editor import TagEditor


def _editor(qtbot) -> tuple[TagEditor, list[list[str]]]:
    ed = TagEditor()
    qtbot.addWidget(ed)
    ed.set_known_tags(["reinforcement-learning", "retrieval", "vision"], {})
    added: list[list[str]] = []
    ed.tagsAdded.connect(added.append)
    ed.show()
    qtbot.waitExposed(ed)
    ed.activateWindow()
    ed.line.setFocus()
    return ed, added


def test_choosing_a_suggestion_by_keyboard_adds_it_and_empties_the_box(qtbot) -> None:
    ed, added = _editor(qtbot)
    qtbot.keyClicks(ed.line, "reinf")
    popup = ed.line.completer().popup()
    qtbot.waitUntil(popup.isVisible, timeout=2000)
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: bool(added), timeout=2000)
    qtbot.wait(50)  # whatever the completer does after its signal has run by now
    assert ed.line.text() == ""
    assert added == [["reinforcement-learning"]]  # once, not again on the Return key


def test_choosing_a_suggestion_by_mouse_adds_it_and_empties_the_box(qtbot) -> None:
    ed, added = _editor(qtbot)
    qtbot.keyClicks(ed.line, "vis")
    popup = ed.line.completer().popup()
    qtbot.waitUntil(popup.isVisible, timeout=2000)
    rect = popup.visualRect(popup.model().index(0, 0))
    qtbot.mouseClick(popup.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: added == [["vision"]], timeout=2000)
    qtbot.wait(50)
    assert ed.line.text() == ""
    assert QApplication.focusWidget() is ed.line  # ready for the next tag


def test_typing_a_new_tag_and_enter_still_adds_it(qtbot) -> None:
    ed, added = _editor(qtbot)
    qtbot.keyClicks(ed.line, "brand-new")
    ed.line.completer().popup().hide()
    qtbot.keyClick(ed.line, Qt.Key.Key_Return)
    assert added == [["brand-new"]]
    assert ed.line.text() == ""
