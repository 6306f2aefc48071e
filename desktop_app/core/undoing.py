"""Undoing a Change: the manager method that reverses each shape of undo data
(core/changelog/undo_data.py), called with what the Change kept. ``Library.undo`` runs it.

Typed against :class:`Managers`, the part of the Library it calls (a Protocol, so this module
imports no ``library.py``): every call here is one of the facade's logged writes, one
transaction, and the change log names it as that method (``tags.set_links``, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from desktop_app.core.changelog.undo_data import (
    AttachmentAdded,
    AttachmentRemoved,
    AttachmentRestored,
    ColumnBefore,
    DescriptionBefore,
    Dismissed,
    HighlightBefore,
    HighlightId,
    HighlightRow,
    ItemNoteBefore,
    ListAdded,
    ListCreated,
    ListRenamed,
    ListSnapshot,
    Merged,
    MetadataBefore,
    NoteBefore,
    NoteKeptAsPaper,
    OrderBefore,
    PositionBefore,
    Restored,
    SearchBefore,
    SearchSaved,
    TagDeleted,
    TagMerged,
    TagRecolored,
    TagRenamed,
    TagsAdded,
    TagsRemoved,
    TitleBefore,
    TitlesBefore,
    Trashed,
    Undismissed,
)
from desktop_app.core.errors import LibraryError

if TYPE_CHECKING:
    from desktop_app.core.attachments import Attachments
    from desktop_app.core.duplicates import Duplicates
    from desktop_app.core.highlights import Highlights
    from desktop_app.core.importing.imports import Imports
    from desktop_app.core.notes import Notes
    from desktop_app.core.papers import Papers
    from desktop_app.core.reading_lists import ReadingLists
    from desktop_app.core.saved_searches import SavedSearches
    from desktop_app.core.tags import Tags
    from desktop_app.core.values import Change


class Managers(Protocol):
    """The managers (and the one facade write of its own) that undoing calls."""

    papers: Papers
    tags: Tags
    notes: Notes
    lists: ReadingLists
    searches: SavedSearches

    @property
    def highlights(self) -> Highlights: ...
    @property
    def imports(self) -> Imports: ...
    @property
    def duplicates(self) -> Duplicates: ...
    @property
    def attachments(self) -> Attachments: ...

    def set_derived_titles(self, titles: Mapping[int, str]) -> Change: ...


def undo(lib: Managers, change: Change) -> Change:
    """Reverse the edit that returned ``change``; LibraryError when it cannot be undone (papers
    deleted for good, an import or a merge undone, a hard removal, a change keeping nothing)."""
    for reverse in (_paper_edit, _tag_edit, _list_edit, _other_edit):
        undone = reverse(lib, change)
        if undone is not None:
            return undone
    raise LibraryError(f"this change ({type(change.detail).__name__} of {change.kind}) cannot be undone")


def _paper_edit(lib: Managers, change: Change) -> Change | None:
    match change.detail:
        case TitleBefore(old=(title, source)):
            return lib.papers.set_title(change.paper_ids[0], title, source=source)
        case MetadataBefore(old=old):
            return lib.papers.update_metadata(change.paper_ids[0], old)
        case ColumnBefore(old=old):
            return lib.papers.set_fields(old)
        case Trashed():
            return lib.papers.restore(list(change.paper_ids))
        case Restored():
            return lib.papers.delete(list(change.paper_ids))
        case TitlesBefore(old=old):
            return lib.set_derived_titles(old)
        case NoteBefore(old=old):
            return lib.notes.set(change.paper_ids[0], old)
        case NoteKeptAsPaper(batch=int(batch)):
            return lib.imports.undo(batch)
        case Merged(merge_id=merge_id):
            return lib.duplicates.undo_merge(merge_id)
        case Dismissed(pair=(low, high)):
            return lib.duplicates.undismiss(low, high)
        case Undismissed(pair=(low, high)):
            return lib.duplicates.dismiss(low, high)
    return None


def _tag_edit(lib: Managers, change: Change) -> Change | None:
    match change.detail:
        case TagsAdded(links=links):
            return lib.tags.set_links(links, present=False)
        case TagsRemoved(links=links):
            return lib.tags.set_links(links, present=True)
        case TagRenamed(old=old, new=new):
            return lib.tags.rename(new, old)
        case TagMerged():
            return lib.tags.unmerge(change)
        case TagRecolored(old_color=old):
            return lib.tags.recolor(change.tag_names[0], old)
        case TagDeleted():
            return lib.tags.undelete(change)
    return None


def _list_edit(lib: Managers, change: Change) -> Change | None:
    match change.detail:
        case ListCreated(name=name):  # a new list, or a snapshot of a search
            return lib.lists.delete(name)
        case ListRenamed(old=old, new=new):
            return lib.lists.rename(new, old)
        case DescriptionBefore(name=name, old=old):
            return lib.lists.describe(name, old)
        case ListSnapshot(snapshot=snapshot):
            return lib.lists.restore(snapshot)
        case ListAdded(name=name, added=added):
            return lib.lists.remove(name, added)
        case PositionBefore(name=name, old=old):
            return lib.lists.move(name, change.paper_ids[0], old)
        case ItemNoteBefore(name=name, old=old):
            return lib.lists.set_item_note(name, change.paper_ids[0], old)
        case OrderBefore(name=name, old=old):
            return lib.lists.reorder(name, old)
        case SearchSaved():
            return lib.searches.unsave(change)
        case SearchBefore(name=name, old=str(old)):
            return lib.searches.save(name, old)
    return None


def _other_edit(lib: Managers, change: Change) -> Change | None:
    match change.detail:
        case HighlightId(id=hid):
            return lib.highlights.delete(hid)
        case HighlightBefore(id=hid, color=color, comment=comment):
            return lib.highlights.edit(hid, color=color, comment=comment)
        case HighlightRow(row=row):
            return lib.highlights.restore(row)
        case AttachmentAdded(attachment_id=aid) | AttachmentRestored(attachment_id=aid):
            return lib.attachments.remove(aid)
        case AttachmentRemoved(attachment_id=aid, hard=False):
            return lib.attachments.restore(aid)
    return None
