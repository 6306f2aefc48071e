"""Keyboard shortcuts: each key registered once, and every key Help → Keyboard shortcuts lists
does what the list says when pressed where it applies."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtGui import QDesktopServices, QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication, QDialog, QInputDialog, QWidget

from desktop_app.gui.key_bindings import collisions, registrations, unique_keys
from desktop_app.gui.shortcuts_help import NATIVE_KEYS, SHORTCUTS, listed_keys
from tests.helpers.keyboard import press_sequence


def answer_next_modal(
    seen: list[tuple[str, str]], answer: Callable[[QWidget], None] | None = None, tries: int = 250
) -> None:
    """When the next modal dialog shows (a blocking ``exec`` runs its own event loop), note it and
    answer it (reject by default), so that the widget under test runs for real. ``seen`` gets
    (class name, window title): a static dialog is deleted once answered."""

    def poll(left: int = tries) -> None:
        w = QApplication.activeModalWidget()
        if w is None:
            if left:
                QTimer.singleShot(20, lambda: poll(left - 1))
            return
        seen.append((type(w).__name__, w.windowTitle()))
        if answer is not None:
            answer(w)
        elif isinstance(w, QDialog):
            w.reject()
        else:
            w.close()

    QTimer.singleShot(0, poll)


def test_unique_keys_drops_repeats_and_empties(qapp) -> None:
    keys = unique_keys("Ctrl+Shift+Z", QKeySequence.StandardKey.Redo, "Ctrl+Shift+Z")
    texts = [k.toString(QKeySequence.SequenceFormat.PortableText) for k in keys]
    assert texts.count("Ctrl+Shift+Z") == 1
    assert "" not in texts


def test_no_two_active_shortcuts_share_a_key(make_window, seeded_dir: Path) -> None:
    win = make_window(seeded_dir)
    regs = registrations(win)
    keys = {r.key for r in regs}
    # the collector sees menus, the undo stack's actions and the child widgets' QShortcuts
    assert {"Ctrl+Z", "Ctrl+Shift+Z", "Ctrl+F", "F1", "J", "Shift+1", "Ctrl+Shift+P"} <= keys
    assert any(isinstance(r.owner, QShortcut) and r.widget is win.table for r in regs)
    assert collisions(win) == [], [(a.key, a.owner, b.owner) for a, b in collisions(win)]


def test_redo_has_every_platform_binding_once(make_window, seeded_dir: Path) -> None:
    """Which Redo key comes first is the platform theme's: KDE and GNOME put Ctrl+Shift+Z first,
    so [Ctrl+Shift+Z, StandardKey.Redo] named it twice there (the offscreen test platform puts
    Ctrl+Y first and hid the bug). The action holds every binding, each once, and Ctrl+Shift+Z."""
    win = make_window(seeded_dir)
    keys = [k.toString(QKeySequence.SequenceFormat.PortableText) for k in win.redo_action.shortcuts()]
    platform = [
        k.toString(QKeySequence.SequenceFormat.PortableText)
        for k in QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
    ]
    assert len(keys) == len(set(keys))
    assert set(platform) | {"Ctrl+Shift+Z"} == set(keys)


def test_the_collision_check_finds_a_repeated_key(make_window, seeded_dir: Path) -> None:
    """The check above can fail: the redo action as it used to be (Ctrl+Shift+Z twice on Linux),
    and a window-wide action against a table shortcut."""
    win = make_window(seeded_dir)
    win.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Shift+Z")])
    assert [(a.key, b.key) for a, b in collisions(win)] == [("Ctrl+Shift+Z", "Ctrl+Shift+Z")]
    win.redo_action.setShortcuts(unique_keys("Ctrl+Shift+Z"))
    win.undo_action.setShortcuts([QKeySequence("J")])
    assert {a.key for a, _ in collisions(win)} == {"J"}


def test_every_listed_key_is_registered(make_window, seeded_dir: Path) -> None:
    win = make_window(seeded_dir)
    registered = {r.key for r in registrations(win)}
    listed = [k for shown, _ in SHORTCUTS for k in listed_keys(shown)]
    assert len(listed) > 30
    missing = [k for k in listed if k not in registered and k not in NATIVE_KEYS]
    assert missing == []


def test_pressing_every_listed_shortcut_does_what_it_says(make_window, seeded_dir: Path, qtbot, monkeypatch) -> None:
    win = make_window(seeded_dir)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=3000)
    lib, table, reader = win.library, win.table, win.reader
    tested: set[str] = set()

    def on_table(row: int = 0) -> None:
        win.activateWindow()  # back from a dialog
        qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=3000)
        if win.current_id() is None or table.currentIndex().row() != row:
            win.select_row(row)
        table.setFocus()
        qtbot.waitUntil(lambda: not win.follow_pending(), timeout=3000)
        assert QApplication.focusWidget() is table

    def current():
        return lib.papers.get(win.current_id())

    # navigation
    on_table(3)
    for key, row in (("Down", 4), ("J", 5), ("K", 4), ("Up", 3)):
        press_sequence(qtbot, table, key)
        assert table.currentIndex().row() == row, key
        tested.add(key)
    press_sequence(qtbot, table, "End")
    assert table.currentIndex().row() == win.model.rowCount() - 1
    press_sequence(qtbot, table, "Home")
    assert table.currentIndex().row() == 0
    tested |= {"Home", "End"}
    on_table(3)
    came_from = win.current_id()
    win.similar.choose(win.model.paper_id(9))  # a related paper followed
    assert table.currentIndex().row() == 9
    press_sequence(qtbot, table, "Alt+Left")
    assert win.current_id() == came_from
    tested.add("Alt+Left")
    on_table(3)
    press_sequence(qtbot, table, "Tab")
    assert QApplication.focusWidget() is reader.title_edit
    press_sequence(qtbot, reader.title_edit, "Shift+Tab")
    assert QApplication.focusWidget() is table
    press_sequence(qtbot, table, "Shift+Tab")
    assert QApplication.focusWidget() is win.search.box
    tested |= {"Tab", "Shift+Tab"}
    on_table(3)
    for key in ("Return", "Space"):
        on_table(3)
        press_sequence(qtbot, table, key)
        assert QApplication.focusWidget() is reader.abstract, key
        tested.add(key)
    on_table()
    press_sequence(qtbot, table, "T")
    assert QApplication.focusWidget() is reader.tags.line
    on_table()
    press_sequence(qtbot, table, "N")
    assert QApplication.focusWidget() is reader.notes.edit
    tested |= {"T", "N"}
    press_sequence(qtbot, reader.notes.edit, "Ctrl+Shift+P")
    assert reader.notes.stack.currentWidget() is reader.notes.preview
    press_sequence(qtbot, reader.notes.preview, "Ctrl+Shift+P")
    assert reader.notes.stack.currentWidget() is reader.notes.edit
    tested.add("Ctrl+Shift+P")

    # rating and status, from the table and from the abstract
    for n in range(6):
        on_table(2)
        press_sequence(qtbot, table, str(n))
        assert current().rating == n, n
        tested.add(str(n))
    for key, status in (("S", "skimmed"), ("R", "read"), ("U", "unread")):
        on_table(2)
        press_sequence(qtbot, table, key)
        assert current().status == status, key
        reader.abstract.setFocus()
        press_sequence(qtbot, reader.abstract, "R" if key != "R" else "S")
        assert current().status == ("read" if key != "R" else "skimmed")
        tested.add(key)

    # undo / redo by keyboard, from the table
    on_table(2)
    press_sequence(qtbot, table, "R")
    press_sequence(qtbot, table, "S")
    assert current().status == "skimmed"
    press_sequence(qtbot, table, "Ctrl+Z")
    assert current().status == "read"
    press_sequence(qtbot, table, "Ctrl+Shift+Z")
    assert current().status == "skimmed"
    tested |= {"Ctrl+Z", "Ctrl+Shift+Z"}

    # highlights from the abstract's selection
    on_table(1)
    pid = win.current_id()
    for n, key in enumerate(["H", "Shift+1", "Shift+2", "Shift+3", "Shift+4", "Shift+5"]):
        cur = reader.abstract.textCursor()
        cur.setPosition(n * 3)
        cur.setPosition(n * 3 + 2, cur.MoveMode.KeepAnchor)
        reader.abstract.setTextCursor(cur)
        reader.abstract.setFocus()
        press_sequence(qtbot, reader.abstract, key)
        if key == "H":  # h waits for the colour's digit (gui/highlight_keys.py)
            press_sequence(qtbot, reader.abstract, "1")
        colors = [h.color for h in lib.papers.get(pid).highlights]
        assert len(colors) == n + 1, key
        tested.add(key)
    assert colors[1:] == ["yellow", "green", "blue", "pink", "purple"]

    # search: Ctrl+F focuses it; Esc clears it
    on_table()
    press_sequence(qtbot, table, "Ctrl+F")
    assert QApplication.focusWidget() is win.search.box
    qtbot.keyClicks(win.search.box, "learning")
    qtbot.waitUntil(lambda: win.model.rowCount() < 76, timeout=3000)
    press_sequence(qtbot, win.search.box, "Escape")
    assert win.search.box.text() == ""
    qtbot.waitUntil(lambda: win.model.rowCount() == 76, timeout=3000)
    tested |= {"Ctrl+F", "Esc"}

    # views
    on_table()
    press_sequence(qtbot, table, "Ctrl+2")
    assert win.state.status == "unread"
    press_sequence(qtbot, table, "Ctrl+1")
    assert win.state.status is None and win.model.rowCount() == 76
    tested |= {"Ctrl+1", "Ctrl+2"}

    # dialogs: each opens (and is answered by the user, here a timer)
    seen: list[tuple[str, str]] = []
    on_table(0)
    gone = win.current_id()
    press_sequence(qtbot, table, "Delete")  # to the trash, without a question
    assert gone not in lib.query("").ids and lib.trash.ids() == [gone]
    on_table(0)
    press_sequence(qtbot, table, "Ctrl+Z")
    assert gone in lib.query("").ids
    on_table(0)
    gone = win.current_id()
    press_sequence(qtbot, table, "Delete")
    press_sequence(qtbot, table, "Ctrl+3")
    assert win.state.trash and win.model.ids == [gone]
    on_table(0)
    press_sequence(qtbot, table, "Ctrl+Shift+R")
    assert lib.trash.count() == 0 and gone in lib.query("").ids
    press_sequence(qtbot, table, "Ctrl+1")
    assert not win.state.trash and win.model.rowCount() == 76
    tested |= {"Del", "Ctrl+3", "Ctrl+Shift+R"}

    def name_it(text: str) -> Callable[[QWidget], None]:
        def answer(w: QWidget) -> None:
            assert isinstance(w, QInputDialog)
            w.setTextValue(text)
            w.accept()

        return answer

    on_table(0)
    answer_next_modal(seen, name_it("To read"))
    press_sequence(qtbot, table, "Ctrl+Shift+L")
    assert "To read" in [i.name for i in lib.lists.all()]
    tested.add("Ctrl+Shift+L")

    on_table(0)
    answer_next_modal(seen)
    press_sequence(qtbot, table, "Ctrl+L")
    assert seen[-1] == ("QInputDialog", "Add to reading list")
    tested.add("Ctrl+L")

    lib.lists.add("To read", [win.model.paper_id(0), win.model.paper_id(1)])
    win.on_sidebar_filter("list", "To read")
    first, second = (p for p, _, _ in lib.lists.items("To read"))
    on_table(1)
    press_sequence(qtbot, table, "Alt+Up")
    assert [p for p, _, _ in lib.lists.items("To read")] == [second, first]
    win.select_paper(second)
    table.setFocus()
    press_sequence(qtbot, table, "Alt+Down")
    assert [p for p, _, _ in lib.lists.items("To read")] == [first, second]
    tested |= {"Alt+Up", "Alt+Down"}
    win.on_sidebar_filter("all", "")

    win.search.set_text("transformer")
    answer_next_modal(seen, name_it("Transformers"))
    on_table(0)
    press_sequence(qtbot, table, "Ctrl+Shift+S")
    assert dict(lib.searches.all()).get("Transformers") == "transformer"
    win.search.set_text("")
    tested.add("Ctrl+Shift+S")

    for key, title in (("Ctrl+O", "Import files"), ("Ctrl+E", "Export"), ("Ctrl+P", None)):
        on_table(0)
        before = len(seen)
        answer_next_modal(seen)
        press_sequence(qtbot, table, key)
        assert len(seen) == before + 1, key
        if title:
            assert seen[-1][1] == title, key
        tested.add(key)

    on_table(0)
    press_sequence(qtbot, table, "F1")
    dlg = win.findChild(QDialog, "shortcutsDialog")
    assert dlg is not None and dlg.isVisible()
    dlg.reject()
    tested.add("F1")

    # the editors open as window-modal dialogs
    for key, title in (("Ctrl+I", "Edit metadata"), ("Ctrl+,", "Settings")):
        on_table(0)
        before = len(seen)
        answer_next_modal(seen)
        press_sequence(qtbot, table, key)
        qtbot.waitUntil(lambda before=before: len(seen) > before, timeout=5000)
        assert seen[-1][1] == title, key
        tested.add(key)

    # Ctrl+Shift+C: the selected paper's reference on the clipboard, in the citation style
    on_table(0)
    QApplication.clipboard().setText("before")
    press_sequence(qtbot, table, "Ctrl+Shift+C")
    qtbot.waitUntil(lambda: QApplication.clipboard().text() not in ("", "before"), timeout=10000)
    assert win.library.papers.get(win.current_id()).title.split()[0] in QApplication.clipboard().text()
    tested.add("Ctrl+Shift+C")

    # Ctrl+Enter: the paper's arXiv page asked of the desktop (no browser here: the request is kept)
    opened: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toString()) or True)
    on_table(0)
    lib.papers.update_metadata(win.current_id(), {"arxiv_id": "2401.01234"})
    press_sequence(qtbot, table, "Ctrl+Return")
    assert opened == ["https://arxiv.org/abs/2401.01234"]
    tested.add("Ctrl+Return")

    # Alt+Shift+1…5: the reader's tag suggestions (tags its nearest neighbours share)
    on_table(0)
    pid = win.current_id()
    win.edits.add_tags([p for p, _ in lib.insights.related(pid, 3)], [f"topic-{n}" for n in range(1, 6)])
    chips = win.similar.chips
    for n in range(1, 6):
        qtbot.waitUntil(lambda: pid in win.similar._cache and len(chips.chips) >= 5, timeout=20000)
        name = chips.chips[n - 1].text()[2:].split()[0]  # "+ topic-3  Alt+Shift+2"
        on_table(0)
        press_sequence(qtbot, table, f"Alt+Shift+{n}")
        assert name in lib.papers.get(pid).tags, n
        win.undo_action.trigger()
        assert name not in lib.papers.get(pid).tags, n
        tested.add(f"Alt+Shift+{n}")

    # Ctrl+Shift+T: triage in, and out again
    on_table(0)
    press_sequence(qtbot, table, "Ctrl+Shift+T")
    assert win.triage.view is not None and win.triage.view.active and win.stack.currentWidget() is win.triage.view
    press_sequence(qtbot, QApplication.focusWidget() or win, "Ctrl+Shift+T")  # from inside triage
    assert not win.triage.view.active and win.stack.currentWidget() is win.splitter
    tested.add("Ctrl+Shift+T")

    listed = {k for shown, _ in SHORTCUTS for k in listed_keys(shown)}
    assert listed - tested == set(), "a listed shortcut has no check here"
