"""Locale-aware order of titles and names (QCollator) where the window sorts them.

The table's sort is SQL (core/finder.py: ``ORDER BY title COLLATE NOCASE`` on SQLite): that folds
ASCII case only and puts other scripts in code-point order, so Chinese titles come in Unicode
order, not pinyin, and "Éclair" after "Zebra". The core cannot use Qt. So the window reorders a
title-sorted result itself with a QCollator for the interface's locale (pinyin order under
zh_CN, accents and case folded under English) when the result is at most ``TITLE_LIMIT`` papers
(reading their titles and sorting: 1.7 ms for 76 papers, so about 45 ms at the limit, warm);
a larger result keeps the SQL order.
Tag names in the sidebar, the bulk panel and the paper menu are sorted with the same collator.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QCollator, QCollatorSortKey, QLocale, Qt

TITLE_LIMIT = 2000

_collator: tuple[str, QCollator] | None = None


def collator() -> QCollator:
    """A case-insensitive, numeric-aware collator for the current default locale."""
    global _collator
    name = QLocale().name()
    if _collator is None or _collator[0] != name:
        c = QCollator(QLocale())
        c.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        c.setNumericMode(True)
        _collator = (name, c)
    return _collator[1]


def key(text: str | None) -> QCollatorSortKey:
    # casefold first: under the C/POSIX locale (no ICU rules) QCollator compares code points
    # whatever its case sensitivity, which put "Vision" before "ml"
    return collator().sortKey((text or "").casefold())


def sorted_names(names: Iterable[str]) -> list[str]:
    return sorted(names, key=key)


def order(win: object, ids: list[int]) -> list[int]:
    """``ids`` (a result sorted by title in SQL) in the locale's order of their titles; any
    other sort, or a result over TITLE_LIMIT papers, as it came."""
    if getattr(win, "sort_key", None) != "title" or not 1 < len(ids) <= TITLE_LIMIT:
        return ids
    rows = win.library.papers.rows(ids)  # type: ignore[attr-defined]
    keys = {pid: key(row.title) for pid, row in rows.items()}
    blank = key("")
    return sorted(ids, key=lambda pid: keys.get(pid, blank), reverse=bool(getattr(win, "sort_desc", False)))
