"""The reader pane: title, metadata, status and rating, tags, the abstract with highlights,
and the note. It reads from the Library; every edit leaves as a signal for the main window,
which turns it into an undoable command."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QPoint, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut, QTextCursor
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidgetItem,
    QMenu,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.core.highlights import COLORS
from desktop_app.core.values import PaperView
from desktop_app.gui import i18n, theme
from desktop_app.gui.attachments_view import AttachmentStrip
from desktop_app.gui.decision_control import DecisionControl
from desktop_app.gui.flow_layout import FlowLayout
from desktop_app.gui.highlight_keys import HighlightKeys
from desktop_app.gui.highlight_list import HighlightList
from desktop_app.gui.note_editor import NoteEditor
from desktop_app.gui.paper_links import PaperLinks
from desktop_app.gui.safe_browser import SafeTextBrowser
from desktop_app.gui.status_control import decision_row
from desktop_app.gui.tag_editor import TagEditor
from desktop_app.gui.title_edit import TitleEdit

if TYPE_CHECKING:
    from pathlib import Path

HIGHLIGHT_BG = {"yellow": "#fff3a3", "green": "#c8f0c0", "blue": "#c6e2ff", "pink": "#ffd1e3", "purple": "#e2d4ff"}
ABSTRACT_CSS = """
body { font-size: 15px; line-height: 150%; color: #1f2328; }
.hit { background-color: #ffe08a; }
.math { font-family: 'DejaVu Serif', serif; }
.ref { color: #6a737d; }
"""


class ReaderPane(QWidget):
    titleEdited = Signal(int, str, str)  # noqa: N815 - paper, new title, the title it replaced
    tagsAdded = Signal(int, list)  # noqa: N815
    tagRemoved = Signal(int, str)  # noqa: N815
    statusChosen = Signal(str)  # noqa: N815
    ratingChosen = Signal(int)  # noqa: N815
    decisionChosen = Signal(str)  # noqa: N815 - keep / maybe / skip, "" clears
    highlightRequested = Signal(int, int, int, str, str)  # noqa: N815  paper, start, end, color, comment
    highlightDeleteRequested = Signal(int)  # noqa: N815
    highlightCommentRequested = Signal(int, str)  # noqa: N815

    def __init__(
        self, note_save: Callable[[int, str, str], bool], parent: QWidget | None = None, drafts: Path | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("readerPane")
        self.paper: PaperView | None = None
        self.read_only = False
        self.terms: list[str] = []
        self.hit_query = ""  # the search text whose matches are underlined in the abstract
        outer = QVBoxLayout(self)
        outer.setContentsMargins(12, 8, 12, 8)
        outer.setSpacing(6)

        self.title_edit = TitleEdit(self)
        self.title_edit.setPlaceholderText(self.tr("Title"))
        self.title_edit.editingFinished.connect(self._title_done)
        outer.addWidget(self.title_edit)

        self.meta = QLabel(self)
        self.meta.setObjectName("metaLine")
        self.meta.setTextFormat(Qt.TextFormat.PlainText)
        self.meta.setWordWrap(True)
        self.meta.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        outer.addWidget(self.meta)

        self.links = PaperLinks(self)  # DOI, arXiv, URL: opened on a click only (paper_links.py)
        outer.addWidget(self.links)
        self.attachments = AttachmentStrip(self)  # attached files (attachments_view.py)
        outer.addWidget(self.attachments)

        self.keywords = QLabel(self)  # the source file's keywords (not tags): searchable as keyword:
        self.keywords.setObjectName("keywordLine")
        self.keywords.setTextFormat(Qt.TextFormat.PlainText)
        self.keywords.setWordWrap(True)
        self.keywords.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.keywords.setToolTip(self.tr("Keywords from the imported file (search them with keyword:…)"))
        self.keywords.hide()
        outer.addWidget(self.keywords)

        self.list_note = QLabel(self)
        self.list_note.setObjectName("listItemNote")
        self.list_note.setTextFormat(Qt.TextFormat.PlainText)
        self.list_note.setWordWrap(True)
        # its colours: the application's style sheet (desktop_app.gui.theme)
        self.list_note.hide()
        outer.addWidget(self.list_note)
        # who changed the shown paper last, in a shared library ("tagged by lin, 5 min ago");
        # gui/shared_desk.py sets the provider (paper id -> text, "" for none)
        self.last_change = QLabel(self)
        self.last_change.setObjectName("lastChange")
        self.last_change.setTextFormat(Qt.TextFormat.PlainText)
        self.last_change.hide()
        self.last_change_provider: Callable[[int], str] | None = None
        outer.addWidget(self.last_change)

        row, self.status, self.rating = decision_row(self, self.statusChosen, self.ratingChosen)
        self.decision = DecisionControl(self)
        self.decision.decisionChosen.connect(self.decisionChosen)
        # status, stars and decision wrap onto two lines in a narrow reader instead of widening
        # the window (a 1000-pixel window stays 1000 pixels)
        flow = FlowLayout(spacing=16)
        for w in (self.status, self.rating, self.decision):
            row.removeWidget(w)
            flow.addWidget(w)
        outer.addLayout(flow)

        self.tags = TagEditor(self)
        # (the ignores: mypy keeps, inside the lambdas, the narrowing to None of ``self.paper = None``
        # above, though they run once a paper is shown)
        self.tags.tagsAdded.connect(
            lambda names: self.paper and self.tagsAdded.emit(self.paper.id, names)  # type: ignore[unreachable]
        )
        self.tags.tagRemoved.connect(
            lambda name: self.paper and self.tagRemoved.emit(self.paper.id, name)  # type: ignore[unreachable]
        )
        outer.addWidget(self.tags)

        split = QSplitter(Qt.Orientation.Vertical, self)
        split.setObjectName("readerSplitter")
        split.setChildrenCollapsible(False)
        top = QWidget(split)
        tl = QVBoxLayout(top)
        tl.setContentsMargins(0, 0, 0, 0)
        self.abstract = SafeTextBrowser(top)
        self.abstract.setObjectName("readerView")
        self.abstract.setAccessibleName(self.tr("Abstract"))
        self._abstract_css()
        theme.follow(self.abstract, self._theme_changed)
        self.abstract.setFrameShape(QFrame.Shape.NoFrame)
        self.abstract.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.abstract.customContextMenuRequested.connect(self._abstract_menu)
        self.abstract.selectionChanged.connect(self._selection_changed)
        # a caret when focused: Shift+arrows select, then h and a colour digit (highlight_keys.py)
        self.abstract.setTextInteractionFlags(
            self.abstract.textInteractionFlags() | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        tl.addWidget(self.abstract, 1)

        self.hl_bar = QWidget(top)
        self.hl_bar.setObjectName("highlightBar")
        hb = QHBoxLayout(self.hl_bar)
        hb.setContentsMargins(0, 0, 0, 0)
        self.hl_label = QLabel(self.tr("Highlight:"), self.hl_bar)
        self.hl_label.setObjectName("highlightPrompt")
        self.hl_label.setTextFormat(Qt.TextFormat.PlainText)
        hb.addWidget(self.hl_label)
        # one style sheet for the colour buttons, parsed once (not one per button)
        self.hl_bar.setStyleSheet(
            "".join(
                f"QToolButton#highlight_{color} {{ background: {HIGHLIGHT_BG[color]}; border: 1px solid palette(mid);"
                " border-radius: 8px; min-width: 16px; min-height: 16px; }"
                for color in COLORS
            )
        )
        for n, color in enumerate(COLORS, 1):
            b = QToolButton(self.hl_bar)
            b.setObjectName(f"highlight_{color}")
            b.setToolTip(
                self.tr("Highlight the selection in {0} (h then {1}, or Shift+{1})").format(i18n.color_label(color), n)
            )
            b.setAccessibleName(self.tr("Highlight {0}").format(i18n.color_label(color)))
            b.clicked.connect(lambda _=False, c=color: self.highlight_selection(c))
            hb.addWidget(b)
        comment = QToolButton(self.hl_bar)
        comment.setText(self.tr("With comment…"))
        comment.setObjectName("highlightWithComment")
        comment.clicked.connect(lambda: self.highlight_selection("yellow", ask_comment=True))
        hb.addWidget(comment)
        hb.addStretch(1)
        self.hl_bar.setEnabled(False)
        tl.addWidget(self.hl_bar)

        self.hl_list = HighlightList(top)  # rows as tall as their wrapped text
        self.hl_list.itemActivated.connect(self._jump_to_highlight)
        self.hl_list.itemClicked.connect(self._jump_to_highlight)
        self.hl_list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.hl_list.customContextMenuRequested.connect(self._highlight_menu)
        tl.addWidget(self.hl_list)

        self.notes = NoteEditor(note_save, split, drafts=drafts)
        split.addWidget(top)
        split.addWidget(self.notes)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        self.splitter = split
        outer.addWidget(split, 1)

        for n, color in enumerate(COLORS, 1):
            sc = QShortcut(QKeySequence(f"Shift+{n}"), self.abstract)
            sc.setContext(Qt.ShortcutContext.WidgetShortcut)
            sc.activated.connect(lambda c=color: self.highlight_selection(c))
        self.highlight_keys = HighlightKeys(self)  # h, then the colour's digit
        sc = QShortcut(QKeySequence("H"), self.abstract)
        sc.setContext(Qt.ShortcutContext.WidgetShortcut)
        sc.activated.connect(self.highlight_keys.arm)
        self.show_paper(None)

    # ---- showing ---------------------------------------------------------------------------
    def show_paper(
        self, paper: PaperView | None, terms: list[str] | None = None, list_note: tuple[str, str] | None = None
    ) -> None:
        """Show a paper; ``list_note`` is (list name, the item's note) when a list is shown."""
        if terms is not None:
            self.terms = terms
        if list_note and list_note[1]:
            self.list_note.setText(self.tr("Note in “{0}”: {1}").format(list_note[0], list_note[1]))
            self.list_note.show()
        else:
            self.list_note.hide()
        same = paper is not None and self.paper is not None and paper.id == self.paper.id
        self.paper = paper
        self.links.set_paper(paper)
        self.attachments.show_paper(paper)
        enabled = paper is not None
        for w in (self.title_edit, self.status, self.rating, self.decision, self.tags):
            w.setEnabled(enabled and not self.read_only)
        self.abstract.setEnabled(enabled)  # read-only: still selectable and copyable
        if paper is None:
            self.title_edit.setText("")
            self.meta.setText(self.tr("Select a paper to read it."))
            self.keywords.hide()
            self.abstract.setHtml("")
            self.tags.set_tags([])
            self.hl_list.clear()
            self.notes.load(None, "")
            return
        if not self.title_edit.hasFocus():
            self.title_edit.setText(paper.title)
            self.title_edit.setCursorPosition(0)
        self.title_edit.setToolTip(
            self.tr("Derived from the abstract; edit to replace") if paper.title_source == "derived" else ""
        )
        self.meta.setText(self.meta_text(paper))
        last = self.last_change_provider(paper.id) if self.last_change_provider is not None else ""
        self.last_change.setText(last)
        self.last_change.setVisible(bool(last))
        self.keywords.setText(self._keyword_text(paper))
        self.keywords.setVisible(bool(paper.keywords))
        self.status.set_status(paper.status)
        self.rating.set_rating(paper.rating)
        self.decision.set_decision(paper.decision)
        self.tags.set_tags(paper.tags)
        self._render_abstract(keep_scroll=same)
        self._fill_highlights()
        if not same or self.notes.paper_id() != paper.id:
            self.notes.load(paper.id, paper.note)

    def set_read_only(self, on: bool) -> None:
        """A library that cannot be written: reading, selecting and copying only."""
        self.read_only = on
        self.notes.set_read_only(on)
        self.show_paper_state()

    def show_paper_state(self) -> None:
        enabled = self.paper is not None and not self.read_only
        for w in (self.title_edit, self.status, self.rating, self.decision, self.tags):
            w.setEnabled(enabled)
        self.hl_bar.setEnabled(enabled and self.selection_span() is not None)

    @staticmethod
    def meta_text(p: PaperView) -> str:
        parts = []
        if p.authors:
            names = ", ".join(p.authors[:8]) + (" et al." if len(p.authors) > 8 else "")
            parts.append(names)
        year = str(p.year or "")
        venue = p.venue or ""
        venue = venue if year and year in venue else " ".join(x for x in (venue, year) if x)
        if venue:
            parts.append(venue)
        if p.doi:
            parts.append(f"doi:{p.doi}")
        if p.arxiv_id:
            parts.append(f"arXiv:{p.arxiv_id}")
        if p.extra.get("pmid"):
            parts.append(f"PMID:{p.extra['pmid']}")
        if p.bibtex_key:  # the stored citation key: what \cite{} takes, in every export
            parts.append(f"@{p.bibtex_key}")
        if p.title_source == "derived":
            parts.append(QCoreApplication.translate("ReaderPane", "title derived from the abstract"))
        if p.lists:
            parts.append(QCoreApplication.translate("ReaderPane", "in {0}").format(", ".join(p.lists)))
        return "  ·  ".join(parts)

    @staticmethod
    def _keyword_text(p: PaperView, shown: int = 25) -> str:
        words = "; ".join(p.keywords[:shown])
        more = len(p.keywords) - shown
        if more > 0:
            return QCoreApplication.translate("ReaderPane", "Keywords: {0} … and {1} more").format(words, more)
        return QCoreApplication.translate("ReaderPane", "Keywords: {0}").format(words)

    def _render_abstract(self, keep_scroll: bool = False) -> None:
        from desktop_app.core.text import Mark, to_html

        assert self.paper is not None
        marks = [Mark(h.start, h.end, h.color, key=str(h.id)) for h in self.paper.highlights if not h.orphaned]
        html = to_html(self.paper.abstract, marks=marks)
        bar = self.abstract.verticalScrollBar()
        pos = bar.value()
        cur = self.abstract.textCursor()
        caret = (cur.anchor(), cur.position(), self.abstract.document().characterCount())
        self.abstract.setHtml(html)
        if keep_scroll and caret[2] == self.abstract.document().characterCount():
            # the same paper drawn again (a highlight, a rating): the caret and selection stay
            cur = QTextCursor(self.abstract.document())
            cur.setPosition(caret[0])
            cur.setPosition(caret[1], QTextCursor.MoveMode.KeepAnchor)
            self.abstract.setTextCursor(cur)
        if self.hit_query:
            from desktop_app.core.text import to_plain
            from desktop_app.gui.search_hits import draw_hits

            draw_hits(self.abstract, self.hit_query, to_plain(self.paper.abstract))
        if keep_scroll:
            bar.setValue(pos)

    def _fill_highlights(self) -> None:
        self.hl_list.clear()
        assert self.paper is not None
        for h in self.paper.highlights:
            label = f"“{h.quote}”" + (f" — {h.comment}" if h.comment else "")
            if h.orphaned:
                label = self.tr("⚠ orphaned: {0}").format(label)
            item = self.hl_list.add_highlight(label, HIGHLIGHT_BG.get(h.color, HIGHLIGHT_BG["yellow"]))
            item.setData(Qt.ItemDataRole.UserRole, h.id)
            item.setToolTip(
                self.tr("This passage is no longer in the abstract") if h.orphaned else self.tr("Click to show it")
            )
        self.hl_list.setVisible(bool(self.paper.highlights))
        self.hl_list.fit_height()

    def _abstract_css(self) -> None:
        """The abstract's text and references in the theme's colours (after ABSTRACT_CSS)."""
        self.abstract.document().setDefaultStyleSheet(ABSTRACT_CSS + theme.document_css(theme.colors()))

    def _theme_changed(self) -> None:
        self._abstract_css()
        if self.paper is not None:  # the document's style sheet applies when the HTML is set
            self._render_abstract(keep_scroll=True)

    # ---- editing ---------------------------------------------------------------------------
    def _title_done(self) -> None:
        if self.paper is None:
            return
        text = " ".join(self.title_edit.text().split())
        if text and text != self.paper.title:
            self.titleEdited.emit(self.paper.id, text, self.paper.title)
        elif not text:
            self.title_edit.setText(self.paper.title)

    def show_highlight_prompt(self, text: str | None) -> None:
        """The highlight bar's label: ``text`` (plain), or its own "Highlight:" for None."""
        self.hl_label.setText(self.tr("Highlight:") if text is None else text)

    def _selection_changed(self) -> None:
        self.hl_bar.setEnabled(self.selection_span() is not None and not self.read_only)

    def selection_span(self) -> tuple[int, int] | None:
        """The selection as offsets into the paper's plain abstract text."""
        if self.paper is None:
            return None
        cur = self.abstract.textCursor()
        if not cur.hasSelection():
            return None
        start, end = cur.selectionStart(), cur.selectionEnd()
        plain = self.paper.abstract_text
        doc_text = self.abstract.document().toPlainText()
        if doc_text == plain:
            span = (start, end)
        else:  # should not happen (the HTML is built from the same segments); map by text
            chosen = cur.selectedText().replace("\u2029", "\n")
            at = plain.find(chosen, max(0, start - 40))
            if at < 0:
                at = plain.find(chosen)
            if at < 0:
                return None
            span = (at, at + len(chosen))
        s, e = span
        while s < e and plain[s].isspace():
            s += 1
        while e > s and plain[e - 1].isspace():
            e -= 1
        return (s, e) if e > s else None

    def highlight_selection(self, color: str, ask_comment: bool = False) -> None:
        span = self.selection_span()
        if span is None or self.paper is None:
            return
        comment = ""
        if ask_comment:
            comment, ok = QInputDialog.getText(self, self.tr("Highlight"), self.tr("Comment:"))
            if not ok:
                return
        self.highlightRequested.emit(self.paper.id, span[0], span[1], color, comment)

    def _jump_to_highlight(self, item: QListWidgetItem) -> None:
        hid = item.data(Qt.ItemDataRole.UserRole)
        h = next((h for h in (self.paper.highlights if self.paper else []) if h.id == hid), None)
        if h is None or h.orphaned:
            return
        cur = QTextCursor(self.abstract.document())
        cur.setPosition(h.start)
        cur.setPosition(h.end, QTextCursor.MoveMode.KeepAnchor)
        self.abstract.setTextCursor(cur)
        self.abstract.ensureCursorVisible()

    def _highlight_menu(self, pos: QPoint) -> None:
        item: QListWidgetItem | None = self.hl_list.itemAt(pos)  # None off the rows (the stub omits it)
        if item is None:
            return
        hid = item.data(Qt.ItemDataRole.UserRole)
        menu = QMenu(self)
        menu.addAction(self.tr("Edit comment…"), lambda: self._edit_comment(hid))
        menu.addAction(self.tr("Delete highlight"), lambda: self.highlightDeleteRequested.emit(hid))
        menu.exec(self.hl_list.mapToGlobal(pos))

    def _edit_comment(self, hid: int) -> None:
        h = next((h for h in (self.paper.highlights if self.paper else []) if h.id == hid), None)
        if h is None:
            return
        text, ok = QInputDialog.getText(self, self.tr("Highlight comment"), self.tr("Comment:"), text=h.comment)
        if ok:
            self.highlightCommentRequested.emit(hid, text)

    def _abstract_menu(self, pos: QPoint) -> None:
        menu = self.abstract.createStandardContextMenu()
        if self.selection_span() is not None:
            menu.addSeparator()
            for color in COLORS:
                menu.addAction(
                    self.tr("Highlight {0}").format(i18n.color_label(color)),
                    lambda c=color: self.highlight_selection(c),
                )
            menu.addAction(self.tr("Highlight with comment…"), lambda: self.highlight_selection("yellow", True))
        menu.exec(self.abstract.mapToGlobal(pos))
