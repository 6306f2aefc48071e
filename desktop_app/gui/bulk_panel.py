"""With several papers selected the reader's place shows this panel: "N papers selected" and the
edits that apply to all of them (status, rating, add a tag, remove a tag some of them carry, add
to a reading list, delete). Each edit is one undoable command of the ``EditController``; the status
bar then says what it did, with an Undo button (``undo_toast``).

:func:`install_bulk_panel` puts a stack of the reader and this panel where the reader was.

``window`` is the app's MainWindow, typed against ``window_protocol.WindowLike``: main_window imports this module."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelection, QStringListModel, Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.core.store.column_types import DECISIONS, STATUSES
from desktop_app.gui import collation, i18n
from desktop_app.gui.flow_layout import FlowLayout
from desktop_app.gui.i18n import QT_TRANSLATE_NOOP
from desktop_app.gui.undo_toast import UndoToast

if TYPE_CHECKING:
    from desktop_app.core.library import Library
    from desktop_app.gui.window_protocol import WindowLike

TAG_COUNT_LIMIT = 5000  # above this many selected papers, "Remove tag" offers every tag, uncounted
NEW_LIST = QT_TRANSLATE_NOOP("BulkPanel", "New list…")


def _papers(n: int) -> str:
    return i18n.papers(n)


def _shrinkable(combo: QComboBox) -> None:
    """A combo box as narrow as the pane needs (its longest tag or list name would set its width)."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(8)


class BulkPanel(QWidget):
    """The bulk edits for ``window``'s selected papers (read from its table at each edit)."""

    def __init__(self, window: WindowLike, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("bulkPanel")
        self.setAccessibleName(self.tr("Selected papers"))
        self.window_ = window
        self.ids: list[int] = []
        self._shown_for: int | None = None  # the papers the tag and list choices were read for
        self.toast = UndoToast(window.undo_stack, window.statusBar())

        self.heading = QLabel(self)
        self.heading.setObjectName("bulkHeading")
        font = self.heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.heading.setFont(font)
        hint = QLabel(self.tr("The edits below apply to every selected paper; each can be undone."), self)
        hint.setWordWrap(True)

        self.status_buttons: dict[str, QPushButton] = {}
        status_row = FlowLayout(spacing=6)  # wraps in a narrow pane (1400×900, Chinese) instead of clipping
        for status in STATUSES:
            b = QPushButton(i18n.status_label(status), self)
            b.setObjectName(f"bulkStatus_{status}")
            b.clicked.connect(lambda _=False, s=status: self.set_status(s))
            self.status_buttons[status] = b
            status_row.addWidget(b)

        self.decision_buttons: dict[str, QPushButton] = {}
        decision_row = FlowLayout(spacing=6)  # wraps in a narrow pane (1400×900, Chinese) instead of clipping
        for decision in (*DECISIONS, None):
            b = QPushButton(i18n.decision_label(decision), self)
            b.setObjectName(f"bulkDecision_{decision or 'none'}")
            b.clicked.connect(lambda _=False, d=decision: self.set_decision(d))
            self.decision_buttons[decision or "none"] = b
            decision_row.addWidget(b)

        self.rating_buttons: list[QToolButton] = []
        rating_row = FlowLayout(spacing=6)  # wraps in a narrow pane (1400×900, Chinese) instead of clipping
        for n in range(6):
            star = QToolButton(self)
            star.setText(self.tr("None") if n == 0 else f"{n}★")
            star.setObjectName(f"bulkRating_{n}")
            star.setAccessibleName(self.tr("No rating") if n == 0 else self.tr("Rate {0}").format(n))
            star.clicked.connect(lambda _=False, n=n: self.set_rating(n))
            self.rating_buttons.append(star)
            rating_row.addWidget(star)

        self.tag_line = QLineEdit(self)
        self.tag_line.setObjectName("bulkTagLine")
        self.tag_line.setAccessibleName(self.tr("Tag to add"))
        self.tag_line.setPlaceholderText(self.tr("Tag (a/b for a child tag)"))
        self._tag_names = QStringListModel(self)
        completer = QCompleter(self._tag_names, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.tag_line.setCompleter(completer)
        self.tag_line.returnPressed.connect(self.add_tag)
        self.add_tag_button = QPushButton(self.tr("Add tag"), self)
        self.add_tag_button.setObjectName("bulkAddTag")
        self.add_tag_button.clicked.connect(self.add_tag)
        add_row = QHBoxLayout()
        add_row.addWidget(self.tag_line, 1)
        add_row.addWidget(self.add_tag_button)

        self.remove_combo = QComboBox(self)
        _shrinkable(self.remove_combo)
        self.remove_combo.setObjectName("bulkRemoveTag")
        self.remove_combo.setAccessibleName(self.tr("Tag to remove"))
        self.remove_button = QPushButton(self.tr("Remove tag"), self)
        self.remove_button.setObjectName("bulkRemoveTagButton")
        self.remove_button.clicked.connect(self.remove_tag)
        remove_row = QHBoxLayout()
        remove_row.addWidget(self.remove_combo, 1)
        remove_row.addWidget(self.remove_button)

        self.list_combo = QComboBox(self)
        _shrinkable(self.list_combo)
        self.list_combo.setObjectName("bulkList")
        self.list_combo.setAccessibleName(self.tr("Reading list"))
        self.list_button = QPushButton(self.tr("Add to list"), self)
        self.list_button.setObjectName("bulkAddToList")
        self.list_button.clicked.connect(self.add_to_list)
        list_row = QHBoxLayout()
        list_row.addWidget(self.list_combo, 1)
        list_row.addWidget(self.list_button)

        self.delete_button = QPushButton(self)
        self.delete_button.setObjectName("bulkDelete")
        self.delete_button.clicked.connect(self.delete)

        form = QFormLayout()
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)  # labels above their fields when narrow
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(self.tr("Status:"), status_row)
        form.addRow(self.tr("Rating:"), rating_row)
        form.addRow(self.tr("Decision:"), decision_row)
        form.addRow(self.tr("Add a tag:"), add_row)
        form.addRow(self.tr("Remove a tag:"), remove_row)
        form.addRow(self.tr("Reading list:"), list_row)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(12, 8, 12, 8)
        outer.addWidget(self.heading)
        outer.addWidget(hint)
        outer.addSpacing(8)
        outer.addLayout(form)
        outer.addSpacing(8)
        outer.addWidget(self.delete_button, 0, Qt.AlignmentFlag.AlignLeft)
        outer.addStretch(1)

    # ---- showing ---------------------------------------------------------------------------
    def show_papers(self, ids: list[int]) -> None:
        """Show the edits for these papers: the heading, the tags they carry, the lists."""
        self.ids = ids
        n = len(ids)
        self.heading.setText(i18n.number_in(self.tr("%n paper(s) selected", "", n), n))
        self.delete_button.setText(self.tr("Delete {0}…").format(_papers(n)))
        lib = self.window_.library
        shown = hash(tuple(ids))
        if shown != self._shown_for:  # else the same papers, no tag or list changed since: as they are
            self._shown_for = shown
            self._show_choices(lib, ids)
        read_only = lib.read_only
        for w in (
            *self.status_buttons.values(),
            *self.rating_buttons,
            self.tag_line,
            self.add_tag_button,
            self.remove_button,
            self.list_button,
            self.delete_button,
        ):
            w.setEnabled(not read_only and (w is not self.remove_button or self.remove_combo.isEnabled()))

    def _show_choices(self, lib: Library, ids: list[int]) -> None:
        """The tags to remove (counted on these papers when they are few) and the lists to add to."""
        n = len(ids)
        tags = lib.tags.all()
        self._tag_names.setStringList([t.name for t in tags])
        self.remove_combo.clear()
        counts = self._tag_counts(ids)
        if counts is None:  # too many to count at once: every tag, the Library skips papers without it
            for t in tags:
                self.remove_combo.addItem(t.name, t.name)
        else:
            for name, count in sorted(counts.items(), key=lambda kv: collation.key(kv[0])):
                self.remove_combo.addItem(self.tr("{0} — on {1} of {2}").format(name, count, n), name)
        self.remove_combo.setEnabled(self.remove_combo.count() > 0)
        self.remove_button.setEnabled(self.remove_combo.count() > 0)
        if not self.remove_combo.count():
            self.remove_combo.addItem(self.tr("(no tags on these papers)"))
        self.list_combo.clear()
        for info in lib.lists.all():
            self.list_combo.addItem(info.name, info.name)
        self.list_combo.addItem(self.tr(NEW_LIST), None)

    def forget_shown(self) -> None:
        """A change that may concern the tags or lists shown: the next :meth:`show_papers` reads them."""
        self._shown_for = None

    def _tag_counts(self, ids: list[int]) -> dict[str, int] | None:
        if len(ids) > TAG_COUNT_LIMIT:
            return None
        from desktop_app.gui.paper_model import PAGE

        counts: Counter[str] = Counter()
        papers = self.window_.library.papers
        for start in range(0, len(ids), PAGE):  # a page a query, as the table reads them
            for row in papers.rows(ids[start : start + PAGE]).values():
                counts.update(row.tags)
        return dict(counts)

    def focus_tag(self) -> None:
        self.tag_line.setFocus(Qt.FocusReason.ShortcutFocusReason)

    # ---- edits -----------------------------------------------------------------------------
    def _edited(self, before: int, text: str) -> None:
        """After an edit: when it went on the stack, say so with Undo; show the panel afresh."""
        win = self.window_
        if win.undo_stack.index() != before:
            self.toast.show_for_last(text)
        ids = win.table.selected_ids()
        if len(ids) > 1:
            self.show_papers(ids)

    def _targets(self) -> list[int]:
        return self.window_.table.selected_ids()

    def set_status(self, status: str) -> None:
        ids, before = self._targets(), self.window_.undo_stack.index()
        self.window_.edits.set_status(status)
        self._edited(before, self.tr("Marked {0} {1}").format(_papers(len(ids)), i18n.status_word(status)))

    def set_decision(self, decision: str | None) -> None:
        ids, before = self._targets(), self.window_.undo_stack.index()
        self.window_.edits.set_decision(decision)
        self._edited(
            before,
            self.tr("Decided {0} {1}").format(_papers(len(ids)), i18n.decision_word(decision))
            if decision
            else self.tr("Cleared the decision of {0}").format(_papers(len(ids))),
        )

    def set_rating(self, rating: int) -> None:
        ids, before = self._targets(), self.window_.undo_stack.index()
        self.window_.edits.set_rating(rating)
        self._edited(
            before,
            self.tr("Rated {0} {1}").format(_papers(len(ids)), rating)
            if rating
            else self.tr("Cleared the rating of {0}").format(_papers(len(ids))),
        )

    def add_tag(self) -> None:
        name = self.tag_line.text().strip()
        ids = self._targets()
        if not name or not ids:
            return
        before = self.window_.undo_stack.index()
        self.window_.edits.add_tags(ids, [name])
        self.tag_line.clear()
        self._edited(before, self.tr("Tagged {0} “{1}”").format(_papers(len(ids)), name))

    def remove_tag(self) -> None:
        name = self.remove_combo.currentData()
        ids = self._targets()
        if not name or not ids:
            return
        before = self.window_.undo_stack.index()
        self.window_.edits.remove_tag(ids, name)
        self._edited(before, self.tr("Removed the tag “{0}” from {1}").format(name, _papers(len(ids))))

    def add_to_list(self) -> None:
        ids = self._targets()
        if not ids:
            return
        name = self.list_combo.currentData()
        before = self.window_.undo_stack.index()
        if name is None:
            name = self.window_.edits.new_list_dialog(ids)
            if not name:
                return
        else:
            self.window_.edits.add_to_list(name, ids)
        self._edited(before, self.tr("Added {0} to “{1}”").format(_papers(len(ids)), name))

    def delete(self) -> None:
        ids, before = self._targets(), self.window_.undo_stack.index()
        self.window_.edits.delete_selected()  # asks first
        self._edited(before, self.tr("Deleted {0}").format(_papers(len(ids))))


class ReaderOrBulk:
    """Shows the bulk panel in the reader's place while several papers are selected."""

    def __init__(self, window: WindowLike) -> None:
        self.window = window
        splitter = window.splitter
        at = splitter.indexOf(window.reader)
        self.stack = QStackedWidget(
            window.window()
        )  # Qt owns it; not the splitter's child yet (it would be added to it)
        self.stack.setObjectName("readerStack")
        self.panel = BulkPanel(window)
        self.scroll = QScrollArea(self.stack)  # the panel never widens the reader's pane
        self.scroll.setObjectName("bulkScroll")
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setWidget(self.panel)
        splitter.replaceWidget(at, self.stack)
        self.stack.addWidget(window.reader)
        self.stack.addWidget(self.scroll)
        self.stack.setCurrentWidget(window.reader)
        self._timer = QTimer(self.stack)  # once per event-loop turn, however many ranges changed
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.update)
        window.table.selectionModel().selectionChanged.connect(self._selection_changed)
        window.model.modelReset.connect(self._timer.start)
        window.edits.changed.connect(lambda _c: self.panel.isVisible() and self._timer.start())
        self._seen: set[int] = set()  # the undo commands met so far (a redo meets one again)
        window.undo_stack.indexChanged.connect(self._stack_moved)

    def _stack_moved(self, index: int) -> None:
        """An edit of the selected papers made with the keys (u, s, r, 0–5, Delete) while the
        panel is shown gets the same message with Undo as the panel's own (which then says it
        in its own words)."""
        stack = self.window.undo_stack
        cmd = stack.command(index - 1) if index > 0 else None
        if cmd is None or id(cmd) in self._seen:
            return
        self._seen.add(id(cmd))
        if self.bulk_shown():
            self.panel.toast.show_for_last(cmd.text())

    def _selection_changed(self, _sel: QItemSelection, _desel: QItemSelection) -> None:
        self._timer.start(0)

    def selected_count(self) -> int:
        """Rows selected (ranges summed: no list of 100,000 indexes for Select all)."""
        selection = self.window.table.selectionModel().selection()
        return sum(r.height() for r in selection)  # type: ignore[attr-defined]  # a list of ranges (the stub omits it)

    def update(self) -> None:
        if self.selected_count() > 1 and not self.window.state.trash:  # trashed papers: the reader, read-only
            ids = self.window.table.selected_ids()
            if len(ids) > 1:
                self.panel.show_papers(ids)
                self.stack.setCurrentWidget(self.scroll)
                return
        if self.bulk_shown():  # edits made meanwhile were not shown in the hidden reader
            self.stack.setCurrentWidget(self.window.reader)
            self.window.refresh_reader()

    def bulk_shown(self) -> bool:
        return self.stack.currentWidget() is self.scroll


def install_bulk_panel(window: WindowLike) -> ReaderOrBulk:
    """Put the reader and the bulk panel in a stack where the reader was (in ``window.splitter``)."""
    return ReaderOrBulk(window)


def screenshot_bulk_panel(window: WindowLike) -> QWidget:
    """For the docs (``gui --screenshot --view bulk``): the first three papers selected, the panel shown."""
    from PySide6.QtCore import QItemSelectionModel

    table = window.table
    model = window.model
    rows = min(3, model.rowCount())
    sel = QItemSelection(model.index(0, 0), model.index(rows - 1, model.columnCount() - 1))
    table.selectionModel().select(sel, QItemSelectionModel.SelectionFlag.ClearAndSelect)
    window.bulk.update()
    return window.bulk.stack
