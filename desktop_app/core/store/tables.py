"""The SQLAlchemy Core tables of the SQLModel classes, for statements that need no ORM.

``select(paper.c.id).where(paper.c.status == "read")`` is checked against the model (a misspelt
column is an AttributeError at import, not a runtime SQL error) and compiles for every dialect.
"""

from __future__ import annotations

from sqlalchemy import Table

from desktop_app.core.models import (
    Attachment,
    ChangeLog,
    DistinctPair,
    Highlight,
    ImportBatch,
    IndexQueue,
    Note,
    NoteRevision,
    Paper,
    PaperIdentity,
    PaperMerge,
    PaperTag,
    ReadingList,
    ReadingListItem,
    SavedSearch,
    Tag,
)


def _t(model: type) -> Table:
    return model.__table__  # type: ignore[attr-defined,no-any-return]


paper = _t(Paper)
paper_identity = _t(PaperIdentity)
tag = _t(Tag)
paper_tag = _t(PaperTag)
note = _t(Note)
note_revision = _t(NoteRevision)
highlight = _t(Highlight)
reading_list = _t(ReadingList)
reading_list_item = _t(ReadingListItem)
saved_search = _t(SavedSearch)
import_batch = _t(ImportBatch)
index_queue = _t(IndexQueue)
paper_merge = _t(PaperMerge)
distinct_pair = _t(DistinctPair)
attachment = _t(Attachment)
change_log = _t(ChangeLog)
