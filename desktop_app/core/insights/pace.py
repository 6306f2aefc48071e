"""How fast the user decides, and how long what is left will take.

The pace is read from the change log's ``decision`` rows (one per decided paper, with its time):
the gaps between the last :data:`PACE_WINDOW` + 1 decisions, each gap over :data:`BREAK_SECONDS`
counted as a break and left out, averaged. A bulk decision (many papers in one transaction, so
one timestamp) counts as one decision. The time left is the undecided papers times that pace.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

import numpy as np
from sqlalchemy import select

from desktop_app.core.changelog.rows import FieldKind
from desktop_app.core.store import tables as t

if TYPE_CHECKING:
    from sqlalchemy import Select

    from desktop_app.core.store import Store

PACE_WINDOW = 50
BREAK_SECONDS = 120.0


@dataclass(frozen=True)
class Pace:
    seconds_per_paper: float | None  # None: fewer than two timed decisions yet
    decisions_timed: int


def decision_times(store: Store, limit: int = PACE_WINDOW + 1) -> list[datetime]:
    """The times of the newest decisions (distinct transactions), newest first."""
    c = t.change_log.c
    stmt: Select[datetime, str] = (
        select(c.at, c.detail).where(c.kind == FieldKind.DECISION.value).order_by(c.seq.desc()).limit(limit * 50)
    )
    times: list[datetime] = []
    with store.read() as conn:
        for at, detail in conn.execute(stmt):
            if '"via"' in (detail or "") or json.loads(detail or "{}").get("new") is None:
                continue  # imports, merges and un-decisions are not the user deciding
            if not times or times[-1] != at:
                times.append(at)
            if len(times) >= limit:
                break
    return times


def pace(store: Store) -> Pace:
    times = decision_times(store)
    gaps = [(a - b).total_seconds() for a, b in zip(times, times[1:], strict=False)]
    gaps = [g for g in gaps if 0 < g <= BREAK_SECONDS]
    if not gaps:
        return Pace(None, len(times))
    return Pace(sum(gaps) / len(gaps), len(gaps) + 1)


def format_duration(seconds: float) -> str:
    """ "about 1 h 50 min", "about 4 min", "under a minute" (English: the CLI's form)."""
    minutes = round(seconds / 60)
    if minutes < 1:
        return "under a minute"
    hours, minutes = divmod(minutes, 60)
    return f"about {hours} h {minutes} min" if hours else f"about {minutes} min"


MIN_DECISIONS = 50  # before this many decisions, no estimate of the keeps left
STILL_FINDING = 0.25  # nor while a quarter or more of the last 50 decisions are keeps


def decision_sequence(store: Store) -> list[bool]:
    """For each decided paper, in the order it was first decided: whether it is a keep now."""
    c, p = t.change_log.c, t.paper.c
    first: dict[int, int] = {}
    events: Select[int, int, str] = (
        select(c.seq, c.paper_id, c.detail)
        .where(c.kind == FieldKind.DECISION.value, c.paper_id.is_not(None))
        .order_by(c.seq)
    )
    decided: Select[int, str] = select(p.id, p.decision).where(p.decision.is_not(None), p.deleted_at.is_(None))
    with store.read() as conn:
        for seq, pid, detail in conn.execute(events):
            if pid not in first and '"via"' not in (detail or ""):
                first[pid] = seq
        now: dict[int, str] = dict(conn.execute(decided).all())
    return [now[pid] == "keep" for pid in sorted(first, key=first.__getitem__) if pid in now]


def keeps_left(sequence: list[bool], undecided: int) -> float | None:
    """Keeps expected among ``undecided`` papers, from the curve of keeps found so far.

    Decided in the learned order, the count of keeps found after ``x`` decisions flattens as the
    relevant papers run out; it is fitted with ``found(x) = A * (1 - exp(-b * x))`` (least
    squares), and ``A`` minus the keeps found is the estimate, at most the
    recent keep rate carried over every undecided paper. None before :data:`MIN_DECISIONS`
    decisions, and while :data:`STILL_FINDING` of the recent ones are keeps (too early to tell:
    on the shared reviews the figure was then 10x the truth)."""
    if undecided <= 0:
        return 0.0
    n = len(sequence)
    if n < MIN_DECISIONS:
        return None
    found = np.cumsum(np.asarray(sequence, dtype=np.float64))
    total = float(found[-1])
    recent = sequence[-MIN_DECISIONS:]
    ceiling = min(float(undecided), (sum(recent) + 0.5) / (len(recent) + 1) * undecided)
    if total == 0:
        return 0.0
    if sum(recent) / len(recent) >= STILL_FINDING:
        return None  # keeps still come thick and fast: the curve has not bent, any figure would be a guess
    x = np.arange(1, n + 1, dtype=np.float64)
    a = _saturating_fit(x, found)
    if a is None:
        return ceiling
    return float(max(0.0, min(ceiling, a - total)))


def _saturating_fit(x: np.ndarray, y: np.ndarray) -> float | None:
    """``A`` of the least-squares fit ``y = A * (1 - exp(-b * x))``: for each ``b`` of a
    logarithmic grid the best ``A`` is closed-form, and the ``b`` with the least squared error
    wins (numpy only; a grid of 400 rates, finer than the data can tell apart)."""
    best: tuple[float, float] | None = None
    for b in np.geomspace(1e-6, 1.0, 400):
        f = 1.0 - np.exp(-b * x)
        denom = float(f @ f)
        if denom <= 0:
            continue
        a = float(f @ y) / denom
        err = float(((a * f - y) ** 2).sum())
        if best is None or err < best[0]:
            best = (err, a)
    return None if best is None else best[1]
