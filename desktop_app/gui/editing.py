"""Edits of the library from the window, each one an undoable command that calls the Library.

The dialogs' edits (metadata, re-derived titles, duplicates, attachments) come in through
:meth:`EditController.submit`, told as data like the window's own, so that while a shared
library's server is away they wait in the same outbox and journal and are sent in the same order."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QColorDialog, QInputDialog, QMessageBox, QWidget

from desktop_app.core.changelog.undo_data import HighlightRow, ListCreated, NoteBefore, TitleBefore
from desktop_app.core.errors import (
    AlreadyApplied,
    DiskFull,
    LibraryBusy,
    LibraryDamaged,
    LibraryError,
    LibraryReadOnly,
    MetadataConflict,
    PaperGone,
    PermissionDenied,
    ServerUnreachable,
)
from desktop_app.core.library import Library
from desktop_app.core.library_call import ChangeRef, DescribedEdit, LibraryCall
from desktop_app.core.saved_filter import SavedFilter
from desktop_app.core.store.outbox_journal import OutboxJournal
from desktop_app.core.values import Change
from desktop_app.gui import i18n
from desktop_app.gui.note_editor import NoteEditor, NoteNotSaved, PaperDeleted
from desktop_app.gui.paper_table import PaperTable
from desktop_app.gui.search_bar import FilterState, SearchBar
from desktop_app.gui.undo import Do, NoteCommand, Undo, perform, perform_in
from desktop_app.gui.write_queue import LARGE, WriteQueue

if TYPE_CHECKING:
    from desktop_app.core.insights.topics import Topic  # (its module loads numpy: for the type only)

NOTE_SAVE_WAIT = 0.05  # seconds the GUI thread may wait for the write lock
GUI_LOCK_WAIT = 0.08  # seconds an edit waits for the write lock on the GUI thread before the worker takes it
MESSAGE_MS = 5000


class Waiting(NamedTuple):
    """An edit in the outbox; ``described`` (when it has one) is what its journal keeps;
    ``large``: sent through the write queue (an edit of more than LARGE papers)."""

    text: str
    do: Do
    undo: Undo
    described: DescribedEdit | None = None
    large: bool = False


def _watched(do: Do) -> tuple[Do, threading.Event]:
    """``do`` for a worker's run, and an event set when that run found the server gone."""
    lost = threading.Event()

    def run() -> Change:
        try:
            return do()
        except ServerUnreachable:
            lost.set()
            raise

    return run, lost


def call(manager: str, method: str, *args: object, **kwargs: object) -> LibraryCall:
    """``lib.<manager>.<method>(*args, **kwargs)`` as data (core/library_call.py). As an edit's
    ``do``, its undo is ``lib.undo`` of the Change it returns unless the edit names another."""
    return LibraryCall(manager, method, args, kwargs)


def ref(*path: str | int) -> ChangeRef:
    """A value of the Change being undone: ``ref("detail", "old")``."""
    return ChangeRef(path)


class EditController(QObject):
    """Tags, status, rating, titles, notes, highlights, deletion, reading lists and saved
    searches, on the papers of ``table``; every edit goes on ``undo_stack``.

    It reads the window's filter through ``filters`` and tells the window what to show through
    its signals; it never changes the filter itself.
    """

    changed = Signal(object)  # a Change: after an edit, its undo or its redo
    message = Signal(str, int)  # status-bar text, milliseconds
    filterRequested = Signal(str, str)  # noqa: N815  kind, value: show it, as a click in the sidebar
    tagExcluded = Signal(str)  # noqa: N815  hide the papers with this tag
    listRenamed = Signal(str, str)  # noqa: N815  old name, new name
    listReordered = Signal(object)  # noqa: N815  the shown list was reordered; keep this paper (or None) current
    exportRequested = Signal(str)  # noqa: N815  export this reading list
    purgeRequested = Signal()  # noqa: N815  Delete in the Trash view: delete the selection for good (asks)
    # a metadata edit that waited for the server found fields changed elsewhere meanwhile: its
    # DescribedEdit and the MetadataConflict (the window offers the field-by-field choice)
    waitingConflict = Signal(object, object)  # noqa: N815

    def __init__(
        self,
        library: Library,
        undo_stack: QUndoStack,
        table: PaperTable,
        notes: NoteEditor,
        search: SearchBar,
        filters: Callable[[], FilterState],
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self.library = library
        self.undo_stack = undo_stack
        self._table = table
        self._notes = notes
        self._search = search
        self._filters = filters
        self._dialog_parent = parent
        # large edits, their undo and redo: in a worker, in order; a small undo or redo runs
        # here, unless another program holds the write lock longer than GUI_LOCK_WAIT
        self.writes = WriteQueue(parent, lambda: library.waiting_at_most(GUI_LOCK_WAIT))
        self.writes.deferredWrite.connect(
            lambda text: self._say(
                self.tr("Another program is writing to the library: “{0}” is applied when it is done").format(text)
            )
        )
        # edits made while a shared library's server cannot be reached: sent in order when it is
        # back (gui/offline.py calls send_outbox); those told as data are journaled in the desk's
        # folder, so a window closed or killed meanwhile loses none (notes: their drafts)
        self.outbox: list[Waiting] = []
        self.journal = OutboxJournal(library.folder, library.server.location) if library.server else None
        self._adopted = 0  # edits of an earlier window's journal, in the outbox
        self._released = False  # the window is closed: its outbox is the journal's, never sent from here
        self._sending_large = False  # the outbox's first edit, large, is being written by the worker
        journal = self.journal  # (a lambda: Qt calls no slot of an object being destroyed)
        if journal is not None:
            self.destroyed.connect(lambda *_: journal.release())

    def _warn(self, why: str) -> None:
        QMessageBox.warning(self._dialog_parent, self.tr("Marginalia"), why)

    def busy(self) -> bool:
        """Whether a large edit (or an undo or redo waiting behind one) is being written."""
        return self.writes.busy()

    def _call(self, edit: DescribedEdit) -> Change | None:
        """An edit told as data (it can wait in the journal), run as :meth:`_do`."""
        do, undo = self._bound(edit)
        return self._do(edit.text, do, undo, edit)

    def _call_many(self, n: int, edit: DescribedEdit) -> None:
        do, undo = self._bound(edit)
        self._do_many(n, edit.text, do, undo, edit)

    def _bound(self, edit: DescribedEdit) -> tuple[Do, Undo]:
        lib = self.library
        return (lambda: edit.do(lib)), (lambda ch: edit.undo(lib, ch))

    def _do(self, text: str, do: Do, undo: Undo, edit: DescribedEdit | None = None) -> Change | None:
        """Run an edit here and push it. While a large edit is being written it is refused (it
        would wait for the write lock with the window frozen). ``edit``: the same as data, for
        the journal while it waits for the server."""
        if self.writes.busy():
            self._say(self.tr("Wait a moment: a large edit is still being written"))
            return None
        try:
            return self._run(text, do, undo, edit)
        except LibraryError as exc:
            self._warn(str(exc))
            return None

    def submit(self, edit: DescribedEdit, live: tuple[Do, Undo] | None = None) -> Change | None:
        """A dialog's edit (metadata, re-derived titles, a merge, an attachment), run as
        :meth:`_do` but what the library refuses is raised for the dialog to say (a
        MetadataConflict: its field-by-field choice). Its Change when it is saved now; None when
        it waits: for the server (journaled, said in the status bar), or for another program's
        write. ``live``: the do and undo this window runs, when they differ from ``edit``'s (a
        redo restoring what its undo removed, where the journal's version makes it again)."""
        if self.writes.busy():
            raise LibraryError(self.tr("Wait a moment: a large edit is still being written"))
        do, undo = live or self._bound(edit)
        return self._run(edit.text, do, undo, edit)

    def _run(self, text: str, do: Do, undo: Undo, edit: DescribedEdit | None) -> Change | None:
        """Run and push the edit; kept in the outbox when the server is away (known to be, or
        found so), sent to the worker when another program holds the write lock. None then;
        what the library refuses is raised."""
        if edit is not None and self.journal is not None:  # a shared library: sent with an id
            edit = edit.with_id()
            do = self._once(edit, do)
        if self.outbox or not self.library.reachable:  # earlier edits wait, or the server is
            self._keep(Waiting(text, do, undo, edit))  # known gone: it goes after them, untried
            return None
        try:
            # another program holding the write lock (a command-line import): the edit goes to
            # the worker rather than freeze the window while it waits
            with self.library.waiting_at_most(GUI_LOCK_WAIT):
                return perform(self.undo_stack, text, do, undo, self.changed.emit, self._warn, self.writes)
        except ServerUnreachable:
            self._keep(Waiting(text, do, undo, edit))
            return None
        except LibraryBusy:
            self._say(self.tr("Another program is writing to the library: your edit is saved when it is done"))
            perform_in(self.writes, self.undo_stack, text, do, undo, self.changed.emit, self._warn)
            return None

    def _once(self, edit: DescribedEdit, do: Do) -> Do:
        """``do``, its first run that succeeds applied once under the edit's id
        (``lib.apply_once``): when the connection dropped after the server committed it, the
        outbox sends it again and it is not applied twice (the Change of the first time comes
        back, for its undo). A later run, a redo after its undo, is an edit of its own. An edit
        without id (journaled by an earlier version) runs as it is."""
        if edit.edit_id is None:
            return do
        lib, edit_id = self.library, edit.edit_id
        applied = False

        def run() -> Change:
            nonlocal applied
            if applied:
                return do()
            change = lib.apply_once(edit_id, do)
            applied = True
            return change

        return run

    def _keep(self, waiting: Waiting) -> None:
        """An edit the server cannot take now: kept (journaled when told as data), said, and
        sent when it is back."""
        self.outbox.append(waiting)
        self.message.emit(
            self.tr(
                "The library's server cannot be reached: “{0}” waits and is sent when it is back (%n edit(s) waiting)",
                "",
                len(self.outbox),
            ).format(waiting.text),
            15000,
        )
        self._write_journal()

    def _write_journal(self) -> None:
        if self.journal is None or self._released:
            return
        try:
            self.journal.write([w.described for w in self.outbox if w.described is not None])
        except OSError as exc:
            self.message.emit(
                self.tr(
                    "The waiting edits could not be kept on disk ({0}): keep this window open until the server is back"
                ).format(exc),
                15000,
            )

    def has_waiting(self) -> bool:
        """Whether edits wait for the server (a new one goes after them)."""
        return bool(self.outbox)

    def waiting_in_memory(self) -> int:
        """How many waiting edits only this window holds (no journal keeps them)."""
        kept = self.journal is not None
        return sum(1 for w in self.outbox if w.described is None or not kept)

    def may_close(self) -> bool:
        """Closing the window: edits no journal keeps would be lost, so ask (Wait is the
        default). Journaled ones need no question: the next window sends them."""
        n = self.waiting_in_memory()
        if not n:
            return True
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            self.tr("Marginalia"),
            self.tr(
                "%n edit(s) wait for the library's server and are kept only in this window: closing it now loses them.",
                "",
                n,
            ),
            parent=self._dialog_parent,
        )
        wait = box.addButton(self.tr("Wait"), QMessageBox.ButtonRole.RejectRole)
        box.addButton(self.tr("Close anyway"), QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(wait)
        box.exec()
        return box.clickedButton() is not wait

    def release_journal(self) -> None:
        """The window closes (or is gone): what waits stays in the journal, for the next window
        on this library to send; this one sends nothing more."""
        self._released = True
        if self.journal is not None:
            self.journal.release()

    def adopt_journal(self) -> int:
        """The edits an earlier window on this library left waiting (closed or killed while the
        server was away): into this outbox, in order, ahead of any new edit. Their number."""
        if self.journal is None:
            return 0
        edits, problems = self.journal.adopt()
        for why in problems:
            self.message.emit(why, 15000)
        for edit in edits:
            do, undo = self._bound(edit)
            self.outbox.append(Waiting(edit.text, self._once(edit, do), undo, edit))
        self._adopted += len(edits)
        self._write_journal()
        return len(edits)

    def send_outbox(self) -> None:
        """Send the edits that waited for the server, in order. One the library now refuses (its
        paper deleted meanwhile, a tag renamed) is said and dropped; the others go on. A metadata
        edit that meets fields changed elsewhere is said and handed to ``waitingConflict``. The
        last refusal said stays in the status bar (no "were saved" after it)."""
        if self._released:
            return
        if self._sending_large:  # the head of the outbox is being written: this goes on after it
            return
        sent = bool(self.outbox)
        refused = 0
        while self.outbox:
            text, do, undo, edit, large = self.outbox[0]
            if large:
                self._send_large(self.outbox[0])
                return
            try:
                perform(self.undo_stack, text, do, undo, self.changed.emit, self._warn, self.writes)
            except (ServerUnreachable, LibraryBusy):
                return  # gone again: the rest waits for the next return
            except AlreadyApplied:  # applied before its answer was lost, its Change not kept:
                self.message.emit(  # saved, but no undo step (rare: lib.apply_once)
                    self.tr("“{0}”, made while the server was away, had been saved already").format(text), 15000
                )
            except MetadataConflict as exc:  # fields changed elsewhere meanwhile: nothing written,
                self.message.emit(  # the window offers the choice of each (never a silent drop)
                    self.tr("“{0}”, made while the server was away, was not saved: {1}").format(text, exc), 30000
                )
                self.waitingConflict.emit(edit, exc)
                refused += 1
            except LibraryError as exc:
                self.message.emit(
                    self.tr("“{0}”, made while the server was away, could not be saved: {1}").format(text, exc), 15000
                )
                refused += 1
            self.outbox.pop(0)
            self._write_journal()
        if refused:
            self._adopted = 0
        elif self._adopted:
            self._say(self.tr("%n edit(s) made while the server was away were saved", "", self._adopted))
            self._adopted = 0
        elif sent:
            self._say(self.tr("The edits made while the server was away are saved"))

    def _do_many(self, n: int, text: str, do: Do, undo: Undo, edit: DescribedEdit | None = None) -> None:
        """An edit of ``n`` papers: in the worker when large (or behind a write there), else here.
        Either way one undo step."""
        if n > LARGE or self.writes.busy():
            self._do_large(text, do, undo, edit)
        else:
            self._do(text, do, undo, edit)

    def _do_large(self, text: str, do: Do, undo: Undo, edit: DescribedEdit | None) -> None:
        """A large edit, written by the worker. On a shared library it is sent with an id (sent
        again, it is applied once), waits in the outbox while the server is away, and goes
        there when the worker finds the server gone."""
        if edit is None or self.journal is None:
            perform_in(self.writes, self.undo_stack, text, do, undo, self.changed.emit, self._warn)
            return
        edit = edit.with_id()
        do = self._once(edit, do)
        waiting = Waiting(text, do, undo, edit, large=True)
        if self.outbox or not self.library.reachable:
            self._keep(waiting)
            return
        first_run, lost = _watched(do)

        def failed(why: str) -> None:
            if lost.is_set():  # the server went away: the edit waits for it (this step is dropped)
                lost.clear()
                self._keep(waiting)
            else:
                self._warn(why)

        perform_in(self.writes, self.undo_stack, text, do, undo, self.changed.emit, failed, first_run=first_run)

    def _send_large(self, waiting: Waiting) -> None:
        """The outbox's first edit, large: written by the worker (the window goes on); the rest
        of the outbox after it. The server gone again: it stays first and waits."""
        self._sending_large = True
        first_run, lost = _watched(waiting.do)
        ended = threading.Event()  # the first run is over: a later failure is its undo's or redo's

        def after(saved: bool) -> None:
            ended.set()
            self._sending_large = False
            if not saved and lost.is_set():
                return  # gone again: the outbox waits for the next return
            if self.outbox and self.outbox[0] is waiting:
                self.outbox.pop(0)
                self._write_journal()
            if saved and not self.outbox:
                self._say(self.tr("The edits made while the server was away are saved"))
            self.send_outbox()

        def failed(why: str) -> None:
            if ended.is_set():
                self._warn(why)
            elif not lost.is_set():
                self.message.emit(
                    self.tr("“{0}”, made while the server was away, could not be saved: {1}").format(waiting.text, why),
                    15000,
                )

        perform_in(
            self.writes,
            self.undo_stack,
            waiting.text,
            waiting.do,
            waiting.undo,
            self.changed.emit,
            failed,
            first_run=first_run,
            after=after,
        )

    def _say(self, text: str) -> None:
        self.message.emit(text, MESSAGE_MS)

    def _in_trash(self) -> bool:
        """Whether the Trash is shown, whose papers are not edited (said in the status bar)."""
        if not self._filters().trash:
            return False
        self._say(self.tr("Papers in the trash are not edited: restore them first (Ctrl+Shift+R)"))
        return True

    # ---- tags ------------------------------------------------------------------------------
    def add_tags(self, ids: list[int], names: list[str]) -> None:
        if not ids or not names or self._in_trash():
            return
        label = (
            self.tr("Add tag {0} to %n paper(s)", "", len(ids)) if len(ids) > 1 else self.tr("Add tag {0}")
        ).format(", ".join(names))
        self._call_many(
            len(ids),
            DescribedEdit(label, call("tags", "add", ids, names)),
        )

    def remove_tag(self, ids: list[int], name: str) -> None:
        self._call_many(
            len(ids),
            DescribedEdit(
                self.tr("Remove tag {0}").format(name),
                call("tags", "remove", ids, [name]),
            ),
        )

    # ---- status, rating, title ---------------------------------------------------------------
    def _bulk(self, column: str, value: object, label: str, ids: list[int] | None = None) -> None:
        ids = self._table.selected_ids() if ids is None else ids
        if not ids or self._in_trash():
            return
        setter = {"status": "set_status", "rating": "set_rating", "decision": "set_decision"}[column]
        # its undo sets back the values the edit replaced (those it changed; none: nothing)
        self._call_many(
            len(ids),
            DescribedEdit(
                label + (self.tr(" (%n papers)", "", len(ids)) if len(ids) > 1 else ""),
                call("papers", setter, ids, value),
            ),
        )

    def set_status(self, status: str, ids: list[int] | None = None) -> None:
        """Of ``ids`` (triage: the paper on screen), else of the selected papers."""
        self._bulk("status", status, self.tr("Mark {0}").format(i18n.status_word(status)), ids)

    def set_decision(self, decision: str | None, ids: list[int] | None = None) -> None:
        """keep / maybe / skip, or None (undecided), of ``ids`` or of the selected papers."""
        label = (
            self.tr("Clear decision")
            if decision is None
            else self.tr("Decide {0}").format(i18n.decision_word(decision))
        )
        self._bulk("decision", decision, label, ids)

    def decide_topic(self, topic: Topic, decision: str) -> None:
        """Every undecided paper of a topic (core/insights/topics.py) decided at once: one undo
        step (told as its papers, so it can wait in the journal for a server)."""
        self._call(
            DescribedEdit(
                self.tr("Decide topic {0} {1}").format(topic.name, i18n.decision_word(decision)),
                call("papers", "decide_undecided", [int(i) for i in topic.ids], decision),
                # not lib.undo (papers.set_fields): undone as a decision (papers.set_decision, so
                # logged as one), and when it decided no paper its undo writes nothing
                call("topics", "undo_decide", ref()),
            )
        )

    def set_rating(self, rating: int, ids: list[int] | None = None) -> None:
        self._bulk("rating", rating, self.tr("Rate {0}").format(rating), ids)

    def edit_title(self, pid: int, title: str, base: str | None = None) -> None:
        """``base``: the title the user was looking at. If another program changed it meanwhile,
        the user's title is stored and the status bar says what it replaced (Undo brings it back)."""
        change = self._call(
            DescribedEdit(
                self.tr("Edit title"),
                call("papers", "set_title", pid, title),
            )
        )
        before = change.detail_as(TitleBefore).old[0] if change is not None else None
        if before is not None and base is not None and before != base:
            self.message.emit(
                self.tr(
                    "The title had been changed elsewhere to “{0}”; "
                    "yours replaced it (Edit → Undo brings that one back)"
                ).format(before),
                15000,
            )

    # ---- notes -----------------------------------------------------------------------------
    def save_note(self, pid: int, text: str, base: str | None = None, editor: NoteEditor | None = None) -> bool:
        """Called by the note editor. False means: busy, try again shortly. ``base`` is the text
        the editing started from: when the stored note is no longer it, another program changed
        it meanwhile; both texts are kept and the editor shows the "Changed elsewhere" banner."""
        try:
            change = self.library.notes.set(pid, text, base=base, wait=NOTE_SAVE_WAIT)
        except LibraryBusy:
            return False
        except PermissionDenied as exc:  # a shared library's role may not write notes: say which GRANT;
            self.message.emit(str(exc), 15000)  # the editor keeps the text (and its draft)
            raise NoteNotSaved(str(exc)) from exc
        except (DiskFull, LibraryReadOnly, LibraryDamaged) as exc:  # not stored: the editor keeps
            raise NoteNotSaved(str(exc)) from exc  # the text, says why and retries
        except PaperGone as exc:  # deleted elsewhere (another window, the CLI, another desk): the
            try:  # editor keeps the text and its draft and offers to restore the paper
                restorable = self.library.trash.holds(pid)
            except LibraryError:
                restorable = False
            raise PaperDeleted(self.tr("this paper was deleted elsewhere"), restorable) from exc
        except LibraryError as exc:  # any other refusal: never dropped, kept and retried
            raise NoteNotSaved(str(exc)) from exc
        shown = editor or self._notes  # the reader's note editor, or triage's
        before = change.detail if isinstance(change.detail, NoteBefore) else None  # None: the text is the same
        if before is not None and before.conflict is not None and shown.paper_id() == pid:
            shown.show_conflict(before.conflict)
        self._table.paper_model.refresh_papers(change.paper_ids)
        if before is not None:  # the text changed: one undo step per bout of writing
            stack = self.undo_stack
            top = stack.command(stack.index() - 1) if stack.index() else None
            if isinstance(top, NoteCommand) and top.paper_id != pid:
                top.closed = True
            stack.push(NoteCommand(pid, before.old, text, self._apply_note, self.changed.emit))
            if before.conflict is not None:  # "Take theirs" must be an undo step of its own
                cast(NoteCommand, stack.command(stack.index() - 1)).closed = True  # the one just pushed
        return True

    def restore_for_note(self, pid: int, editor: NoteEditor | None = None) -> None:
        """ "Restore it" on the note editor's "deleted elsewhere" banner: the paper comes out of
        the trash (one undo step), then the note kept in the editor is stored."""
        if self._call(DescribedEdit(self.tr("Restore paper"), call("papers", "restore", [pid]))) is None:
            return
        shown = editor or self._notes
        shown.restored(pid)
        if shown.kept_text(pid) is None:
            self._say(self.tr("The paper is back from the trash; your note is stored"))

    def keep_note_as_new_paper(self, pid: int, editor: NoteEditor | None = None) -> None:
        """ "Keep as a new paper" on the note editor's "deleted elsewhere" banner: the note kept in
        the editor is stored on a new paper copying the deleted one (one undo step: undoing it
        moves the new paper, note and all, to the trash)."""
        shown = editor or self._notes
        text = shown.kept_text(pid)
        if text is None:
            return
        change = self._call(
            DescribedEdit(
                self.tr("Keep note as a new paper"),
                call("imports", "note_as_new_paper", pid, text),
            )
        )
        if change is None:  # refused, or written later: the editor keeps the text until then
            return
        shown.kept_as_new(pid)
        self._say(self.tr("Your note is kept on a new paper (number {0})").format(change.paper_ids[0]))

    def check_note_elsewhere(self) -> None:
        """Polled by the window: has another program changed the note on screen? (And in
        triage, the paper on screen: ``TriageView.follow_elsewhere``.)"""
        triage = getattr(getattr(self._dialog_parent, "triage", None), "view", None)
        if triage is not None and triage.active:
            triage.follow_elsewhere()
            return
        pid = self._notes.paper_id()
        if pid is None or self._notes.banner.isVisible():
            return
        try:
            stored = self.library.notes.text(pid)
        except Exception:  # noqa: BLE001 - a busy or closing library: try at the next tick
            return
        if stored != self._notes.saved_text():
            self._notes.changed_elsewhere(stored)
            self._table.paper_model.refresh_papers((pid,))

    def _apply_note(self, pid: int, text: str) -> Change:
        """Undo/redo of a note: store the text and show it if that paper is on screen."""
        change = self.library.notes.set(pid, text)
        if self._notes.paper_id() == pid:
            self._notes.load(pid, text, flush=False)
        return change

    # ---- delete ----------------------------------------------------------------------------
    def delete_selected(self) -> None:
        """Move the selected papers to the trash: no question, one undo step (the Trash view
        brings them back too). In the Trash view: delete them for good, which asks
        (``purgeRequested``: gui/trash_view.py)."""
        ids = self._table.selected_ids()
        if not ids:
            return
        if self._filters().trash:
            self.purgeRequested.emit()
            return
        n = len(ids)
        row = self._table.currentIndex().row()
        if (
            self._call(
                DescribedEdit(
                    self.tr("Move %n paper(s) to the trash", "", n),
                    call("papers", "delete", ids),
                )
            )
            is None
        ):
            return
        self._say(self.tr("Moved %n paper(s) to the trash", "", n))
        rows = self._table.paper_model.rowCount()
        if rows:
            self._table.select_row(min(max(row, 0), rows - 1))

    # ---- highlights ------------------------------------------------------------------------
    def add_highlight(self, pid: int, start: int, end: int, color: str, comment: str) -> None:
        lib = self.library
        state: dict[str, Mapping[str, Any]] = {}  # "row": the highlight deleted by the last undo

        def do() -> Change:
            if "row" in state:
                return lib.highlights.restore(state["row"])
            return lib.highlights.add(pid, start, end, color, comment)

        def undo(ch: Change) -> Change:
            gone = lib.undo(ch)  # the highlight deleted, its row kept for the redo
            state["row"] = gone.detail_as(HighlightRow).row
            return gone

        # the journal's version re-adds on a redo after its undo (a new id); this one restores
        self._do(
            self.tr("Highlight"),
            do,
            undo,
            DescribedEdit(
                self.tr("Highlight"),
                call("highlights", "add", pid, start, end, color, comment),
            ),
        )

    def delete_highlight(self, hid: int) -> None:
        self._call(
            DescribedEdit(
                self.tr("Delete highlight"),
                call("highlights", "delete", hid),
            )
        )

    def edit_highlight_comment(self, hid: int, comment: str) -> None:
        self._call(
            DescribedEdit(
                self.tr("Edit highlight comment"),
                call("highlights", "edit", hid, comment=comment),
                # the comment only: lib.undo sets the color back too, undoing another program's
                # recolor made since
                call("highlights", "edit", hid, comment=ref("detail", "comment")),
            )
        )

    # ---- reading lists ---------------------------------------------------------------------
    def new_list_dialog(self, ids: list[int] | None = None) -> str | None:
        name, ok = QInputDialog.getText(self._dialog_parent, self.tr("New reading list"), self.tr("Name:"))
        if not ok or not name.strip():
            return None
        if (
            self._call(
                DescribedEdit(
                    self.tr("Create list {0}").format(name),
                    call("lists", "create", name),
                )
            )
            is None
        ):
            return None
        if ids:
            self.add_to_list(name, ids)
        return name

    def add_to_list(self, name: str, ids: list[int]) -> None:
        if self._in_trash():
            return
        self._call_many(
            len(ids),
            DescribedEdit(
                self.tr("Add %n paper(s) to {0}", "", len(ids)).format(name),
                call("lists", "add", name, ids),
            ),
        )
        self._say(self.tr("Added %n paper(s) to “{0}”", "", len(ids)).format(name))

    def add_to_list_dialog(self) -> None:
        ids = self._table.selected_ids()
        if not ids or self._in_trash():
            return
        names = [i.name for i in self.library.lists.all()]
        new = self.tr("New list…")
        choice, ok = QInputDialog.getItem(
            self._dialog_parent, self.tr("Add to reading list"), self.tr("List:"), names + [new], 0, False
        )
        if not ok:
            return
        if choice == new:
            self.new_list_dialog(ids)
        else:
            self.add_to_list(choice, ids)

    def move_in_list(self, delta: int) -> None:
        """Move the current paper ``delta`` places in the reading list shown."""
        name, pid = self._filters().list_name, self._table.current_id()
        if not name or pid is None:
            self._say(self.tr("Show a reading list to reorder it"))
            return
        lib = self.library
        pos = [p for p, _, _ in lib.lists.items(name)].index(pid)
        self._call(
            DescribedEdit(
                self.tr("Move in list"),
                call("lists", "move", name, pid, pos + delta),
            )
        )
        self.listReordered.emit(pid)

    def reorder_in_list(self, ids: list[int], row: int) -> None:
        """A drag inside the shown list: the dragged papers start at ``row``."""
        name = self._filters().list_name
        if not name:
            return
        keep = self._table.current_id()
        self._call(
            DescribedEdit(
                self.tr("Reorder list"),
                call("lists", "move_many", name, ids, row),
            )
        )
        self.listReordered.emit(keep)

    def remove_from_current_list(self) -> None:
        name, ids = self._filters().list_name, self._table.selected_ids()
        if not name or not ids:
            return
        self._call(
            DescribedEdit(
                self.tr("Remove from {0}").format(name),
                call("lists", "remove", name, ids),
            )
        )

    def edit_item_note(self) -> None:
        name, pid = self._filters().list_name, self._table.current_id()
        if not name or pid is None:
            self._say(self.tr("Show a reading list to add notes to its items"))
            return
        lib = self.library
        current = next((n for p, _, n in lib.lists.items(name) if p == pid), "")
        text, ok = QInputDialog.getText(
            self._dialog_parent,
            self.tr("List item note"),
            self.tr("Note for this paper in “{0}”:").format(name),
            text=current,
        )
        if ok:
            self._call(
                DescribedEdit(
                    self.tr("Edit item note"),
                    call("lists", "set_item_note", name, pid, text),
                )
            )

    def on_list_menu(self, action: str, name: str) -> None:
        lib = self.library
        parent = self._dialog_parent
        if action == "new":
            self.new_list_dialog()
        elif action == "export":
            self.exportRequested.emit(name)
        elif action == "rename":
            new, ok = QInputDialog.getText(parent, self.tr("Rename list"), self.tr("New name:"), text=name)
            if ok and new.strip():
                self._call(DescribedEdit(self.tr("Rename list"), call("lists", "rename", name, new)))
                self.listRenamed.emit(name, new)
        elif action == "describe":
            info = next((i for i in lib.lists.all() if i.name == name), None)
            text, ok = QInputDialog.getMultiLineText(
                parent,
                self.tr("Describe list"),
                self.tr("Description of “{0}”:").format(name),
                info.description if info else "",
            )
            if ok:
                self._call(
                    DescribedEdit(
                        self.tr("Describe list"),
                        call("lists", "describe", name, text),
                    )
                )
        elif action == "delete":
            self._call(
                DescribedEdit(
                    self.tr("Delete list {0}").format(name),
                    call("lists", "delete", name),
                )
            )
            if self._filters().list_name == name:
                self.filterRequested.emit("all", "")

    def on_papers_dropped(self, kind: str, value: str, ids: list[int]) -> None:
        if kind == "list":
            self.add_to_list(value, ids)
        elif kind == "tag":
            self.add_tags(ids, [value])

    # ---- tags in the sidebar ---------------------------------------------------------------
    def on_tag_menu(self, action: str, name: str) -> None:
        lib = self.library
        parent = self._dialog_parent
        if action == "include":
            self.filterRequested.emit("tag", name)
        elif action == "exclude":
            self.tagExcluded.emit(name)
        elif action == "rename":
            new, ok = QInputDialog.getText(
                parent, self.tr("Rename tag"), self.tr("Rename “{0}” (its children follow) to:").format(name), text=name
            )
            if ok and new.strip() and new != name:
                self._call(DescribedEdit(self.tr("Rename tag"), call("tags", "rename", name, new)))
        elif action == "merge":
            from desktop_app.gui.merge_tags import ask_merge_target

            target = ask_merge_target(lib, name, parent)
            if target:
                self._call(
                    DescribedEdit(
                        self.tr("Merge tag {0} into {1}").format(name, target),
                        call("tags", "merge", name, target),
                    )
                )
        elif action == "color":
            color = QColorDialog.getColor(parent=parent, title=self.tr("Color of “{0}”").format(name))
            if color.isValid():
                self._call(
                    DescribedEdit(
                        self.tr("Recolor tag"),
                        call("tags", "recolor", name, color.name()),
                    )
                )
        elif action == "delete":
            self._call(
                DescribedEdit(
                    self.tr("Delete tag {0}").format(name),
                    call("tags", "delete", name),
                )
            )

    # ---- saved searches --------------------------------------------------------------------
    def save_search_dialog(self, sort: tuple[str, bool] | None = None) -> None:
        """Save the shown filter: the search box's text, the sidebar's status, tags and list,
        and ``sort`` (the table's sort key and order)."""
        typed = self._search.box.text().strip()
        if typed != self._filters().query.strip():
            sort = None  # typed but not run yet: the search will be sorted as every new one is
        state = replace(self._filters(), query=typed)
        saved = state.saved(*(sort or (None, False)))
        if not (saved.query or saved.status or saved.tags or saved.not_tags or saved.list_name):
            self._say(self.tr("Type a search first, then save it"))
            return
        query = saved.to_text()
        suggested = saved.query or ", ".join(label for _key, label in state.chips())
        name, ok = QInputDialog.getText(
            self._dialog_parent, self.tr("Save search"), self.tr("Name:"), text=suggested[:40]
        )
        if ok and name.strip():
            self._call(DescribedEdit(self.tr("Save search"), call("searches", "save", name, query)))

    def on_search_menu(self, action: str, name: str) -> None:
        if action == "delete":
            self._call(
                DescribedEdit(
                    self.tr("Delete saved search"),
                    call("searches", "delete", name),
                )
            )
        elif action == "snapshot":
            self._snapshot_search(name)

    def _snapshot_search(self, name: str) -> None:
        """The saved search's papers now, in a new reading list named after it (one undo step)."""
        lib = self.library
        try:
            saved = SavedFilter.from_text(dict(lib.searches.all()).get(name, ""))
            ids = lib.query(saved.query, sort="relevance", **saved.query_filters()).ids
        except ServerUnreachable:
            self._say(self.tr("A snapshot runs the search on the library's server: try again when it is back"))
            return
        except LibraryError as exc:
            self._warn(str(exc))
            return
        change = self._call(
            DescribedEdit(
                self.tr("Snapshot search to list"),
                call(
                    "lists",
                    "snapshot",
                    name,
                    self.tr("Snapshot of the search “{0}”").format(saved.query),
                    [int(i) for i in ids],
                ),
            )
        )
        if change is not None:
            self._say(
                self.tr("Reading list “{0}” holds the %n paper(s) the search found", "", len(change.paper_ids)).format(
                    change.detail_as(ListCreated).name
                )
            )

    def restore_from_trash(self, ids: list[int]) -> Change | None:
        """Put trashed papers back: one undo step (it can wait in the journal for a server)."""
        n = len(ids)
        return self._call(
            DescribedEdit(
                self.tr("Restore %n paper(s) from the trash", "", n),
                call("trash", "restore", list(ids)),
            )
        )
