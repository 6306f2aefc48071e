"""Possible duplicates: find pairs of papers that may be one, compare them, merge one into the
other choosing field by field, undo a merge, and say that a pair is two papers.

The import merges what :func:`~desktop_app.core.sameness.same_paper` calls one paper; what it
leaves apart (records kept apart on purpose, entries of one file, equal abstracts or citation keys
alone, titles edited since) is offered here. Candidates come from ``paper_identity`` (the look-up
keys :func:`~desktop_app.core.sameness.candidate_keys` files for each paper): one grouped query
over the keys that name more than one live paper, never a comparison of every paper with every
other. The rules then give each candidate pair its reason, and a pair without one is not offered.

A merge is one transaction that records, in ``paper_merge``, the kept paper's columns before and
everything moved onto it, so that :meth:`Duplicates.undo_merge` puts both papers back exactly.
"""

from __future__ import annotations

import json
import typing  # typing.cast: the name cast is sqlalchemy's here
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np
from sqlalchemy import Connection, Select, String, cast, delete, exists, func, insert, select, update

from desktop_app.core.anchoring import reanchor_all
from desktop_app.core.changelog import rows as change_log
from desktop_app.core.changelog.changes import writes
from desktop_app.core.changelog.undo_data import Dismissed, KeysFiled, Merged, MergeUndone, Undismissed
from desktop_app.core.errors import LibraryError
from desktop_app.core.sameness import (
    NEAR_REASON,
    REASON_LABELS,
    RULE_REASONS,
    Identity,
    candidate_keys,
    likeness,
    reason_rank,
    row_identity,
    same_paper,
)
from desktop_app.core.store import tables as t
from desktop_app.core.store.column_types import STATUSES
from desktop_app.core.store.store import inserted_id
from desktop_app.core.values import Change, ChangeKind, DuplicatePair, FieldDiff, PaperView

if TYPE_CHECKING:
    from desktop_app.core.papers import Papers
    from desktop_app.core.store import Store, Tx

# The fields a merge chooses between, with their labels, in the order the view shows them.
MERGE_FIELDS: dict[str, str] = {
    "title": "Title",
    "authors": "Authors",
    "abstract": "Abstract",
    "venue": "Venue",
    "year": "Year",
    "doi": "DOI",
    "arxiv_id": "arXiv id",
    "url": "URL",
    "bibtex_key": "Citation key",
    "entry_type": "Entry type",
    "keywords": "Keywords",
}
# The paper columns each field is stored in (the first holds the value; the rest go with it).
_COLUMNS: dict[str, tuple[str, ...]] = {
    "title": ("title", "title_source"),
    "authors": ("authors_json",),
    "abstract": ("abstract", "abstract_text"),
    "keywords": ("keywords_json",),
}
# The kept paper's columns a merge may change; ``before_json`` holds them.
_BEFORE = (
    "title",
    "title_source",
    "abstract",
    "abstract_text",
    "authors_json",
    "keywords_json",
    "venue",
    "year",
    "doi",
    "arxiv_id",
    "url",
    "bibtex_key",
    "entry_type",
    "extra_json",
    "status",
    "rating",
    "updated_at",
)
# A key naming more papers than this ("t:introduction", one blurb on every chapter of a series)
# tells nothing about any two of them; its pairs are not offered (they would be thousands).
MAX_GROUP = 50
# Near-duplicates in the semantic space (core/insights/semantic.py): on the seeds, a copy of a
# paper with a sentence dropped, one added and the first reworded scores 0.91-0.99 with it, while
# no two different seed papers pass 0.29 (benchmarks/bench_duplicates.py prints both).
NEAR_COSINE = 0.9
NEAR_WORDS = 0.5  # and a tf-idf cosine (the exact words) at least this: the seed copies 0.93-0.99
_HIGHLIGHT_ANCHOR = ("id", "start", "end", "prefix", "suffix", "orphaned")
_CHOICES = ("keep", "other")
MERGED_FROM = "— merged from: {title} —"


def _columns_of(field: str) -> tuple[str, ...]:
    return _COLUMNS.get(field, (field,))


def _fields(row: Mapping[str, Any]) -> dict[str, Any]:
    """A paper row's fields as the merge sees them (lists decoded)."""
    out = {f: row[f] for f in MERGE_FIELDS if f not in _COLUMNS}
    out.update(
        title=row["title"],
        title_source=row["title_source"],
        abstract=row["abstract"],
        abstract_text=row["abstract_text"],
        authors=json.loads(row["authors_json"] or "[]"),
        keywords=json.loads(row["keywords_json"] or "[]"),
    )
    return out


def _view_fields(view: PaperView) -> dict[str, Any]:
    """The same fields of a paper as :meth:`Papers.get` shows it."""
    return {f: getattr(view, f) for f in (*MERGE_FIELDS, "title_source", "abstract_text")}


def _has(fields: Mapping[str, Any], field: str) -> bool:
    """Whether a paper holds a value for ``field`` (a title derived from the abstract is none)."""
    if field == "title":
        return bool(fields["title"]) and fields["title_source"] != "derived"
    value = fields[field]
    return value is not None and value != "" and value != []


def _shown(fields: Mapping[str, Any], field: str) -> str:
    """A field as the compare view shows it (plain text)."""
    value = fields[field]
    if field in ("authors", "keywords"):
        return "; ".join(value)
    if field == "abstract":
        return fields["abstract_text"] or value or ""
    return "" if value is None else str(value)


def default_choice(kept: Mapping[str, Any], other: Mapping[str, Any], field: str) -> str:
    """What a merge does with ``field`` when not told: the other's value when the kept paper
    lacks one. ``kept`` and ``other`` are field mappings (:func:`_fields`)."""
    return "other" if not _has(kept, field) and _has(other, field) else "keep"


def _check_choices(choices: Mapping[str, str] | None) -> dict[str, str]:
    out = dict(choices or {})
    for field, side in out.items():
        if field not in MERGE_FIELDS:
            raise LibraryError(f"'{field}' is not a field a merge chooses; one of {', '.join(MERGE_FIELDS)}")
        if side not in _CHOICES:
            raise LibraryError(f"keep the value of field '{field}' from 'keep' or 'other', not '{side}'")
    return out


def pair_reason(a: Identity, b: Identity) -> str | None:
    """Why two papers may be one: a reason of the import's rules, else a likeness, else None."""
    return same_paper(a, b) or likeness(a, b)


def _jsonable(value: object) -> object:
    return value.isoformat() if isinstance(value, datetime) else value


def _from_json(column: str, value: object) -> object:
    if column == "updated_at" and isinstance(value, str):
        return datetime.fromisoformat(value)
    return value


class Duplicates:
    """``lib.duplicates``: possible duplicates found, compared, merged (undoably) or dismissed."""

    def __init__(self, store: Store, papers: Papers) -> None:
        self._store = store
        self._papers = papers
        # paper id -> (the columns its identity was made of, the identity): the last find's
        # candidates. Making an identity normalizes the abstract twice (1 ms a paper); a search
        # again after a merge or its undo makes only the identities of papers that changed.
        self._identity_cache: dict[int, tuple[tuple[Any, ...], Identity]] = {}

    # ---- finding ---------------------------------------------------------------------------
    def find(self, limit: int | None = None) -> list[DuplicatePair]:
        """Pairs of live papers that share a look-up key and that the rules or a likeness call
        possibly one paper, strongest reason first; pairs dismissed with :meth:`dismiss` are left out."""
        with self._store.read() as conn:
            candidates = sorted(self._candidates(conn))
            rows = self._identity_rows(conn, {i for pair in candidates for i in pair})
        identities = self._identities(rows)
        pairs = []
        for a, b in candidates:
            reason = pair_reason(identities[a], identities[b])
            if reason is None:
                continue
            pairs.append(
                DuplicatePair(
                    a,
                    b,
                    reason,
                    REASON_LABELS.get(reason, reason),
                    reason in RULE_REASONS,
                    rows[a]["title"],
                    rows[b]["title"],
                )
            )
        pairs += self._near_in_space({(p.a, p.b) for p in pairs})
        pairs.sort(key=lambda p: (reason_rank(p.reason), p.a, p.b))
        return pairs if limit is None else pairs[: max(0, limit)]

    def _near_in_space(self, offered: set[tuple[int, int]]) -> list[DuplicatePair]:
        """Pairs of live papers whose titles and abstracts are nearly one text in the library's
        semantic space (cosine at least :data:`NEAR_COSINE`: a preprint and its published version
        with the abstract reworded), not dismissed and not offered for another reason. Uses the
        space kept for the library, never waits for one being fitted (none: no such pairs)."""
        from desktop_app.core.insights.semantic import ready_space

        space = ready_space(self._store)
        if space is None:
            return []
        close = [(a, b) for a, b, _ in space.close_pairs(NEAR_COSINE) if (a, b) not in offered]
        if close:  # and the same words mostly: a tiny library's space puts unlike texts together
            pair_rows = space.rows([i for pair in close for i in pair]).reshape(-1, 2)
            w = space.weights
            words = np.asarray(w[pair_rows[:, 0]].multiply(w[pair_rows[:, 1]]).sum(axis=1)).ravel()
            close = [pair for pair, same in zip(close, words >= NEAR_WORDS, strict=True) if same]
        if not close:
            return []
        p, dp = t.paper.c, t.distinct_pair
        ids = sorted({i for pair in close for i in pair})
        from desktop_app.core.formats.identity import is_placeholder_abstract

        with self._store.read() as conn:
            rows = conn.execute(
                select(p.id, p.title, p.abstract_text).where(
                    self._store.dialect.in_ids(p.id, ids), p.deleted_at.is_(None)
                )
            ).all()
            dismissed = {(low, high) for low, high in conn.execute(select(dp.c.low_id, dp.c.high_id))}
        titles = {r[0]: r[1] for r in rows}
        # a missing or placeholder abstract ("[No abstract available]") says nothing: two such
        # papers are alike only by their titles, which the title rules judge
        said = {r[0] for r in rows if (r[2] or "").strip() and not is_placeholder_abstract(r[2])}
        return [
            DuplicatePair(a, b, NEAR_REASON, NEAR_REASON, False, titles[a], titles[b])
            for a, b in close
            if a in said and b in said and (a, b) not in dismissed
        ]

    def _candidates(self, conn: Connection) -> set[tuple[int, int]]:
        """(low id, high id) of live papers filed under one key, not dismissed.

        One grouped query over ``paper_identity``'s primary key (key, paper_id): the keys that
        name more than one paper, with their papers. (A self-join of the table on the key let
        SQLite start from every live paper: 5.6 s at 10,000 papers; this is milliseconds.)"""
        pi, p, dp = t.paper_identity, t.paper, t.distinct_pair
        papers = self._store.dialect.string_agg(cast(pi.c.paper_id, String), ",")
        groups = select(papers).group_by(pi.c.key).having(func.count() > 1)
        trashed: set[int] = set(conn.execute(select(p.c.id).where(p.c.deleted_at.is_not(None))).scalars())
        said_distinct: Select[int, int] = select(dp.c.low_id, dp.c.high_id)
        dismissed = {(low, high) for low, high in conn.execute(said_distinct)}
        pairs: set[tuple[int, int]] = set()
        for (ids_text,) in conn.execute(groups):
            ids = sorted({int(i) for i in ids_text.split(",")} - trashed)
            if 2 <= len(ids) <= MAX_GROUP:
                pairs.update(combinations(ids, 2))
        return pairs - dismissed

    def _identities(self, rows: Mapping[int, Mapping[str, Any]]) -> dict[int, Identity]:
        cache, fresh = self._identity_cache, {}
        for pid, row in rows.items():
            made_of = tuple(row.values())
            hit = cache.get(pid)
            fresh[pid] = hit if hit is not None and hit[0] == made_of else (made_of, row_identity(row))
        self._identity_cache = fresh
        return {pid: ident for pid, (_, ident) in fresh.items()}

    def _identity_rows(self, conn: Connection, ids: Iterable[int]) -> dict[int, Mapping[str, Any]]:
        """The columns :func:`row_identity` reads (and the title), of the given papers."""
        ids = sorted(ids)
        if not ids:
            return {}
        p = t.paper.c
        stmt = select(
            p.id,
            p.title,
            p.title_source,
            p.abstract,
            p.abstract_text,
            p.authors_json,
            p.venue,
            p.year,
            p.doi,
            p.arxiv_id,
            p.bibtex_key,
            p.extra_json,
        ).where(self._store.dialect.in_ids(p.id, ids))
        # the rows' keys are the column names (SQLAlchemy types a RowMapping's as names or columns)
        return typing.cast("dict[int, Mapping[str, Any]]", {row["id"]: row for row in conn.execute(stmt).mappings()})

    @writes
    def refresh_keys(self) -> Change:
        """File look-up keys for the papers that have none (papers made before keys were filed)."""
        pi, p = t.paper_identity, t.paper
        unfiled = select(p.c.id).where(~exists().where(pi.c.paper_id == p.c.id))
        with self._store.read() as conn:
            if conn.execute(unfiled.limit(1)).first() is None:
                return Change(ChangeKind.DUPLICATES, detail=KeysFiled(0))  # the usual case: no write at all
        with self._store.write() as tx:
            ids: list[int] = list(tx.conn.execute(unfiled).scalars())
            rows = self._identity_rows(tx.conn, ids)
            filed = sum(len(_file_keys(tx, pid, candidate_keys(row_identity(row)))) for pid, row in rows.items())
        return Change(ChangeKind.DUPLICATES, tuple(ids), detail=KeysFiled(filed))

    # ---- comparing -------------------------------------------------------------------------
    def compare(self, a: int, b: int) -> list[FieldDiff]:
        """The fields of two live papers side by side; ``default`` says what :meth:`merge`
        keeping ``a`` does with a field when not told."""
        if a == b:
            raise LibraryError("a paper is compared with another paper, not with itself")
        fa, fb = (_view_fields(self._papers.get(pid)) for pid in (a, b))
        return [
            FieldDiff(
                field,
                label,
                _shown(fa, field),
                _shown(fb, field),
                _shown(fa, field) == _shown(fb, field),
                default_choice(fa, fb, field),
            )
            for field, label in MERGE_FIELDS.items()
        ]

    # ---- merging ---------------------------------------------------------------------------
    @writes
    def merge(self, keep_id: int, other_id: int, choices: dict[str, str] | None = None) -> Change:
        """Merge paper ``other_id`` into ``keep_id`` in one transaction; the other goes to the trash.

        ``choices`` maps a field of :data:`MERGE_FIELDS` to "keep" or "other"; a field not named
        takes the other's value only when the kept paper has none. The other's tags are added,
        its reading-list places move over (a list holding both keeps the kept paper's place), its
        highlights move when the two abstracts end up equal, its note is appended under a
        "— merged from: <title> —" line; the more advanced status and the higher rating win.
        ``detail.merge_id`` is what :meth:`undo_merge` takes."""
        keep_id, other_id = int(keep_id), int(other_id)
        if keep_id == other_id:
            raise LibraryError("a paper cannot be merged with itself")
        wanted = _check_choices(choices)
        with self._store.write() as tx:
            tx.d.lock_tags(tx.conn, exclusive=False)  # it copies tag links: no rename under it
            kept, other = (_live_row(tx.conn, pid) for pid in (keep_id, other_id))
            fk, fo = _fields(kept), _fields(other)
            sides = {f: wanted.get(f) or default_choice(fk, fo, f) for f in MERGE_FIELDS}
            values = _merged_values(kept, other, sides)
            before = {c: _jsonable(kept[c]) for c in _BEFORE}
            moved: dict[str, Any] = {"other_title": other["title"]}
            if values.get("abstract_text", kept["abstract_text"]) != kept["abstract_text"]:
                moved["anchors"] = _anchors(tx.conn, keep_id)
            swap = values.get("bibtex_key") not in (None, kept["bibtex_key"])
            if swap:  # the kept paper takes the other's citation key; the other (in the trash) its
                # old one, so that each key still names one paper: a NULL first, for the unique index
                moved["citation_key"] = other["bibtex_key"]
                tx.conn.execute(update(t.paper).where(t.paper.c.id == other_id).values(bibtex_key=None))
            tx.conn.execute(update(t.paper).where(t.paper.c.id == keep_id).values(**values, updated_at=tx.now))
            if swap:
                tx.conn.execute(update(t.paper).where(t.paper.c.id == other_id).values(bibtex_key=kept["bibtex_key"]))
            change_log.record_fields(tx, {keep_id: kept}, {keep_id: values}, via="merge")
            if "anchors" in moved:
                reanchor_all(tx.conn, keep_id, values["abstract_text"], kept["abstract_text"])
            final_abstract = values.get("abstract_text", kept["abstract_text"])
            moved["tag_ids"] = _move_tags(tx, keep_id, other_id)
            moved["list_item_ids"] = _move_list_items(tx, keep_id, other_id)
            moved["highlight_ids"] = (
                _move_highlights(tx, keep_id, other_id) if final_abstract == other["abstract_text"] else []
            )
            moved["note"] = _append_note(tx, keep_id, other_id, other["title"])
            moved["keys"] = _file_merged_keys(tx, keep_id, other_id)
            tx.conn.execute(update(t.paper).where(t.paper.c.id == other_id).values(deleted_at=tx.now))
            merge_id = inserted_id(
                tx.conn.execute(
                    insert(t.paper_merge).values(
                        kept_id=keep_id,
                        merged_id=other_id,
                        before_json=json.dumps(before, ensure_ascii=False),
                        moved_json=json.dumps(moved, ensure_ascii=False),
                        merged_at=tx.now,
                        undone=False,
                    )
                )
            )
            tx.queue_index([keep_id, other_id])
        return Change(
            ChangeKind.PAPERS,
            (keep_id, other_id),
            text_changed=True,
            detail=Merged(merge_id, keep_id, other_id),
        )

    @writes
    def undo_merge(self, merge_id: int) -> Change:
        """Put back what :meth:`merge` changed: the kept paper's fields, tags, list places,
        highlights and note as they were, and the other paper out of the trash."""
        m, p = t.paper_merge, t.paper
        with self._store.write() as tx:
            tx.d.lock_tags(tx.conn, exclusive=False)  # it puts tag links back
            row = tx.conn.execute(select(m).where(m.c.id == merge_id)).mappings().first()
            if row is None:
                raise LibraryError(f"no merge with id {merge_id}")
            if row["undone"]:
                raise LibraryError(f"merge {merge_id} was undone already")
            keep_id, other_id = row["kept_id"], row["merged_id"]
            before, moved = json.loads(row["before_json"]), json.loads(row["moved_json"])
            now = typing.cast(
                "Mapping[str, Any]",  # by column name
                tx.conn.execute(select(p.c.status, p.c.rating).where(p.c.id == keep_id)).mappings().one(),
            )
            if "citation_key" in moved:  # the keys swapped back (see merge)
                tx.conn.execute(update(p).where(p.c.id == other_id).values(bibtex_key=None))
            tx.conn.execute(update(p).where(p.c.id == keep_id).values({c: _from_json(c, v) for c, v in before.items()}))
            if "citation_key" in moved:
                tx.conn.execute(update(p).where(p.c.id == other_id).values(bibtex_key=moved["citation_key"]))
            change_log.record_fields(tx, {keep_id: now}, {keep_id: before}, via="merge")
            h, item, pt, pi = t.highlight, t.reading_list_item, t.paper_tag, t.paper_identity
            if moved["highlight_ids"]:  # first: the kept paper's own are re-placed next
                tx.conn.execute(
                    update(h)
                    .where(h.c.paper_id == keep_id, tx.d.in_ids(h.c.id, moved["highlight_ids"]))
                    .values(paper_id=other_id)
                )
            _restore_anchors(tx, keep_id, moved.get("anchors"), before["abstract_text"])
            if moved["list_item_ids"]:
                tx.conn.execute(
                    update(item)
                    .where(item.c.paper_id == keep_id, tx.d.in_ids(item.c.id, moved["list_item_ids"]))
                    .values(paper_id=other_id)
                )
            if moved["tag_ids"]:
                tx.conn.execute(delete(pt).where(pt.c.paper_id == keep_id, tx.d.in_ids(pt.c.tag_id, moved["tag_ids"])))
            if moved["keys"]:
                tx.conn.execute(delete(pi).where(pi.c.paper_id == keep_id, pi.c.key.in_(moved["keys"])))
            _restore_note(tx, keep_id, moved["note"])
            tx.conn.execute(update(p).where(p.c.id == other_id).values(deleted_at=None))
            tx.conn.execute(update(m).where(m.c.id == merge_id).values(undone=True))
            tx.queue_index([keep_id, other_id])
        return Change(
            ChangeKind.PAPERS,
            (keep_id, other_id),
            text_changed=True,
            detail=MergeUndone(merge_id, keep_id, other_id),
        )

    def merges(self) -> list[dict[str, Any]]:
        """Every merge, newest first, as dicts of the ``paper_merge`` columns (JSON left as text)."""
        m = t.paper_merge
        with self._store.read() as conn:
            return [dict(r) for r in conn.execute(select(m).order_by(m.c.id.desc())).mappings()]

    # ---- pairs that are two papers ----------------------------------------------------------
    @writes
    def dismiss(self, a: int, b: int) -> Change:
        """Say that two papers are different: :meth:`find` never offers the pair again."""
        low, high = _ordered(a, b)
        dp = t.distinct_pair
        with self._store.write() as tx:
            tx.require_papers([low, high])
            tx.conn.execute(
                tx.d.insert(dp)
                .values(low_id=low, high_id=high)
                .on_conflict_do_nothing(index_elements=["low_id", "high_id"])
            )
        return Change(ChangeKind.DUPLICATES, (low, high), detail=Dismissed((low, high)))

    @writes
    def undismiss(self, a: int, b: int) -> Change:
        """Offer a dismissed pair again (the undo of :meth:`dismiss`)."""
        low, high = _ordered(a, b)
        dp = t.distinct_pair
        with self._store.write() as tx:
            tx.conn.execute(delete(dp).where(dp.c.low_id == low, dp.c.high_id == high))
        return Change(ChangeKind.DUPLICATES, (low, high), detail=Undismissed((low, high)))

    def dismissed(self) -> list[tuple[int, int]]:
        """The pairs said to be different papers, (low id, high id)."""
        dp = t.distinct_pair
        with self._store.read() as conn:
            pairs: Select[int, int] = select(dp.c.low_id, dp.c.high_id).order_by(dp.c.low_id, dp.c.high_id)
            return [(low, high) for low, high in conn.execute(pairs)]


# ---- the steps of a merge and of its undo (inside the caller's transaction) -------------------
def _ordered(a: int, b: int) -> tuple[int, int]:
    a, b = int(a), int(b)
    if a == b:
        raise LibraryError("a pair is two different papers")
    return (a, b) if a < b else (b, a)


def _live_row(conn: Connection, pid: int) -> Mapping[str, Any]:
    row = conn.execute(select(t.paper).where(t.paper.c.id == pid)).mappings().first()
    if row is None:
        raise LibraryError(f"no paper with id {pid}")
    if row["deleted_at"] is not None:
        raise LibraryError(f"paper {pid} is in the trash; restore it before merging it")
    return typing.cast("Mapping[str, Any]", row)  # by column name


def _merged_values(kept: Mapping[str, Any], other: Mapping[str, Any], sides: Mapping[str, str]) -> dict[str, Any]:
    """The kept paper's columns that change: the fields taken from the other, the more advanced
    status, the higher rating, and the other's extra fields (PubMed id, ISBN...) the kept lacks."""
    values: dict[str, Any] = {}
    for field, side in sides.items():
        if side == "other":
            for column in _columns_of(field):
                if other[column] != kept[column]:
                    values[column] = other[column]
    if STATUSES.index(other["status"]) > STATUSES.index(kept["status"]):
        values["status"] = other["status"]
    if other["rating"] > kept["rating"]:
        values["rating"] = other["rating"]
    extra = json.loads(kept["extra_json"] or "{}")
    more = {k: v for k, v in json.loads(other["extra_json"] or "{}").items() if k not in extra}
    if more:
        values["extra_json"] = json.dumps({**extra, **more}, ensure_ascii=False)
    return values


def _anchors(conn: Connection, pid: int) -> list[dict[str, Any]]:
    """Where a paper's highlights sit now (what re-anchoring on a new abstract changes)."""
    h = t.highlight.c
    return [
        dict(r) for r in conn.execute(select(*(h[c] for c in _HIGHLIGHT_ANCHOR)).where(h.paper_id == pid)).mappings()
    ]


def _restore_anchors(tx: Tx, pid: int, anchors: list[dict[str, Any]] | None, plain: str) -> None:
    """Put highlights back where they were; ones added since the merge re-anchor on ``plain``."""
    if anchors is None:
        return
    h = t.highlight
    known = {a["id"] for a in anchors}
    ids_now: Select[int] = select(h.c.id).where(h.c.paper_id == pid)
    later = [hid for hid in tx.conn.execute(ids_now).scalars() if hid not in known]
    for a in anchors:
        tx.conn.execute(
            update(h)
            .where(h.c.id == a["id"], h.c.paper_id == pid)
            .values({c: a[c] for c in _HIGHLIGHT_ANCHOR if c != "id"})
        )
    if later:
        reanchor_all(tx.conn, pid, plain)


def _move_tags(tx: Tx, keep_id: int, other_id: int) -> list[int]:
    """Give the kept paper the other's tags it lacks; the tag ids added."""
    pt = t.paper_tag
    has: set[int] = set(tx.conn.execute(select(pt.c.tag_id).where(pt.c.paper_id == keep_id)).scalars())
    theirs: Select[int] = select(pt.c.tag_id).where(pt.c.paper_id == other_id).order_by(pt.c.tag_id)
    added = [tid for tid in tx.conn.execute(theirs).scalars() if tid not in has]
    if added:
        tx.conn.execute(insert(pt), [{"paper_id": keep_id, "tag_id": tid} for tid in added])
    return added


def _move_list_items(tx: Tx, keep_id: int, other_id: int) -> list[int]:
    """Hand the other's reading-list items to the kept paper (same place in the list), except in
    lists that hold the kept paper already; the item ids moved."""
    item = t.reading_list_item
    kept_lists = select(item.c.list_id).where(item.c.paper_id == keep_id)
    ids: list[int] = list(
        tx.conn.execute(
            select(item.c.id).where(item.c.paper_id == other_id, item.c.list_id.not_in(kept_lists)).order_by(item.c.id)
        ).scalars()
    )
    if ids:
        tx.conn.execute(update(item).where(tx.d.in_ids(item.c.id, ids)).values(paper_id=keep_id))
    return ids


def _move_highlights(tx: Tx, keep_id: int, other_id: int) -> list[int]:
    h = t.highlight
    ids: list[int] = list(tx.conn.execute(select(h.c.id).where(h.c.paper_id == other_id).order_by(h.c.id)).scalars())
    if ids:
        tx.conn.execute(update(h).where(tx.d.in_ids(h.c.id, ids)).values(paper_id=keep_id))
    return ids


def _append_note(tx: Tx, keep_id: int, other_id: int, other_title: str) -> dict[str, Any]:
    """Append the other's note to the kept one under a "merged from" line; what undo needs."""
    n = t.note
    kept = tx.conn.execute(select(n.c.text, n.c.updated_at).where(n.c.paper_id == keep_id)).first()
    theirs = tx.conn.execute(select(n.c.text).where(n.c.paper_id == other_id)).scalar() or ""
    old = kept[0] if kept is not None else None
    state: dict[str, Any] = {
        "existed": kept is not None,
        "text": old or "",
        "updated_at": _jsonable(kept[1]) if kept is not None else None,
    }
    if not theirs.strip():
        return state
    heading = MERGED_FROM.format(title=" ".join((other_title or "").split()) or f"paper {other_id}")
    text = (old.rstrip("\n") + "\n\n" if old and old.strip() else "") + f"{heading}\n{theirs}"
    if old:
        state["revision_id"] = inserted_id(
            tx.conn.execute(insert(t.note_revision).values(paper_id=keep_id, text=old, saved_at=tx.now))
        )
    ins = tx.d.insert(n).values(paper_id=keep_id, text=text, updated_at=tx.now)
    tx.conn.execute(
        ins.on_conflict_do_update(
            index_elements=["paper_id"], set_={"text": ins.excluded.text, "updated_at": ins.excluded.updated_at}
        )
    )
    state["after"] = text
    return state


def _restore_note(tx: Tx, keep_id: int, state: Mapping[str, Any]) -> None:
    """The kept note as it was before the merge. A text written since the merge is kept as a revision."""
    if "after" not in state:
        return
    n, rev = t.note, t.note_revision
    now = tx.conn.execute(select(n.c.text).where(n.c.paper_id == keep_id)).scalar()
    if now and now != state["after"] and now != state["text"]:
        tx.conn.execute(insert(rev).values(paper_id=keep_id, text=now, saved_at=tx.now))
    if state.get("revision_id") is not None:
        tx.conn.execute(delete(rev).where(rev.c.id == state["revision_id"]))
    if not state["existed"]:
        tx.conn.execute(delete(n).where(n.c.paper_id == keep_id))
        return
    when = datetime.fromisoformat(state["updated_at"]) if state.get("updated_at") else tx.now
    tx.conn.execute(update(n).where(n.c.paper_id == keep_id).values(text=state["text"], updated_at=when))


def _file_keys(tx: Tx, pid: int, keys: Sequence[str]) -> list[str]:
    """File ``keys`` under a paper (keys it has stay); the keys that were new."""
    pi = t.paper_identity
    have: set[str] = set(tx.conn.execute(select(pi.c.key).where(pi.c.paper_id == pid)).scalars())
    new = [k for k in dict.fromkeys(keys) if k not in have]
    if new:
        tx.conn.execute(insert(pi), [{"key": k, "paper_id": pid} for k in new])
    return new


def _file_merged_keys(tx: Tx, keep_id: int, other_id: int) -> list[str]:
    """File the other's keys, and those of the kept paper's merged fields, under the kept paper;
    the keys that were new."""
    pi = t.paper_identity
    keys: list[str] = list(
        tx.conn.execute(select(pi.c.key).where(pi.c.paper_id == other_id).order_by(pi.c.key)).scalars()
    )
    row = tx.conn.execute(select(t.paper).where(t.paper.c.id == keep_id)).mappings().one()
    return _file_keys(tx, keep_id, keys + candidate_keys(row_identity(row)))
