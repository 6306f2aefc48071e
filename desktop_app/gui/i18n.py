"""The window's language: translators loaded once at start, and phrases several modules share.

The interface language follows the system locale (``QLocale.system()``) unless Settings →
Appearance → Language names one (``preferences.LANGUAGE``: "system", "en" or "zh_CN"); a change
applies at the next start. ``marginalia gui --lang zh_CN`` overrides both for one run. The
command line stays English: nothing outside ``desktop_app/gui`` is translated.

Catalogues: ``resources/i18n/marginalia_<lang>.qm``, compiled from the ``.ts`` sources by
``make translations`` (pyside6-lupdate + pyside6-lrelease) and committed. English ships a catalogue
too: it holds only the plural forms of the ``%n`` strings ("1 paper" / "2 papers"), since Qt
substitutes ``%n`` without a translation but does not pluralise. Qt's own ``qtbase_<lang>.qm``
(standard buttons and dialogs) is loaded from PySide6's translations folder when present.
"""

from __future__ import annotations

from datetime import timedelta
from importlib.resources import files
from pathlib import Path

from PySide6.QtCore import (
    QCoreApplication,
    QLibraryInfo,
    QLocale,
    QObject,
    QSettings,
    QTranslator,
)
from PySide6.QtWidgets import QComboBox, QWidget

from desktop_app.gui import preferences


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name lupdate looks for
    """Marks ``text`` for the catalogues of ``context`` and returns it untranslated, as Qt's own
    does (whose stub says it returns ``object``): translated where it is shown, with :func:`tr`."""
    return text


# (preference value, label shown in Settings); labels of languages are written in themselves
LANGUAGES = (("system", QT_TRANSLATE_NOOP("Language", "System")), ("en", "English"), ("zh_CN", "简体中文"))
SUPPORTED = ("en", "zh_CN")
CATALOGUE = "marginalia"
_installed: list[QTranslator] = []


def i18n_dir() -> Path:
    """resources/i18n (the .ts sources and the compiled .qm catalogues)."""
    return Path(str(files("desktop_app.resources").joinpath("i18n")))


def resolve(choice: str | None, system: QLocale | None = None) -> str:
    """The catalogue language for a preference value ("system", "en", "zh_CN"; a locale name
    like "zh_CN.UTF-8" or "zh-Hans" works too): "zh_CN" for Chinese, else "en"."""
    if not choice or choice == "system":
        loc = system or QLocale.system()
        name = loc.name()
        if loc.language() == QLocale.Language.Chinese and loc.script() != QLocale.Script.TraditionalChineseScript:
            name = "zh_CN"
    else:
        name = choice.split(".")[0].replace("-", "_")
    traditional = name.lower().replace("-", "_") in ("zh_tw", "zh_hk", "zh_mo", "zh_hant")
    if name.lower().startswith("zh") and not traditional:  # no Traditional catalogue: English
        return "zh_CN"
    return "en"


def install(app: QCoreApplication, language: str | None = None, settings: QSettings | None = None) -> str:
    """Load the catalogues for ``language`` (else the preference in ``settings``, else the system
    locale) into ``app``; replaces those installed before. Returns the language used."""
    if language is None and settings is not None:
        language = preferences.get_str(settings, preferences.LANGUAGE)
    lang = resolve(language)
    for old in _installed:
        app.removeTranslator(old)
    _installed.clear()
    # dates and numbers: the system's locale, unless the language chosen is not the system's
    chosen = lang != resolve("system")
    QLocale.setDefault(QLocale("zh_CN" if lang == "zh_CN" else "en_US") if chosen else QLocale.system())
    wanted = [(CATALOGUE + "_en", str(i18n_dir()))]  # English plurals under any language
    if lang != "en":
        wanted.append(("qtbase_" + lang, QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)))
        wanted.append((CATALOGUE + "_" + lang, str(i18n_dir())))  # installed last: asked first
    for name, folder in wanted:
        tr = QTranslator(app)
        if tr.load(name, folder):
            app.installTranslator(tr)
            _installed.append(tr)
    return lang


def installed() -> bool:
    """Whether :func:`install` has run in this process."""
    return bool(_installed)


def current() -> str:
    """The language the installed catalogues give the window ("en" or "zh_CN")."""
    return "zh_CN" if any(t.language().startswith("zh") for t in _installed) else "en"


# ---- phrases shared by several modules ----------------------------------------------------------
def tr(text: str, n: int = -1) -> str:
    """A shared phrase (context "Common")."""
    return QCoreApplication.translate("Common", text, None, n)


STATUS_LABELS = {
    "unread": QT_TRANSLATE_NOOP("Common", "Unread"),
    "skimmed": QT_TRANSLATE_NOOP("Common", "Skimmed"),
    "read": QT_TRANSLATE_NOOP("Common", "Read"),
}
DECISION_LABELS = {
    "keep": QT_TRANSLATE_NOOP("Common", "Keep"),
    "maybe": QT_TRANSLATE_NOOP("Common", "Maybe"),
    "skip": QT_TRANSLATE_NOOP("Common", "Skip"),
    "none": QT_TRANSLATE_NOOP("Common", "Undecided"),
}


COLOR_LABELS = {
    "yellow": QT_TRANSLATE_NOOP("Common", "yellow"),
    "green": QT_TRANSLATE_NOOP("Common", "green"),
    "blue": QT_TRANSLATE_NOOP("Common", "blue"),
    "pink": QT_TRANSLATE_NOOP("Common", "pink"),
    "purple": QT_TRANSLATE_NOOP("Common", "purple"),
}


REASON_LABELS = {  # core.sameness.REASON_LABELS, in the window's language
    "doi": QT_TRANSLATE_NOOP("Common", "same DOI"),
    "arxiv": QT_TRANSLATE_NOOP("Common", "same arXiv id"),
    "pmid": QT_TRANSLATE_NOOP("Common", "same PubMed id"),
    "title-author-year": QT_TRANSLATE_NOOP("Common", "same title, author and year"),
    "same-record": QT_TRANSLATE_NOOP("Common", "the same record"),
    # the likenesses of possible duplicates (core.sameness.LIKENESSES, NEAR_REASON)
    "same abstract": QT_TRANSLATE_NOOP("Common", "same abstract"),
    "same title": QT_TRANSLATE_NOOP("Common", "same title"),
    "same citation key": QT_TRANSLATE_NOOP("Common", "same citation key"),
    "similar title and abstract": QT_TRANSLATE_NOOP("Common", "similar title and abstract"),
}


def reason_label(reason: str) -> str:
    """Why an import calls two records one paper (core.sameness reasons)."""
    return tr(REASON_LABELS[reason]) if reason in REASON_LABELS else reason


def color_label(color: str) -> str:
    """A highlight colour's name (translated)."""
    return tr(COLOR_LABELS[color]) if color in COLOR_LABELS else color


def status_label(status: str) -> str:
    """ "Unread", "Skimmed", "Read" (translated) for a stored status."""
    return tr(STATUS_LABELS[status]) if status in STATUS_LABELS else status


class Plurals(QObject):
    """The %n phrases of module-level functions. pyside6-lupdate reads a plural count reliably
    only in ``self.tr(text, "", n)`` (in ``QCoreApplication.translate`` it drops or flattens
    most), so those phrases live here, in the context "Plurals"."""

    def papers(self, n: int) -> str:
        return self.tr("%n paper(s)", "", n)

    def highlights(self, n: int) -> str:
        return self.tr("%n highlight(s)", "", n)

    def new_papers(self, n: int) -> str:
        return self.tr("%n new paper(s)", "", n)

    def unreadable(self, n: int) -> str:
        return self.tr("%n could not be read", "", n)

    def characters(self, n: int) -> str:
        return self.tr("%n character(s)", "", n)

    def copied_references(self, n: int) -> str:
        return self.tr("Copied %n reference(s) ({0})", "", n)

    def formatting_references(self, n: int) -> str:
        return self.tr("Formatting %n reference(s)…", "", n)

    def copied_bibtex(self, n: int) -> str:
        return self.tr("Copied %n BibTeX entries", "", n)

    def trash_papers(self, n: int) -> str:
        return self.tr("Move %n paper(s) to the trash", "", n)

    def titles_rederived(self, n: int) -> str:
        return self.tr("%n title(s) re-derived (Edit → Undo restores them)", "", n)

    def backup_age(self, age: timedelta | None) -> str:
        """The window's words for core.store.backups.describe_age (the command line's)."""
        if age is None:
            return self.tr("No backup yet.")
        secs = max(0, int(age.total_seconds()))
        if secs >= 86400:
            return self.tr("The newest backup is %n day(s) old.", "", secs // 86400)
        if secs >= 3600:
            return self.tr("The newest backup is %n hour(s) old.", "", secs // 3600)
        if secs >= 60:
            return self.tr("The newest backup is %n minute(s) old.", "", secs // 60)
        return self.tr("The newest backup is less than a minute old.")


_plurals: Plurals | None = None


def plurals() -> Plurals:
    global _plurals
    if _plurals is None:
        _plurals = Plurals()
    return _plurals


def decision_label(decision: str | None) -> str:
    """ "Keep", "Maybe", "Skip", "Undecided" (translated) for a stored decision (None: undecided)."""
    key = decision or "none"
    return tr(DECISION_LABELS[key]) if key in DECISION_LABELS else key


def decision_word(decision: str | None) -> str:
    """The decision inside a sentence: "Decide keep"."""
    label = decision_label(decision)
    return label.lower() if current() == "en" else label


def status_word(status: str) -> str:
    """The status as a word inside a sentence: "Mark read", "标记为已读"."""
    label = status_label(status)
    return label.lower() if current() == "en" else label


def papers(n: int) -> str:
    """ "1 paper" / "2 papers", with the locale's digit grouping."""
    return number_in(plurals().papers(n), n)


def number(n: int) -> str:
    """A count as the locale writes it (digit grouping)."""
    return QLocale().toString(n)


def number_in(text: str, n: int) -> str:
    """``text`` (a translated %n string) with its number written with digit grouping."""
    return text.replace(str(n), number(n), 1) if abs(n) >= 1000 else text


def language_combo(parent: QWidget) -> QComboBox:
    """Settings' Language combo: System, English, 简体中文 (data: the preference value)."""
    combo = QComboBox(parent)
    combo.setObjectName("languageCombo")
    for value, label in LANGUAGES:
        combo.addItem(QCoreApplication.translate("Language", label) if value == "system" else label, value)
    return combo
