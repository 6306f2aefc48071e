"""What a :class:`~desktop_app.core.values.Change` keeps so that its edit can be undone: one small
frozen value per shape, the ``Change.detail`` of the manager method that made it.

A leaf: it imports nothing of the library. The names of the fields are those of the keys the
undo data had when it was a dict (``old``, ``links``, ``attachment_id``, ``merge_id``, ...), so a
described edit journaled by an earlier version (``ChangeRef(("detail", "links"))``,
core/library_call.py) reads the same value. ``Library.undo`` (core/library.py) reverses a Change
by the type of its undo data.

Deeply immutable: a shape made with lists and dicts keeps them as tuples and read-only mappings
(``types.MappingProxyType`` over a copy), so a Change handed to many views, to an undo command
and to ``lib.undo`` is the same value for each; the fields are typed ``Sequence`` and
``Mapping`` accordingly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any, ClassVar


def frozen(value: object) -> object:
    """``value`` with every list, tuple and set in it a tuple and every dict a read-only mapping
    (a copy: the caller's containers are never shared); anything else as it is."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: frozen(v) for k, v in value.items()})
    if isinstance(value, list | tuple | set | frozenset):
        return tuple(frozen(v) for v in value)
    return value


class _Frozen:
    """Made deeply immutable: each field's containers frozen (:func:`frozen`) once made."""

    def __post_init__(self) -> None:
        for f in fields(self):  # type: ignore[arg-type]  # (every subclass is a dataclass)
            value = getattr(self, f.name)
            if isinstance(value, Mapping | list | tuple | set | frozenset):
                object.__setattr__(self, f.name, frozen(value))


@dataclass(frozen=True)
class UndoData(_Frozen):
    """The undo data of a change that keeps none (:data:`NOTHING`); the base of every shape."""


NOTHING = UndoData()  # a Change's detail by default


# ---- papers leaving the library or coming back (the window re-reads its sidebar and list) ----
@dataclass(frozen=True)
class PapersMoved(UndoData):
    """Papers went to the trash (``deleted``), came back from it (``restored``) or were deleted
    for good (``purged``)."""

    deleted: ClassVar[bool] = False
    restored: ClassVar[bool] = False
    purged: ClassVar[bool] = False


@dataclass(frozen=True)
class Trashed(PapersMoved):
    """``papers.delete``: the papers are in the trash (``papers.restore`` undoes it)."""

    deleted: ClassVar[bool] = True


@dataclass(frozen=True)
class Restored(PapersMoved):
    """``papers.restore`` or ``trash.restore``: the papers are back (``papers.delete`` undoes it)."""

    restored: ClassVar[bool] = True


@dataclass(frozen=True)
class Purged(PapersMoved):
    """``trash.purge`` or ``trash.empty``: not undoable; ``files`` attached copies went with them."""

    purged: ClassVar[bool] = True
    files: int


@dataclass(frozen=True)
class ImportUndone(PapersMoved):
    """``imports.undo``: the papers of import ``undone`` (its batch id) are in the trash."""

    deleted: ClassVar[bool] = True
    undone: int


@dataclass(frozen=True)
class NoteKeptAsPaper(UndoData):
    """``imports.note_as_new_paper``: a new paper (import ``batch``) copying deleted paper
    ``kept_from``, with the note; ``imports.undo(batch)`` undoes it."""

    batch: int | None
    kept_from: int


# ---- a paper's own fields --------------------------------------------------------------------
@dataclass(frozen=True)
class TitleBefore(UndoData):
    """``papers.set_title``: the title and its source before, ``(title, title_source)``."""

    old: tuple[str, str]


@dataclass(frozen=True)
class MetadataBefore(UndoData):
    """``papers.update_metadata``: the changed fields' previous values in the form that method
    takes (``old``: passing it back undoes the edit) and their names (``fields``)."""

    old: Mapping[str, object]
    fields: Sequence[str]


@dataclass(frozen=True)
class ColumnBefore(UndoData):
    """Status, rating or decision of many papers: ``column`` set to ``value``; ``old`` holds what
    it replaced, per paper, as ``papers.set_fields`` takes it (those that had it already: none)."""

    column: str
    value: object
    old: Mapping[int, Mapping[str, object]]


@dataclass(frozen=True)
class TitlesBefore(UndoData):
    """``lib.set_derived_titles``: each changed paper's previous title (passing it back undoes)."""

    old: Mapping[int, str]


# ---- tags ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TagLinks(UndoData):
    """The (paper id, tag name) links an edit made or took away."""

    links: Sequence[tuple[int, str]]


@dataclass(frozen=True)
class TagsAdded(TagLinks):
    """``tags.add`` or ``tags.undelete``: the links actually added."""


@dataclass(frozen=True)
class TagsRemoved(TagLinks):
    """``tags.remove``: the links actually removed."""


@dataclass(frozen=True)
class TagRenamed(UndoData):
    """``tags.rename``: ``old`` is now ``new`` (its children too)."""

    old: str
    new: str

    @property
    def renamed(self) -> Mapping[str, str]:
        return MappingProxyType({self.old: self.new})


@dataclass(frozen=True)
class TagRow:
    """A tag's row as it was: its id, name and color."""

    id: int
    name: str
    color: str


@dataclass(frozen=True)
class TagMerge(_Frozen):
    """What a merge changed: the ``source`` tag's row, the ``target`` tag's name and whether the
    merge made it, the papers ``tagged`` with the source, those that ``gained`` the target."""

    source: TagRow
    target: str
    target_created: bool
    tagged: Sequence[int]
    gained: Sequence[int]


@dataclass(frozen=True)
class TagMerged(UndoData):
    """``tags.merge`` (``tags.unmerge`` of the Change undoes it)."""

    merge: TagMerge


@dataclass(frozen=True)
class TagUnmerged(UndoData):
    """``tags.unmerge``: the merge it took back."""

    unmerged: TagMerge


@dataclass(frozen=True)
class TagRecolored(UndoData):
    """``tags.recolor``: the color before ("" for none)."""

    old_color: str


@dataclass(frozen=True)
class TagDeleted(UndoData):
    """``tags.delete``: its links and color (``tags.undelete`` of the Change undoes it)."""

    links: Sequence[tuple[int, str]]
    color: str


# ---- notes and highlights --------------------------------------------------------------------
@dataclass(frozen=True)
class NoteBefore(UndoData):
    """``notes.set`` or ``notes.append`` that changed the text: the text before (``old``); when
    another program had changed it since the editing started, that text is also ``conflict``."""

    old: str
    conflict: str | None = None


@dataclass(frozen=True)
class HighlightId(UndoData):
    """``highlights.add`` or ``highlights.restore``: the highlight's id."""

    id: int


@dataclass(frozen=True)
class HighlightBefore(UndoData):
    """``highlights.edit``: the highlight's color and comment before."""

    id: int
    color: str
    comment: str


@dataclass(frozen=True)
class HighlightRow(UndoData):
    """``highlights.delete``: the deleted row, as ``highlights.restore`` takes it (same id)."""

    row: Mapping[str, Any]


# ---- reading lists and saved searches --------------------------------------------------------
@dataclass(frozen=True)
class ListCreated(UndoData):
    """``lists.create``: the list's name (``lists.delete`` undoes it)."""

    name: str


@dataclass(frozen=True)
class ListSnapshotted(ListCreated):
    """``lists.snapshot``: the name it got ("name (2)" when taken) and the papers ``added``."""

    added: Sequence[int]


@dataclass(frozen=True)
class ListRenamed(UndoData):
    """``lists.rename``: the list called ``old`` is now ``new``."""

    old: str
    new: str


@dataclass(frozen=True)
class ListSnapshot(UndoData):
    """``lists.delete`` or ``lists.remove``: the list's name, description and the items taken
    away (``{"name", "description", "items": [(paper id, position, note)]}``), as
    ``lists.restore`` takes it."""

    snapshot: Mapping[str, Any]


@dataclass(frozen=True)
class ListAdded(UndoData):
    """``lists.add``: the papers added to list ``name`` (those already there not counted)."""

    name: str
    added: Sequence[int]


@dataclass(frozen=True)
class DescriptionBefore(UndoData):
    """``lists.describe``: list ``name``'s description before."""

    name: str
    old: str


@dataclass(frozen=True)
class PositionBefore(UndoData):
    """``lists.move``: the paper's place in list ``name`` before (``old``) and after (``new``)."""

    name: str
    old: int
    new: int


@dataclass(frozen=True)
class ItemNoteBefore(UndoData):
    """``lists.set_item_note``: the note list ``name`` kept on the paper before."""

    name: str
    old: str


@dataclass(frozen=True)
class OrderBefore(UndoData):
    """``lists.reorder`` or ``lists.move_many``: list ``name``'s whole order before."""

    name: str
    old: Sequence[int]


@dataclass(frozen=True)
class SearchSaved(UndoData):
    """``searches.save``: the query saved search ``name`` had before (None: it is new);
    ``searches.unsave`` of the Change undoes it."""

    name: str
    old: str | None


@dataclass(frozen=True)
class SearchBefore(UndoData):
    """``searches.delete`` or ``searches.unsave``: the query saved search ``name`` had before
    (None: there was none); saving it again undoes it."""

    name: str
    old: str | None


# ---- duplicates --------------------------------------------------------------------------------
@dataclass(frozen=True)
class MergeRecord(PapersMoved):
    """A duplicate merge: paper ``merged`` went into paper ``kept``; ``merge_id`` names the merge."""

    merge_id: int
    kept: int
    merged: int


@dataclass(frozen=True)
class Merged(MergeRecord):
    """``duplicates.merge``: the merged paper is in the trash (``duplicates.undo_merge`` undoes it)."""

    deleted: ClassVar[bool] = True


@dataclass(frozen=True)
class MergeUndone(MergeRecord):
    """``duplicates.undo_merge``: both papers are back as they were."""

    restored: ClassVar[bool] = True


@dataclass(frozen=True)
class PairDecision(UndoData):
    """Two papers, ``(low id, high id)``, said to be two papers or no longer."""

    pair: tuple[int, int]


@dataclass(frozen=True)
class Dismissed(PairDecision):
    """``duplicates.dismiss``: the pair is no longer shown as possible duplicates."""


@dataclass(frozen=True)
class Undismissed(PairDecision):
    """``duplicates.undismiss``: the pair may be shown again."""


@dataclass(frozen=True)
class KeysFiled(UndoData):
    """``duplicates`` filing identity keys before a search: how many (nothing to undo)."""

    keys: int


# ---- attachments -------------------------------------------------------------------------------
@dataclass(frozen=True)
class AttachmentRef(UndoData):
    """An attachment an edit concerned, by id."""

    attachment_id: int


@dataclass(frozen=True)
class AttachmentAdded(AttachmentRef):
    """``attachments.add``: the new attachment (``attachments.remove`` undoes it)."""


@dataclass(frozen=True)
class AttachmentRestored(AttachmentRef):
    """``attachments.restore``: a soft removal undone."""


@dataclass(frozen=True)
class AttachmentRemoved(AttachmentRef):
    """``attachments.remove``: soft (``attachments.restore`` undoes it) or ``hard`` (for good)."""

    hard: bool = False
