"""The keyboard shortcuts, listed once for Help → Keyboard shortcuts and the README."""

from PySide6.QtCore import QCoreApplication

from desktop_app.gui.i18n import QT_TRANSLATE_NOOP

SHORTCUTS: list[tuple[str, str]] = [
    ("↑ / ↓ or j / k", QT_TRANSLATE_NOOP("Shortcuts", "previous / next paper")),
    ("Home / End", QT_TRANSLATE_NOOP("Shortcuts", "first / last paper")),
    ("Alt+←", QT_TRANSLATE_NOOP("Shortcuts", "back to the paper you left for a related paper")),
    (
        "Tab / Shift+Tab",
        QT_TRANSLATE_NOOP(
            "Shortcuts",
            "next / previous part: sidebar, search, papers, title, links, status, rating, tags, suggested tags, abstract, highlights, related papers, note",
        ),
    ),
    (
        "↑ / ↓, Enter",
        QT_TRANSLATE_NOOP(
            "Shortcuts", "in the links, suggested tags and related papers: move (← / → too), then open or add"
        ),
    ),
    ("Enter or Space", QT_TRANSLATE_NOOP("Shortcuts", "read: focus the abstract")),
    ("t", QT_TRANSLATE_NOOP("Shortcuts", "add a tag (Enter creates it; a/b makes a child tag)")),
    ("n", QT_TRANSLATE_NOOP("Shortcuts", "write in the note (it saves itself)")),
    ("Ctrl+Shift+P", QT_TRANSLATE_NOOP("Shortcuts", "switch the note between editing and its rendered preview")),
    ("0 – 5", QT_TRANSLATE_NOOP("Shortcuts", "set the rating")),
    ("u / s / r", QT_TRANSLATE_NOOP("Shortcuts", "mark unread / skimmed / read")),
    (
        "h, Shift+1…5",
        QT_TRANSLATE_NOOP(
            "Shortcuts",
            "highlight the selected words (select with Shift+arrows in the abstract): h then 1–5 for the color (h h yellow), or Shift+1…5 at once",
        ),
    ),
    (
        "Ctrl+Enter",
        QT_TRANSLATE_NOOP("Shortcuts", "open the paper: its attached file, else its arXiv page, DOI or web address"),
    ),
    ("Ctrl+F", QT_TRANSLATE_NOOP("Shortcuts", "search")),
    ("Esc", QT_TRANSLATE_NOOP("Shortcuts", "clear the search")),
    ("Ctrl+Z / Ctrl+Shift+Z", QT_TRANSLATE_NOOP("Shortcuts", "undo / redo")),
    (
        "Delete",
        QT_TRANSLATE_NOOP(
            "Shortcuts", "move the selected papers to the trash (undoable); in the Trash: delete them for good (asks)"
        ),
    ),
    ("Ctrl+3", QT_TRANSLATE_NOOP("Shortcuts", "the trash: deleted papers")),
    ("Ctrl+Shift+R", QT_TRANSLATE_NOOP("Shortcuts", "in the Trash: restore the selected papers (undoable)")),
    ("Ctrl+I", QT_TRANSLATE_NOOP("Shortcuts", "edit the paper's metadata (authors, venue, year, DOI, …)")),
    ("Ctrl+L", QT_TRANSLATE_NOOP("Shortcuts", "add the selection to a reading list")),
    ("Alt+↑ / Alt+↓", QT_TRANSLATE_NOOP("Shortcuts", "move a paper within the reading list shown")),
    ("Ctrl+Shift+L", QT_TRANSLATE_NOOP("Shortcuts", "new reading list")),
    ("Ctrl+Shift+S", QT_TRANSLATE_NOOP("Shortcuts", "save the search")),
    ("Ctrl+O", QT_TRANSLATE_NOOP("Shortcuts", "import files")),
    ("Ctrl+E", QT_TRANSLATE_NOOP("Shortcuts", "export")),
    ("Ctrl+P", QT_TRANSLATE_NOOP("Shortcuts", "print the selected papers")),
    ("Ctrl+Shift+C", QT_TRANSLATE_NOOP("Shortcuts", "copy the selected papers' references in the citation style")),
    ("Ctrl+1 / Ctrl+2", QT_TRANSLATE_NOOP("Shortcuts", "all papers / unread")),
    ("Ctrl+,", QT_TRANSLATE_NOOP("Shortcuts", "settings (Preferences on macOS)")),
    ("F1", QT_TRANSLATE_NOOP("Shortcuts", "this list")),
    ("Alt+Shift+1…5", QT_TRANSLATE_NOOP("Shortcuts", "add the reader’s suggested tag 1…5")),
    (
        "Ctrl+Shift+T",
        QT_TRANSLATE_NOOP(
            "Shortcuts",
            "triage: one paper at a time (u/s/r, 0–5, t, n, Alt+1…9 quick tags, Space or → next, ← back, Esc)",
        ),
    ),
]


def translated_shortcuts() -> list[tuple[str, str]]:
    """SHORTCUTS with the descriptions in the window's language (the keys as written)."""
    return [(k, QCoreApplication.translate("Shortcuts", v)) for k, v in SHORTCUTS]


# How the list writes keys -> Qt's portable names. The list is checked against the keys the
# window registers (tests/gui/test_shortcuts.py), so it cannot promise a key that does nothing.
_NAMES = {
    "↑": "Up",
    "↓": "Down",
    "←": "Left",
    "→": "Right",
    "enter": "Return",
    "esc": "Escape",
    "space": "Space",
    "del": "Delete",
}
NATIVE_KEYS = {"Up", "Down", "Tab", "Shift+Tab", "Home", "End"}  # the table's own keys, focus_order's: no shortcut


def listed_keys(shown: str) -> list[str]:
    """The key sequences (``QKeySequence`` portable text) that one row of :data:`SHORTCUTS`
    names: ``"u / s / r"`` -> U, S, R; ``"0 – 5"`` -> 0 … 5; ``"Shift+1…5"`` -> Shift+1 … Shift+5."""
    import re

    from PySide6.QtGui import QKeySequence

    out: list[str] = []
    # "Ctrl+," is a key: the comma between two keys has a space after it
    for part in re.split(r"\s*(?:\s/\s|,\s|\bor\b)\s*", shown):
        part = part.strip()
        if not part:
            continue
        span = re.fullmatch(r"(.*?)(\d)\s*[–…-]\s*(\d)", part)
        if span:
            prefix, first, last = span.group(1), int(span.group(2)), int(span.group(3))
            out += [f"{prefix}{n}" for n in range(first, last + 1)]
            continue
        *mods, key = part.split("+")
        key = _NAMES.get(key.lower(), key)
        out.append("+".join([*mods, key.upper() if len(key) == 1 else key]))
    portable = QKeySequence.SequenceFormat.PortableText
    return [QKeySequence(k).toString(portable) for k in out]  # "Escape" -> "Esc", as registered
