"""Triage's two-second view: include words and exclude words coloured in the abstract, and the
sentence that states the contribution emphasised.

Marks are character formats laid on the shown document (never HTML built from the abstract), so
the untrusted text stays text. A word list entry matches a word that starts with it, in any
case ("reinforc" marks "Reinforcement"); an entry of several words matches them as a phrase.
The lists are per library (``WORD_LISTS`` under the window's per-library settings key).
"""

from __future__ import annotations

import re

from PySide6.QtCore import QRegularExpression
from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextCursor, QTextDocument

from desktop_app.gui import theme

INCLUDE_KEY = "triage/includeWords"
EXCLUDE_KEY = "triage/excludeWords"


def parse_words(text: str) -> list[str]:
    """ "rl, reinforcement learning; bandit" -> ["rl", "reinforcement learning", "bandit"]."""
    out: list[str] = []
    for part in re.split(r"[,;\n]", text or ""):
        word = " ".join(part.split()).lower()
        if word and word not in out:
            out.append(word)
    return out


def _pattern(word: str) -> QRegularExpression:
    body = r"\s+".join(re.escape(w) for w in word.split())
    return QRegularExpression(rf"\b{body}\w*", QRegularExpression.PatternOption.CaseInsensitiveOption)


def mark_words(doc: QTextDocument, include: list[str], exclude: list[str]) -> dict[str, int]:
    """Colour every occurrence; returns how many were marked of each list."""
    colors = theme.colors()
    counts = {"include": 0, "exclude": 0}
    for kind, words, bg in (("include", include, colors.include_word), ("exclude", exclude, colors.exclude_word)):
        fmt = QTextCharFormat()
        fmt.setBackground(QColor(bg))
        fmt.setForeground(QColor(theme.readable(colors.text, bg)))
        for word in words:
            cursor = QTextCursor(doc)
            pattern = _pattern(word)
            while True:
                cursor = doc.find(pattern, cursor)
                if cursor.isNull() or not cursor.hasSelection():
                    break
                cursor.mergeCharFormat(fmt)
                counts[kind] += 1
    return counts


def emphasise_sentence(doc: QTextDocument, sentence: str) -> bool:
    """Make the contribution sentence bold (the first place its text occurs)."""
    if not sentence:
        return False
    words = sentence.split()
    if not words:
        return False
    # the shown text may break lines or space differently: match the words, any whitespace between
    pattern = QRegularExpression(r"\s+".join(re.escape(w) for w in words))
    cursor = doc.find(pattern)
    if cursor.isNull() or not cursor.hasSelection():
        return False
    fmt = QTextCharFormat()
    fmt.setFontWeight(QFont.Weight.Bold)
    cursor.mergeCharFormat(fmt)
    return True
