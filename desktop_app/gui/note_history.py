"""Note history: the texts a note has had, each shown as a diff, and "Restore this version".

The library keeps every earlier text of a note as a revision (``lib.notes.history``). The dialog
lists them newest first with the date in the user's locale; the selected one is shown as its
changes against the version before it (or against the current note). The note is untrusted
text: the diff is built from escaped text and our own spans only, and shown in a
:class:`SafeTextBrowser` (no links, no images, nothing loads). Restoring stores the text through
the window's note save path as an undo step of its own, so Ctrl+Z brings back what was there.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from html import escape
from typing import TYPE_CHECKING, Protocol, cast

from PySide6.QtCore import QCoreApplication, QDateTime, QLocale, Qt, QTimeZone
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from desktop_app.core.errors import LibraryError
from desktop_app.gui import i18n
from desktop_app.gui.safe_browser import SafeTextBrowser

if TYPE_CHECKING:
    from desktop_app.core.library import Library
    from desktop_app.core.notes import NoteVersion
    from desktop_app.gui.editing import EditController
    from desktop_app.gui.paper_model import PaperTableModel
    from desktop_app.gui.reader import ReaderPane


class MainWindow(Protocol):
    """What this module uses of the main window (not imported: it imports this module)."""

    library: Library
    reader: ReaderPane
    edits: EditController
    undo_stack: QUndoStack
    model: PaperTableModel

    def current_id(self) -> int | None: ...
    def select_row(self, row: int) -> None: ...
    def status_message(self, text: str, ms: int = 5000) -> None: ...


# inserted / deleted text: a tint of green / red behind the text (readable on light and dark
# text, as the colour is translucent), deleted text also struck through
INS_STYLE = "background-color: rgba(46, 160, 67, 0.28);"
DEL_STYLE = "background-color: rgba(248, 81, 73, 0.28); text-decoration: line-through;"
FIRST_LINE_CHARS = 60
_WORD = re.compile(r"\w+|\s+|[^\w\s]", re.UNICODE)


def _escaped(text: str) -> str:
    """Escaped text with line breaks kept (Qt's rich text needs <br> for them)."""
    return escape(text).replace("\r\n", "\n").replace("\n", "<br>")


def diff_html(old: str, new: str) -> str:
    """The changes from ``old`` to ``new`` as a safe HTML fragment: every character of both texts
    is escaped; the only tags are ``<span class="ins">``, ``<span class="del">`` and ``<br>``."""
    from diff_match_patch import diff_match_patch

    # word by word (as diff-match-patch's line mode, with words): a character diff turns
    # "alpha" -> "gamma" into "alph"/"gamm" around a shared "a", which nobody reads as a change
    vocab: dict[str, str] = {}
    words: list[str] = []

    def encode(text: str) -> str:
        out = []
        for word in _WORD.findall(text):
            if word not in vocab:
                vocab[word] = chr(0xE000 + len(words)) if len(words) < 0x1900 else chr(0xF0000 + len(words))
                words.append(word)
            out.append(vocab[word])
        return "".join(out)

    dmp = diff_match_patch()
    dmp.Diff_Timeout = 0.5
    diffs = dmp.diff_main(encode(old), encode(new), False)
    dmp.diff_cleanupSemantic(diffs)
    decode = {c: w for w, c in vocab.items()}
    out = []
    for op, chars in diffs:
        text = "".join(decode[c] for c in chars)
        body = _escaped(text)
        if op > 0:
            out.append(f'<span class="ins" style="{INS_STYLE}">{body}</span>')
        elif op < 0:
            out.append(f'<span class="del" style="{DEL_STYLE}">{body}</span>')
        else:
            out.append(body)
    return "".join(out)


def locale_date(when: datetime | None) -> str:
    """A stored UTC time in the user's locale and time zone ("" when unknown)."""
    if when is None:
        return ""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    utc = when.astimezone(UTC)
    qt = QDateTime.fromSecsSinceEpoch(int(utc.timestamp()), QTimeZone.utc()).toLocalTime()
    return QLocale().toString(qt, QLocale.FormatType.ShortFormat)


def first_line(text: str) -> str:
    line = next((s.strip() for s in text.splitlines() if s.strip()), "")
    return line if len(line) <= FIRST_LINE_CHARS else line[: FIRST_LINE_CHARS - 1] + "…"


def version_labels(versions: list[NoteVersion]) -> list[str]:
    """One line per version: when it was written, its size and first line.

    A revision is stored when its text is replaced, so the time a version was *written* is the
    time the version before it was replaced; the oldest one is only known to be older."""
    out = []
    for i, v in enumerate(versions):
        older = versions[i + 1] if i + 1 < len(versions) else None
        if older is not None and older.saved_at is not None:
            when = locale_date(older.saved_at)
        elif v.id is None:
            when = locale_date(v.saved_at)
        else:
            when = QCoreApplication.translate("NoteHistoryDialog", "before {0}").format(locale_date(v.saved_at))
        size = i18n.plurals().characters(len(v.text))
        line = first_line(v.text) or QCoreApplication.translate("NoteHistoryDialog", "(empty)")
        text = (
            QCoreApplication.translate("NoteHistoryDialog", "Current note · {0} · {1} — {2}")
            if v.id is None
            else "{0} · {1} — {2}"
        )
        out.append(text.format(when, size, line))
    return out


class NoteHistoryDialog(QDialog):
    """The versions of one paper's note; select one to see its changes, restore it."""

    def __init__(self, window: MainWindow, paper_id: int) -> None:
        super().__init__(window)  # type: ignore[arg-type]  # the main window, a QWidget
        self.setObjectName("noteHistoryDialog")
        self.window_ = window
        self.paper_id = paper_id
        self.versions: list[NoteVersion] = []
        title = window.library.papers.get(paper_id).title
        self.setWindowTitle(self.tr("Note history — {0}").format(title))
        lay = QVBoxLayout(self)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        self.list = QListWidget(split)
        self.list.setObjectName("noteHistoryList")
        self.list.setAccessibleName(self.tr("Versions of the note"))
        self.list.setWordWrap(True)
        right = QWidget(split)
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        self.caption = QLabel(right)
        self.caption.setObjectName("noteHistoryCaption")
        self.caption.setTextFormat(Qt.TextFormat.PlainText)
        self.caption.setWordWrap(True)
        rl.addWidget(self.caption)
        self.diff = SafeTextBrowser(right)
        self.diff.setObjectName("noteHistoryDiff")
        self.diff.setAccessibleName(self.tr("Changes"))
        rl.addWidget(self.diff, 1)
        split.addWidget(self.list)
        split.addWidget(right)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        lay.addWidget(split, 1)
        row = QHBoxLayout()
        self.against_current = QCheckBox(self.tr("Compare with the current note"), self)
        self.against_current.setObjectName("noteHistoryAgainstCurrent")
        self.against_current.toggled.connect(self._show_selected)
        row.addWidget(self.against_current)
        row.addStretch(1)
        self.restore_button = QPushButton(self.tr("Restore this version"), self)
        self.restore_button.setObjectName("noteHistoryRestore")
        self.restore_button.setToolTip(self.tr("Make this text the note again (Edit → Undo takes it back)"))
        self.restore_button.clicked.connect(self.restore_selected)
        row.addWidget(self.restore_button)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        row.addWidget(buttons)
        lay.addLayout(row)
        self.list.currentRowChanged.connect(self._show_selected)
        window.edits.changed.connect(self._library_changed)  # Edit → Undo of a restore, say
        self.finished.connect(lambda _r: window.edits.changed.disconnect(self._library_changed))
        self.resize(820, 480)
        self.reload()

    def _library_changed(self, change: object) -> None:
        if getattr(change, "kind", "") == "note" and self.paper_id in getattr(change, "paper_ids", ()):
            self.reload()

    def reload(self) -> None:
        """Read the versions again (after a restore or an edit) and select the newest."""
        self.versions = self.window_.library.notes.history(self.paper_id)
        self.list.blockSignals(True)
        self.list.clear()
        for n, label in enumerate(version_labels(self.versions)):
            item = QListWidgetItem(label)
            item.setData(Qt.ItemDataRole.UserRole, n)
            self.list.addItem(item)
        self.list.blockSignals(False)
        if self.versions:
            self.list.setCurrentRow(0)
        self._show_selected()

    def selected(self) -> NoteVersion | None:
        row = self.list.currentRow()
        return self.versions[row] if 0 <= row < len(self.versions) else None

    def _show_selected(self) -> None:
        row = self.list.currentRow()
        version = self.selected()
        current = self.versions[0] if self.versions and self.versions[0].id is None else None
        self.restore_button.setEnabled(
            version is not None and version.id is not None and not self.window_.library.read_only
        )
        if version is None:
            self.caption.setText(self.tr("This paper's note has no earlier versions.") if not self.versions else "")
            self.diff.setHtml("")
            return
        if self.against_current.isChecked() and current is not None and version is not current:
            old, new = version.text, current.text
            self.caption.setText(self.tr("From this version to the current note:"))
        else:
            older = self.versions[row + 1] if row + 1 < len(self.versions) else None
            old, new = (older.text if older else ""), version.text
            self.caption.setText(
                self.tr("Changes against the version before it:") if older else self.tr("The oldest version kept:")
            )
        self.diff.setHtml(f'<div style="white-space: pre-wrap">{diff_html(old, new)}</div>')

    def restore_selected(self) -> None:
        version = self.selected()
        if version is None or version.id is None:
            return
        restore_note(self.window_, self.paper_id, version.text)
        self.reload()


def restore_note(window: MainWindow, paper_id: int, text: str) -> bool:
    """Make ``text`` the paper's note through the window's save path, as one undo step of its
    own ("Restore note version"); the editor shows it if the paper is on screen."""
    from desktop_app.gui.undo import NoteCommand

    notes = window.reader.notes
    notes.flush()  # typing not yet saved becomes a step (and a revision) of its own
    stack = window.undo_stack
    top = stack.command(stack.index() - 1) if stack.index() else None
    if isinstance(top, NoteCommand):
        top.closed = True  # never merged into the writing before it
    base = notes.saved_text() if notes.paper_id() == paper_id else window.library.notes.text(paper_id)
    if base == text:
        return True
    before = stack.index()
    if not window.edits.save_note(paper_id, text, base):
        window.status_message(
            QCoreApplication.translate("NoteHistoryDialog", "The library is busy; try restoring again in a moment"),
            5000,
        )
        return False
    if stack.index() > before:
        cmd = cast(NoteCommand, stack.command(stack.index() - 1))  # the step save_note pushed
        cmd.setText(QCoreApplication.translate("NoteHistoryDialog", "Restore note version"))
        cmd.closed = True
    if notes.paper_id() == paper_id:
        notes.load(paper_id, text, flush=False)
    window.status_message(
        QCoreApplication.translate(
            "NoteHistoryDialog", "Restored an earlier version of the note (Edit → Undo takes it back)"
        ),
        5000,
    )
    return True


def show_note_history(window: MainWindow, paper_id: int | None = None) -> NoteHistoryDialog | None:
    """Open the note history of ``paper_id`` (the current paper by default)."""
    pid = paper_id if paper_id is not None else window.current_id()
    if pid is None:
        window.status_message(
            QCoreApplication.translate("NoteHistoryDialog", "Select a paper to see its note history"), 5000
        )
        return None
    window.reader.notes.flush()
    try:
        dialog = NoteHistoryDialog(window, pid)
    except LibraryError as exc:  # the server gone, the paper deleted meanwhile: said, nothing opens
        window.status_message(str(exc), 10000)
        return None
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog


def screenshot_note_history(window: MainWindow) -> QWidget:
    """For ``gui --screenshot --view note-history``: a paper's note written three times (a table,
    a heading), its history open on the middle version."""
    pid = window.current_id()
    if pid is None:
        ids = window.library.query("").ids
        pid = ids[0]
        window.select_row(window.model.row_of(pid))
    texts = (
        "Read for the reward model.",
        "# Reward model\nRead for the reward model: trained on pairwise preferences.",
        "# Reward model\nRead for the reward model: trained on 40k pairwise preferences.\n\n"
        "| data | size |\n|---|---|\n| pairs | 40k |",
    )
    for text in texts:
        window.edits.save_note(pid, text, window.library.notes.text(pid))
    window.reader.notes.load(pid, texts[-1], flush=False)
    dialog = show_note_history(window, pid)
    assert dialog is not None
    dialog.list.setCurrentRow(1)
    return dialog
