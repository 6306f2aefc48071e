"""Which optional columns the shown papers fill (``lib.papers.filled_fields``): the table hides
a column that is empty for every shown paper, unless the user chose it (``PaperHeader``).

Asked again when the list changes (a new query, the whole list after the first page) and when
rows change (an edit, its undo or its redo, a note saved: the model repaints them). One aggregate statement over the shown ids: up to SYNC_LIMIT ids
it runs at once (a few milliseconds), for longer lists in a worker, whose answer is kept only if
the list is still the one it was asked for (the columns stay as they were meanwhile)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QObject, QTimer
from sqlalchemy.exc import DatabaseError

from desktop_app.core.errors import ServerUnreachable
from desktop_app.core.store.backups import is_damage
from desktop_app.gui.jobs import SerialJob

if TYPE_CHECKING:
    from desktop_app.core.library import Library
    from desktop_app.gui.paper_model import PaperTableModel
    from desktop_app.gui.paper_table import PaperHeader

SYNC_LIMIT = 5000  # ~17 ms at 5,000 papers; 100,000 take ~0.3 s: a worker


class FilledColumns(QObject):
    def __init__(self, library: Library, model: PaperTableModel, header: PaperHeader, owner: QObject) -> None:
        super().__init__(owner)
        self.library = library
        self.model = model
        self.header = header
        self.worker = SerialJob(owner)  # asked while it runs: asked once more when it is done
        self.asked = 0  # how many answers were computed (the tests count them)
        self._later = QTimer(self)  # rows repainted after an edit (a burst of them): once, next turn
        self._later.setSingleShot(True)
        self._later.setInterval(0)
        self._later.timeout.connect(self.refresh)
        model.modelReset.connect(self.refresh)  # a new list: before its first paint
        model.rowsInserted.connect(self._later.start)  # the whole list after the first page
        model.dataChanged.connect(self._later.start)  # an edit, its undo or redo, a note saved

    def refresh(self) -> None:
        if self.model.partial:
            return  # the first page only: the whole list follows at once
        ids = list(self.model.ids)
        if not ids:
            return  # an empty list: the columns stay as they were (nothing is shown in them)
        if len(ids) <= SYNC_LIMIT:
            try:
                filled = self.library.papers.filled_fields(ids)
            except ServerUnreachable:  # a shared library's server is gone: the columns stay
                return
            except DatabaseError as exc:  # bad pages: the model says so (the window offers the
                if not is_damage(exc):  # backup); the columns stay as they are
                    raise
                return
            self._apply(filled)
            return
        library = self.library
        self.worker.start(
            lambda _progress, _cancelled: (ids, library.papers.filled_fields(ids)),
            self._done,
            lambda _message: None,
            again=self.refresh,
        )

    def _apply(self, filled: frozenset[str]) -> None:
        self.asked += 1
        self.header.set_filled(filled)

    def _done(self, result: object) -> None:
        ids, filled = cast("tuple[list[int], frozenset[str]]", result)  # as refresh hands it over
        if ids == self.model.ids:
            self._apply(filled)
        else:
            self.refresh()  # the list changed meanwhile
