"""The keyboard shortcuts, listed once for Help → Keyboard shortcuts and the README."""

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

SHORTCUTS: list[tuple[str, str]] = [
    ("↑ / ↓ or j / k", QT_TRANSLATE_NOOP("Shortcuts", "previous / next paper")),
    ("Enter or Space", QT_TRANSLATE_NOOP("Shortcuts", "read: focus the abstract")),
    ("t", QT_TRANSLATE_NOOP("Shortcuts", "add a tag (Enter creates it; a/b makes a child tag)")),
    ("n", QT_TRANSLATE_NOOP("Shortcuts", "write in the note (it saves itself)")),
    ("Ctrl+Shift+P", QT_TRANSLATE_NOOP("Shortcuts", "switch the note between editing and its rendered preview")),
    ("0 – 5", QT_TRANSLATE_NOOP("Shortcuts", "set the rating")),
    ("u / s / r", QT_TRANSLATE_NOOP("Shortcuts", "mark unread / skimmed / read")),
    ("h, Shift+1…5", QT_TRANSLATE_NOOP("Shortcuts", "highlight the selected words (yellow, or a color)")),
    ("Ctrl+Enter", QT_TRANSLATE_NOOP("Shortcuts", "open the paper: its attached file, else its arXiv page, DOI or web address")),
    ("Ctrl+F", QT_TRANSLATE_NOOP("Shortcuts", "search")),
    ("Esc", QT_TRANSLATE_NOOP("Shortcuts", "clear the search")),
    ("Ctrl+Z / Ctrl+Shift+Z", QT_TRANSLATE_NOOP("Shortcuts", "undo / redo")),
    ("Delete", QT_TRANSLATE_NOOP("Shortcuts", "delete the selected papers (asks; undoable)")),
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
]


def translated_shortcuts() -> list[tuple[str, str]]:
    """SHORTCUTS with the descriptions in the window's language (the keys as written)."""
    return [(k, QCoreApplication.translate("Shortcuts", v)) for k, v in SHORTCUTS]
