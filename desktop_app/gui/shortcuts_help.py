"""The keyboard shortcuts, listed once for Help → Keyboard shortcuts and the README."""

SHORTCUTS: list[tuple[str, str]] = [
    ("↑ / ↓ or j / k", "previous / next paper"),
    ("Enter or Space", "read: focus the abstract"),
    ("t", "add a tag (Enter creates it; a/b makes a child tag)"),
    ("n", "write in the note (it saves itself)"),
    ("0 – 5", "set the rating"),
    ("u / s / r", "mark unread / skimmed / read"),
    ("h, Shift+1…5", "highlight the selected words (yellow, or a color)"),
    ("Ctrl+F", "search"),
    ("Esc", "clear the search"),
    ("Ctrl+Z / Ctrl+Shift+Z", "undo / redo"),
    ("Delete", "delete the selected papers (asks; undoable)"),
    ("Ctrl+L", "add the selection to a reading list"),
    ("Alt+↑ / Alt+↓", "move a paper within the reading list shown"),
    ("Ctrl+Shift+L", "new reading list"),
    ("Ctrl+Shift+S", "save the search"),
    ("Ctrl+O", "import files"),
    ("Ctrl+E", "export"),
    ("Ctrl+P", "print the selected papers"),
    ("Ctrl+1 / Ctrl+2", "all papers / unread"),
    ("F1", "this list"),
]
