"""Validation rules the managers share: tag names, statuses, ratings, status order."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, case

from desktop_app.core.errors import LibraryError
from desktop_app.core.store.column_types import DECISIONS, STATUSES


def normalize_tag(name: str) -> str:
    """ "  RL / rlvr " -> "RL/rlvr": segments trimmed, empty segments dropped."""
    parts = [" ".join(p.split()) for p in name.split("/")]
    clean = "/".join(p for p in parts if p)
    if not clean:
        raise LibraryError(f"'{name}' is not a tag name")
    if len(clean) > 200:
        raise LibraryError("a tag name is at most 200 characters")
    return clean


def check_status(status: object) -> str:
    if status not in STATUSES:
        raise LibraryError(f"status is one of {', '.join(STATUSES)}, not '{status}'")
    return str(status)


def check_decision(decision: object) -> str | None:
    """keep / maybe / skip, or None (also spelt "none" or "") for "not decided"."""
    if decision is None or decision in ("", "none"):
        return None
    if decision not in DECISIONS:
        raise LibraryError(f"a decision is one of {', '.join(DECISIONS)} or none, not '{decision}'")
    return str(decision)


def check_rating(rating: object) -> int:
    if not isinstance(rating, int) or not 0 <= rating <= 5:
        raise LibraryError(f"a rating is a whole number from 0 to 5, not '{rating}'")
    return rating


def status_order(column: ColumnElement[Any]) -> ColumnElement[int]:
    """unread < skimmed < read, for sorting."""
    return case({s: n for n, s in enumerate(STATUSES)}, value=column, else_=len(STATUSES))


def decision_order(column: ColumnElement[Any]) -> ColumnElement[int]:
    """keep < maybe < skip < undecided, for sorting."""
    return case({s: n for n, s in enumerate(DECISIONS)}, value=column, else_=len(DECISIONS))
