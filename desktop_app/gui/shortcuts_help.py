"""The keyboard shortcuts, listed once for Help → Keyboard shortcuts and the README."""

SHORTCUTS: list[tuple[str, str]] = [
    ("↑ / ↓ or j / k", "previous / next paper"),
    ("Tab / Shift+Tab", "next / previous part: sidebar, search, papers, title, status, rating, tags, abstract, "
                        "highlights, note"),
    ("Enter or Space", "read: focus the abstract"),
    ("t", "add a tag (Enter creates it; a/b makes a child tag)"),
    ("n", "write in the note (it saves itself)"),
    ("Ctrl+Shift+P", "switch the note between editing and its rendered preview"),
    ("0 – 5", "set the rating"),
    ("u / s / r", "mark unread / skimmed / read"),
    ("h, Shift+1…5", "highlight the selected words (yellow, or a color)"),
    ("Ctrl+Enter", "open the paper: its attached file, else its arXiv page, DOI or web address"),
    ("Ctrl+F", "search"),
    ("Esc", "clear the search"),
    ("Ctrl+Z / Ctrl+Shift+Z", "undo / redo"),
    ("Delete", "delete the selected papers (asks; undoable)"),
    ("Ctrl+I", "edit the paper's metadata (authors, venue, year, DOI, …)"),
    ("Ctrl+L", "add the selection to a reading list"),
    ("Alt+↑ / Alt+↓", "move a paper within the reading list shown"),
    ("Ctrl+Shift+L", "new reading list"),
    ("Ctrl+Shift+S", "save the search"),
    ("Ctrl+O", "import files"),
    ("Ctrl+E", "export"),
    ("Ctrl+P", "print the selected papers"),
    ("Ctrl+Shift+C", "copy the selected papers' references in the citation style"),
    ("Ctrl+1 / Ctrl+2", "all papers / unread"),
    ("Ctrl+,", "settings (Preferences on macOS)"),
    ("F1", "this list"),
    ("Alt+Shift+1…5", "add the reader's suggested tag 1…5"),
    ("Ctrl+Shift+T", "triage: one paper at a time (u/s/r, 0–5, t, n, Alt+1…9 quick tags, Space or → next, ← back, Esc)"),
]

# How the list writes keys -> Qt's portable names. The list is checked against the keys the
# window registers (tests/gui/test_shortcuts.py), so it cannot promise a key that does nothing.
_NAMES = {"↑": "Up", "↓": "Down", "←": "Left", "→": "Right", "enter": "Return", "esc": "Escape",
          "space": "Space", "del": "Delete"}
NATIVE_KEYS = {"Up", "Down", "Tab", "Shift+Tab"}  # Qt's own keys (the table's, focus_order's), no shortcut


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
