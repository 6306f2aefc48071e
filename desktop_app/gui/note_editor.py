"""The note editor: markdown with a preview, saving itself.

Saves within one second of the last keystroke, and at once when the paper changes, the editor
loses focus or the window closes (``flush``). If the library is busy (a long import holds the
write lock), the save is retried; the text never leaves the editor until it is stored.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFocusEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QStackedWidget,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.gui.safe_browser import SafeTextBrowser

AUTOSAVE_MS = 1000
RETRY_MS = 5000  # a note a full disk kept from being stored is tried again this often
DRAFT_MS = 150  # a draft file is written this soon after a keystroke (survives a crash)


def markdown_to_safe_html(text: str) -> str:
    """Render a note: CommonMark with raw HTML disabled (escaped), so nothing runs or loads."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table").enable("strikethrough")
    html: str = md.render(text)
    return html


class _Edit(QPlainTextEdit):
    focusLost = Signal()  # noqa: N815

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802
        self.focusLost.emit()
        super().focusOutEvent(event)


class ConflictBanner(QFrame):
    """ "Changed elsewhere — Show · Keep mine · Take theirs": the note was written by another
    program while this one was being edited. Both texts are stored; the user picks which stays."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("conflictBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.theirs = ""
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 3, 6, 3)
        self.label = QLabel(self.tr("Changed elsewhere —"), self)
        self.label.setToolTip(
            self.tr(
                "Another program (the command line, another window) changed this note "
                "while you were editing it. Both texts are kept; the other one is in the "
                "note's revisions."
            )
        )
        row.addWidget(self.label)
        self.show_button = QToolButton(self)
        self.show_button.setText(self.tr("Show"))
        self.keep_button = QToolButton(self)
        self.keep_button.setText(self.tr("Keep mine"))
        self.take_button = QToolButton(self)
        self.take_button.setText(self.tr("Take theirs"))
        for b in (self.show_button, self.keep_button, self.take_button):
            row.addWidget(b)
        row.addStretch(1)
        self.show_button.clicked.connect(self.show_theirs)
        self.keep_button.clicked.connect(self.hide)
        self.hide()

    def show_theirs(self) -> None:
        """The other text, as plain text (never rendered as HTML)."""
        dialog = QDialog(self)
        dialog.setWindowTitle(self.tr("The note as changed elsewhere"))
        lay = QVBoxLayout(dialog)
        view = QPlainTextEdit(dialog)
        view.setObjectName("theirsText")
        view.setReadOnly(True)
        view.setPlainText(self.theirs)
        lay.addWidget(view)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
        buttons.rejected.connect(dialog.reject)
        lay.addWidget(buttons)
        dialog.resize(520, 360)
        dialog.open()


class DeletedBanner(QFrame):
    """ "This paper was deleted elsewhere — Restore it · Save note to a file…": the paper of a
    note being written was deleted by another program or desk. The text stays in the editor (or
    among its pending notes) and in its draft until it is stored or the user saves it to a file."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("deletedBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.paper_id: int | None = None
        self.restorable = False
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 3, 6, 3)
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        row.addWidget(self.label, 1)
        self.restore_button = QToolButton(self)
        self.restore_button.setObjectName("restoreDeletedPaper")
        self.restore_button.setText(self.tr("Restore it"))
        self.new_paper_button = QToolButton(self)
        self.new_paper_button.setObjectName("keepNoteAsNewPaper")
        self.new_paper_button.setText(self.tr("Keep as a new paper"))
        self.new_paper_button.setToolTip(
            self.tr(
                "Store the note on a new paper that copies the deleted one's "
                "title, abstract and authors (while it is in the trash)"
            )
        )
        self.file_button = QToolButton(self)
        self.file_button.setObjectName("saveNoteToFile")
        self.file_button.setText(self.tr("Save note to a file…"))
        row.addWidget(self.restore_button)
        row.addWidget(self.new_paper_button)
        row.addWidget(self.file_button)
        self.hide()

    def show_for(self, paper_id: int, restorable: bool, on_screen: bool) -> None:
        self.paper_id, self.restorable = paper_id, restorable
        self.label.setText(
            self.tr("This paper was deleted elsewhere —")
            if on_screen
            else self.tr("The paper of a note you were writing was deleted elsewhere —")
        )
        self.restore_button.setEnabled(restorable)
        self.restore_button.setToolTip(
            self.tr("Take the paper out of the trash and store the note")
            if restorable
            else self.tr("The paper was deleted for good; save the note to a file instead")
        )
        self.show()


class NoteEditor(QWidget):
    historyRequested = Signal()  # noqa: N815  the user asked for this note's earlier versions
    restoreRequested = Signal(int)  # noqa: N815  put this deleted paper back (then ``restored``)
    keepAsNewRequested = Signal(int)  # noqa: N815  keep this deleted paper's note on a new paper (then ``kept_as_new``)

    def __init__(
        self, save: Callable[[int, str, str], bool], parent: QWidget | None = None, drafts: Path | None = None
    ) -> None:
        """``save(paper_id, text, base)`` stores the note (``base``: the text the editing started
        from); it returns False when it must be retried.
        ``drafts`` is a folder where unsaved text is journaled between keystrokes and the save,
        so that even a crash in that second loses nothing (see :func:`recover_drafts`)."""
        super().__init__(parent)
        self._save = save
        self.drafts = drafts
        self._paper: int | None = None
        self._saved_text = ""
        # notes that could not be stored (a full disk): paper -> (text, base), kept here and
        # retried until they are; shown again when their paper comes back
        self.pending: dict[int, tuple[str, str]] = {}
        self.last_failure = ""
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        title = QLabel(self.tr("Note"), self)
        title.setObjectName("sectionLabel")
        self.state = QLabel("", self)
        self.state.setObjectName("noteState")
        self.preview_button = QToolButton(self)
        self.preview_button.setText(self.tr("Preview"))
        self.preview_button.setCheckable(True)
        self.preview_button.setObjectName("notePreviewToggle")
        self.preview_button.setToolTip(self.tr("Show the note rendered (Ctrl+Shift+P)"))
        self.preview_button.toggled.connect(self._toggle_preview)
        toggle = QShortcut(QKeySequence("Ctrl+Shift+P"), self)
        toggle.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        toggle.activated.connect(self.preview_button.toggle)
        bar.addWidget(title)
        bar.addStretch(1)
        bar.addWidget(self.state)
        bar.addWidget(self.preview_button)
        self.history_button = QToolButton(self)
        self.history_button.setText(self.tr("History…"))
        self.history_button.setObjectName("noteHistoryButton")
        self.history_button.setToolTip(self.tr("Earlier versions of this note, and restore one"))
        self.history_button.clicked.connect(self.historyRequested)
        bar.addWidget(self.history_button)
        lay.addLayout(bar)
        self.banner = ConflictBanner(self)
        self.banner.take_button.clicked.connect(self._take_theirs)
        lay.addWidget(self.banner)
        self.deleted_banner = DeletedBanner(self)
        self.deleted_banner.restore_button.clicked.connect(self._restore_clicked)
        self.deleted_banner.file_button.clicked.connect(self.save_to_file)
        self.deleted_banner.new_paper_button.clicked.connect(self._keep_as_new_clicked)
        lay.addWidget(self.deleted_banner)
        self.stack = QStackedWidget(self)
        self.edit = _Edit(self)
        self.edit.setObjectName("noteEditor")
        self.edit.setAccessibleName(self.tr("Note"))
        self.edit.setPlaceholderText(self.tr("Write a note in Markdown — it saves itself."))
        self.edit.setTabChangesFocus(True)
        self.preview: QTextBrowser = SafeTextBrowser(self)
        self.preview.setObjectName("notePreview")
        self.stack.addWidget(self.edit)
        self.stack.addWidget(self.preview)
        lay.addWidget(self.stack, 1)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(AUTOSAVE_MS)
        self.timer.timeout.connect(self.flush)
        self.edit.textChanged.connect(self._typed)
        self.edit.focusLost.connect(self.flush)
        self.retry_timer = QTimer(self)
        self.retry_timer.setInterval(RETRY_MS)
        self.retry_timer.timeout.connect(self._retry_pending)
        self.draft_timer = QTimer(self)
        self.draft_timer.setSingleShot(True)
        self.draft_timer.setInterval(DRAFT_MS)
        self.draft_timer.timeout.connect(self._write_draft)

    def paper_id(self) -> int | None:
        return self._paper

    def load(self, paper_id: int | None, text: str, *, flush: bool = True) -> None:
        """Show another paper's note (the current one is saved first, unless ``flush`` is False:
        undo replaces the text on purpose)."""
        if flush:
            if not self.flush() and self._paper is not None and self.dirty():
                self._write_draft()  # the text stays: here, in its draft, and retried
                self.pending[self._paper] = (self.edit.toPlainText(), self._saved_text)
                self.retry_timer.start()
        else:
            self.timer.stop()
            self.draft_timer.stop()
        if paper_id != self._paper:
            self.banner.hide()
        self._paper = paper_id
        self._saved_text = text
        self.edit.blockSignals(True)
        self.edit.setPlainText(text)
        self.edit.blockSignals(False)
        self.edit.setEnabled(paper_id is not None)
        self.history_button.setEnabled(paper_id is not None)
        self.state.setText("")
        if paper_id in self.pending:  # text not stored yet: shown as typed, still to save
            typed, base = self.pending.pop(paper_id)
            self._saved_text = base
            self.edit.blockSignals(True)
            self.edit.setPlainText(typed)
            self.edit.blockSignals(False)
            self.state.setText(self._not_saved_text())
            self.timer.start()
        if self.preview_button.isChecked():
            self.preview.setHtml(markdown_to_safe_html(self.edit.toPlainText()))
        gone = self.deleted_banner.paper_id
        if self.deleted_banner.isVisible() and gone is not None:  # said of the paper on screen or not
            if self.kept_text(gone) is None:
                self.deleted_banner.hide()
            else:
                self.deleted_banner.show_for(gone, self.deleted_banner.restorable, gone == paper_id)

    def _restore_clicked(self) -> None:
        if self.deleted_banner.paper_id is not None:
            self.restoreRequested.emit(self.deleted_banner.paper_id)

    def _keep_as_new_clicked(self) -> None:
        if self.deleted_banner.paper_id is not None:
            self.keepAsNewRequested.emit(self.deleted_banner.paper_id)

    def _typed(self) -> None:
        self.state.setText(self.tr("editing…"))
        self.timer.start()
        if not self.draft_timer.isActive():
            self.draft_timer.start()

    def _draft_path(self) -> Path | None:
        if self.drafts is None or self._paper is None:
            return None
        return self.drafts / f"{self._paper}.md"

    def _write_draft(self) -> None:
        path = self._draft_path()
        if path is None or not self.dirty():
            return
        text = self.edit.toPlainText()
        for target in (path, fallback_drafts(path.parent) / path.name):  # (a full disk: elsewhere)
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                tmp = target.with_suffix(".tmp")
                tmp.write_text(text, "utf-8")
                os.replace(tmp, target)
                return
            except OSError:
                continue  # the draft is a safety net; the real save still runs

    def _drop_draft(self, paper_id: int | None = None) -> None:
        pid = self._paper if paper_id is None else paper_id
        if self.drafts is None or pid is None:
            return
        for folder in (self.drafts, fallback_drafts(self.drafts)):
            with contextlib.suppress(OSError):
                (folder / f"{pid}.md").unlink(missing_ok=True)

    def _not_saved_text(self) -> str:
        why = self.last_failure or self.tr("the library could not be written")
        return self.tr("not saved: {0}; kept here and retried").format(why)

    def _retry_pending(self) -> None:
        """Try again to store the notes a failed save kept (a full disk may have room now)."""
        for pid, (text, base) in list(self.pending.items()):
            try:
                stored = self._save(pid, text, base)
            except PaperDeleted as exc:  # kept (and its draft) until restored or saved to a file
                if not self.deleted_banner.isVisible():
                    self.deleted_banner.show_for(pid, exc.restorable, pid == self._paper)
                continue
            except NoteNotSaved as exc:
                self.last_failure = str(exc)
                continue
            if stored:
                del self.pending[pid]
                self._drop_draft(pid)
                if self.deleted_banner.paper_id == pid:
                    self.deleted_banner.hide()
        if not self.pending:
            self.retry_timer.stop()

    def dirty(self) -> bool:
        return self._paper is not None and self.edit.toPlainText() != self._saved_text

    def flush(self) -> bool:
        """Save now if there is unsaved text. Returns True when nothing is left unsaved."""
        self.timer.stop()
        if not self.dirty():
            return True
        text = self.edit.toPlainText()
        assert self._paper is not None
        try:
            stored = self._save(self._paper, text, self._saved_text)
        except PaperDeleted as exc:  # deleted elsewhere: the text and its draft stay; the banner
            self.last_failure = str(exc)  # offers to restore the paper or save the note to a file
            self._write_draft()
            self.draft_timer.stop()
            self.state.setText(self._not_saved_text())
            self.deleted_banner.show_for(self._paper, exc.restorable, True)
            return False
        except NoteNotSaved as exc:  # never "saved" unless it was: the text stays, its draft too
            self.last_failure = str(exc)
            self._write_draft()
            self.state.setText(self._not_saved_text())
            self.timer.start()
            return False
        if stored:
            self._saved_text = text
            self.last_failure = ""
            if self.deleted_banner.paper_id == self._paper:
                self.deleted_banner.hide()
            self.state.setText(self.tr("saved"))
            self.draft_timer.stop()
            self._drop_draft()
            return True
        self.state.setText(self.tr("waiting to save…"))
        self.timer.start()
        return False

    def kept_text(self, paper_id: int) -> str | None:
        """The unsaved text of a paper's note: on screen, or among the pending notes."""
        if paper_id == self._paper and self.dirty():
            return self.edit.toPlainText()
        kept = self.pending.get(paper_id)
        return None if kept is None else kept[0]

    def restored(self, paper_id: int) -> None:
        """The deleted paper is back (Restore it): store its note now."""
        if paper_id == self._paper:
            self.flush()
        elif paper_id in self.pending:
            self._retry_pending()
        if self.kept_text(paper_id) is None and self.deleted_banner.paper_id == paper_id:
            self.deleted_banner.hide()

    def kept_as_new(self, paper_id: int) -> None:
        """The deleted paper's note is stored on a new paper (Keep as a new paper): the editor
        lets go of its kept text and draft; the note on screen stays shown until another paper is."""
        if paper_id == self._paper:
            self.timer.stop()
            self.draft_timer.stop()
            self._saved_text = self.edit.toPlainText()
            self.state.setText(self.tr("kept on a new paper"))
        self.pending.pop(paper_id, None)
        self._drop_draft(paper_id)
        if self.deleted_banner.paper_id == paper_id:
            self.deleted_banner.hide()

    def save_to_file(self) -> None:
        """Save note to a file…: the kept text of the deleted paper's note, as Markdown. Its draft
        stays where it is (recovered as an ``.orphan`` file at the next start)."""
        pid = self.deleted_banner.paper_id
        text = None if pid is None else self.kept_text(pid)
        if pid is None or text is None:
            self.deleted_banner.hide()
            return
        path, _filter = QFileDialog.getSaveFileName(
            self,
            self.tr("Save note to a file"),
            str(Path.home() / f"note-{pid}.md"),
            self.tr("Markdown (*.md);;All files (*)"),
        )
        if not path:
            return
        try:
            Path(path).write_text(text, "utf-8")
        except OSError as exc:
            self.state.setText(self.tr("not saved to {0}: {1}").format(path, exc.strerror or exc))
            return
        self.state.setText(self.tr("note saved to {0}").format(path))

    def set_read_only(self, on: bool) -> None:
        self.edit.setReadOnly(on)
        self.edit.setPlaceholderText(
            self.tr("This library is read-only.") if on else self.tr("Write a note in Markdown — it saves itself.")
        )

    def saved_text(self) -> str:
        """The text last loaded or stored: what the editor believes the library holds."""
        return self._saved_text

    def changed_elsewhere(self, theirs: str) -> None:
        """Another program wrote ``theirs``. Unsaved typing stays and is saved over it (theirs is
        kept as a revision) with the banner shown; otherwise the new text is simply shown."""
        if self.dirty():
            self.show_conflict(theirs)
            return
        at = self.edit.textCursor().position()
        self.load(self._paper, theirs, flush=False)
        cursor = self.edit.textCursor()
        cursor.setPosition(min(at, len(theirs)))
        self.edit.setTextCursor(cursor)
        self.state.setText(self.tr("updated from elsewhere"))

    def show_conflict(self, theirs: str) -> None:
        self.banner.theirs = theirs
        self.banner.show()

    def _take_theirs(self) -> None:
        """Put the other text back as the note (ours becomes a revision; undo brings it back)."""
        self.banner.hide()
        if self._paper is None:
            return
        self.edit.setPlainText(self.banner.theirs)  # dirty against what is stored: saved now
        self.flush()

    def _toggle_preview(self, on: bool) -> None:
        if on:
            self.flush()
            self.preview.setHtml(markdown_to_safe_html(self.edit.toPlainText()))
            self.stack.setCurrentWidget(self.preview)
        else:
            self.stack.setCurrentWidget(self.edit)
            self.edit.setFocus(Qt.FocusReason.OtherFocusReason)

    def focus_editor(self) -> None:
        self.preview_button.setChecked(False)
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)


class NoteNotSaved(Exception):
    """Raised by a note editor's ``save`` when the note could not be stored (a full disk, a
    read-only or damaged library): the editor keeps the text, says why, and retries."""


class PaperDeleted(NoteNotSaved):
    """Raised by a note editor's ``save`` when the note's paper was deleted elsewhere: the
    editor keeps the text and its draft and shows the "deleted elsewhere" banner. ``restorable``:
    the paper is in the trash (Restore it brings it back)."""

    def __init__(self, message: str, restorable: bool) -> None:
        super().__init__(message)
        self.restorable = restorable


def fallback_drafts(folder: Path) -> Path:
    """Where drafts go when the library's own ``drafts/`` cannot be written (its disk is full):
    the user's temporary folder, one subfolder per library."""
    digest = hashlib.sha1(str(folder.absolute()).encode("utf-8")).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / "marginalia-drafts" / digest


def recover_drafts(folder: Path, save: Callable[[int, str], object]) -> list[int]:
    """Store note drafts a crash left behind, from the library's ``drafts/`` and from the
    fallback folder (the note's earlier text becomes a revision). A draft that cannot be stored
    now (a full disk) stays for the next start; one whose paper is gone is kept as ``.orphan``.
    Returns the papers whose notes were recovered."""
    from desktop_app.core.errors import DiskFull, LibraryBusy, LibraryDamaged, LibraryReadOnly

    recovered = []
    for place in (folder, fallback_drafts(folder)):
        if not place.is_dir():
            continue
        for path in sorted(place.glob("*.md")):
            try:
                pid, text = int(path.stem), path.read_text("utf-8")
                save(pid, text)
                recovered.append(pid)
            except (ValueError, OSError, DiskFull, LibraryBusy, LibraryReadOnly, LibraryDamaged):
                continue  # not one of ours, unreadable, or not storable now: it stays where it is
            except Exception:  # noqa: BLE001 - the paper is gone: keep the file for the user
                path.rename(path.with_suffix(".orphan"))
                continue
            path.unlink(missing_ok=True)
        for tmp in place.glob("*.tmp"):
            tmp.unlink(missing_ok=True)
    return recovered
