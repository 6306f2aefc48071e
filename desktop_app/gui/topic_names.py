"""The topic names the user gave, shared by the Topics dialog and the map, kept between runs.

A rename belongs to one computed set of topics (``TopicSet.rename``); this keeps {the name
found: the user's name} for the library, so a recomputed set (the Topics dialog's Recompute, the
map opened from View → Map, the topics of a later session) shows the user's names for the topics
found again. The name found is made of a topic's top words, so it is what recognises a topic.
Saved as JSON in the window's per-library settings (``WindowSettings.key``), like the filter and
the triage position: window state, not library data.
"""

from __future__ import annotations

import json
import weakref

from PySide6.QtCore import QObject, QSettings

from desktop_app.core.insights.topics import TopicSet

KEY = "topics/names"
MAX_KEPT = 1000  # renames remembered per library (the oldest go first past this)

# Each window's renames once read, kept here rather than written onto the window.
_READ: weakref.WeakKeyDictionary[QObject, dict[str, str]] = weakref.WeakKeyDictionary()


def user_names(window: QObject) -> dict[str, str]:
    """The window's {name found: name given} for its library, read from its settings on first use."""
    names = _READ.get(window)
    if names is None:
        names = _load(window)
        _READ[window] = names
    return names


def remember(window: QObject, topics: TopicSet) -> None:
    """Take the renames of ``topics`` (a name given back to the one found undoes a rename) and save them."""
    names = user_names(window)
    for found in topics.names_given.values():
        names.pop(found, None)
    names.update(topics.renamed())
    while len(names) > MAX_KEPT:
        names.pop(next(iter(names)))
    settings, key = _where(window)
    if settings is not None:
        settings.setValue(key, json.dumps(names, ensure_ascii=False))


def _where(window: QObject) -> tuple[QSettings | None, str]:  # (the settings or None, its key)
    settings = getattr(window, "settings", None)
    per_library = getattr(window, "window_settings", None)
    if settings is None or per_library is None:
        return None, ""
    return settings, per_library.key(KEY)


def _load(window: QObject) -> dict[str, str]:
    settings, key = _where(window)
    if settings is None:
        return {}
    try:
        saved = json.loads(str(settings.value(key, "{}") or "{}"))
    except ValueError:  # a settings file edited by hand: the names start afresh
        return {}
    if not isinstance(saved, dict):
        return {}
    return {str(k): str(v) for k, v in saved.items() if isinstance(k, str) and isinstance(v, str) and v.strip()}
