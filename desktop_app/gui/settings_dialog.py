"""Settings… (Preferences… on macOS): appearance, the library folder, backups, import defaults,
the citation style and attachments.

Every value is read and written through ``gui.preferences``; nothing is written before OK or
Apply, so Cancel changes nothing. Switching or making a library (gui/libraries.py) applies the
other changes first, then opens the new window and closes this one's.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop_app.gui import i18n, word_marks
from desktop_app.gui import preferences as prefs
from desktop_app.gui.appearance import MAX_FONT_SIZE, MIN_FONT_SIZE
from desktop_app.gui.i18n import QT_TRANSLATE_NOOP, language_combo

if TYPE_CHECKING:
    from desktop_app.gui.window_protocol import WindowLike

CSL_NS = "{http://purl.org/net/xbiblio/csl}"
THEME_LABELS = (
    ("system", QT_TRANSLATE_NOOP("SettingsDialog", "Follow the system")),
    ("light", QT_TRANSLATE_NOOP("SettingsDialog", "Light")),
    ("dark", QT_TRANSLATE_NOOP("SettingsDialog", "Dark")),
)
MAX_KEEP = 200  # backups


# ---- citation styles (until core/citations.py lists them) --------------------------------------
def user_styles_dir() -> Path:
    """Where the user's own .csl files go: ``<user data dir>/styles``."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("Marginalia", appauthor=False)) / "styles"


def bundled_styles_dir() -> Path:
    from importlib.resources import files

    return Path(str(files("desktop_app.resources"))) / "csl"


def style_title(path: Path) -> str:
    """The <title> of a CSL file; ValueError (saying why) when it is not a CSL style."""
    from xml.etree.ElementTree import ParseError

    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import parse

    try:
        root = parse(str(path)).getroot()
    except (ParseError, DefusedXmlException) as exc:
        raise ValueError(
            QCoreApplication.translate("SettingsDialog", "it is not well-formed XML ({0})").format(exc)
        ) from exc
    except OSError as exc:
        raise ValueError(
            QCoreApplication.translate("SettingsDialog", "it cannot be read ({0})").format(exc.strerror)
        ) from exc
    assert root is not None  # a parsed document has its root element
    if root.tag not in (f"{CSL_NS}style", "style"):
        raise ValueError(
            QCoreApplication.translate("SettingsDialog", "its root element is <{0}>, not a CSL <style>").format(
                root.tag.rpartition("}")[2]
            )
        )
    title = root.find(f"{CSL_NS}info/{CSL_NS}title")
    if title is None:
        title = root.find("info/title")
    return (title.text or "").strip() if title is not None and title.text else path.stem


def available_styles() -> list[tuple[str, str]]:
    """(id, title) of the citation styles: the bundled ones, then the user's."""
    try:
        from desktop_app.core.citations import available_styles as listed
    except ImportError:  # without core/citations.py's list: the style files themselves
        return _styles_from_files()
    return list(listed())


def _styles_from_files() -> list[tuple[str, str]]:
    found: dict[str, str] = {}
    for folder in (bundled_styles_dir(), user_styles_dir()):
        for path in sorted(folder.glob("*.csl")) if folder.is_dir() else []:
            try:
                found[path.stem] = style_title(path)
            except ValueError:
                continue  # a broken file is not offered
    return list(found.items())


def add_style_file(source: Path) -> tuple[str, str]:
    """Copy a .csl file into the user's styles folder: its (id, title). ValueError (the reason)
    when it is not a CSL style; nothing is copied then."""
    if source.suffix.lower() != ".csl":
        raise ValueError(QCoreApplication.translate("SettingsDialog", "its name does not end in .csl"))
    title = style_title(source)
    target_dir = user_styles_dir()
    target_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target_dir / source.name)
    return source.stem, title


def _form(page: QWidget) -> QFormLayout:
    form = QFormLayout(page)
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)  # no 500 px spin boxes
    return form


# ---- the dialog ------------------------------------------------------------------------------
class SettingsDialog(QDialog):
    """The window's Settings dialog; ``win`` is the MainWindow whose settings and library it shows."""

    def __init__(self, win: WindowLike) -> None:
        super().__init__(win.window())
        self.win = win
        self.settings = win.settings
        self.new_window: WindowLike | None = None  # after a switch of library
        self.setObjectName("settingsDialog")
        self.setWindowTitle(self.tr("Settings"))
        lay = QVBoxLayout(self)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("settingsTabs")
        lay.addWidget(self.tabs)
        for title, build, shown in (
            ("Appearance", self._appearance, self.tr("Appearance")),
            ("Library", self._library, self.tr("Library")),
            ("Backups", self._backups, self.tr("Backups")),
            ("Import", self._import, self.tr("Import")),
            ("Citations", self._citations, self.tr("Citations")),
            ("Attachments", self._attachments, self.tr("Attachments")),
        ):
            page = QWidget(self.tabs)
            page.setObjectName(f"settingsPage{title}")
            build(page)
            self.tabs.addTab(page, shown)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok
            | QDialogButtonBox.StandardButton.Cancel
            | QDialogButtonBox.StandardButton.Apply,
            self,
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.buttons.button(QDialogButtonBox.StandardButton.Apply).clicked.connect(self.apply)
        lay.addWidget(self.buttons)
        self.load()
        self.resize(560, 320)

    # ---- pages ---------------------------------------------------------------------------------
    def _appearance(self, page: QWidget) -> None:
        form = _form(page)
        self.theme = QComboBox(page)
        self.theme.setObjectName("themeCombo")
        for key, label in THEME_LABELS:
            self.theme.addItem(self.tr(label), key)
        self.font_size = QSpinBox(page)
        self.font_size.setObjectName("fontSizeSpin")
        self.font_size.setRange(MIN_FONT_SIZE - 1, MAX_FONT_SIZE)
        self.font_size.setSpecialValueText(self.tr("System size"))  # shown for the minimum, saved as 0
        self.font_size.setSuffix(self.tr(" pt"))
        form.addRow(self.tr("Theme:"), self.theme)
        form.addRow(self.tr("Text size of the list and the reader:"), self.font_size)
        self.language = language_combo(page)  # gui/i18n.py; applies at the next start
        form.addRow(self.tr("Language:"), self.language)
        form.addRow(QLabel(self.tr("A new language applies when Marginalia starts again."), page))
        self.triage_advance = QCheckBox(self.tr("In triage, go to the next paper after a status or a rating"), page)
        self.triage_advance.setObjectName("triageAdvanceCheck")
        form.addRow(self.triage_advance)
        self.decision_keys: dict[str, QLineEdit] = {}
        keys_row = QHBoxLayout()
        for decision, label in (("keep", self.tr("Keep:")), ("maybe", self.tr("Maybe:")), ("skip", self.tr("Skip:"))):
            box = QLineEdit(page)
            box.setObjectName(f"decisionKey_{decision}")
            box.setMaxLength(1)
            box.setFixedWidth(36)
            keys_row.addWidget(QLabel(label, page))
            keys_row.addWidget(box)
            self.decision_keys[decision] = box
        keys_row.addStretch(1)
        form.addRow(self.tr("Triage keys:"), keys_row)
        self.emphasis = QCheckBox(self.tr("In triage, show the sentence stating the contribution in bold"), page)
        self.emphasis.setObjectName("triageEmphasisCheck")
        form.addRow(self.emphasis)
        self.include_words = QLineEdit(page)
        self.include_words.setObjectName("includeWords")
        self.include_words.setPlaceholderText(self.tr("words, separated by commas"))
        self.exclude_words = QLineEdit(page)
        self.exclude_words.setObjectName("excludeWords")
        self.exclude_words.setPlaceholderText(self.tr("words, separated by commas"))
        form.addRow(self.tr("Include words (this library):"), self.include_words)
        form.addRow(self.tr("Exclude words (this library):"), self.exclude_words)

    def _library(self, page: QWidget) -> None:
        lay = QVBoxLayout(page)
        lay.addWidget(QLabel(self.tr("The library open in this window:"), page))
        self.folder_label = QLabel(str(self.win.library.folder), page)
        self.folder_label.setObjectName("libraryFolder")
        self.folder_label.setTextFormat(Qt.TextFormat.PlainText)
        self.folder_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.folder_label.setWordWrap(True)
        lay.addWidget(self.folder_label)
        row = QHBoxLayout()
        self.switch_button = QPushButton(self.tr("Switch library…"), page)
        self.switch_button.setToolTip(
            self.tr("Open another library, or an empty folder as a new library, in this window")
        )
        self.switch_button.clicked.connect(lambda: self._choose_library(new=False))
        self.new_button = QPushButton(self.tr("New library…"), page)
        self.new_button.clicked.connect(lambda: self._choose_library(new=True))
        row.addWidget(self.switch_button)
        row.addWidget(self.new_button)
        row.addStretch(1)
        lay.addLayout(row)
        hint = QLabel(self.tr("Recent libraries are in File → Open Recent."), page)
        hint.setWordWrap(True)
        lay.addWidget(hint)
        lay.addStretch(1)

    def _backups(self, page: QWidget) -> None:
        form = _form(page)
        self.backups_enabled = QCheckBox(self.tr("Back up the library automatically (once a day, when it opens)"), page)
        self.backups_enabled.setObjectName("backupsEnabled")
        self.backups_keep = QSpinBox(page)
        self.backups_keep.setObjectName("backupsKeep")
        self.backups_keep.setRange(1, MAX_KEEP)
        self.backups_keep.setToolTip(
            self.tr(
                "Of the daily, weekly and monthly backups, at most this many are kept "
                "(the backups made before an upgrade are kept apart)"
            )
        )
        form.addRow(self.backups_enabled)
        form.addRow(self.tr("Backups to keep:"), self.backups_keep)
        row = QHBoxLayout()
        self.backup_now_button = QPushButton(self.tr("Back up now"), page)
        self.backup_now_button.setObjectName("backupNow")
        self.backup_now_button.clicked.connect(self.backup_now)
        self.open_backups_button = QPushButton(self.tr("Open backups folder"), page)
        self.open_backups_button.clicked.connect(self.open_backups_folder)
        row.addWidget(self.backup_now_button)
        row.addWidget(self.open_backups_button)
        row.addStretch(1)
        form.addRow(row)
        self.backup_state = QLabel(self._backup_age(), page)
        self.backup_state.setObjectName("backupState")
        form.addRow(self.backup_state)
        if self.win.library.read_only:
            self.backup_now_button.setEnabled(False)

    def _import(self, page: QWidget) -> None:
        lay = QVBoxLayout(page)
        lay.addWidget(QLabel(self.tr("What an import does unless you choose otherwise in its preview:"), page))
        self.keywords_as_tags = QCheckBox(self.tr("Add the files' keywords as tags (under keywords/)"), page)
        self.keywords_as_tags.setObjectName("importKeywordsAsTags")
        self.categories_as_tags = QCheckBox(self.tr("Add arXiv categories as tags (under arxiv/)"), page)
        self.categories_as_tags.setObjectName("importCategoriesAsTags")
        self.skip_duplicates = QCheckBox(
            self.tr("Skip papers already in the library (else fill in what the library lacks)"), page
        )
        self.skip_duplicates.setObjectName("importSkipDuplicates")
        for box in (self.keywords_as_tags, self.categories_as_tags, self.skip_duplicates):
            lay.addWidget(box)
        lay.addStretch(1)

    def _citations(self, page: QWidget) -> None:
        form = _form(page)
        self.citation_style = QComboBox(page)
        self.citation_style.setObjectName("citationStyle")
        self._fill_styles()
        add = QPushButton(self.tr("Add style file…"), page)
        add.setObjectName("addStyleButton")
        add.setToolTip(
            self.tr("Add a citation style from a .csl file (for instance one from the Zotero style repository)")
        )
        add.clicked.connect(self._choose_style_file)
        form.addRow(self.tr("Copy citation and bibliographies in:"), self.citation_style)
        form.addRow("", add)

    def _attachments(self, page: QWidget) -> None:
        lay = QVBoxLayout(page)
        lay.addWidget(QLabel(self.tr("A file dropped on a paper is:"), page))
        self.attach_copy = QRadioButton(
            self.tr("Copied into the library's files folder (backed up and exported with it)"), page
        )
        self.attach_copy.setObjectName("attachCopy")
        self.attach_link = QRadioButton(self.tr("Linked where it is (the library only remembers its path)"), page)
        self.attach_link.setObjectName("attachLink")
        group = QButtonGroup(page)
        group.addButton(self.attach_copy)
        group.addButton(self.attach_link)
        lay.addWidget(self.attach_copy)
        lay.addWidget(self.attach_link)
        lay.addStretch(1)

    # ---- values ----------------------------------------------------------------------------
    def load(self) -> None:
        """Show the stored preferences."""
        s = self.settings
        self.theme.setCurrentIndex(max(0, self.theme.findData(prefs.theme(s))))
        self.language.setCurrentIndex(max(0, self.language.findData(prefs.get_str(s, prefs.LANGUAGE))))
        size = prefs.get_int(s, prefs.FONT_SIZE)
        self.font_size.setValue(size if size >= MIN_FONT_SIZE else self.font_size.minimum())
        self.backups_enabled.setChecked(prefs.get_bool(s, prefs.BACKUPS_ENABLED))
        self.backups_keep.setValue(prefs.get_int(s, prefs.BACKUPS_KEEP))
        self.keywords_as_tags.setChecked(prefs.get_bool(s, prefs.IMPORT_KEYWORDS_AS_TAGS))
        self.categories_as_tags.setChecked(prefs.get_bool(s, prefs.IMPORT_ARXIV_CATEGORIES_AS_TAGS))
        self.skip_duplicates.setChecked(prefs.get_bool(s, prefs.IMPORT_SKIP_DUPLICATES))
        self.triage_advance.setChecked(prefs.get_bool(s, prefs.TRIAGE_ADVANCE))
        keys = prefs.get_list(s, prefs.TRIAGE_DECISION_KEYS)
        default = list(prefs.TRIAGE_DECISION_KEYS.default)  # type: ignore[call-overload]
        for n, decision in enumerate(("keep", "maybe", "skip")):
            self.decision_keys[decision].setText((keys + default)[n] if len(keys) == 3 else default[n])
        self.emphasis.setChecked(prefs.get_bool(s, prefs.TRIAGE_EMPHASIS))
        key = self.win.window_settings.key
        self.include_words.setText(str(s.value(key(word_marks.INCLUDE_KEY), "") or ""))
        self.exclude_words.setText(str(s.value(key(word_marks.EXCLUDE_KEY), "") or ""))
        self._select_style(prefs.get_str(s, prefs.CITATION_STYLE))
        link = prefs.get_str(s, prefs.ATTACH_MODE) == "link"
        (self.attach_link if link else self.attach_copy).setChecked(True)

    def chosen_font_size(self) -> int:
        value = self.font_size.value()
        return 0 if value < MIN_FONT_SIZE else value

    def apply(self) -> None:
        """Store what the dialog shows and apply it to the window."""
        s = self.settings
        prefs.put(s, prefs.THEME, self.theme.currentData())
        prefs.put(s, prefs.LANGUAGE, self.language.currentData())
        prefs.put(s, prefs.FONT_SIZE, self.chosen_font_size())
        prefs.put(s, prefs.BACKUPS_ENABLED, self.backups_enabled.isChecked())
        prefs.put(s, prefs.BACKUPS_KEEP, self.backups_keep.value())
        prefs.put(s, prefs.IMPORT_KEYWORDS_AS_TAGS, self.keywords_as_tags.isChecked())
        prefs.put(s, prefs.IMPORT_ARXIV_CATEGORIES_AS_TAGS, self.categories_as_tags.isChecked())
        prefs.put(s, prefs.IMPORT_SKIP_DUPLICATES, self.skip_duplicates.isChecked())
        prefs.put(s, prefs.TRIAGE_ADVANCE, self.triage_advance.isChecked())
        keys = [self.decision_keys[d].text().strip().lower() for d in ("keep", "maybe", "skip")]
        from desktop_app.gui.triage import RESERVED_KEYS

        if len(set(keys)) == 3 and all(k.isalpha() and k not in RESERVED_KEYS for k in keys):
            prefs.put(s, prefs.TRIAGE_DECISION_KEYS, keys)  # else: accept() said why; they stay
        prefs.put(s, prefs.TRIAGE_EMPHASIS, self.emphasis.isChecked())
        key = self.win.window_settings.key
        s.setValue(key(word_marks.INCLUDE_KEY), ", ".join(word_marks.parse_words(self.include_words.text())))
        s.setValue(key(word_marks.EXCLUDE_KEY), ", ".join(word_marks.parse_words(self.exclude_words.text())))
        if self.citation_style.currentData():
            prefs.put(s, prefs.CITATION_STYLE, self.citation_style.currentData())
        prefs.put(s, prefs.ATTACH_MODE, "link" if self.attach_link.isChecked() else "copy")
        s.sync()
        self.win.apply_preferences()

    def keys_problem(self) -> str:
        """Why the triage keys cannot be taken, or ""."""
        from desktop_app.gui.triage import RESERVED_KEYS

        keys = [self.decision_keys[d].text().strip().lower() for d in ("keep", "maybe", "skip")]
        if len(set(keys)) < 3 or not all(len(k) == 1 and k.isalpha() for k in keys):
            return self.tr("Keep, maybe and skip each need a letter of their own.")
        taken = [k for k in keys if k in RESERVED_KEYS]
        if taken:
            return self.tr("Triage already uses the key {0}; choose another letter.").format(taken[0])
        return ""

    def accept(self) -> None:
        problem = self.keys_problem()
        if problem:
            QMessageBox.warning(self, self.tr("Triage keys"), problem)
            return
        self.apply()
        super().accept()

    # ---- library -----------------------------------------------------------------------------
    def _choose_library(self, *, new: bool) -> None:
        from desktop_app.gui.libraries import ask_folder

        folder = ask_folder(self.win, new=new, parent=self)
        if folder:
            self.switch_to(folder, new=new)

    def switch_to(self, folder: str | Path, *, new: bool = False) -> WindowLike | None:
        """Apply the other changes, then open ``folder`` in a new window in place of this one's;
        a refusal is said in a message box (``libraryRefused``) and the dialog stays."""
        from desktop_app.gui.libraries import switch_or_say

        self.apply()
        new_win = switch_or_say(self.win, folder, new=new, parent=self)
        if new_win is not None and new_win is not self.win:
            self.new_window = new_win
            super().accept()
        return new_win

    # ---- backups -----------------------------------------------------------------------------
    def _backup_age(self) -> str:
        return i18n.plurals().backup_age(self.win.library.backups.newest_age())

    def backup_now(self) -> None:
        """A manual backup in a worker; the state line says where it went."""
        from desktop_app.gui.jobs import start_job

        lib, keep = self.win.library, self.backups_keep.value()
        self.backup_now_button.setEnabled(False)

        def done(path: object) -> None:
            self.backup_now_button.setEnabled(True)
            self.backup_state.setText(self.tr("Backed up to {0}.").format(path))

        def failed(message: str) -> None:
            self.backup_now_button.setEnabled(True)
            self.backup_state.setText(self.tr("The backup failed: {0}").format(message))

        start_job(
            self, self.tr("Backing up…"), lambda p, c: lib.backups.make("manual", keep_at_most=keep), done, failed
        )

    def backups_folder(self) -> Path:
        from desktop_app.core.store.backups import BACKUPS_DIR

        return Path(self.win.library.folder) / BACKUPS_DIR

    def open_backups_folder(self) -> None:
        folder = self.backups_folder()
        folder.mkdir(parents=True, exist_ok=True)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))

    # ---- citation styles -----------------------------------------------------------------------
    def _fill_styles(self, select: str | None = None) -> None:
        current = select or self.citation_style.currentData()
        self.citation_style.clear()
        for style_id, title in available_styles():
            self.citation_style.addItem(title, style_id)
        if current:
            self._select_style(current)

    def _select_style(self, style_id: str) -> None:
        index = self.citation_style.findData(style_id)
        if index < 0 and style_id:  # not there (yet): kept as it is rather than lost
            self.citation_style.addItem(self.tr("{0} (not found)").format(style_id), style_id)
            index = self.citation_style.count() - 1
        self.citation_style.setCurrentIndex(index)

    def _choose_style_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Add a citation style"), str(Path.home()), self.tr("CSL styles (*.csl);;All files (*)")
        )
        if path:
            self.add_style(Path(path))

    def add_style(self, path: Path) -> str | None:
        """Copy the .csl file into the user's styles and select it: its id, or None when it is
        refused (said in a message box named ``styleRefused``)."""
        try:
            style_id, _title = add_style_file(path)
        except (ValueError, OSError) as exc:
            box = QMessageBox(
                QMessageBox.Icon.Warning,
                self.tr("Add style file"),
                self.tr("{0} cannot be used as a citation style: {1}.").format(path.name, exc),
                parent=self,
            )
            box.setObjectName("styleRefused")
            box.open()
            return None
        self._fill_styles(select=style_id)
        return style_id


def show_settings(win: WindowLike) -> SettingsDialog:
    """Open the window's Settings dialog (window-modal; returns at once)."""
    dlg = SettingsDialog(win)
    dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dlg.open()
    return dlg


def screenshot_view(window: WindowLike) -> QWidget:
    """The Settings dialog on the window, shown on its Appearance page, for the docs."""
    dlg = SettingsDialog(window)
    dlg.show()
    return dlg
