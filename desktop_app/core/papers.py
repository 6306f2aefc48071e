"""Papers: reading one paper or a page of table rows, and editing a paper's own fields.

Tags, notes, highlights and list membership have managers of their own; this one owns the
columns of ``paper``: title, abstract, status, rating, the trash.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import (
    ColumnElement,
    RowMapping,
    Select,
    String,
    and_,
    case,
    exists,
    func,
    insert,
    or_,
    select,
    type_coerce,
    update,
)

from desktop_app.core.changelog import rows as change_log
from desktop_app.core.changelog.changes import writes
from desktop_app.core.changelog.rows import FieldKind
from desktop_app.core.changelog.undo_data import ColumnBefore, MetadataBefore, Restored, TitleBefore, Trashed
from desktop_app.core.display_text import display_text, neutral_bidi
from desktop_app.core.errors import LibraryError
from desktop_app.core.metadata import short_authors
from desktop_app.core.rules import check_decision, check_rating, check_status
from desktop_app.core.store import Store, Tx
from desktop_app.core.store import tables as t
from desktop_app.core.store.column_types import STATUSES
from desktop_app.core.store.dialect import Dialect
from desktop_app.core.values import Change, ChangeKind, HighlightView, PaperRow, PaperView

_TAG_SEPARATOR = "\x1f"
# the table's optional fields, in the order filled_fields() computes them ("marks": highlights or a note)
FILLABLE = ("authors", "venue", "year", "rating", "decision", "tags", "marks")


def _rows_statement(d: Dialect) -> Select[*tuple[Any, ...]]:
    """One query for a page of table rows; the ids are bound to "ids"."""
    p = t.paper.c
    tags = (
        select(d.string_agg(t.tag.c.name, _TAG_SEPARATOR))
        .join(t.paper_tag, t.paper_tag.c.tag_id == t.tag.c.id)
        .where(t.paper_tag.c.paper_id == p.id)
        .scalar_subquery()
    )
    highlights = select(func.count()).select_from(t.highlight).where(t.highlight.c.paper_id == p.id).scalar_subquery()
    has_note = exists().where(t.note.c.paper_id == p.id, t.note.c.text != "")
    # added_at as stored text: the table shows its first 16 characters, no datetime needed
    return select(
        p.id,
        p.title,
        p.venue,
        p.year,
        p.status,
        p.rating,
        p.decision,
        type_coerce(p.added_at, String).label("added_at"),
        type_coerce(p.updated_at, String).label("updated_at"),
        p.authors_json,
        tags.label("tags"),
        highlights.label("hl"),
        has_note.label("has_note"),
    ).where(d.in_ids_named(p.id, "ids"))


class Papers:
    """``lib.papers``: one paper, table rows, counts, and edits of a paper's fields."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._rows_stmt: Select[*tuple[Any, ...]] | None = None  # built once: rows() runs for every page shown

    # ---- reads ---------------------------------------------------------------------------
    def count(self) -> int:
        """Papers not in the trash."""
        with self._store.read() as conn:
            return conn.execute(
                select(func.count()).select_from(t.paper).where(t.paper.c.deleted_at.is_(None))
            ).scalar_one()

    def status_counts(self) -> dict[str, int]:
        p = t.paper.c
        with self._store.read() as conn:
            rows = conn.execute(select(p.status, func.count()).where(p.deleted_at.is_(None)).group_by(p.status)).all()
        counts = {s: 0 for s in STATUSES}
        counts.update({r[0]: r[1] for r in rows})
        return counts

    def get(self, paper_id: int, *, trashed: bool = False) -> PaperView:
        """Everything the reader shows of one live paper (``trashed``: of one in the trash)."""
        d = self._store.dialect
        deleted = t.paper.c.deleted_at
        with self._store.read() as conn:
            row = (
                conn.execute(
                    select(t.paper).where(
                        t.paper.c.id == paper_id, deleted.is_not(None) if trashed else deleted.is_(None)
                    )
                )
                .mappings()
                .first()
            )
            if row is None:
                raise LibraryError(f"no paper with id {paper_id}")
            tags: list[str] = list(
                conn.execute(
                    select(t.tag.c.name)
                    .join(t.paper_tag, t.paper_tag.c.tag_id == t.tag.c.id)
                    .where(t.paper_tag.c.paper_id == paper_id)
                    .order_by(d.nocase(t.tag.c.name))
                ).scalars()
            )
            note = conn.execute(select(t.note.c.text).where(t.note.c.paper_id == paper_id)).scalar()
            h = t.highlight.c
            hls = [
                HighlightView(r.id, r.start, r.end, r.quote, r.prefix, r.suffix, r.color, r.comment, bool(r.orphaned))
                for r in conn.execute(
                    select(t.highlight).where(h.paper_id == paper_id).order_by(h.orphaned, h.start, h.id)
                )
            ]
            lists: list[str] = list(
                conn.execute(
                    select(t.reading_list.c.name)
                    .join(t.reading_list_item, t.reading_list_item.c.list_id == t.reading_list.c.id)
                    .where(t.reading_list_item.c.paper_id == paper_id)
                    .order_by(d.nocase(t.reading_list.c.name))
                ).scalars()
            )
        return PaperView(  # text made safe to show (core/display_text.py); an abstract keeps its length
            id=row["id"],
            uid=row["uid"],
            title=display_text(row["title"]),
            title_source=row["title_source"],
            abstract=neutral_bidi(row["abstract"]),
            abstract_text=neutral_bidi(row["abstract_text"]),
            authors=[display_text(a) for a in json.loads(row["authors_json"] or "[]")],
            venue=display_text(row["venue"]) if row["venue"] else row["venue"],
            year=row["year"],
            doi=row["doi"],
            arxiv_id=row["arxiv_id"],
            url=row["url"],
            bibtex_key=row["bibtex_key"],
            entry_type=row["entry_type"],
            status=row["status"],
            rating=row["rating"],
            tags=tags,
            note=note or "",
            added_at=str(row["added_at"])[:19],
            extra=json.loads(row["extra_json"] or "{}"),
            highlights=hls,
            lists=lists,
            keywords=json.loads(row["keywords_json"] or "[]"),
            decision=row["decision"],
        )

    def rows(self, paper_ids: Sequence[int]) -> dict[int, PaperRow]:
        """Table rows for a page of papers, in one query."""
        if not paper_ids:
            return {}
        if self._rows_stmt is None:
            self._rows_stmt = _rows_statement(self._store.dialect)
        d = self._store.dialect
        out: dict[int, PaperRow] = {}
        with self._store.read() as conn:
            for r in conn.execute(self._rows_stmt, {"ids": d.ids_value(paper_ids)}):
                authors = [display_text(a) for a in json.loads(r.authors_json or "[]")]
                out[r.id] = PaperRow(
                    id=r.id,
                    title=display_text(r.title),
                    venue=display_text(r.venue) if r.venue else r.venue,
                    year=r.year,
                    tags=sorted(r.tags.split(_TAG_SEPARATOR), key=str.lower) if r.tags else [],
                    status=r.status,
                    rating=r.rating,
                    added_at=str(r.added_at)[:16],
                    highlights=r.hl,
                    has_note=bool(r.has_note),
                    authors="; ".join(authors[:3]) + (" …" if len(authors) > 3 else ""),
                    authors_short=short_authors(authors),
                    updated_at=str(r.updated_at or "")[:19],
                    decision=r.decision,
                )
        return out

    def filled_fields(self, paper_ids: Sequence[int]) -> frozenset[str]:
        """Which of the table's optional fields (FILLABLE) any of these papers has: one
        statement of aggregates over the ids (the table hides a column empty for all of them)."""
        if not paper_ids:
            return frozenset()
        d = self._store.dialect
        p = t.paper.c

        def some(condition: ColumnElement[bool]) -> ColumnElement[int]:
            return func.coalesce(func.max(case((condition, 1), else_=0)), 0)

        tagged = exists().where(d.in_ids_named(t.paper_tag.c.paper_id, "ids"))
        marked = or_(
            exists().where(d.in_ids_named(t.highlight.c.paper_id, "ids")),
            exists().where(d.in_ids_named(t.note.c.paper_id, "ids"), t.note.c.text != ""),
        )
        stmt = select(
            some(and_(p.authors_json.is_not(None), p.authors_json.not_in(("", "[]")))),
            some(func.coalesce(p.venue, "") != ""),
            some(func.coalesce(p.year, 0) != 0),
            some(p.rating > 0),
            some(p.decision.is_not(None)),
            tagged,
            marked,
        ).where(d.in_ids_named(p.id, "ids"))
        with self._store.read() as conn:
            row = conn.execute(stmt, {"ids": d.ids_value(paper_ids)}).one()
        return frozenset(name for name, on in zip(FILLABLE, row, strict=True) if on)

    # ---- writes --------------------------------------------------------------------------
    @writes
    def set_title(self, paper_id: int, title: str, source: str = "edited") -> Change:
        """Set a title; ``source`` is "edited" for the user's edits (undo passes the old one)."""
        title = " ".join(title.split())
        if not title:
            raise LibraryError("a title cannot be empty")
        p = t.paper.c
        with self._store.write() as tx:
            tx.require_papers([paper_id])
            old = tx.conn.execute(select(p.title, p.title_source).where(p.id == paper_id)).one()
            tx.conn.execute(
                update(t.paper).where(p.id == paper_id).values(title=title, title_source=source, updated_at=tx.now)
            )
            tx.queue_index([paper_id])
        return Change(ChangeKind.PAPERS, (paper_id,), text_changed=True, detail=TitleBefore((old[0], old[1])))

    @writes
    def update_metadata(
        self, paper_id: int, changes: Mapping[str, object], base: Mapping[str, object] | None = None
    ) -> Change:
        """Edit a paper's bibliographic fields in one transaction (see core/metadata.py for the
        fields and their checks; a title set here becomes "edited" unless ``title_source`` is
        given). Only the fields whose stored value differs are written; ``detail.old`` holds
        their previous values in the form this method takes, so passing it back undoes the edit
        exactly, and ``detail.fields`` names them. The index is re-queued when a searched
        field changed; ``updated_at`` is bumped when anything changed.

        ``base``: the values of those fields when the editing started (as this method takes
        them). A field another program changed meanwhile to something else than the edit is a
        conflict: :class:`MetadataConflict` names each with theirs and mine, and nothing is
        written (JabRef's field-by-field choice, instead of the last writer winning)."""
        from desktop_app.core.metadata import check_changes

        stored = check_changes(changes)
        started = _stored_base(base or {}, stored)
        if "title" in stored and "title_source" not in stored:
            stored["title_source"] = "edited"
        p = t.paper.c
        with self._store.write() as tx:
            tx.require_papers([paper_id])
            row = tx.conn.execute(select(t.paper).where(p.id == paper_id)).mappings().one()
            _refuse_conflicts(paper_id, row, stored, started)
            new = {k: v for k, v in stored.items() if _edit_value(k, row[k]) != _edit_value(k, v)}
            if not new:
                return Change(ChangeKind.PAPERS, (paper_id,), detail=MetadataBefore({}, []))
            if "bibtex_key" in new:
                _check_key_free(tx, paper_id, str(new["bibtex_key"]))
            if "abstract" in new:
                from desktop_app.core.text import to_plain

                new["abstract_text"] = to_plain(str(new["abstract"]))
            tx.conn.execute(update(t.paper).where(p.id == paper_id).values(**new, updated_at=tx.now))
            if "abstract" in new:
                from desktop_app.core.anchoring import reanchor_all

                reanchor_all(tx.conn, paper_id, str(new["abstract_text"]), row["abstract_text"])
            _file_identity_keys(tx, paper_id)
            searched = {"title", "authors_json", "venue", "year", "abstract"}
            if searched & new.keys():
                tx.queue_index([paper_id])
        old = {_EDIT_NAME.get(k, k): _edit_value(k, row[k]) for k in new if k != "abstract_text"}
        fields = [_EDIT_NAME.get(k, k) for k in new if k not in ("abstract_text", "title_source")]
        return Change(
            ChangeKind.PAPERS,
            (paper_id,),
            text_changed=bool(searched & new.keys()),
            detail=MetadataBefore(old, fields),
        )

    @writes
    def set_derived_titles(self, titles: Mapping[int, str] | Mapping[str, str]) -> Change:
        """Write these titles to the papers whose title is still derived, in one transaction
        (ids as numbers or as their text); ``detail.old`` passed back undoes it
        (core/retitle.py). Re-derive titles… calls it as data, so it can wait for a server."""
        from desktop_app.core.retitle import set_derived_titles

        return set_derived_titles(self._store, titles)

    @writes
    def set_status(self, paper_ids: Sequence[int], status: str) -> Change:
        return self._set_column(paper_ids, "status", check_status(status))

    @writes
    def set_rating(self, paper_ids: Sequence[int], rating: int) -> Change:
        return self._set_column(paper_ids, "rating", check_rating(rating))

    @writes
    def set_decision(self, paper_ids: Sequence[int], decision: str | None) -> Change:
        """keep / maybe / skip (or None: undecided) for many papers, one transaction."""
        return self._set_column(paper_ids, "decision", check_decision(decision))

    @writes
    def decide_undecided(self, paper_ids: Sequence[int], decision: str) -> Change:
        """``decision`` (keep / maybe / skip) on those of ``paper_ids`` that are live and still
        undecided, in one transaction: a topic decided as a whole, where the papers decided
        before keep theirs and a paper deleted meanwhile is passed over. ``Change.paper_ids``
        are the papers it decided (``set_decision(ids, None)`` undoes it)."""
        value = check_decision(decision)
        if value is None:
            raise LibraryError("deciding the undecided papers needs a decision: keep, maybe or skip")
        p = t.paper.c
        with self._store.write() as tx:
            wanted = sorted({int(i) for i in paper_ids})
            ids: list[int] = list(
                tx.conn.execute(
                    select(p.id)
                    .where(tx.d.in_ids(p.id, wanted), p.decision.is_(None), p.deleted_at.is_(None))
                    .order_by(p.id)
                ).scalars()
            )
            if ids:
                tx.touched.update(ids)
                tx.conn.execute(update(t.paper).where(tx.d.in_ids(p.id, ids)).values(decision=value, updated_at=tx.now))
                change_log.record(tx, FieldKind.DECISION, [(pid, {"old": None, "new": value}) for pid in ids])
        return Change(
            ChangeKind.PAPERS,
            tuple(ids),
            detail=ColumnBefore("decision", value, {pid: {"decision": None} for pid in ids}),
        )

    def decision_counts(self) -> dict[str, int]:
        """Live papers per decision, "none" for the undecided."""
        p = t.paper.c
        per_decision: Select[str | None, int] = (
            select(p.decision, func.count()).where(p.deleted_at.is_(None)).group_by(p.decision)
        )
        with self._store.read() as conn:
            rows = conn.execute(per_decision).all()
        counts = {"keep": 0, "maybe": 0, "skip": 0, "none": 0}
        for value, n in rows:
            counts[value or "none"] += n
        return counts

    def _set_column(self, paper_ids: Sequence[int], column: str, value: object) -> Change:
        """Status, rating or decision of many papers; each real change is logged (core/changelog/rows.py)."""
        col = t.paper.c[column]
        with self._store.write() as tx:
            ids = tx.require_papers(paper_ids)
            where = tx.d.in_ids(t.paper.c.id, ids)
            differs = col.is_distinct_from(value)
            changing: Select[int, object] = select(t.paper.c.id, col).where(where, differs)
            before = tx.conn.execute(changing).all()
            tx.conn.execute(update(t.paper).where(where).values({column: value, "updated_at": tx.now}))
            change_log.record(tx, FieldKind(column), [(pid, {"old": old, "new": value}) for pid, old in before])
        # the values it replaced, for undo (set_fields): the papers that already had it keep it
        return Change(
            ChangeKind.PAPERS,
            tuple(ids),
            detail=ColumnBefore(column, value, {pid: {column: old} for pid, old in before}),
        )

    @writes
    def set_fields(self, values: Mapping[int, Mapping[str, object]]) -> Change:
        """Restore status/rating/decision per paper (undo of a bulk edit): {id: {"status": .., "rating": ..}}."""
        checks = {"status": check_status, "rating": check_rating, "decision": check_decision}
        p = t.paper.c
        with self._store.write() as tx:
            tx.require_papers(list(values))
            old = {
                r.id: {"status": r.status, "rating": r.rating, "decision": r.decision}
                for r in tx.conn.execute(
                    select(p.id, p.status, p.rating, p.decision).where(tx.d.in_ids(p.id, list(values)))
                )
            }
            groups: dict[tuple[str, object], list[int]] = {}  # one UPDATE per column and value
            for pid, fields in values.items():
                for column, value in fields.items():
                    if column not in checks:
                        raise LibraryError(f"cannot set {column} this way")
                    groups.setdefault((column, checks[column](value)), []).append(pid)
            for (column, value), ids in groups.items():
                tx.conn.execute(
                    update(t.paper).where(tx.d.in_ids(p.id, ids)).values({column: value, "updated_at": tx.now})
                )
            change_log.record_fields(tx, old, values)
        return Change(ChangeKind.PAPERS, tuple(values))

    def mark_opened(self, paper_id: int) -> None:
        """Remember when a paper was last shown (not a user edit: no Change, no undo)."""
        with self._store.write() as tx:
            tx.conn.execute(update(t.paper).where(t.paper.c.id == paper_id).values(opened_at=tx.now))

    @writes
    def set_abstract(self, paper_id: int, raw: str) -> Change:
        """Replace the abstract; highlights re-anchor by quote, unplaceable ones are orphaned."""
        from desktop_app.core.text import to_plain

        with self._store.write() as tx:
            tx.require_papers([paper_id])
            plain = to_plain(raw)
            old_plain: str = tx.conn.execute(
                select(t.paper.c.abstract_text).where(t.paper.c.id == paper_id)
            ).scalar_one()
            tx.conn.execute(
                update(t.paper)
                .where(t.paper.c.id == paper_id)
                .values(abstract=raw, abstract_text=plain, updated_at=tx.now)
            )
            from desktop_app.core.anchoring import reanchor_all  # diff-match-patch, when needed

            reanchor_all(tx.conn, paper_id, plain, old_plain)
            tx.queue_index([paper_id])
        return Change(ChangeKind.HIGHLIGHTS, (paper_id,), text_changed=True)

    @writes
    def delete(self, paper_ids: Sequence[int]) -> Change:
        """Move papers to the trash (undoable with :meth:`restore`)."""
        with self._store.write() as tx:
            ids = tx.require_papers(paper_ids)
            self._trash(tx, ids, tx.now)
        return Change(ChangeKind.PAPERS, tuple(ids), text_changed=True, detail=Trashed())

    @writes
    def restore(self, paper_ids: Sequence[int]) -> Change:
        """Take papers out of the trash (the undo of :meth:`delete`; live ones stay as they
        are). LibraryError for a paper that is not there any more (deleted for good)."""
        with self._store.write() as tx:
            ids = list(dict.fromkeys(int(i) for i in paper_ids))
            found: set[int] = set(tx.conn.execute(select(t.paper.c.id).where(tx.d.in_ids(t.paper.c.id, ids))).scalars())
            gone = [i for i in ids if i not in found]
            if gone:
                raise LibraryError(f"no paper with id {', '.join(map(str, gone[:5]))} (deleted for good)")
            self._trash(tx, ids, None)
        return Change(ChangeKind.PAPERS, tuple(ids), text_changed=True, detail=Restored())

    @staticmethod
    def _trash(tx: Tx, ids: Sequence[int], when: object) -> None:
        tx.conn.execute(update(t.paper).where(tx.d.in_ids(t.paper.c.id, ids)).values(deleted_at=when))
        tx.queue_index(ids)


_EDIT_NAME = {
    "authors_json": "authors",
    "bibtex_key": "citation_key",
}  # stored column -> the field update_metadata takes


def _check_key_free(tx: Tx, paper_id: int, key: str) -> None:
    """LibraryError when another paper (one in the trash too) has the citation key ``key``."""
    p = t.paper.c
    other = tx.conn.execute(
        select(p.id, p.deleted_at).where(func.lower(p.bibtex_key) == key.lower(), p.id != paper_id)
    ).first()
    if other is not None:
        where = " (in the trash)" if other.deleted_at is not None else ""
        raise LibraryError(f"the citation key “{key}” is paper {other.id}'s already{where}; a key names one paper")


def _stored_base(base: Mapping[str, object], stored: dict[str, object]) -> dict[str, object]:
    """The base values as stored columns, for the fields being changed (a base value that
    fails the checks, or a field not given, is not compared)."""
    from desktop_app.core.metadata import check_changes

    out: dict[str, object] = {}
    for name, value in base.items():
        try:
            out.update({k: v for k, v in check_changes({name: value}).items() if k in stored})
        except LibraryError:
            continue
    return out


def _refuse_conflicts(
    paper_id: int, row: RowMapping | Mapping[str, object], stored: dict[str, object], started: dict[str, object]
) -> None:
    """MetadataConflict when a field's stored value is neither what the editing started from
    nor the edit itself (another program changed it meanwhile)."""
    from desktop_app.core.errors import MetadataConflict

    clash = {}
    for column, base in started.items():
        now, mine = _edit_value(column, row[column]), _edit_value(column, stored[column])
        if now not in (_edit_value(column, base), mine):
            clash[_EDIT_NAME.get(column, column)] = (now, mine)
    if clash:
        names = " and ".join(", ".join(n.replace("_", " ") for n in clash).rsplit(", ", 1))
        raise MetadataConflict(
            f"another program changed the {names} of this paper while you edited "
            f"{'it' if len(clash) == 1 else 'them'}: choose which to keep",
            paper_id,
            clash,
        )


def _edit_value(column: str, value: object) -> object:
    return json.loads(str(value) or "[]") if column == "authors_json" else value


def _file_identity_keys(tx: Tx, paper_id: int) -> None:
    """File the look-up keys of the paper's new fields (a new DOI, title, ...) so that
    duplicates are found by them; keys it had stay, as they do after a merge."""
    from desktop_app.core.sameness import candidate_keys, row_identity

    pi = t.paper_identity
    row = tx.conn.execute(select(t.paper).where(t.paper.c.id == paper_id)).mappings().one()
    have: set[str] = set(tx.conn.execute(select(pi.c.key).where(pi.c.paper_id == paper_id)).scalars())
    new = [k for k in dict.fromkeys(candidate_keys(row_identity(row))) if k not in have]
    if new:
        tx.conn.execute(insert(pi), [{"key": k, "paper_id": paper_id} for k in new])
