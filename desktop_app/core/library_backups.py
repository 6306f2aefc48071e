"""``lib.backups``: verified copies of a folder library's database in ``backups/`` (the copying,
checking and rotation themselves are :mod:`desktop_app.core.store.backups`). A shared library's
server keeps its own backups (pg_dump): making one is refused with the way to do it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from desktop_app.core.errors import LibraryError, LibraryReadOnly
from desktop_app.core.store import backups
from desktop_app.core.store.failures import storage_errors

if TYPE_CHECKING:
    from desktop_app.core.shared_library import Server
    from desktop_app.core.store import Store

T = TypeVar("T")


class Backups:
    def __init__(self, folder: Path, store: Store, server: Server | None, *, read_only: bool) -> None:
        self.folder = folder
        self.store = store
        self.server = server
        self.read_only = read_only
        self.db_path = Path(folder) / "library.sqlite"

    def make(self, reason: str = "manual", *, keep_at_most: int | None = None) -> Path:
        """A verified copy of the database in ``backups/``; old ones rotate (at most ``keep_at_most``
        kept, see backups.to_keep). LibraryDamaged when the copy fails its integrity check (nothing
        is kept then)."""
        if self.server is not None:
            raise self.server.backup_refused()
        if self.read_only:
            raise LibraryReadOnly(f"the library is read-only, so no backup can be written into {self.folder}")
        made = self._settled(
            lambda: backups.make_backup(
                self.db_path, self.folder / backups.BACKUPS_DIR, reason, keep_at_most=keep_at_most
            )
        )
        self._keep_files_with(made)
        return made

    def if_due(self, every_hours: float | None = None, *, keep_at_most: int | None = None) -> Path | None:
        """An automatic backup when the newest one is older than ``every_hours`` (by default
        ``MARGINALIA_BACKUP_EVERY_HOURS``, else 24). The GUI calls it in a worker after the first
        paint; the command line only backs up on ``marginalia backup``."""
        if self.read_only or self.server is not None:
            return None  # nothing can be written (the window says so), or the server keeps backups
        made = self._settled(
            lambda: backups.backup_if_due(
                self.db_path, self.folder / backups.BACKUPS_DIR, every_hours=every_hours, keep_at_most=keep_at_most
            )
        )
        if made is not None:
            self._keep_files_with(made)
        return made

    def _settled(self, make: Callable[[], T]) -> T:
        """``make()`` (a copy through a new connection of this process) once a -wal file deleted
        under this process is written back (store.settle_wal); again when it was deleted while
        the copy ran (the copy then failed with "disk I/O error")."""
        self.store.settle_wal()
        try:
            return make()
        except LibraryError:
            if not self.store.settle_wal():
                raise
            return make()

    def _keep_files_with(self, backup: Path) -> None:
        """The attached copies a new backup names are kept in ``backups/files/`` (once each);
        those no backup names any more go (core/attachment_files.py)."""
        from desktop_app.core import attachment_files

        with storage_errors(self.folder):
            attachment_files.keep_with_backup(self.folder, backup)
            attachment_files.prune_blobs(backup.parent)

    def check_then_make(self, *, enabled: bool = True, keep_at_most: int | None = None) -> tuple[str, object]:
        """What the window runs in a worker after its first paint: ``("damaged", problem)`` when
        ``PRAGMA quick_check`` of the database fails, else ``("backup", path or None)`` (no
        backup when the user turned them off: ``enabled`` False)."""
        if self.server is not None:
            return "backup", None  # the server checks and backs up its own database
        self.store.settle_wal()  # a -wal deleted under the window is not damage: written back first
        problem = backups.quick_problem(self.db_path)
        if problem is not None:
            return "damaged", problem
        return "backup", self.if_due(keep_at_most=keep_at_most) if enabled else None

    def newest_age(self) -> timedelta | None:
        if self.server is not None:
            return None
        return backups.newest_backup_age(self.folder / backups.BACKUPS_DIR)
