"""The "Possible duplicates" dialog: pairs found by ``lib.duplicates.find`` (in a worker) on the
left; on the right the two papers side by side, a choice per differing field, and Merge / Not
duplicates / Swap. Every merge and dismissal goes on the main window's undo stack, told as data
through the window's ``edits`` (``EditController.submit``): while a shared library's server is
away it waits in the journal with the window's other edits, its pair leaves the list, and it is
made when the server is back (finding pairs and comparing two papers read the server: they say
so meanwhile).

Titles, abstracts and names come from imported files: they are shown as plain text only
(``Qt.TextFormat.PlainText`` labels, item text), never as rich text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QKeySequence, QMouseEvent, QShortcut, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QDialog,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_app.core.changelog.undo_data import Dismissed, Merged, MergeUndone, Undismissed
from desktop_app.core.errors import LibraryError
from desktop_app.core.library import Library
from desktop_app.core.library_call import DescribedEdit, LibraryCall
from desktop_app.core.values import Change, DuplicatePair, FieldDiff, PaperView
from desktop_app.gui import i18n
from desktop_app.gui.jobs import Job, keep_while_running

if TYPE_CHECKING:
    from desktop_app.gui.window_protocol import EditsLike, WindowLike

KEEP, OTHER = 0, 1  # button ids in each field's group


def _plain_label(text: str, parent: QWidget, *, wrap: bool = True) -> QLabel:
    """A label that shows ``text`` as typed: no rich text, no links."""
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    label.setWordWrap(wrap)
    return label


class _Value(QLabel):
    """A field's value beside its radio button; clicking the text chooses it too."""

    def __init__(self, text: str, radio: QRadioButton | None, parent: QWidget) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(text if text else "—")
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.radio = radio
        if not text:
            self.setEnabled(False)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self.radio is not None and event.button() == Qt.MouseButton.LeftButton:
            self.radio.setChecked(True)
        super().mousePressEvent(event)


def _summary(p: PaperView) -> str:
    """What the merge carries over besides the fields: one plain line per paper."""
    status = i18n.status_label(p.status)
    parts = [
        QCoreApplication.translate("DuplicatesView", "{0}, rated {1}").format(status, p.rating) if p.rating else status
    ]
    if p.tags:
        parts.append(QCoreApplication.translate("DuplicatesView", "tags: {0}").format(", ".join(p.tags)))
    if p.lists:
        parts.append(QCoreApplication.translate("DuplicatesView", "lists: {0}").format(", ".join(p.lists)))
    if p.highlights:
        parts.append(i18n.plurals().highlights(len(p.highlights)))
    if p.note.strip():
        parts.append(QCoreApplication.translate("DuplicatesView", "has a note"))
    parts.append(QCoreApplication.translate("DuplicatesView", "added {0}").format(p.added_at[:10]))
    return " · ".join(parts)


class DuplicatesDialog(QDialog):
    """Non-modal. ``edits`` is the window's edit controller: it runs the merges and dismissals
    (its ``changed`` signal refreshes the window, and this list)."""

    searched = Signal(int)  # the number of pairs found, after each search

    def __init__(self, library: Library, undo_stack: QUndoStack, edits: EditsLike, parent: QWidget) -> None:
        super().__init__(parent)
        self.library = library
        self.undo_stack = undo_stack
        self.edits = edits
        edits.changed.connect(self.notify)
        self._owner = parent  # holds the search job (a window waits for its jobs when it closes)
        self.pairs: list[DuplicatePair] = []
        self._keep: int | None = None
        self._other: int | None = None
        self._groups: dict[str, QButtonGroup] = {}
        self._job: Job | None = None
        self._search_again = False
        self.setObjectName("duplicatesDialog")
        self.setWindowTitle(self.tr("Possible duplicates"))
        self.setModal(False)
        self.resize(1100, 640)
        self._build()
        self._build_shortcuts()

    # ---- construction ----------------------------------------------------------------------
    def _build(self) -> None:
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        self.status = QLabel("", self)
        self.status.setObjectName("duplicatesStatus")
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # messages quote the library's location
        self.status.setWordWrap(True)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 0)  # busy: find() says nothing until it is done
        self.progress.setMaximumWidth(160)
        self.progress.setTextVisible(False)
        self.progress.hide()
        top.addWidget(self.status, 1)
        top.addWidget(self.progress)
        lay.addLayout(top)

        split = QSplitter(Qt.Orientation.Horizontal, self)
        self.pair_list = QTreeWidget(split)
        self.pair_list.setObjectName("duplicatePairs")
        self.pair_list.setAccessibleName(self.tr("Possible duplicate pairs"))
        self.pair_list.setHeaderLabels([self.tr("Why"), self.tr("Paper"), self.tr("Possible duplicate")])
        self.pair_list.setRootIsDecorated(False)
        self.pair_list.setUniformRowHeights(True)
        self.pair_list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.pair_list.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.pair_list.currentItemChanged.connect(lambda *_: self._show_current())

        right = QWidget(split)
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        # the name hides QWidget.scroll (kept: a public attribute, which the tests read)
        self.scroll: QScrollArea = QScrollArea(right)  # type: ignore[assignment]
        self.scroll.setObjectName("compareView")
        self.scroll.setAccessibleName(self.tr("The two papers side by side"))
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.StyledPanel)
        rl.addWidget(self.scroll, 1)
        hint = QLabel(
            self.tr(
                "Tags, reading-list places, highlights and notes of both papers are kept; the other "
                "paper goes to the trash. Ctrl+Z in the main window undoes a merge."
            ),
            right,
        )
        hint.setWordWrap(True)
        hint.setObjectName("hintText")  # secondary text in the theme's muted colour (readable, unlike disabled)
        rl.addWidget(hint)
        buttons = QHBoxLayout()
        self.swap_button = QPushButton(self.tr("S&wap"), right)
        self.swap_button.setToolTip(self.tr("Keep the other paper instead (S)"))
        self.dismiss_button = QPushButton(self.tr("&Not duplicates"), right)
        self.dismiss_button.setToolTip(self.tr("These are two papers; never offer this pair again (N or Delete)"))
        self.merge_button = QPushButton(self.tr("&Merge"), right)
        self.merge_button.setToolTip(self.tr("Merge the right-hand paper into the kept one (Return)"))
        self.merge_button.setDefault(True)
        close = QPushButton(self.tr("Close"), right)
        self.swap_button.clicked.connect(self.swap)
        self.dismiss_button.clicked.connect(self.dismiss_current)
        self.merge_button.clicked.connect(self.merge_current)
        close.clicked.connect(self.close)
        buttons.addWidget(self.swap_button)
        buttons.addStretch(1)
        buttons.addWidget(self.dismiss_button)
        buttons.addWidget(self.merge_button)
        buttons.addWidget(close)
        rl.addLayout(buttons)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        split.setSizes([430, 670])
        lay.addWidget(split, 1)
        self._show_current()

    def _build_shortcuts(self) -> None:
        keys: dict[str, Callable[[], object]] = {
            "Up": lambda: self._step(-1),
            "Down": lambda: self._step(1),
            "Return": self._return,
            "Enter": self._return,
            "Delete": self.dismiss_current,
            "N": self.dismiss_current,
            "S": self.swap,
            "Ctrl+Z": self.undo_stack.undo,
            "Ctrl+Shift+Z": self.undo_stack.redo,
        }
        for key, slot in keys.items():
            sc = QShortcut(QKeySequence(key), self)
            sc.setContext(Qt.ShortcutContext.WindowShortcut)
            sc.activated.connect(slot)

    # ---- searching -------------------------------------------------------------------------
    def search(self) -> None:
        """Find the pairs again, in a worker; the list fills when it is done."""
        if self._job is not None:
            self._search_again = True
            return
        lib = self.library

        def work(_progress: Callable[[int, int], None], _cancelled: Callable[[], bool]) -> list[DuplicatePair]:
            if not lib.read_only:
                lib.duplicates.refresh_keys()  # papers made before keys were filed
            return lib.duplicates.find()

        self.status.setText(self.tr("Searching…"))
        self.progress.show()
        job = Job(work, self._owner)
        keep_while_running(self._owner, job)
        job.succeeded.connect(self._found)
        job.failed.connect(self._search_failed)
        self._job = job
        QTimer.singleShot(0, job.start)

    def is_searching(self) -> bool:
        return self._job is not None

    def _search_done(self) -> bool:
        """Forget the job; True when another search was asked for meanwhile (it starts now)."""
        self._job = None
        self.progress.hide()
        if self._search_again:
            self._search_again = False
            self.search()
            return True
        return False

    def _found(self, pairs: list[DuplicatePair]) -> None:
        if self._search_done():
            return
        current = self._current_pair()
        self._set_pairs(pairs, keep=(current.a, current.b) if current else None)
        self.searched.emit(len(pairs))

    def _search_failed(self, message: str) -> None:
        self._search_done()
        # said in the dialog, not in a box to dismiss (the window's banner says when the server is gone)
        self.status.setText(self.tr("The search for duplicates failed: {0}").format(message))

    # ---- the list of pairs -----------------------------------------------------------------
    def _set_pairs(self, pairs: list[DuplicatePair], keep: tuple[int, int] | None = None, row: int = 0) -> None:
        self.pairs = list(pairs)
        self.pair_list.clear()
        for p in self.pairs:
            item = QTreeWidgetItem([i18n.reason_label(p.reason), p.title_a, p.title_b])  # item text: plain, never HTML
            item.setToolTip(
                0,
                self.tr("The import's own rules call these one paper")
                if p.strong
                else self.tr("Alike, but the import's rules do not call them one paper"),
            )
            if p.strong:
                font = item.font(0)
                font.setBold(True)
                item.setFont(0, font)
            self.pair_list.addTopLevelItem(item)
        if keep is not None:
            row = next((i for i, p in enumerate(self.pairs) if (p.a, p.b) == keep), row)
        self._update_status()
        if self.pairs:
            first = self.pair_list.topLevelItem(max(0, min(row, len(self.pairs) - 1)))
            self.pair_list.setCurrentItem(cast(QTreeWidgetItem, first))  # one item per pair: a row below the count
        else:
            self._show_current()

    def _update_status(self) -> None:
        n = len(self.pairs)
        self.status.setText(
            self.tr("No possible duplicates.")
            if not n
            else self.tr("%n possible duplicate(s) — the import's own reasons in bold", "", n)
        )

    def _current_pair(self) -> DuplicatePair | None:
        row = self.pair_list.indexOfTopLevelItem(self.pair_list.currentItem()) if self.pair_list.currentItem() else -1
        return self.pairs[row] if 0 <= row < len(self.pairs) else None

    def _step(self, delta: int) -> None:
        if not self.pairs:
            return
        row = self.pair_list.indexOfTopLevelItem(self.pair_list.currentItem()) if self.pair_list.currentItem() else -1
        row = max(0, min(len(self.pairs) - 1, row + delta))
        self.pair_list.setCurrentItem(cast(QTreeWidgetItem, self.pair_list.topLevelItem(row)))  # below the count

    def _drop_pairs(self, gone: Callable[[DuplicatePair], bool]) -> None:
        """Take pairs off the list (after a merge or a dismissal); the next one becomes current."""
        cur = self.pair_list.currentItem()
        row = self.pair_list.indexOfTopLevelItem(cur) if cur else 0
        self._set_pairs([p for p in self.pairs if not gone(p)], row=row)

    # ---- the side-by-side view ---------------------------------------------------------------
    def _show_current(self) -> None:
        pair = self._current_pair()
        if pair is None:
            self._keep = self._other = None
        elif {self._keep, self._other} != {pair.a, pair.b}:
            self._keep, self._other = pair.a, pair.b
        self._render()

    def _render(self) -> None:
        self._groups = {}
        page = QWidget()
        page.setObjectName("comparePage")
        grid = QGridLayout(page)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(2, 1)
        grid.setVerticalSpacing(8)
        usable = self._keep is not None and self._other is not None and not self.library.read_only
        for b in (self.merge_button, self.dismiss_button, self.swap_button):
            b.setEnabled(usable)
        if self._keep is None or self._other is None:
            grid.addWidget(_plain_label(self.tr("Choose a pair on the left.") if self.pairs else "", page), 0, 0, 1, 3)
            self.scroll.setWidget(page)
            return
        try:
            diffs = self.library.duplicates.compare(self._keep, self._other)
            views = (self.library.papers.get(self._keep), self.library.papers.get(self._other))
        except LibraryError as exc:  # gone meanwhile (another window, the command line)
            grid.addWidget(_plain_label(str(exc), page), 0, 0, 1, 3)
            self.scroll.setWidget(page)
            return
        bold = QFont(self.font())
        bold.setBold(True)
        for col, text in (
            (1, self.tr("Keep: paper {0}").format(self._keep)),
            (2, self.tr("Merge into it, then trash: paper {0}").format(self._other)),
        ):
            head = _plain_label(text, page)
            head.setFont(bold)
            grid.addWidget(head, 0, col)
        row = 1
        for d in diffs:
            if not d.a and not d.b:
                continue
            self._add_field(grid, page, row, d)
            row += 1
        line = QFrame(page)
        line.setFrameShape(QFrame.Shape.HLine)
        grid.addWidget(line, row, 0, 1, 3)
        grid.addWidget(_plain_label(self.tr("Also"), page), row + 1, 0, Qt.AlignmentFlag.AlignTop)
        for col, view in ((1, views[0]), (2, views[1])):
            grid.addWidget(_plain_label(_summary(view), page), row + 1, col, Qt.AlignmentFlag.AlignTop)
        grid.setRowStretch(row + 2, 1)
        self.scroll.setWidget(page)

    def _add_field(self, grid: QGridLayout, page: QWidget, row: int, d: FieldDiff) -> None:
        name = _plain_label(d.label, page, wrap=False)
        if not d.equal:
            font = name.font()
            font.setBold(True)
            name.setFont(font)
        grid.addWidget(name, row, 0, Qt.AlignmentFlag.AlignTop)
        group = None
        if not d.equal:
            group = QButtonGroup(page)
            group.setExclusive(True)
            self._groups[d.field] = group
        for col, side, text in ((1, KEEP, d.a), (2, OTHER, d.b)):
            cell = QWidget(page)
            h = QHBoxLayout(cell)
            h.setContentsMargins(0, 0, 0, 0)
            radio = None
            if group is not None:
                radio = QRadioButton(cell)
                radio.setObjectName(f"choose_{d.field}_{'keep' if side == KEEP else 'other'}")
                radio.setAccessibleName(
                    (
                        self.tr("{0}: use the value of the kept paper")
                        if side == KEEP
                        else self.tr("{0}: use the value of the other paper")
                    ).format(d.label)
                )
                group.addButton(radio, side)
                radio.setChecked((d.default == "keep") == (side == KEEP))
                h.addWidget(radio, 0, Qt.AlignmentFlag.AlignTop)
            h.addWidget(_Value(text, radio, cell), 1)
            grid.addWidget(cell, row, col)

    def choice(self, field: str) -> tuple[QRadioButton, QRadioButton] | None:
        """The (kept, other) radio buttons of a differing field, or None when the values agree."""
        group = self._groups.get(field)
        if group is None:
            return None
        return group.button(KEEP), group.button(OTHER)  # type: ignore[return-value]

    def choices(self) -> dict[str, str]:
        return {f: "other" if g.checkedId() == OTHER else "keep" for f, g in self._groups.items()}

    def current_sides(self) -> tuple[int | None, int | None]:
        """(kept paper, other paper) of the pair shown."""
        return self._keep, self._other

    # ---- actions -----------------------------------------------------------------------------
    def swap(self) -> None:
        if self._keep is None or self._other is None:
            return
        self._keep, self._other = self._other, self._keep
        self._render()

    def _return(self) -> None:
        """Return merges, except on a focused button, which it presses."""
        focused = self.focusWidget()
        if isinstance(focused, QPushButton):
            focused.click()
        else:
            self.merge_current()

    def merge_current(self) -> None:
        keep, other = self._keep, self._other
        if keep is None or other is None or self.library.read_only:
            return
        choices = self.choices()
        title = next((p.title_a if p.a == other else p.title_b for p in self.pairs if other in (p.a, p.b)), "")
        text = self.tr("Merge duplicate “{0}”").format(title[:40]) if title else self.tr("Merge duplicates")
        done = self._submit(
            DescribedEdit(
                text,
                LibraryCall("duplicates", "merge", (keep, other, choices)),
            )
        )
        if done is None:
            return
        if done:
            self.status.setText(self.tr("Merged paper {0} into paper {1}. Ctrl+Z undoes it.").format(other, keep))
            return
        self._drop_pairs(lambda p: other in (p.a, p.b))
        self.status.setText(
            self.tr("Paper {0} is merged into paper {1} when the library's server is back.").format(other, keep)
            if self.edits.has_waiting()
            else self.tr("Paper {0} is merged into paper {1} once another program's write is done.").format(other, keep)
        )

    def dismiss_current(self) -> None:
        pair = self._current_pair()
        if pair is None or self.library.read_only:
            return
        done = self._submit(
            DescribedEdit(
                self.tr("Not duplicates"),
                LibraryCall("duplicates", "dismiss", (pair.a, pair.b)),
            )
        )
        if done is False:
            self._drop_pairs(lambda p: (p.a, p.b) == (pair.a, pair.b))
            if self.edits.has_waiting():
                self.status.setText(self.tr("The two papers are set apart when the library's server is back."))

    def _submit(self, edit: DescribedEdit) -> bool | None:
        """True: done; False: it waits (for the server, or another program's write); None: refused (said)."""
        try:
            return self.edits.submit(edit) is not None
        except LibraryError as exc:
            QMessageBox.warning(self, self.tr("Possible duplicates"), str(exc))
            return None

    def notify(self, change: Change) -> None:
        """After a merge, a dismissal, or their undo and redo (the window refreshes itself by the
        same signal): the list follows."""
        detail = change.detail
        if self._job is not None:
            self._search_again = True  # what the running search finds may be out of date
        if isinstance(detail, Merged):
            merged = detail.merged
            self._drop_pairs(lambda p: merged in (p.a, p.b))
        elif isinstance(detail, Dismissed):
            low, high = detail.pair
            self._drop_pairs(lambda p: (p.a, p.b) == (low, high))
        elif isinstance(detail, MergeUndone | Undismissed) and self.isVisible():
            self.search()  # the pair is back: find it with its reason again (opening searches anyway)


def show_duplicates(window: WindowLike) -> DuplicatesDialog:
    """Open (or bring back) the window's "Possible duplicates" dialog and search again."""
    dialog = window.window().findChild(DuplicatesDialog)
    if dialog is None:
        dialog = DuplicatesDialog(window.library, window.undo_stack, window.edits, window.window())
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    dialog.search()
    return dialog


def screenshot_duplicates(window: WindowLike) -> QWidget:
    """For ``gui --screenshot --view duplicates``: the dialog on a library with a duplicate pair.
    When the library has none, one seed paper is imported again from BibTeX, its title mistyped
    and a venue added, kept apart from the first by the import's choice: one pair, "same abstract"."""
    import tempfile
    from pathlib import Path

    from PySide6.QtCore import QDeadlineTimer
    from PySide6.QtWidgets import QApplication

    lib: Library = window.library
    if not lib.duplicates.find():
        pid = next(iter(lib.query("").ids), None)
        if pid is not None:
            paper = lib.papers.get(pid)
            title = paper.title.replace("e", "", 1) if "e" in paper.title else paper.title + " (preprint)"
            author = f"  author = {{{' and '.join(paper.authors)}}},\n" if paper.authors else ""
            abstract = (
                paper.abstract
                if paper.abstract.count("{") == paper.abstract.count("}")
                else paper.abstract_text.replace("{", "(").replace("}", ")")
            )
            bib = (
                f"@inproceedings{{again{pid},\n  title = {{{title}}},\n{author}"
                f"  booktitle = {{Workshop on Scaling}},\n  year = {{{paper.year or 2026}}},\n"
                f"  abstract = {{{abstract}}},\n}}\n"
            )
            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / "again.bib"
                path.write_text(bib, "utf-8")
                preview, parsed = lib.imports.preview([path])
                keep = frozenset((0, m.index) for f in preview.files for m in f.matches)
                # a preview's matches are numbered
                lib.imports.from_records(parsed, keep_apart=cast("frozenset[tuple[int, int]]", keep))
            window.refresh_query()
    dialog = show_duplicates(window)
    deadline = QDeadlineTimer(20000)
    while dialog.is_searching() and not deadline.hasExpired():
        QApplication.processEvents()
    dialog.resize(900, 560)
    return dialog
