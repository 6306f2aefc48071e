"""View → Topics on a real window: the topics of the shown list, a topic's undecided papers
decided at once (the count asked first, one undo step), saved as a tag, selected in the table."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog, QMessageBox


def test_topics_decide_tag_and_select(make_window, seeded_dir: Path, qtbot, monkeypatch) -> None:
    from desktop_app.gui.topics_view import TopicsDialog

    win = make_window(seeded_dir)
    win.show()
    qtbot.waitExposed(win)
    lib = win.library
    win.findChild(QAction, "topicsAction").trigger()
    dialog = win.findChild(TopicsDialog)
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.topics is not None and not dialog.busy(), timeout=60000)
    topics = dialog.topics.topics
    assert len(topics) >= 2 and dialog.tree.topLevelItemCount() == len(topics)
    assert sum(t.size for t in topics) == 76
    assert "topics in 76 papers" in dialog.summary.text()
    first = topics[0]
    assert dialog.tree.topLevelItem(0).text(0) == first.name and first.words

    # one paper of the topic decided before keeps its decision
    kept = first.ids[0]
    lib.triage.decide([kept], "keep")
    asked: list[str] = []

    def answer(_parent, _title, text, *args, **kwargs):
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", answer)
    dialog.tree.setCurrentItem(dialog.tree.topLevelItem(0))
    dialog.decide_buttons["skip"].click()
    assert asked and f"{first.size - 1} papers" in asked[0]
    assert lib.papers.get(kept).decision == "keep"
    assert all(lib.papers.get(pid).decision == "skip" for pid in first.ids[1:])
    others = {pid for t in topics[1:] for pid in t.ids}
    assert all(lib.papers.get(pid).decision is None for pid in others)
    win.undo_stack.undo()  # one step brings all of them back
    assert all(lib.papers.get(pid).decision is None for pid in first.ids[1:])
    assert lib.papers.get(kept).decision == "keep"

    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("rl things", True))
    dialog.save_as_tag()
    assert sorted(lib.query('tag:"topics/rl things"').ids) == sorted(first.ids)

    dialog.show_papers()
    assert sorted(win.table.selected_ids()) == sorted(first.ids)


def test_triage_walks_only_the_chosen_topics(make_window, seeded_dir: Path, qtbot) -> None:
    from desktop_app.gui.topics_view import TopicsDialog

    win = make_window(seeded_dir)
    win.show()
    qtbot.waitExposed(win)
    win.findChild(QAction, "topicsAction").trigger()
    dialog = win.findChild(TopicsDialog)
    qtbot.waitUntil(lambda: dialog.topics is not None and not dialog.busy(), timeout=60000)
    last = dialog.topics.topics[-1]
    item = dialog.tree.topLevelItem(len(dialog.topics.topics) - 1)
    dialog.tree.setCurrentItem(item)
    dialog.triage_button.click()
    view = win.triage.view
    assert view is not None and view.active and not dialog.isVisible()
    assert sorted(view.ids) == sorted(last.ids)  # only that topic's papers
    assert view.current_id() in last.ids


def _topics_of(win, qtbot):
    from desktop_app.gui.topics_view import TopicsDialog

    win.findChild(QAction, "topicsAction").trigger()
    dialog = win.findChild(TopicsDialog)
    qtbot.waitUntil(lambda: dialog.topics is not None and not dialog.busy(), timeout=60000)
    return dialog


def test_a_topic_name_given_is_kept_for_the_next_session_of_that_library(
    make_window, seeded_dir: Path, qtbot, seed_paths: list[Path], tmp_path: Path
) -> None:
    from desktop_app.core.library import Library

    win = make_window(seeded_dir)
    dialog = _topics_of(win, qtbot)
    found = dialog.topics.topics[0].name
    dialog.tree.topLevelItem(0).setText(0, "My  own name")  # as the in-place editor commits it
    assert dialog.topics.topics[0].name == "My own name"
    make_window.close(win)

    again = make_window(seeded_dir)  # a new window: the names come from the settings, not from memory
    from desktop_app.gui import topic_names

    assert again not in topic_names._READ
    dialog = _topics_of(again, qtbot)
    assert dialog.topics.names_given.get(dialog.topics.topics[0].number) == found
    assert dialog.topics.topics[0].name == "My own name"
    assert dialog.tree.topLevelItem(0).text(0) == "My own name"
    dialog.tree.topLevelItem(0).setText(0, found)  # the name found given back: the rename is gone
    make_window.close(again)

    other_dir = tmp_path / "other"  # the same papers in another library: its own names
    with Library.open(other_dir) as lib:
        assert lib.imports.from_files(seed_paths).added == 76
    win = make_window(seeded_dir)
    dialog = _topics_of(win, qtbot)
    dialog.tree.topLevelItem(0).setText(0, "Only here")
    make_window.close(win)
    other = make_window(other_dir)
    dialog = _topics_of(other, qtbot)
    assert dialog.topics.topics[0].name == found
    make_window.close(other)
    third = make_window(seeded_dir)
    assert _topics_of(third, qtbot).topics.topics[0].name == "Only here"
