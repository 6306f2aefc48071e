"""The user's preferences (Settings… / Preferences… on macOS), one place for their keys.

Every module reads a preference through these helpers, never with its own key string, so that the
Settings dialog and the code that obeys it cannot drift apart. Values live in the window's
``QSettings`` (per user, not per library).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from PySide6.QtCore import QSettings

THEMES = ("system", "light", "dark")
DEFAULT_CITATION_STYLE = "apa"
RECENT_LIBRARIES_MAX = 8


@dataclass(frozen=True)
class Key:
    """A preference: its QSettings key and its default."""

    name: str
    default: object


THEME = Key("appearance/theme", "system")  # one of THEMES
FONT_SIZE = Key("appearance/fontSize", 0)  # points for the reader and the table; 0 = the system's
CITATION_STYLE = Key("citation/style", DEFAULT_CITATION_STYLE)  # a bundled style id or a .csl path
RECENT_LIBRARIES = Key("library/recent", [])  # folders, most recent first
BACKUPS_ENABLED = Key("backups/enabled", True)
BACKUPS_KEEP = Key("backups/keep", 10)
IMPORT_KEYWORDS_AS_TAGS = Key("import/keywordsAsTags", False)
IMPORT_ARXIV_CATEGORIES_AS_TAGS = Key("import/arxivCategoriesAsTags", False)
IMPORT_SKIP_DUPLICATES = Key("import/skipDuplicates", False)
ATTACH_MODE = Key("attachments/mode", "copy")  # "copy" into the library's files/ folder, or "link"
TRIAGE_ADVANCE = Key("triage/advanceAfterDecision", True)
# the keys of keep, maybe and skip in triage (single letters; Settings → Triage)
TRIAGE_DECISION_KEYS = Key("triage/decisionKeys", ["y", "m", "x"])
TRIAGE_EMPHASIS = Key("triage/emphasiseContribution", True)  # the contribution sentence in bold
TRIAGE_LEARNED_ORDER = Key("triage/learnedOrder", True)  # most likely keeps first (else list order)
TRIAGE_QUICK_TAGS = Key("triage/quickTags", [])  # the tag on Alt+1…9 in triage, "" for a free key
RELATED_COLLAPSED = Key("reader/relatedCollapsed", False)  # the reader's Related papers section
LANGUAGE = Key("appearance/language", "system")  # "system", "en" or "zh_CN"; applies at the next start
CJK_FONT_WARNED = Key("appearance/cjkFontWarned", False)  # the missing-CJK-font notice was shown


def get_str(settings: QSettings, key: Key) -> str:
    value = settings.value(key.name, key.default)
    return str(value) if value is not None else str(key.default)


def get_int(settings: QSettings, key: Key) -> int:
    try:
        value: Any = settings.value(key.name, key.default)  # an int, or its text in the file
        return int(value)
    except (TypeError, ValueError):
        return int(cast(int, key.default))  # an int preference's default is an int


def get_bool(settings: QSettings, key: Key) -> bool:
    value = settings.value(key.name, key.default)
    if isinstance(value, str):  # INI files give strings back
        return value.strip().lower() in ("1", "true", "yes", "on")
    return bool(value)


def get_list(settings: QSettings, key: Key) -> list[str]:
    value = settings.value(key.name, key.default)
    if value is None or value == "":
        return []
    if isinstance(value, str):  # QSettings returns a one-element list as a plain string
        return [value]
    return [str(v) for v in cast(Iterable[object], value)]  # a list


def put(settings: QSettings, key: Key, value: object) -> None:
    settings.setValue(key.name, value)


def theme(settings: QSettings) -> str:
    value = get_str(settings, THEME).lower()
    return value if value in THEMES else "system"
