"""Settings… (Preferences… on macOS), driven through the real dialog on a real window: the font
size reaches the table and the reader, Cancel changes nothing, preferences outlive the session,
switching library opens a new window and hands the folder lock over, a locked or foreign folder
is refused with a message, the import defaults reach the import, a broken .csl is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QLockFile, QObject, QSettings, Qt, QUrl, Slot
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QMessageBox

from desktop_app.core.library import Library
from desktop_app.gui import import_export, libraries
from desktop_app.gui import preferences as prefs
from desktop_app.gui.launch import close_window, current_window, serve_second_starts
from desktop_app.gui.settings_dialog import SettingsDialog, screenshot_view
from desktop_app.gui.single_instance import server_name

CORPUS = Path("/work/shared/corpus")
ARXIV = CORPUS / "arxiv-atom" / "arxiv.py__search_query_au_del_maestro.xml"  # 10 entries with categories
KEYWORDS_BIB = CORPUS / "bibtex" / "jabref__jabref-authors.bib"  # entries with keywords = {...}

GOOD_CSL = """<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><title>My Lab Style</title><id>http://example.org/my-lab</id></info>
  <citation><layout><text variable="title"/></layout></citation>
</style>
"""


def _button(dlg: SettingsDialog, which: QDialogButtonBox.StandardButton):
    return dlg.buttons.button(which)


@pytest.fixture
def user_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's data folder (platformdirs follows XDG_DATA_HOME): styles go there."""
    home = tmp_path / "xdg-data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home / "Marginalia"


def test_the_menu_opens_settings_with_ctrl_comma_as_the_preferences_role(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    action = win.findChild(QAction, "settingsAction")
    assert action.shortcut() == QKeySequence("Ctrl+,")
    assert action.menuRole() == QAction.MenuRole.PreferencesRole
    assert action in win.menuBar().actions()[1].menu().actions()  # Edit → Settings…
    action.trigger()
    dlg = win.findChild(SettingsDialog, "settingsDialog")
    assert dlg is not None and dlg.isVisible()
    assert [dlg.tabs.tabText(i) for i in range(dlg.tabs.count())] == [
        "Appearance",
        "Library",
        "Backups",
        "Import",
        "Citations",
        "Attachments",
    ]
    assert dlg.folder_label.text() == str(win.library.folder)
    dlg.reject()


def test_font_size_reaches_the_table_and_reader_cancel_changes_nothing_and_it_outlives_the_window(
    make_window, seeded_dir: Path, settings: QSettings, qtbot
) -> None:
    win = make_window(seeded_dir)
    qtbot.waitUntil(lambda: win.reader.paper is not None, timeout=5000)
    before = win.table.font().pointSize()
    dlg = SettingsDialog(win)
    qtbot.addWidget(dlg)
    assert dlg.font_size.text() == "System size"
    dlg.font_size.setValue(before + 7)
    dlg.theme.setCurrentIndex(dlg.theme.findData("dark"))
    qtbot.mouseClick(_button(dlg, QDialogButtonBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    assert win.table.font().pointSize() == before
    assert prefs.get_int(settings, prefs.FONT_SIZE) == 0 and prefs.theme(settings) == "system"

    dlg = SettingsDialog(win)
    qtbot.addWidget(dlg)
    dlg.font_size.setValue(before + 7)
    qtbot.mouseClick(_button(dlg, QDialogButtonBox.StandardButton.Apply), Qt.MouseButton.LeftButton)
    assert win.table.font().pointSize() == before + 7  # live, the dialog still open
    assert win.reader.font().pointSize() == before + 7
    assert win.table.verticalHeader().defaultSectionSize() > 26
    assert f"font-size: {before + 7}pt" in win.reader.abstract.document().defaultStyleSheet()
    dlg.theme.setCurrentIndex(dlg.theme.findData("dark"))
    qtbot.mouseClick(_button(dlg, QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert dlg.result() == QDialog.DialogCode.Accepted
    from desktop_app.gui import theme

    assert theme.manager().dark and theme.colors().dark  # the theme applied at once, not only stored

    again = QSettings(settings.fileName(), QSettings.Format.IniFormat)  # as the next start reads them
    assert prefs.get_int(again, prefs.FONT_SIZE) == before + 7
    assert prefs.theme(again) == "dark"
    make_window.close(win)
    win2 = make_window(seeded_dir)
    assert win2.table.font().pointSize() == before + 7

    dlg = SettingsDialog(win2)
    qtbot.addWidget(dlg)
    assert dlg.theme.currentData() == "dark" and dlg.font_size.value() == before + 7
    dlg.font_size.setValue(dlg.font_size.minimum())  # back to the system's size
    dlg.accept()
    assert prefs.get_int(settings, prefs.FONT_SIZE) == 0
    assert win2.table.font().pointSize() == before
    assert "font-size preference" not in win2.reader.abstract.document().defaultStyleSheet()


def test_switching_library_opens_a_new_window_hands_the_lock_over_and_keeps_the_typed_note(
    make_window, seeded_dir: Path, tmp_path: Path, settings: QSettings, qtbot
) -> None:
    win = make_window(seeded_dir)
    lock = libraries.library_lock(seeded_dir)
    assert lock.tryLock(0)
    old_server = serve_second_starts(seeded_dir)
    libraries.hold(win, lock, old_server)  # as run_gui does
    qtbot.waitUntil(lambda: win.reader.paper is not None, timeout=5000)
    pid = win.reader.paper.id
    win.reader.notes.edit.setPlainText("typed just before the switch")  # not saved yet (debounced)
    target = tmp_path / "second library"
    target.mkdir()
    dlg = SettingsDialog(win)
    qtbot.addWidget(dlg)
    dlg.font_size.setValue(15)  # the other changes are applied first
    new = dlg.switch_to(target)
    try:
        assert new is not None and dlg.new_window is new and current_window(win) is new
        assert new.isVisible() and not win.isVisible()
        assert Path(new.library.folder) == target and (target / "library.sqlite").is_file()
        assert new.library.papers.count() == 0
        assert prefs.get_int(settings, prefs.FONT_SIZE) == 15 and new.table.font().pointSize() == 15
        other = QLockFile(str(seeded_dir / libraries.LOCK_NAME))
        assert other.tryLock(0), "the old library's lock is released"
        other.unlock()
        assert not QLockFile(str(target / libraries.LOCK_NAME)).tryLock(0), "the new library is locked"
        assert not old_server.server.isListening()  # second starts on the old folder start their own window
        assert new.instance_server.server.isListening() and new.instance_server.name == server_name(target)
        assert libraries.recent_libraries(settings)[:2] == [str(target), str(seeded_dir)]
        with Library.open(seeded_dir) as old:
            assert old.papers.get(pid).note == "typed just before the switch"

        # File → Open Recent lists both, the current one checked; choosing the other switches back
        menu = new.recent_menu
        menu.aboutToShow.emit()
        entries = {a.text(): a for a in menu.actions()}
        assert list(entries) == [str(target), str(seeded_dir)]
        assert entries[str(target)].isChecked() and not entries[str(seeded_dir)].isChecked()
        entries[str(seeded_dir)].trigger()
        back = current_window(win)
        assert back is not new and Path(back.library.folder) == seeded_dir.absolute()
        assert back.library.papers.count() == 76
        assert QLockFile(str(target / libraries.LOCK_NAME)).tryLock(0)
        assert back.instance_server.name == server_name(seeded_dir) and back.library_lock.isLocked()
        assert libraries.recent_libraries(settings)[:2] == [str(seeded_dir), str(target)]
    finally:
        final = current_window(win)
        close_window(final)
        libraries.release(final)


def test_open_recent_greys_and_forgets_a_library_gone_since(
    make_window, seeded_dir: Path, tmp_path: Path, settings: QSettings, qtbot
) -> None:
    gone = tmp_path / "moved away"
    libraries.remember_library(settings, gone)
    win = make_window(seeded_dir)  # recorded at open: first
    assert libraries.recent_libraries(settings) == [str(seeded_dir), str(gone)]
    for n in range(12):
        libraries.remember_library(settings, tmp_path / f"lib{n}")
    assert len(libraries.recent_libraries(settings)) == prefs.RECENT_LIBRARIES_MAX
    assert libraries.recent_libraries(settings)[0] == str(tmp_path / "lib11")
    prefs.put(settings, prefs.RECENT_LIBRARIES, [str(seeded_dir), str(gone)])
    win.recent_menu.aboutToShow.emit()
    entries = {a.text(): a for a in win.recent_menu.actions()}
    assert list(entries) == [str(seeded_dir), str(gone)]
    assert entries[str(seeded_dir)].isEnabled() and entries[str(seeded_dir)].isChecked()
    assert not entries[str(gone)].isEnabled()
    assert libraries.recent_libraries(settings) == [str(seeded_dir)]


def test_a_locked_or_foreign_folder_is_refused_with_a_message_and_the_window_stays(
    make_window, seeded_dir: Path, tmp_path: Path, settings: QSettings, qtbot
) -> None:
    win = make_window(seeded_dir)
    locked = tmp_path / "elsewhere"
    with Library.open(locked):
        pass
    holder = QLockFile(str(locked / libraries.LOCK_NAME))  # another window holds it
    assert holder.tryLock(0)
    foreign = tmp_path / "photos"
    foreign.mkdir()
    (foreign / "cat.jpg").write_bytes(b"\xff\xd8")
    dlg = SettingsDialog(win)
    qtbot.addWidget(dlg)
    dlg.show()
    try:
        for folder, said in (
            (locked, "is open in another Marginalia window"),
            (foreign, "is neither a Marginalia library nor empty"),
        ):
            assert dlg.switch_to(folder) is None
            box = dlg.findChild(QMessageBox, "libraryRefused")
            assert box is not None and said in box.text(), box.text()
            box.close()
            box.deleteLater()
            qtbot.waitUntil(lambda: dlg.findChild(QMessageBox, "libraryRefused") is None, timeout=2000)
            assert current_window(win) is win and win.isVisible() and dlg.isVisible()
            assert win.library.papers.count() == 76  # still open
        assert str(locked) not in libraries.recent_libraries(settings)
        assert holder.isLocked()
    finally:
        holder.unlock()


def test_new_library_refuses_an_existing_library(make_window, seeded_dir: Path, tmp_path: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    with Library.open(tmp_path / "old one"):
        pass
    assert libraries.refusal(tmp_path / "old one", new=True).endswith("open it with Switch library… instead.")
    assert libraries.refusal(tmp_path / "old one") is None
    assert libraries.refusal(tmp_path / "not yet made" / "lib", new=True) is None
    dlg = SettingsDialog(win)
    qtbot.addWidget(dlg)
    assert dlg.switch_to(tmp_path / "old one", new=True) is None
    assert "already holds a library" in dlg.findChild(QMessageBox, "libraryRefused").text()


def test_import_defaults_reach_the_import(
    make_window, library_dir: Path, settings: QSettings, qtbot, monkeypatch: pytest.MonkeyPatch
) -> None:
    win = make_window(library_dir)
    dlg = SettingsDialog(win)
    qtbot.addWidget(dlg)
    assert not dlg.keywords_as_tags.isChecked() and not dlg.categories_as_tags.isChecked()
    dlg.keywords_as_tags.setChecked(True)
    dlg.categories_as_tags.setChecked(True)
    dlg.skip_duplicates.setChecked(True)
    dlg.accept()
    shown: list = []

    def exec_(preview) -> int:
        shown.append((preview.keywords_as_tags.isChecked(), preview.duplicates()))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(import_export.ImportPreview, "exec", exec_)
    with qtbot.waitSignal(win.files.changed, timeout=30000):
        win.files.import_paths([str(ARXIV), str(KEYWORDS_BIB)])
    assert shown == [(True, "skip")]
    names = {t.name for t in win.library.tags.all()}
    assert "arxiv/quant-ph" in names and "keywords/architecture decision records" in names
    tagged = win.library.query("", tags=["arxiv/quant-ph"]).ids
    assert tagged and all("arxiv/quant-ph" in win.library.papers.get(p).tags for p in tagged)


def test_backups_page_backs_up_now_with_the_keep_count(
    make_window, seeded_dir: Path, settings: QSettings, qtbot
) -> None:
    win = make_window(seeded_dir)
    dlg = SettingsDialog(win)
    qtbot.addWidget(dlg)
    assert dlg.backups_enabled.isChecked() and dlg.backups_keep.value() == 10
    dlg.backups_keep.setValue(3)
    dlg.backups_enabled.setChecked(False)
    qtbot.mouseClick(dlg.backup_now_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.backup_state.text().startswith("Backed up to"), timeout=20000)
    made = Path(dlg.backup_state.text().removeprefix("Backed up to ").rstrip("."))
    assert made.is_file() and made.parent == dlg.backups_folder()
    dlg.accept()
    assert win.files.backup_preferences() == (False, 3)
    assert not prefs.get_bool(QSettings(settings.fileName(), QSettings.Format.IniFormat), prefs.BACKUPS_ENABLED)


def test_a_broken_style_file_is_refused_and_a_good_one_is_added_and_chosen(
    make_window, library_dir: Path, tmp_path: Path, settings: QSettings, user_data: Path, qtbot
) -> None:
    win = make_window(library_dir)
    dlg = SettingsDialog(win)
    qtbot.addWidget(dlg)
    dlg.show()
    broken, html, good = tmp_path / "broken.csl", tmp_path / "page.csl", tmp_path / "my-lab.csl"
    broken.write_text("<style xmlns='http://purl.org/net/xbiblio/csl'><info><title>Half", "utf-8")
    html.write_text("<html><body>not a style</body></html>", "utf-8")
    good.write_text(GOOD_CSL, "utf-8")
    for path, said in ((broken, "not well-formed XML"), (html, "its root element is <html>, not a CSL <style>")):
        assert dlg.add_style(path) is None
        box = dlg.findChild(QMessageBox, "styleRefused")
        assert said in box.text() and box.text().startswith(f"{path.name} cannot be used as a citation style")
        box.setObjectName("seen")
    assert not (user_data / "styles").exists() or not list((user_data / "styles").iterdir())

    assert dlg.add_style(good) == "my-lab"
    assert (user_data / "styles" / "my-lab.csl").read_text("utf-8") == GOOD_CSL
    assert dlg.citation_style.currentText() == "My Lab Style"
    dlg.accept()
    assert prefs.get_str(settings, prefs.CITATION_STYLE) == "my-lab"
    dlg2 = SettingsDialog(win)
    qtbot.addWidget(dlg2)
    assert dlg2.citation_style.currentData() == "my-lab"


def test_attachment_mode_is_stored(make_window, library_dir: Path, settings: QSettings, qtbot) -> None:
    win = make_window(library_dir)
    dlg = SettingsDialog(win)
    qtbot.addWidget(dlg)
    assert dlg.attach_copy.isChecked()
    dlg.attach_link.setChecked(True)
    dlg.reject()
    assert prefs.get_str(settings, prefs.ATTACH_MODE) == "copy"
    dlg = SettingsDialog(win)
    qtbot.addWidget(dlg)
    dlg.attach_link.setChecked(True)
    dlg.accept()
    assert prefs.get_str(settings, prefs.ATTACH_MODE) == "link"


def test_screenshot_view_renders_the_dialog(make_window, seeded_dir: Path, tmp_path: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    view = screenshot_view(win)
    qtbot.addWidget(view)
    out = tmp_path / "settings.png"
    assert view.grab().save(str(out))
    assert out.stat().st_size > 5000


class _Opened(QObject):
    """Takes the file: URLs the app asks the desktop to open (QDesktopServices' own hook)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def take(self, url: QUrl) -> None:
        self.urls.append(url)


def test_open_backups_folder_asks_the_desktop_to_open_it(make_window, seeded_dir: Path, qtbot) -> None:
    win = make_window(seeded_dir)
    dlg = SettingsDialog(win)
    qtbot.addWidget(dlg)
    opened = _Opened()
    QDesktopServices.setUrlHandler("file", opened, "take")
    try:
        qtbot.mouseClick(dlg.open_backups_button, Qt.MouseButton.LeftButton)
    finally:
        QDesktopServices.unsetUrlHandler("file")
    assert [Path(u.toLocalFile()) for u in opened.urls] == [seeded_dir / "backups"]
    assert (seeded_dir / "backups").is_dir()
