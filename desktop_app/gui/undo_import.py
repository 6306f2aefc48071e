"""File → Undo last import…: the question, with what goes, and Cancel as the default answer."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import PurePath
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QPushButton, QWidget

from desktop_app.gui import i18n

if TYPE_CHECKING:
    from desktop_app.core.importing.imports import BatchRow
    from desktop_app.gui.window_protocol import WindowLike


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def source_names(source: str, shown: int = 3) -> str:
    """The files an import read, by name: "a.bib, b.ris and 2 more"."""
    names = [PurePath(s.strip()).name or s.strip() for s in source.split(";") if s.strip()]
    if not names:
        return "an unnamed source"
    text = ", ".join(names[:shown])
    return text + (f" and {len(names) - shown} more" if len(names) > shown else "")


def when(started: datetime | str, today: date | None = None) -> str:
    """ "at 14:02" today, else "on 2026-11-30 at 14:02", in local time."""
    if isinstance(started, str):
        started = datetime.fromisoformat(started)
    if started.tzinfo is None:
        started = started.replace(tzinfo=UTC)  # stored as UTC wall time
    local = started.astimezone()
    hm = local.strftime("%H:%M")
    return f"at {hm}" if local.date() == (today or date.today()) else f"on {local:%Y-%m-%d} at {hm}"


def undo_import_text(batch: BatchRow, cost: dict[str, int], today: date | None = None) -> str:
    """The question: how many papers go to the trash, from which import, and the notes and
    highlights that go with them."""
    papers, notes, highlights = cost["papers"], cost["notes"], cost["highlights"]
    them = "it" if papers == 1 else "them"
    head = (
        f"Move the {_plural(papers, 'paper')} added by the import of {source_names(batch['source'])} "
        f"{when(batch['started_at'], today)} to the trash?"
    )
    parts = []
    if notes:
        parts.append(
            (f"{notes:,} of them {'has a note' if notes == 1 else 'have notes'}") if papers > 1 else "it has a note"
        )
    if highlights:
        parts.append(_plural(highlights, "highlight"))
    if parts:
        tail = f"{', '.join(parts)}; they go with {them}."
    else:
        tail = "none of them has notes or highlights." if papers > 1 else "it has no note or highlight."
    return (
        f"{head} {tail[0].upper()}{tail[1:]} The Trash in the sidebar brings {them} back, or deletes {them} for good."
    )


def undo_import_box(parent: QWidget, batch: BatchRow, cost: dict[str, int]) -> QMessageBox:
    """The question box: Move papers to the trash / Cancel, Cancel the default (Enter does not move them)."""
    box = QMessageBox(
        QMessageBox.Icon.Warning,
        QCoreApplication.translate("UndoImport", "Undo import"),
        undo_import_text(batch, cost),
        QMessageBox.StandardButton.Cancel,
        parent,
    )
    box.setObjectName("undoImportBox")
    remove = box.addButton(
        i18n.number_in(i18n.plurals().trash_papers(cost["papers"]), cost["papers"]),
        QMessageBox.ButtonRole.DestructiveRole,
    )
    remove.setObjectName("undoImportRemove")
    cancel = cast(QPushButton, box.button(QMessageBox.StandardButton.Cancel))  # as each standard button is
    box.setDefaultButton(cancel)
    box.setEscapeButton(cancel)
    return box


def ask_undo_import(parent: QWidget, batch: BatchRow, cost: dict[str, int]) -> bool:
    """Ask; True only when the user chose to move the papers to the trash."""
    box = undo_import_box(parent, batch, cost)
    box.exec()
    clicked = box.clickedButton()
    return clicked is not None and clicked.objectName() == "undoImportRemove"


def screenshot_undo_import(window: WindowLike) -> QWidget:
    """File → Undo last import…'s question for the newest import, shown without blocking."""
    lib = window.library
    batch = next(b for b in lib.imports.batches() if not b["undone"] and b["added"])
    box = undo_import_box(window.window(), batch, lib.imports.undo_cost(batch["id"]))
    box.show()
    return box
