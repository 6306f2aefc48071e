"""Paper → Edit metadata… (Ctrl+I): a paper's title, authors, venue, year, identifiers, entry type
and abstract in one dialog. Saving is one Library call (``lib.papers.update_metadata``) and one
undoable command; what the Library refuses is said in the dialog, which stays open.

While a shared library's server is away the edit waits like the window's others (told as data
through ``window.edits.submit``: kept in the journal, sent in order when the server is back) and
the dialog closes; it opens then on the paper the reader shows, without asking the server. The
save carries the fields as the dialog saw them (``base``) on the replay too: when another desk
changed one of them meanwhile, nothing is written and the editor opens again with the waiting
values and the field-by-field choice (:func:`resolve_waiting_conflict`).

``window`` is the app's MainWindow, typed against ``window_protocol.WindowLike``: main_window imports this module."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, cast

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QFont, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.core.errors import LibraryError, MetadataConflict
from desktop_app.core.library_call import DescribedEdit, LibraryCall
from desktop_app.core.metadata import (
    ENTRY_TYPES,
    check_changes,
    parse_author,
    parse_authors,
    year_max,
)
from desktop_app.core.values import Change, PaperView
from desktop_app.gui.i18n import QT_TRANSLATE_NOOP
from desktop_app.gui.metadata_conflict import FIELD_LABELS, FieldChoices

if TYPE_CHECKING:
    from desktop_app.gui.window_protocol import WindowLike

    class EditorWindow(WindowLike, Protocol):
        """The window :func:`open_metadata_editor` opens the editor over (``MainWindow`` is one)."""

        def set_metadata_editor(self, dialog: MetadataEditor) -> None: ...


SHORTCUT = "Ctrl+I"


class AuthorList(QWidget):
    """The authors in order: drag to reorder or Move up / Move down, Remove, and a field to add
    names ("Family, Given" or "Given Family"; several at once separated by ";")."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.list = QListWidget(self)
        self.list.setObjectName("authorList")
        self.list.setAccessibleName(self.tr("Authors"))
        self.list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.list.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.list.setMinimumHeight(96)
        self.list.setToolTip(self.tr("Drag a name to reorder; double-click to correct it"))
        self.list.itemChanged.connect(self._normalize)
        self.list.currentRowChanged.connect(lambda _r: self.update_buttons())

        self.new = QLineEdit(self)
        self.new.setObjectName("newAuthor")
        self.new.setAccessibleName(self.tr("New author"))
        self.new.setPlaceholderText(self.tr("Add an author: Family, Given (several: separate with ;)"))
        self.new.installEventFilter(self)  # Enter adds the name (it would press Save otherwise)
        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.setObjectName("addAuthor")
        self.add_button.setAutoDefault(False)
        self.add_button.clicked.connect(self.add_typed)
        self.up = QPushButton(self.tr("Move up"), self)
        self.up.setObjectName("authorUp")
        self.down = QPushButton(self.tr("Move down"), self)
        self.down.setObjectName("authorDown")
        self.remove = QPushButton(self.tr("Remove"), self)
        self.remove.setObjectName("authorRemove")
        for b, slot in (
            (self.up, lambda: self.move(-1)),
            (self.down, lambda: self.move(1)),
            (self.remove, self.remove_current),
        ):
            b.setAutoDefault(False)
            b.clicked.connect(lambda _=False, s=slot: s())

        buttons = QVBoxLayout()
        for b in (self.up, self.down, self.remove):
            buttons.addWidget(b)
        buttons.addStretch(1)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.list, 1)
        top.addLayout(buttons)
        adder = QHBoxLayout()
        adder.setContentsMargins(0, 0, 0, 0)
        adder.addWidget(self.new, 1)
        adder.addWidget(self.add_button)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addLayout(top)
        outer.addLayout(adder)
        self.update_buttons()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        key_event = cast(QKeyEvent, event)  # its key() is read for a key event only
        if (
            watched is self.new
            and event.type() in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride)
            and key_event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        ):
            if event.type() == QEvent.Type.ShortcutOverride:
                event.accept()  # the key is this field's: no shortcut takes it
                return False
            self.add_typed()
            return True
        return super().eventFilter(watched, event)

    def set_authors(self, names: list[str]) -> None:
        self.list.clear()
        for name in names:
            self._append(name)
        self.update_buttons()

    def authors(self) -> list[str]:
        return [self.list.item(n).text().strip() for n in range(self.list.count()) if self.list.item(n).text().strip()]

    def _append(self, name: str) -> None:
        item = QListWidgetItem(name)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable | Qt.ItemFlag.ItemIsDragEnabled)
        self.list.blockSignals(True)
        self.list.addItem(item)
        self.list.blockSignals(False)

    def add_typed(self) -> None:
        names = parse_authors(self.new.text())
        for name in names:
            self._append(name)
        if names:
            self.new.clear()
            self.list.setCurrentRow(self.list.count() - 1)
        self.update_buttons()

    # the name hides QWidget.move (kept: a public method; the up and down buttons call it)
    def move(self, delta: int) -> None:  # type: ignore[override]
        row = self.list.currentRow()
        to = row + delta
        if row < 0 or not 0 <= to < self.list.count():
            return
        item = self.list.takeItem(row)
        self.list.insertItem(to, item)
        self.list.setCurrentRow(to)

    def remove_current(self) -> None:
        row = self.list.currentRow()
        if row >= 0:
            self.list.takeItem(row)
        self.update_buttons()

    def _normalize(self, item: QListWidgetItem) -> None:
        """An author edited in place is stored as "Family, Given" too."""
        name = parse_author(item.text())
        if name and name != item.text():
            self.list.blockSignals(True)
            item.setText(name)
            self.list.blockSignals(False)

    def update_buttons(self) -> None:
        row, n = self.list.currentRow(), self.list.count()
        self.up.setEnabled(row > 0)
        self.down.setEnabled(0 <= row < n - 1)
        self.remove.setEnabled(row >= 0)


class MetadataEditor(QDialog):
    """Edits one paper. ``save(changes, base)`` applies the changed fields (raising LibraryError with a
    message for the user; None: the edit waits for the server); the dialog closes when it succeeds."""

    def __init__(
        self,
        paper: PaperView,
        save: Callable[[dict[str, object], dict[str, object]], Change | None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("metadataEditor")
        self.setWindowTitle(self.tr("Edit metadata"))
        self.paper = paper
        self._save = save
        self.change: Change | None = None

        self.title = QLineEdit(paper.title, self)
        self.title.setObjectName("metaTitle")
        self.title.setCursorPosition(0)
        self.authors = AuthorList(self)
        self.authors.set_authors(paper.authors)
        self.venue = QLineEdit(paper.venue or "", self)
        self.venue.setObjectName("metaVenue")
        self.year = QLineEdit(str(paper.year or ""), self)
        self.year.setObjectName("metaYear")
        self.year.setPlaceholderText(self.tr("e.g. {0}").format(year_max() - 5))
        self.year.setMaxLength(6)
        self.doi = QLineEdit(paper.doi or "", self)
        self.doi.setObjectName("metaDoi")
        self.doi.setPlaceholderText(self.tr("e.g. 10.1234/abc.567 or a doi.org link"))
        self.arxiv = QLineEdit(paper.arxiv_id or "", self)
        self.arxiv.setObjectName("metaArxiv")
        self.arxiv.setPlaceholderText(self.tr("e.g. 2101.01234 or hep-th/9901001"))
        self.url = QLineEdit(paper.url or "", self)
        self.url.setObjectName("metaUrl")
        self.url.setPlaceholderText(self.tr("e.g. https://example.org/paper"))
        self.citation_key = QLineEdit(paper.bibtex_key or "", self)
        self.citation_key.setObjectName("metaCitationKey")
        self.citation_key.setToolTip(
            self.tr(
                "How a LaTeX document cites the paper (\\cite{{{0}}}). Made once, "
                "unique in the library; every export keeps it."
            ).format(paper.bibtex_key or "")
        )
        self.entry_type = QComboBox(self)
        self.entry_type.setObjectName("metaEntryType")
        self.entry_type.addItem(self.tr("Automatic (from the venue)"), None)
        for key, label in ENTRY_TYPES.items():
            self.entry_type.addItem(self.tr("{0} (@{1})").format(label, key), key)
        known = self.entry_type.findData(paper.entry_type) if paper.entry_type else 0
        if known < 0:  # a type read from a file that the list does not offer: kept as it is
            self.entry_type.addItem(f"@{paper.entry_type}", paper.entry_type)
            known = self.entry_type.count() - 1
        self.entry_type.setCurrentIndex(known)
        self.abstract = QPlainTextEdit(self)
        self.abstract.setObjectName("metaAbstract")
        self.abstract.setPlainText(paper.abstract)  # plain text: never rendered as HTML here
        self.abstract.setTabChangesFocus(True)
        self.abstract.setToolTip(
            self.tr(
                "Plain text; LaTeX such as $x^2$ or \\textbf{…} is kept and rendered in the reader. "
                "Highlights follow their words when the text changes."
            )
        )
        self.abstract.setMinimumHeight(120)

        for w, name in (
            (self.title, self.tr("Title")),
            (self.venue, self.tr("Venue")),
            (self.year, self.tr("Year")),
            (self.doi, "DOI"),
            (self.arxiv, self.tr("arXiv id")),
            (self.url, "URL"),
            (self.citation_key, self.tr("Citation key")),
            (self.entry_type, self.tr("Entry type")),
            (self.abstract, self.tr("Abstract")),
        ):
            w.setAccessibleName(name)
        form = QFormLayout()
        form.addRow(self.tr("&Title:"), self.title)
        form.addRow(self.tr("A&uthors:"), self.authors)
        form.addRow(self.tr("&Venue:"), self.venue)
        form.addRow(self.tr("&Year:"), self.year)
        form.addRow(self.tr("&DOI:"), self.doi)
        form.addRow(self.tr("ar&Xiv id:"), self.arxiv)
        form.addRow(self.tr("U&RL:"), self.url)
        form.addRow(self.tr("Citation &key:"), self.citation_key)
        form.addRow(self.tr("&Entry type:"), self.entry_type)
        form.addRow(self.tr("A&bstract:"), self.abstract)

        self.base = self._started()  # what a save says the editing started from (theirs, once chosen)
        self.choices = FieldChoices(self)
        self.error = QLabel(self)
        self.error.setObjectName("metadataError")
        self.error.setTextFormat(Qt.TextFormat.PlainText)  # messages quote what was typed
        self.error.setWordWrap(True)
        bold = QFont(self.error.font())
        bold.setBold(True)
        self.error.setFont(bold)
        self.error.hide()

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.try_save)
        self.buttons.rejected.connect(self.reject)
        outer = QVBoxLayout(self)
        outer.addLayout(form, 1)
        outer.addWidget(self.choices)
        outer.addWidget(self.error)
        outer.addWidget(self.buttons)
        self.resize(640, 720)

    def _typed(self) -> dict[str, object]:
        return {
            "title": self.title.text(),
            "authors": self.authors.authors(),
            "venue": self.venue.text(),
            "year": self.year.text(),
            "doi": self.doi.text(),
            "arxiv_id": self.arxiv.text(),
            "url": self.url.text(),
            "entry_type": self.entry_type.currentData(),
            "citation_key": self.citation_key.text(),
            "abstract": self.abstract.toPlainText(),
        }

    def _started(self) -> dict[str, object]:
        """The paper's fields as the dialog opened with them (the form's own spelling)."""
        p = self.paper
        return {
            "title": p.title,
            "authors": list(p.authors),
            "venue": p.venue or "",
            "year": str(p.year or ""),
            "doi": p.doi or "",
            "arxiv_id": p.arxiv_id or "",
            "url": p.url or "",
            "entry_type": p.entry_type,
            "citation_key": p.bibtex_key or "",
            "abstract": p.abstract,
        }

    def changes(self) -> dict[str, object]:
        """The fields whose text differs from the paper's, as typed (checked when saved)."""
        typed, now = self._typed(), self._started()
        out = {}
        for key, value in typed.items():
            same = (
                value == now[key]
                if key in ("authors", "abstract", "entry_type")
                else " ".join(str(value).split()) == " ".join(str(now[key]).split())
            )
            if not same:
                out[key] = value
        return out

    def show_error(self, message: str | None) -> None:
        if message:
            self.error.setText("⚠ " + message[:1].upper() + message[1:] + ("" if message.endswith(".") else "."))
            self.error.show()
        else:
            self.error.hide()

    def try_save(self) -> bool:
        """Check and save; True when saved (or nothing changed) and the dialog closed. Fields
        another program changed meanwhile are not saved over: the dialog shows theirs and mine
        for each (metadata_conflict.py) and the next Save writes the choice."""
        self._apply_choices()
        changes = self.changes()
        if not changes:
            self.accept()
            return True
        try:
            check_changes(changes)  # the same checks the Library makes: said before anything is written
            self.change = self._save(changes, {k: self.base[k] for k in changes})
        except MetadataConflict as exc:
            self.choices.ask(exc.fields)
            self.show_error(str(exc))
            return False
        except LibraryError as exc:
            self.show_error(str(exc))
            return False
        self.show_error(None)
        self.accept()
        return True

    def show_waiting(self, changes: dict[str, object], conflict: MetadataConflict) -> None:
        """An edit that waited for the server and was refused there: ``changes`` typed into the
        form over the paper as stored now (the base of the next save), and for each field in
        conflict theirs and mine to choose from."""
        for name, value in changes.items():
            if name in FIELD_LABELS:
                self._set_field(name, value)
        self.choices.ask(conflict.fields)

    def _apply_choices(self) -> None:
        """The choice made for each field changed elsewhere: theirs goes into the form (so
        nothing is written for it), and theirs is the base of the next save either way."""
        if not self.choices.asking():
            return
        for name, (keep_theirs, theirs) in self.choices.chosen().items():
            as_typed = _form_value(name, theirs)
            self.base[name] = as_typed
            if keep_theirs:
                self._set_field(name, as_typed)
        self.choices.clear()

    def _set_field(self, name: str, value: object) -> None:
        if name == "authors":
            self.authors.set_authors(list(value) if isinstance(value, list) else [])
        elif name == "abstract":
            self.abstract.setPlainText(str(value))
        elif name == "entry_type":
            self.entry_type.setCurrentIndex(max(0, self.entry_type.findData(value)) if value else 0)
        else:
            {
                "title": self.title,
                "venue": self.venue,
                "year": self.year,
                "doi": self.doi,
                "arxiv_id": self.arxiv,
                "url": self.url,
                "citation_key": self.citation_key,
            }[name].setText(str(value))


def _form_value(name: str, value: object) -> object:
    """A stored value (as update_metadata gives it) in the form's spelling (see _started)."""
    if name == "authors":
        return list(value) if isinstance(value, list) else []
    if name == "entry_type":
        return value
    return "" if value is None else str(value)


# the field names of "Edit venue" and so on, as the undo history shows them
FIELD_WORDS = (
    QT_TRANSLATE_NOOP("MetadataEditor", "title"),
    QT_TRANSLATE_NOOP("MetadataEditor", "authors"),
    QT_TRANSLATE_NOOP("MetadataEditor", "venue"),
    QT_TRANSLATE_NOOP("MetadataEditor", "year"),
    QT_TRANSLATE_NOOP("MetadataEditor", "doi"),
    QT_TRANSLATE_NOOP("MetadataEditor", "arxiv"),
    QT_TRANSLATE_NOOP("MetadataEditor", "url"),
    QT_TRANSLATE_NOOP("MetadataEditor", "entry type"),
    QT_TRANSLATE_NOOP("MetadataEditor", "citation key"),
    QT_TRANSLATE_NOOP("MetadataEditor", "abstract"),
)


def save_metadata(
    window: WindowLike, paper_id: int, changes: dict[str, object], base: dict[str, object] | None = None
) -> Change | None:
    """Apply ``changes`` as one undoable command on the window's stack; LibraryError when refused
    (MetadataConflict when another program changed a field since ``base``). None: it waits for
    the library's server (``window.edits``' outbox, journaled), ``base`` with it."""
    names = [k.replace("_id", "").replace("_", " ") for k in changes]
    text = (
        QCoreApplication.translate("MetadataEditor", "Edit {0}").format(
            QCoreApplication.translate("MetadataEditor", names[0])
        )
        if len(names) == 1
        else QCoreApplication.translate("MetadataEditor", "Edit metadata")
    )
    return window.edits.submit(
        DescribedEdit(
            text,
            LibraryCall("papers", "update_metadata", (paper_id, changes, base)),
        )
    )


def open_metadata_editor(window: EditorWindow, paper_id: int | None = None) -> MetadataEditor | None:
    """Open the editor (window-modal) for ``paper_id``, else the current paper; None when there
    is none, or the library is read-only (the status bar says so)."""
    pid = paper_id if paper_id is not None else window.current_id()
    if pid is None:
        window.status_message(QCoreApplication.translate("MetadataEditor", "Select a paper to edit its metadata"))
        return None
    if window.library.read_only:
        window.status_message(
            QCoreApplication.translate("MetadataEditor", "This library is read-only: its papers cannot be edited")
        )
        return None
    window.reader.notes.flush()
    shown = window.reader.paper
    if not window.library.reachable and shown is not None and shown.id == pid:
        paper = shown  # the server is away: the fields as the reader has them (the save says them as its base)
    elif not window.library.reachable:  # no read of a server known to be away
        window.status_message(
            QCoreApplication.translate(
                "MetadataEditor",
                "The library's server cannot be reached: only the paper the reader shows can be edited meanwhile",
            ),
            10000,
        )
        return None
    else:
        try:
            paper = window.library.papers.get(pid)
        except LibraryError as exc:
            window.status_message(str(exc))
            return None
    dialog = MetadataEditor(paper, lambda changes, base: save_metadata(window, pid, changes, base), window.window())
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    window.set_metadata_editor(dialog)
    dialog.open()
    return dialog


def resolve_waiting_conflict(window: EditorWindow, edit: DescribedEdit | None, conflict: MetadataConflict) -> None:
    """A metadata edit made while the server was away found, when sent, fields another desk
    had changed meanwhile (nothing was written): the editor opens on the paper as stored now,
    with the waiting values typed in and, for each field in conflict, theirs and mine to keep.
    (The server has just answered: the paper is read from it.)"""
    pid = conflict.paper_id
    try:
        paper = window.library.papers.get(pid)
    except LibraryError as exc:
        window.status_message(str(exc), 15000)
        return
    args = edit.do.args if edit is not None else ()
    changes = args[1] if len(args) > 1 and isinstance(args[1], dict) else {}
    dialog = MetadataEditor(paper, lambda ch, b: save_metadata(window, pid, ch, b), window.window())
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show_waiting(changes, conflict)
    said = QCoreApplication.translate(
        "MetadataEditor", "your edit of “{0}”, made while the server was away, was not saved: {1}"
    ).format(paper.title, conflict)
    dialog.show_error(said)
    window.status_message(said[:1].upper() + said[1:], 30000)
    window.set_metadata_editor(dialog)
    dialog.open()


def screenshot_view(window: EditorWindow) -> QWidget:
    """For the docs (``gui --screenshot --view metadata``): the editor filled for the current paper."""
    dialog = open_metadata_editor(window)
    assert dialog is not None, "the screenshot needs a library with a paper selected"
    dialog.authors.list.setCurrentRow(0)
    dialog.authors.update_buttons()
    return dialog
