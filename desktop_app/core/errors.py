"""Errors the core raises; each message says what the user can do."""

from __future__ import annotations


class LibraryError(Exception):
    """A problem the user can act on; the message says what to do."""


class ServerUnreachable(LibraryError):
    """A shared library's server cannot be reached: the connection was refused or lost, or a
    statement ran past its timeout (a hung server). Nothing of the transaction was kept; the
    window shows what it has and says so (gui/offline.py)."""


class PaperGone(LibraryError):
    """A write named papers that are not live any more (in the trash, or deleted for good by
    another program or desk meanwhile); ``ids`` are those papers. Nothing was written."""

    def __init__(self, message: str, ids: tuple[int, ...] = ()) -> None:
        super().__init__(message)
        self.ids = ids


class MetadataConflict(LibraryError):
    """``update_metadata`` with the values the editing started from: another program or desk
    changed some of the same fields meanwhile. ``fields`` maps each (as ``update_metadata``
    takes it) to (theirs as stored now, mine as typed); nothing was written. Saving again with
    the choice made for each field (and theirs as the new base) settles it."""

    def __init__(self, message: str, paper_id: int, fields: dict[str, tuple[object, object]]) -> None:
        super().__init__(message)
        self.paper_id = paper_id
        self.fields = fields


class DatabaseTooNew(LibraryError):
    """The library was written by a newer Marginalia; it is left untouched."""


class IndexDamaged(LibraryError):
    """The full-text index failed while answering; it has been marked for a rebuild."""


class LibraryBusy(Exception):
    """The library is busy with a long write (an import); try again shortly."""


class ExportFailed(LibraryError):
    """An export could not be written; the file that was there before is unchanged."""


class LibraryReadOnly(LibraryError):
    """A write to a library opened read-only (a folder or file the user may not write)."""


class DiskFull(LibraryError):
    """The disk holding the library is full; the write was rolled back."""


class LibraryDamaged(LibraryError):
    """The database file is damaged (bad pages); the message names the backup to restore."""


class PermissionDenied(LibraryError):
    """A shared library's server refused the role a privilege (SQLSTATE 42501); the message
    names the GRANT a library owner runs. Nothing of the transaction was kept."""


class AlreadyApplied(LibraryError):
    """An edit sent with the id of one already applied (its answer lost with the connection, it
    was sent again): nothing was written again. ``change``: that edit's Change as JSON, as its
    transaction recorded it (None when it could not be written down)."""

    def __init__(self, message: str, change: str | None = None) -> None:
        super().__init__(message)
        self.change = change
