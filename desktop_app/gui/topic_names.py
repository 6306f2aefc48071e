"""The topic names the user gave in this session, shared by the Topics dialog and the map.

A rename belongs to one computed set of topics (``TopicSet.rename``); this keeps {the name
found: the user's name} for the window, so a recomputed set (the Topics dialog's Recompute, the
map opened from View → Map) shows the user's names for the topics found again. Not saved.
"""

from __future__ import annotations

from PySide6.QtCore import QObject


def session_names(window: QObject) -> dict[str, str]:
    """The window's {name found: name given} (made empty on first use)."""
    names = getattr(window, "_topic_names", None)
    if names is None:
        names = {}
        window._topic_names = names  # type: ignore[attr-defined]
    return names
