"""Open paper, attach files, open and remove them: the window's part of "the paper one click
away" (its file, else its page, opened at once).

* :meth:`AttachController.open_paper` (Ctrl+Enter, Paper → Open paper, the context menu): the
  first attached file that is there, with the system's viewer; else the arXiv page, the DOI, the
  URL in the browser; else a status message saying there is nothing to open.
* Files dropped on a row of the table or on the reader are attached to that paper (copied or
  linked as the ``attachments/mode`` preference says; the drop asks nothing). A drop holding a
  file the importers read (.bib, .ris, …) is left to the window, which imports it.
* Attaching and removing are undoable; a removal is soft, so undo brings the row back and the
  file never left ``files/``.
* Both are told as data to the window's ``edits`` (``EditController.submit``): while a shared
  library's server is away they wait in the journal with the window's other edits and are made
  when it is back. The copy is local, so it is made at once, into the desk's
  ``outbox/attachments/`` (``lib.attachments.stage``, in a worker when large): the file may be
  moved or deleted meanwhile. The attachment's row needs the server: ``add_staged`` attaches
  that copy when it is back (and removes it; refused then, it is removed too). A link records
  where the file is, so it is recorded when the server is back, from there.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QEvent, QObject, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFileDialog, QWidget

from desktop_app.core.attachment_files import remove_file
from desktop_app.core.changelog.undo_data import AttachmentRef
from desktop_app.core.errors import LibraryError
from desktop_app.core.library_call import DescribedEdit, LibraryCall
from desktop_app.gui import preferences
from desktop_app.gui.paper_links import open_external, paper_links
from desktop_app.gui.undo import LibraryCommand

if TYPE_CHECKING:
    from PySide6.QtCore import QMimeData

    from desktop_app.core.attachments import AttachmentView
    from desktop_app.core.values import Change
    from desktop_app.gui.window_protocol import WindowLike

MESSAGE_MS = 6000
BACKGROUND_BYTES = 16 * 1024 * 1024  # a copy at least this large is made in a worker
_DRAGS = (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop)


def attachable_paths(mime: QMimeData) -> list[str]:
    """The dropped local files when they are to be attached: every URL a local file, none of
    them a file the importers read (those are imported, as before). Else []."""
    from desktop_app.core.formats.detect import extension_hint

    if not mime.hasUrls():
        return []
    urls = mime.urls()
    paths = [u.toLocalFile() for u in urls if u.isLocalFile()]
    if not paths or len(paths) != len(urls) or not all(Path(p).is_file() for p in paths):
        return []
    if any(extension_hint(p) for p in paths):
        return []
    return paths


def _size(path: str) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0


class AttachController(QObject):
    """Built by the main window (gui/main_window.py, which imports this module: the window is
    typed against ``window_protocol.WindowLike``); holds no state but the window."""

    def __init__(self, window: WindowLike) -> None:
        super().__init__(window.window())
        self._win = window
        lib = window.library
        strip = window.reader.attachments
        strip.source = lib.attachments.for_paper
        strip.read_only = lib.read_only
        strip.openRequested.connect(self.open_attachment)
        strip.revealRequested.connect(self.reveal_attachment)
        strip.removeRequested.connect(self.remove_attachment)
        window.reader.links.opened.connect(lambda a: self._say(self.tr("Opened {0} in the browser").format(a)))
        if not lib.read_only:
            window.reader.setAcceptDrops(True)
            window.reader.installEventFilter(self)
            window.table.viewport().installEventFilter(self)

    def _say(self, text: str, ms: int = MESSAGE_MS) -> None:
        self._win.status_message(text, ms)

    # ---- open paper ------------------------------------------------------------------------
    def open_paper(self, paper_id: int | None = None) -> str | None:
        """Open the paper: its first attached file that is there, else arXiv, DOI or URL.
        Returns what was opened (a file path or an address), None when nothing was."""
        pid = self._win.current_id() if paper_id is None else paper_id
        if pid is None:
            self._say(self.tr("Select a paper to open it"))
            return None
        lib = self._win.library
        first = lib.attachments.first_file(pid)
        if first is not None:
            return str(first.location) if self._open_file(first) else None
        try:
            links = paper_links(lib.papers.get(pid))
        except LibraryError as exc:
            self._say(str(exc))
            return None
        if not links:
            self._say(self.tr("This paper has no attached file, arXiv id, DOI or web address to open"))
            return None
        _kind, text, address = links[0]
        if not open_external(address):
            self._say(self.tr("No browser could open {0}").format(address))
            return None
        self._say(self.tr("Opened {0} in the browser").format(text))
        return address

    def _open_file(self, v: AttachmentView) -> bool:
        from desktop_app.core.attachment_files import looks_like_program

        if v.location is None or not v.location.is_file():
            self._say(self.tr("The attached file {0} is not there any more ({1})").format(v.name, v.path), 10000)
            return False
        if looks_like_program(v.location):
            self._say(
                self.tr("{0} looks like a program; Marginalia does not run programs (it is in {1})").format(
                    v.name, v.location.parent
                ),
                10000,
            )
            return False
        if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(v.location))):
            self._say(self.tr("No application could open {0}").format(v.name), 10000)
            return False
        self._say(self.tr("Opened {0}").format(v.name))
        return True

    def open_attachment(self, attachment_id: int) -> None:
        try:
            self._open_file(self._win.library.attachments.get(attachment_id))
        except LibraryError as exc:
            self._say(str(exc))

    def reveal_attachment(self, attachment_id: int) -> None:
        """Open the folder holding the file (the file manager shows it)."""
        try:
            v = self._win.library.attachments.get(attachment_id)
        except LibraryError as exc:
            self._say(str(exc))
            return
        if v.location is not None and v.location.parent.is_dir():
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(v.location.parent)))

    # ---- attach and remove -----------------------------------------------------------------
    def attach_file_dialog(self, paper_id: int | None = None) -> None:
        """Paper → Attach file…: choose files to attach to the current (or given) paper."""
        pid = self._win.current_id() if paper_id is None else paper_id
        if pid is None:
            self._say(self.tr("Select a paper to attach a file to it"))
            return
        paths, _ = QFileDialog.getOpenFileNames(
            self._win.window(),
            self.tr("Attach files to the paper"),
            str(Path.home()),
            self.tr("PDF files (*.pdf);;All files (*)"),
        )
        if paths:
            self.attach_paths(pid, paths)

    def attach_paths(self, paper_id: int, paths: list[str], mode: str | None = None) -> list[int]:
        """Attach each file to the paper, one undo step each. A copy of a large file
        (BACKGROUND_BYTES or more) is made in a worker, the window staying usable; the ids of the
        attachments made at once are returned."""
        win, lib = self._win, self._win.library
        if lib.read_only:
            self._say(self.tr("The library is read-only: nothing can be attached"))
            return []
        mode = mode or preferences.get_str(win.settings, preferences.ATTACH_MODE)
        mode = mode if mode in ("copy", "link") else "copy"
        added: list[int] = []
        away = not lib.reachable or win.edits.has_waiting()  # the edit will wait: a copy is staged now
        for path in paths:
            if mode == "copy" and _size(path) >= BACKGROUND_BYTES:
                (self._stage_in_worker if away else self._attach_in_worker)(paper_id, path)
                continue
            try:
                staged = lib.attachments.stage(path) if mode == "copy" and away else None
            except LibraryError as exc:
                self._say(str(exc), 10000)
                continue
            change = self._attach(paper_id, str(Path(path).expanduser().absolute()), mode, staged)
            if change is not None:
                added.append(change.detail_as(AttachmentRef).attachment_id)
        if added:
            what = Path(paths[0]).name if len(added) == 1 else self.tr("%n files", "", len(added))
            self._say(
                (self.tr("Linked {0} to paper {1}") if mode == "link" else self.tr("Attached {0} to paper {1}")).format(
                    what, paper_id
                )
            )
        return added

    def _attach(self, paper_id: int, path: str, mode: str, staged: Path | None = None) -> Change | None:
        """One file attached as one undo step through the window's edits; None when it waits
        (said) or was refused (said). ``staged``: the copy made for it while the server is away
        (``lib.attachments.stage``). Here a redo restores what its undo removed; the journal's
        version attaches the file again."""
        win, lib, name = self._win, self._win.library, Path(path).name
        removed: dict[str, int] = {}  # "id": the attachment the last undo removed
        first = (
            LibraryCall("attachments", "add", (paper_id, path), {"mode": mode})
            if staged is None
            else LibraryCall("attachments", "add_staged", (paper_id, str(staged)))
        )

        def do() -> Change:
            if "id" in removed:
                return lib.attachments.restore(removed["id"])
            return first(lib)

        def undo(ch: Change) -> Change:
            removed["id"] = ch.detail_as(AttachmentRef).attachment_id
            return lib.attachments.remove(removed["id"])

        try:
            change = win.edits.submit(
                DescribedEdit(
                    self.tr("Attach {0}").format(name),
                    first,
                ),
                (do, undo),
            )
        except LibraryError as exc:
            if staged is not None:  # refused before it ran (add_staged removes it when it runs)
                remove_file(staged)
            self._say(str(exc), 10000)
            return None
        if change is None and win.edits.has_waiting():  # (else: behind another program's write)
            self._say(
                (
                    self.tr("{0} is linked to paper {1} when the library's server is back")
                    if staged is None
                    else self.tr(
                        "{0} is copied into the library and attached to paper {1} when the library's server is back"
                    )
                ).format(name, paper_id),
                15000,
            )
        return change

    def _stage_in_worker(self, paper_id: int, path: str) -> None:
        """A large file attached while the server is away: copied in a worker, then waiting."""
        from desktop_app.gui.jobs import start_job

        lib, name = self._win.library, Path(path).name

        def done(staged: object) -> None:
            self._attach(paper_id, str(Path(path).expanduser().absolute()), "copy", cast(Path, staged))

        start_job(
            self._win.window(),
            self.tr("Copying {0} into the library…").format(name),
            lambda progress, cancelled: lib.attachments.stage(path),
            done,
            lambda message: self._say(message, 10000),
            modal=False,
        )

    def _push_attached(self, change: Change, name: str) -> None:
        """Show a made attachment and put it on the undo stack (undo: a soft removal; redo:
        bringing it back, the file never left files/)."""
        win, lib = self._win, self._win.library
        aid = change.detail_as(AttachmentRef).attachment_id
        win.on_change(change)
        win.undo_stack.push(
            LibraryCommand(
                self.tr("Attach {0}").format(name),
                lambda: lib.attachments.restore(aid),
                lambda _ch: lib.attachments.remove(aid),
                win.on_change,
                change,
            )
        )

    def _attach_in_worker(self, paper_id: int, path: str) -> None:
        from desktop_app.gui.jobs import start_job

        lib, name = self._win.library, Path(path).name

        def done(change: object) -> None:
            self._push_attached(change, name)  # type: ignore[arg-type]
            self._say(self.tr("Attached {0} to paper {1}").format(name, paper_id))

        start_job(
            self._win.window(),
            self.tr("Copying {0} into the library…").format(name),
            lambda progress, cancelled: lib.attachments.add(paper_id, path, mode="copy"),
            done,
            lambda message: self._say(message, 10000),
            modal=False,
        )

    def remove_attachment(self, attachment_id: int) -> None:
        """A soft removal, one undo step (it can wait for the server)."""
        win = self._win
        # the name as the reader's strip shows it: no read of the server (which may be away)
        shown = {v.id: v.name for v in win.reader.attachments.items}
        try:
            name = shown[attachment_id] if attachment_id in shown else win.library.attachments.get(attachment_id).name
            change = win.edits.submit(
                DescribedEdit(
                    self.tr("Remove attached file {0}").format(name),
                    LibraryCall("attachments", "remove", (attachment_id,)),
                )
            )
        except LibraryError as exc:
            self._say(str(exc))
            return
        if change is None:
            if win.edits.has_waiting():
                self._say(
                    self.tr("{0} is removed from the paper when the library's server is back").format(name), 15000
                )
            return
        self._say(self.tr("Removed {0} from the paper (Ctrl+Z brings it back)").format(name))

    # ---- drops -----------------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() not in _DRAGS:
            return False
        paths = attachable_paths(event.mimeData())  # type: ignore[attr-defined]
        if not paths:
            return False  # not ours: the table reorders, the window imports
        pid = self._drop_target(watched, event)
        if event.type() == QEvent.Type.DragEnter:
            event.acceptProposedAction()  # type: ignore[attr-defined]
            return True
        if pid is None:
            event.ignore()
            return True
        event.acceptProposedAction()  # type: ignore[attr-defined]
        if event.type() == QEvent.Type.Drop:
            self.attach_paths(pid, paths)
        return True

    def _drop_target(self, watched: QObject, event: QEvent) -> int | None:
        """The paper under the drop: the table's row there, or the reader's paper."""
        win = self._win
        if watched is win.reader:
            return win.reader.paper.id if win.reader.paper is not None else None
        if isinstance(watched, QWidget) and watched is win.table.viewport():
            index = win.table.indexAt(event.position().toPoint())  # type: ignore[attr-defined]
            return win.model.paper_id(index.row()) if index.isValid() else None
        return None


SAMPLE_PDF = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
    b"trailer<</Root 1 0 R>>\n%%EOF\n"
)


def screenshot_view(window: WindowLike) -> QWidget:
    """For the docs (``gui --screenshot --view attachments``): the reader showing a paper with its
    links and an attached file. Selects the first shown paper that has an arXiv id, a DOI or a URL
    and, when it has no attached file, attaches a small sample PDF (screenshots are made on a demo
    library). Returns the window."""
    import tempfile

    lib = window.library
    pid: int | None  # a shown paper, then the current one (None: no paper shown)
    for row in range(min(window.model.rowCount(), 500)):
        pid = window.model.paper_id(row)
        if paper_links(lib.papers.get(pid)):
            window.select_row(row)
            break
    window.follow.flush()
    pid = window.current_id()
    if pid is not None and not lib.attachments.for_paper(pid) and not lib.read_only:
        folder = Path(tempfile.mkdtemp(prefix="marginalia-shot-"))
        sample = folder / "Attention Is All You Need.pdf"
        sample.write_bytes(SAMPLE_PDF)
        window.attach.attach_paths(pid, [str(sample)], mode="copy")
    window.follow.flush()
    return window.window()
