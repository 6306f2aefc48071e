"""Writing imported records as papers, inside the caller's one write transaction.

A record that :func:`~desktop_app.core.sameness.same_paper` finds to be a paper already in the
library, or one written earlier in this import, is a duplicate: with ``merge`` it fills the
fields the paper lacks, and a trashed paper comes back. Each such match is listed in the file's
report with its reason, and a record the user chose to keep apart (``keep_apart``) becomes a
paper of its own. Anything else becomes a new paper with its tags, keywords and note.

The statements of the per-record loop are built once per writer and only bound per record:
an expression reused keeps its cache key, so the loop is not slower than the raw SQL it replaced.

A look-up key shared by many papers (a thousand copies of one entry, a title such as
"Editorial") yields at most :data:`CANDIDATES_PER_KEY` of them, the oldest first, in the
library and in this import alike: each record costs the same whatever the file holds, so an
import takes time linear in its size.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import replace
from typing import Any

from sqlalchemy import Select, bindparam, func, insert, select, union_all, update

from desktop_app.core.changelog import rows as change_log
from desktop_app.core.citation_keys import is_valid_key, pattern_key, unique_key
from desktop_app.core.errors import LibraryError
from desktop_app.core.formats.own_fields import STATUSES
from desktop_app.core.importing.keys import UNTITLED, content_hash, plain_title
from desktop_app.core.records import DECISIONS, MAX_LISTED_PROBLEMS, Record
from desktop_app.core.rules import normalize_tag
from desktop_app.core.sameness import (
    Identity,
    candidate_keys,
    reason_rank,
    record_identity,
    row_identity,
    same_paper,
)
from desktop_app.core.store import Tx
from desktop_app.core.store import tables as t
from desktop_app.core.store.store import inserted_id
from desktop_app.core.values import FileReport, ImportReport, MatchNote

RATINGS = range(6)
FILE_KEY = "file_key"  # extra field: the file's citation key, where the paper got another (sameness.py)
MERGE_FIELDS = ("venue", "year", "doi", "arxiv_id", "url", "entry_type")  # (every paper has its citation key)
KEYWORD_TAG_ROOT = "keywords"
CANDIDATES_PER_KEY = 16
"""The papers one look-up key yields at most (the oldest); the rest are not compared."""
_KEY_BATCH = 2_000  # paper_identity rows written at once
_ID_COLUMNS = (
    "id",
    "title",
    "title_source",
    "authors_json",
    "venue",
    "year",
    "doi",
    "arxiv_id",
    "bibtex_key",
    "extra_json",
)


def start_batch(tx: Tx, source: str, fmt: str) -> int:
    """A new import batch (its counts are written by :func:`finish_batch`); its id."""
    values = dict(source=source, format=fmt, started_at=tx.now, added=0, duplicates=0, merged=0, failed=0, undone=False)
    return inserted_id(tx.conn.execute(insert(t.import_batch).values(**values)))


def finish_batch(tx: Tx, batch_id: int, counts: ImportReport | FileReport) -> None:
    """Write what an import did into its batch."""
    tx.conn.execute(
        update(t.import_batch)
        .where(t.import_batch.c.id == batch_id)
        .values(added=counts.added, duplicates=counts.duplicates, merged=counts.merged, failed=counts.failed)
    )


class ImportWriter:
    """Adds records to the library in ``tx``; remembers the papers it added and touched.

    ``keep_apart`` holds ``(file number, record number)`` pairs (both from 0) that become papers
    of their own even where the rules find a match; ``keywords_as_tags`` also files each keyword
    as a tag under ``keywords/``; with ``batch_keys`` the look-up keys are written in batches
    and the caller calls :meth:`flush` before the transaction ends.
    """

    def __init__(
        self,
        tx: Tx,
        batch_id: int,
        *,
        merge: bool,
        tag_categories: bool,
        keywords_as_tags: bool = False,
        keep_apart: frozenset[tuple[int, int]] = frozenset(),
        batch_keys: bool = False,
    ) -> None:
        self.conn, self.now = tx.conn, tx.now
        self.tx = tx
        self.batch_id = batch_id
        self.merge = merge
        self.tag_categories = tag_categories
        self.keywords_as_tags = keywords_as_tags
        self.keep_apart = keep_apart
        self.file_no = 0  # which file of this import the records come from
        # candidate key's hash -> the paper (or papers, at most CANDIDATES_PER_KEY) added or
        # matched under it in this import: hashes and a bare id where one paper has the key, the
        # usual case (300,000 keys of a 100,000-record import: 40 MB less than strings and lists);
        # two keys sharing a hash only make one more candidate, which same_paper then compares
        self.seen: dict[int, int | list[int]] = {}
        self.made_by: dict[int, int] = {}  # paper added in this import -> its file number
        self.identities: dict[int, Identity] = {}  # papers looked at in this import
        self.titles: dict[int, str] = {}  # their titles, for the report
        self.new_ids: list[int] = []
        self.touched: set[int] = set()
        self._tag_ids: dict[str, int] = {}  # normalized name -> id, this transaction
        self.list_places: list[tuple[str, int, int]] = []  # (reading list, position, paper) of new papers
        self._logged: dict[
            change_log.FieldKind, list[tuple[int, dict[str, object]]]
        ] = {}  # change-log rows, written by finish()
        self._keys: HashedKeys | None = None  # the library's citation keys, lower-case (read at the first new paper)
        self._suffixes_tried: dict[str, int] = {}  # pattern key -> its suffixes found taken (unique_key)
        d, p, pi, tg = tx.d, t.paper, t.paper_identity, t.tag
        self._finds: dict[int, Select[*tuple[Any, ...]]] = {}  # number of keys -> their look-up (find_statement)
        self._pending_keys: list[dict[str, object]] = []  # paper_identity rows not yet written
        self._key_batch = _KEY_BATCH if batch_keys else 1  # with batch_keys the caller flush()es
        # the library's papers before this import: the ones this import adds are found in `seen`
        self.before = tx.conn.execute(select(func.max(p.c.id))).scalar() or 0
        self._add_keys = d.insert(pi).on_conflict_do_nothing(index_elements=["key", "paper_id"])
        self._add_paper = insert(p)
        # a record with neither title nor abstract: the paper made from the very same record text
        self._same_raw = (
            select(p.c.id, p.c.title)
            .join(pi, pi.c.paper_id == p.c.id)
            .where(pi.c.key == bindparam("key"), p.c.raw == bindparam("raw"))
            .order_by(p.c.id)
            .limit(CANDIDATES_PER_KEY)
        )
        self._add_note = insert(t.note)
        self._deleted_at = select(p.c.deleted_at).where(p.c.id == bindparam("pid"))
        # a trashed paper imported again comes back as this import's (its undo trashes it again)
        self._undelete = update(p).where(p.c.id == bindparam("pid")).values(deleted_at=None, import_id=batch_id)
        self._find_tag = select(tg.c.id).where(d.ci_equals(tg.c.name, bindparam("name")))
        self._add_tag = d.insert(tg).on_conflict_do_nothing()
        self._link_tag = d.insert(t.paper_tag).on_conflict_do_nothing(index_elements=["paper_id", "tag_id"])

    def next_file(self) -> None:
        """The records that follow come from the next file of this import."""
        self.file_no += 1

    def find_statement(self, count: int) -> Select[*tuple[Any, ...]]:
        """The candidates under ``count`` keys (bound as ``k0``, ``k1``, ...; ``before``: the
        newest paper id to consider) and what the rules compare of them, one row per key and
        paper: at most CANDIDATES_PER_KEY papers a key."""
        stmt = self._finds.get(count)
        if stmt is None:
            pi, p = t.paper_identity, t.paper
            parts = [
                select(pi.c.key, pi.c.paper_id)
                .where(pi.c.key == bindparam(f"k{i}"), pi.c.paper_id <= bindparam("before"))
                .order_by(pi.c.paper_id)
                .limit(CANDIDATES_PER_KEY)
                .subquery(f"k{i}")
                for i in range(count)
            ]
            per_key = [select(part.c.key, part.c.paper_id) for part in parts]
            keyed = (union_all(*per_key) if count > 1 else per_key[0]).subquery("keyed")
            stmt = select(keyed.c.key, *(p.c[c] for c in _ID_COLUMNS)).join(p, p.c.id == keyed.c.paper_id)
            self._finds[count] = stmt
        return stmt

    def match(self, ident: Identity, keys: list[str]) -> tuple[int, str] | None:
        """The paper ``ident`` is (this import's first, else the library's oldest) and why, or None."""
        found: dict[int, set[str]] = {}  # candidate -> the abstract digests it shares with ident
        for k in keys:
            bucket = self.seen.get(hash(k))
            if bucket is not None:
                for pid in (bucket,) if isinstance(bucket, int) else bucket:
                    found.setdefault(pid, set())
        if keys and self.before:  # (a new library has no papers to look up)
            # papers filed before 0004 carry "abp:" keys for their plain abstract (same digest)
            lookup = list(dict.fromkeys(keys + [f"abp:{d}" for d in ident.abstracts]))
            bound: dict[str, object] = {f"k{i}": k for i, k in enumerate(lookup)}
            bound["before"] = self.before
            for row in self.conn.execute(self.find_statement(len(lookup)), bound).mappings():
                pid, key = row["id"], row["key"]
                shared = found.setdefault(pid, set())
                if key.startswith(("abs:", "abp:")):
                    shared.add(key[4:])
                if pid not in self.identities:
                    # a row's abstract is compared through its abs: keys: the look-up found the shared ones
                    self.identities[pid] = row_identity(row, frozenset())
                    self.titles[pid] = row["title"]
        best: tuple[int, str] | None = None
        for pid, shared in found.items():
            other = self.identities.get(pid) or self._identity_of(pid)
            if pid not in self.made_by and shared:
                other = replace(other, abstracts=frozenset(shared))
            reason = same_paper(ident, other, same_file=self.made_by.get(pid) == self.file_no)
            if reason and (best is None or reason_rank(reason) < reason_rank(best[1])):
                best = (pid, reason)
        return best

    def _title_of(self, pid: int) -> str:
        """The title of a paper matched in this import, for the report (read back once)."""
        if pid not in self.titles:
            title = self.conn.execute(select(t.paper.c.title).where(t.paper.c.id == pid)).scalar()
            self.titles[pid] = title or ""
        return self.titles[pid]

    def _identity_of(self, pid: int) -> Identity:
        """The identity of a paper read from its row (one this import has not compared yet)."""
        p = t.paper
        row = (
            self.conn.execute(
                select(*(p.c[c] for c in (*_ID_COLUMNS, "abstract", "abstract_text"))).where(p.c.id == pid)
            )
            .mappings()
            .one()
        )
        self.identities[pid] = ident = row_identity(row)
        self.titles.setdefault(pid, row["title"])
        return ident

    def add(self, rec: Record, fr: FileReport, index: int | None = None) -> int:
        """Add one record (or recognise it as a duplicate); count it in ``fr``; the paper's id.
        ``index`` is the record's number in its file (for ``keep_apart``)."""
        from desktop_app.core.text import derive_title, to_plain

        plain = to_plain(rec.abstract) if rec.abstract else ""
        if rec.title and rec.title.strip().lower() == UNTITLED.lower() and not plain:
            rec = replace(rec, title=None)  # our own placeholder, read back from an export (the
            # caller's record stays as it was: a preview's records are imported again after it)
        given = bool(rec.title and rec.title.strip()) and not rec.title_derived
        if rec.title_derived and rec.title and rec.title.strip():  # Marginalia's own export of a
            title = plain_title(rec.title)  # derived title: kept as it was, still "derived"
        else:
            title = (
                plain_title(rec.title)
                if given and rec.title
                else (derive_title(rec.abstract) if rec.abstract else UNTITLED)
            )
        ident = record_identity(rec, plain, title, given=given)
        keys = candidate_keys(ident)
        found = self.match(ident, keys)
        if not given and not plain and rec.raw.strip():
            raw_key = "raw:" + hashlib.sha1(rec.raw.encode("utf-8")).hexdigest()
            if found is None:
                found = self._same_record(raw_key, rec.raw)
            keys = [*keys, raw_key]
        if found is not None:
            pid, reason = found
            if (self.file_no, index) in self.keep_apart:
                fr.kept_apart += 1
            else:
                fr.matches.append(
                    MatchNote(
                        index=index,
                        line=rec.line,
                        title=_shown(rec, plain),
                        paper_id=pid,
                        reason=reason,
                        paper_title=self._title_of(pid),
                    )
                )
                self._duplicate(pid, rec, plain, fr)
                self._remember(keys, pid)
                return pid
        source = "given" if given else "derived"
        key = self._citation_key(rec, title, fr)
        if rec.bibtex_key and key != rec.bibtex_key:  # the file's key, kept for the duplicate rules
            rec = replace(rec, extra={**rec.extra, FILE_KEY: rec.bibtex_key})
        pid = inserted_id(
            self.conn.execute(
                self._add_paper,
                {
                    "uid": uuid.uuid4().hex,
                    "title": title,
                    "title_source": source,
                    "abstract": rec.abstract,
                    "abstract_text": plain,
                    "authors_json": json.dumps(rec.authors, ensure_ascii=False),
                    "keywords_json": json.dumps(rec.keywords, ensure_ascii=False),
                    "venue": rec.venue,
                    "year": rec.year,
                    "doi": rec.doi,
                    "arxiv_id": rec.arxiv_id,
                    "url": rec.url,
                    "bibtex_key": key,
                    "entry_type": rec.entry_type,
                    "extra_json": json.dumps(_extra(rec), ensure_ascii=False),
                    "raw": rec.raw,
                    "content_hash": content_hash(rec, plain),
                    "status": rec.status if rec.status in STATUSES else "unread",
                    "rating": rec.rating if rec.rating in RATINGS else 0,
                    "decision": rec.decision if rec.decision in DECISIONS else None,
                    "added_at": self.now,
                    "updated_at": self.now,
                    "import_id": self.batch_id,
                },
            )
        )
        # (its identity and title are not kept: a later record of this import sharing a key with
        # it reads them back from its row, once; a 100,000-record import keeps 80 MB less)
        self.made_by[pid] = self.file_no
        self._remember(keys, pid)
        self._tags(pid, rec)
        # from Marginalia's own export (formats/own_fields.py); logged "via import" (the
        # statistics and the triage pace leave such rows out)
        if rec.decision in DECISIONS:
            self._logged.setdefault(change_log.FieldKind.DECISION, []).append(
                (pid, {"old": None, "new": rec.decision, "via": "import"})
            )
        if rec.status in STATUSES and rec.status != "unread":
            self._logged.setdefault(change_log.FieldKind.STATUS, []).append(
                (pid, {"old": "unread", "new": rec.status, "via": "import"})
            )
        if rec.rating in RATINGS and rec.rating:
            self._logged.setdefault(change_log.FieldKind.RATING, []).append(
                (pid, {"old": 0, "new": rec.rating, "via": "import"})
            )
        self.list_places.extend((name, pos, pid) for name, pos in rec.lists.items())
        if rec.note:
            self.conn.execute(self._add_note, {"paper_id": pid, "text": rec.note, "updated_at": self.now})
        self.new_ids.append(pid)
        fr.added += 1
        return pid

    def _citation_key(self, rec: Record, title: str, fr: FileReport) -> str:
        """The new paper's citation key: the file's own when valid and free, else the pattern's
        (core/citation_keys.py); a key of the file that could not be kept is reported."""
        if self._keys is None:
            taken: Iterable[str | None] = self.conn.execute(select(t.paper.c.bibtex_key)).scalars()
            self._keys = HashedKeys(k.lower() for k in taken if k)
        own = (rec.bibtex_key or "").strip()
        if is_valid_key(own) and own.lower() not in self._keys:
            key = own
        else:
            key = unique_key(pattern_key(rec.authors, rec.year, title), self._keys, self._suffixes_tried)
            if own and len(fr.warnings) < MAX_LISTED_PROBLEMS:
                where = f"line {rec.line}: " if rec.line else ""
                why = "is another paper's already" if is_valid_key(own) else "is not a valid BibTeX key"
                fr.warnings.append(f"{where}citation key {own!r} {why}; this paper's key is {key!r}")
        self._keys.add(key.lower())
        return key

    def _same_record(self, raw_key: str, raw: str) -> tuple[int, str] | None:
        """The paper an earlier import made from this record's very text, for a record without
        title or abstract: nothing else identifies it, and importing the file again must not add
        it again. Papers this file made are not it (a file's entries are distinct papers).
        Such papers are filed under ``raw_key`` (a digest of their text)."""
        self.flush()
        for row in self.conn.execute(self._same_raw, {"key": raw_key, "raw": raw}):
            if self.made_by.get(row.id) != self.file_no:
                self.titles.setdefault(row.id, row.title)
                return row.id, "same-record"
        return None

    def tag_id(self, name: str) -> int:
        """The id of the tag ``name`` (already normalized; any case), created when missing."""
        tid = self._tag_ids.get(name)
        if tid is None:
            tid = self.conn.execute(self._find_tag, {"name": name}).scalar()
            if tid is None:  # an upsert: another desk may be creating it (in any case) right now
                self.conn.execute(self._add_tag, {"name": name, "color": ""})
                tid = self.conn.execute(self._find_tag, {"name": name}).scalar_one()
            self._tag_ids[name] = tid
        return tid

    def link_tags(self, pid: int, names: list[str], *, skip_bad: bool) -> None:
        """Tag a paper (links it has already stay); a bad name is skipped or raises LibraryError."""
        for name in names:
            try:
                tid = self.tag_id(normalize_tag(name))
            except LibraryError:
                if skip_bad:
                    continue
                raise
            self.conn.execute(self._link_tag, {"paper_id": pid, "tag_id": tid})

    def _duplicate(self, pid: int, rec: Record, plain: str, fr: FileReport) -> None:
        if self.conn.execute(self._deleted_at, {"pid": pid}).scalar() is not None:
            # re-importing a trashed paper brings it back, with its notes: added to the library
            # (an undone import imported again adds its papers again)
            self.conn.execute(self._undelete, {"pid": pid})
            self.touched.add(pid)
            fr.added += 1
        else:
            fr.duplicates += 1
        if self.merge and self._merge(pid, rec, plain):
            fr.merged += 1
            self.touched.add(pid)

    def _remember(self, keys: list[str], pid: int) -> None:
        seen = self.seen
        for k in keys:
            h = hash(k)
            bucket = seen.get(h)
            if bucket is None:
                seen[h] = pid
            elif isinstance(bucket, int):
                if bucket != pid:
                    seen[h] = [bucket, pid]
            elif len(bucket) < CANDIDATES_PER_KEY and pid not in bucket:
                bucket.append(pid)
        self._pending_keys.extend({"key": k, "paper_id": pid} for k in keys)
        if len(self._pending_keys) >= self._key_batch:
            self.flush()

    def finish(self) -> None:
        """The rest of the import, before the transaction ends: the look-up keys not yet filed,
        the change-log rows of what the records brought (one statement per kind and value) and
        the new papers' reading-list places."""
        self.flush()
        for kind, entries in self._logged.items():
            change_log.record(self.tx, kind, entries)
        self._logged = {}
        if self.list_places:
            from desktop_app.core.reading_lists import place_in_lists

            place_in_lists(self.tx, self.list_places)
            self.list_places = []

    def flush(self) -> None:
        """File the look-up keys of the papers written so far (they are written in batches:
        this import finds its own papers through ``seen``); called before the transaction ends."""
        if self._pending_keys:
            self.conn.execute(self._add_keys, self._pending_keys)
            self._pending_keys = []

    def _tags(self, pid: int, rec: Record) -> None:
        names = list(rec.tags)
        if self.tag_categories and rec.extra.get("categories"):
            names += ["arxiv/" + c for c in rec.extra["categories"].split(",") if c.strip()]
        if self.keywords_as_tags:
            names += [f"{KEYWORD_TAG_ROOT}/{k.replace('/', '-')}" for k in rec.keywords if k.strip()]
        self.link_tags(pid, names, skip_bad=True)

    def _merge(self, pid: int, rec: Record, plain: str) -> bool:
        """Fill fields the paper lacks; never overwrite what the user wrote."""
        p = t.paper
        row = self.conn.execute(select(p).where(p.c.id == pid)).mappings().one()
        sets: dict[str, object] = {}
        if rec.title and not rec.title_derived and row["title_source"] == "derived":
            sets["title"], sets["title_source"] = plain_title(rec.title), "given"
        if rec.abstract and not row["abstract"]:
            sets["abstract"], sets["abstract_text"] = rec.abstract, plain
        if rec.authors and row["authors_json"] in ("[]", "", None):
            sets["authors_json"] = json.dumps(rec.authors, ensure_ascii=False)
        keywords = json.loads(row["keywords_json"] or "[]")
        more = [k for k in rec.keywords if k not in keywords]
        if more:
            sets["keywords_json"] = json.dumps(keywords + more, ensure_ascii=False)
        values = {
            "venue": rec.venue,
            "year": rec.year,
            "doi": rec.doi,
            "arxiv_id": rec.arxiv_id,
            "url": rec.url,
            "bibtex_key": rec.bibtex_key,
            "entry_type": rec.entry_type,
        }
        for col in MERGE_FIELDS:
            if values[col] and not row[col]:
                sets[col] = values[col]
        extra = json.loads(row["extra_json"] or "{}")
        found = _extra(rec)
        if rec.bibtex_key and rec.bibtex_key != row["bibtex_key"]:
            found[FILE_KEY] = rec.bibtex_key  # the paper keeps its key (a document may cite it)
        added_extra = {k: v for k, v in found.items() if k not in extra}
        if added_extra:
            extra.update(added_extra)
            sets["extra_json"] = json.dumps(extra, ensure_ascii=False)
        self._tags(pid, rec)
        if not sets:
            return False
        self.identities[pid] = row_identity({**row, **sets})  # as it now stands
        self.conn.execute(update(p).where(p.c.id == pid).values(**sets))
        return True


class HashedKeys(AbstractSet[str]):
    """The citation keys taken, as their hashes (an int costs a third of a key's string): a key
    sharing its hash with a taken one is thought taken too, and gets the next suffix."""

    def __init__(self, keys: Iterable[str] = ()) -> None:
        self._hashes = {hash(k) for k in keys}

    def __contains__(self, key: object) -> bool:
        return hash(key) in self._hashes

    def __iter__(self) -> Iterator[str]:
        raise TypeError("the keys themselves are not kept")

    def __len__(self) -> int:
        return len(self._hashes)

    def add(self, key: str) -> None:
        self._hashes.add(hash(key))


def _extra(rec: Record) -> dict[str, str]:
    """The record's other fields, with its PubMed id, ISBN and editors among them."""
    extra = dict(rec.extra)
    if rec.pmid:
        extra.setdefault("pmid", rec.pmid)
    if rec.isbn:
        extra.setdefault("isbn", rec.isbn)
    if rec.editors:
        extra.setdefault("editors", "; ".join(rec.editors))
    return extra


def _shown(rec: Record, plain: str) -> str:
    """How a record is named in a report: its title, else the start of its abstract."""
    text = (rec.title or plain or rec.abstract or "").strip()
    text = " ".join(text.split())
    return text if len(text) <= 90 else text[:89] + "…"
