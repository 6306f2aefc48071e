"""Triage mode (View → Triage): one paper of the current filter's list at a time, the abstract
large, every decision on one key.

Keys (on the view; the tag field and the note editor give them back with Esc):
y/m/x keep, maybe, skip (``preferences.TRIAGE_DECISION_KEYS``, remappable in Settings; the
buttons sit in the row under the progress line, so they never move), o the learned order on or
off, d the same decision for the near-duplicates offered after one, e the contribution sentence
in bold, u/s/r status, 0–5 rating (both move on when ``preferences.TRIAGE_ADVANCE``; each
flashes a short confirmation), t tag (inline field with completion; Enter or Esc gives the keys
back), Alt+1…9 quick tags (assigned by the user; ``preferences.TRIAGE_QUICK_TAGS``), n note
(inline editor saving through the window's note path, with drafts), Space, j or → next, k or ←
previous, PageUp/PageDown scroll the abstract, Esc leaves.

Every edit goes through the window's ``EditController`` (one undo step each; Ctrl+Z works here
and brings the undone paper back on screen). The list is the window's shown list when triage
starts. The paper on screen is remembered per library (``WindowSettings.key``), and whether
triage was open: the next launch resumes there.

The learned order (``gui/learned_order.py`` → ``lib.triage.order``): computed in a worker when
triage opens and after every decision; when a ranking arrives, the papers after the one on
screen take its order (undecided most-likely-keep first, then the decided), what was already
shown stays, so a key never waits for the model. Include and exclude words are coloured and the
contribution sentence made bold on the shown document (``gui/word_marks.py``).

Speed: a key shows the next paper from a prefetched (PaperView, HTML) pair when there is one;
the pair after it is read one event-loop turn after the paint (``_prefetch``).

Progress: "triaged" = papers of the list whose status is not "unread"; "today" = papers of the
list decided since local midnight, from the change log's "status" events when they are logged
there, else (and in any case at least) the papers decided in this session.
``window`` is the app's MainWindow, typed against ``window_protocol.WindowLike``: main_window imports this module.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QPoint, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QHideEvent, QKeyEvent, QKeySequence, QTextBlockFormat, QTextCursor
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMenu,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.core.errors import LibraryError
from desktop_app.core.values import Change, ChangeKind, PaperView
from desktop_app.gui import i18n, preferences, theme, word_marks
from desktop_app.gui.decision_control import DecisionControl
from desktop_app.gui.flash_label import FlashLabel
from desktop_app.gui.learned_order import LearnedOrder
from desktop_app.gui.note_editor import NoteEditor
from desktop_app.gui.safe_browser import SafeTextBrowser
from desktop_app.gui.status_control import decision_row
from desktop_app.gui.tag_editor import TagEditor

if TYPE_CHECKING:
    from desktop_app.core.insights.triage_queue import QueueSummary
    from desktop_app.gui.window_protocol import WindowLike

TRIAGE_SHORTCUT = "Ctrl+Shift+T"
QUICK_TAG_SLOTS = 9  # Alt+1 … Alt+9
PREFETCH_AHEAD = 2
STATUS_KEYS: dict[int, str] = {Qt.Key.Key_U: "unread", Qt.Key.Key_S: "skimmed", Qt.Key.Key_R: "read"}
RESERVED_KEYS = set("usrtnodjke")  # triage's own letters: a decision key may not take one
COLUMN_WIDTH = 980  # px: about 90 characters a line at the abstract's size
ABSTRACT_SCALE = 1.4  # the abstract's font against the window's
LINE_HEIGHT = 150  # percent
TRIAGE_CSS = """
.math { font-family: 'DejaVu Serif', serif; }
"""


def quick_tags(settings: QSettings) -> list[str]:
    """The tag on each of Alt+1…9 ("" for a free key)."""
    names = preferences.get_list(settings, preferences.TRIAGE_QUICK_TAGS)
    return (names + [""] * QUICK_TAG_SLOTS)[:QUICK_TAG_SLOTS]


class TriageView(QWidget):
    """The view in the window's central stack. ``enter`` fills it; ``leave`` gives the table back."""

    def __init__(self, window: WindowLike) -> None:
        super().__init__(window.stack)
        self.setObjectName("triageView")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.window_ = window
        self.library = window.library
        self.ids: list[int] = []
        self._ids_set: set[int] = set()
        # the name hides QWidget.pos (kept: a public attribute, the place in ``ids``)
        self.pos: int = 0  # type: ignore[assignment]
        self.paper: PaperView | None = None
        self._cache: dict[int, tuple[PaperView, str]] = {}
        self._triaged: set[int] = set()
        self._session: set[int] = set()  # papers decided in this session
        self.active = False
        self._why: dict[int, list[str]] = {}  # why each paper is where the learned order put it
        self._offer: tuple[list[int], str] | None = None  # near-duplicates offered the same decision
        self._leaving: int | None = None  # the paper a decision is being recorded on, left next

        frame = QHBoxLayout(self)  # a column of readable width, centred
        frame.setContentsMargins(24, 16, 24, 12)
        column = QWidget(self)
        column.setMaximumWidth(COLUMN_WIDTH)
        frame.addStretch(1)
        frame.addWidget(column, 100)
        frame.addStretch(1)
        outer = QVBoxLayout(column)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(8)
        top = QHBoxLayout()
        self.progress = QLabel(self)
        self.progress.setObjectName("triageProgress")
        self.position = QLabel(self)
        self.position.setObjectName("hintText")
        leave = QToolButton(self)
        leave.setText(self.tr("Leave triage (Esc)"))
        leave.setObjectName("triageLeave")
        leave.clicked.connect(self.leave)
        quick = QToolButton(self)
        quick.setText(self.tr("Quick tags…"))
        quick.setObjectName("triageQuickTags")
        quick.clicked.connect(self._quick_tag_menu)
        self.quick_button = quick
        self.flash = FlashLabel(self)  # "Marked read", "Rated 4": the decision was taken
        for w in (self.progress, self.flash):
            top.addWidget(w)
        top.addStretch(1)
        top.addWidget(self.position)
        top.addSpacing(12)
        top.addWidget(quick)
        top.addWidget(leave)
        outer.addLayout(top)

        # keep / maybe / skip sit in this row under the progress line: the same place for every
        # paper, whatever the length of its title and abstract
        second = QHBoxLayout()
        self.decision = DecisionControl(self)
        self.decision.decisionChosen.connect(lambda d: self.decide(d or None))
        second.addWidget(self.decision)
        second.addSpacing(12)
        self.learned = QToolButton(self)
        self.learned.setObjectName("triageLearnedOrder")
        self.learned.setCheckable(True)
        self.learned.setText(self.tr("Most likely keeps first (o)"))
        self.learned.setToolTip(
            self.tr("Order the undecided papers by what your keeps and skips taught; off: the list's own order")
        )
        self.learned.setChecked(preferences.get_bool(window.settings, preferences.TRIAGE_LEARNED_ORDER))
        self.learned.toggled.connect(self._learned_toggled)
        second.addWidget(self.learned)
        second.addStretch(1)
        outer.addLayout(second)
        self.queue_line = QLabel(self)
        self.queue_line.setObjectName("hintText")
        self.queue_line.setTextFormat(Qt.TextFormat.PlainText)
        outer.addWidget(self.queue_line)

        self.title = QLabel(self)
        self.title.setObjectName("triageTitle")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setWordWrap(True)
        f = self.title.font()
        f.setPointSizeF(f.pointSizeF() * 1.5)
        f.setWeight(f.Weight.DemiBold)
        self.title.setFont(f)
        outer.addWidget(self.title)
        self.meta = QLabel(self)
        self.meta.setObjectName("metaLine")
        self.meta.setTextFormat(Qt.TextFormat.PlainText)
        self.meta.setWordWrap(True)
        outer.addWidget(self.meta)
        self.why = QLabel(self)
        self.why.setObjectName("hintText")
        self.why.setTextFormat(Qt.TextFormat.PlainText)
        self.why.setWordWrap(True)
        outer.addWidget(self.why)

        row, self.status, self.rating = decision_row(self, self.decide_status, self.decide_rating)
        outer.addLayout(row)

        self.tags = TagEditor(self)
        self.tags.line.setPlaceholderText(self.tr("Add tag…  (t; Enter adds it, Esc goes back)"))
        self.tags.line.setMinimumWidth(320)
        self.tags.tagsAdded.connect(self._tags_added)
        self.tags.tagRemoved.connect(self._tag_removed)
        self.tags.leaveRequested.connect(self._keys_back)  # Esc: typed text first, then back to the keys
        self.tags.line.returnPressed.connect(self._keys_back)  # after a tag, even one it already had
        outer.addWidget(self.tags)

        self.abstract = SafeTextBrowser(self)
        self.abstract.setObjectName("triageAbstract")
        self.abstract.setAccessibleName(self.tr("Abstract"))
        self.abstract.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys stay the view's
        self.abstract.setFrameShape(QFrame.Shape.NoFrame)
        big = self.abstract.font()
        big.setPointSizeF(big.pointSizeF() * ABSTRACT_SCALE)
        self.abstract.setFont(big)
        self._css()
        theme.follow(self.abstract, self._theme_changed)
        self.marked: dict[str, int] = {}
        self.abstract.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.abstract.customContextMenuRequested.connect(self._abstract_menu)
        outer.addWidget(self.abstract, 3)

        self.notes = NoteEditor(
            lambda pid, text, base: window.edits.save_note(pid, text, base, editor=self.notes),
            self,
            drafts=self.library.folder / "drafts",
        )
        self.notes.history_button.hide()
        self.notes.restoreRequested.connect(lambda pid: window.edits.restore_for_note(pid, self.notes))
        self.notes.keepAsNewRequested.connect(lambda pid: window.edits.keep_note_as_new_paper(pid, self.notes))
        self.notes.edit.installEventFilter(self)
        self.notes.hide()
        outer.addWidget(self.notes, 1)

        self.offer = QLabel(self)
        self.offer.setObjectName("triageOffer")
        self.offer.setTextFormat(Qt.TextFormat.PlainText)
        self.offer.setWordWrap(True)
        self.offer.hide()
        outer.addWidget(self.offer)

        self.keys = QLabel(self)
        self.keys.setObjectName("hintText")
        self.keys.setWordWrap(True)
        self.keys.setTextFormat(Qt.TextFormat.PlainText)
        outer.addWidget(self.keys)
        self._show_keys()

        self._prefetch_timer = QTimer(self)
        self._prefetch_timer.setSingleShot(True)
        self._prefetch_timer.setInterval(0)
        self._prefetch_timer.timeout.connect(self._prefetch)
        window.edits.changed.connect(self.on_change)
        window.files.changed.connect(self.on_change)
        self.ranker = LearnedOrder(self.library, self, owner=window.window())
        self.ranker.ranked.connect(self._ranked)

    # ---- entering and leaving ---------------------------------------------------------------
    def enter(self, only: list[int] | None = None) -> bool:
        """Triage the window's shown list, from the paper last triaged in it (else the current);
        ``only``: just these papers, in this order (the topics the user chose to walk)."""
        w = self.window_
        if only is None and w.state.trash:
            w.status_message(self.tr("Papers in the trash are not triaged: restore them first (Ctrl+Shift+R)"))
            return False
        if only is not None:
            ids = list(dict.fromkeys(only))
        else:
            if w.model.partial:
                w.load_whole_list()  # the first page only so far (start-up): the whole list now
            ids = list(w.model.ids)
        if not ids:
            w.status_message(self.tr("No papers to triage here: choose a filter with papers first"))
            return False
        w.reader.notes.flush()
        self.ids, self._ids_set = ids, set(ids)
        self._cache.clear()
        remembered = self._settings_value("paper")
        start = remembered if remembered in self._ids_set else w.current_id()
        self.pos = ids.index(start) if start is not None and start in self._ids_set else 0
        self._triaged = self.library.progress.triaged_ids()
        self._known_tags()
        writable = not self.library.read_only
        for widget in (self.status, self.rating, self.tags, self.decision):
            widget.setEnabled(writable)
        self.notes.set_read_only(not writable)
        self.active = True
        self._put("open", "1")
        if w.stack.indexOf(self) < 0:
            w.stack.addWidget(self)
        w.stack.setCurrentWidget(self)
        self._show_keys()
        self._why.clear()
        self._set_offer(None)
        self.show_current()
        self._update_progress()
        self.queue_line.setText("")
        self.ranker.rank(self.ids, self.learned.isChecked())
        self.setFocus(Qt.FocusReason.ShortcutFocusReason)
        return True

    def _known_tags(self) -> None:
        """The tag field completes from the library's tags, in their colours."""
        tags = self.library.tags.all()
        self.tags.set_known_tags([t.name for t in tags], {t.name: t.color for t in tags if t.color})

    def leave(self) -> None:
        """Back to the table, with the paper triaged last selected."""
        if not self.active:
            return
        self.notes.flush()
        self.active = False
        self._put("open", "0")
        w = self.window_
        w.stack.setCurrentWidget(w.splitter)
        if self.paper is not None:
            w.select_paper(self.paper.id)
        w.show_current(reload_note=True)
        w.table.setFocus()

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802
        self.notes.flush()  # the window closing, or another view: the note is saved now
        super().hideEvent(event)

    # ---- showing ----------------------------------------------------------------------------
    def current_id(self) -> int | None:
        return self.ids[self.pos] if 0 <= self.pos < len(self.ids) else None

    def _load(self, pid: int) -> tuple[PaperView, str] | None:
        hit = self._cache.get(pid)
        if hit is not None:
            return hit
        try:
            paper = self.library.papers.get(pid)
        except LibraryError:
            return None  # deleted meanwhile
        from desktop_app.core.text import to_html

        pair = (paper, to_html(paper.abstract))
        self._cache[pid] = pair
        return pair

    def follow_elsewhere(self) -> None:
        """Polled by the window, as the reader's note is: another program (the command line, a
        second window) changed the paper on screen. Its note follows as the reader's does (the
        "Changed elsewhere" banner over unsaved typing); its title, tags, status, rating and
        decision are shown as they now are."""
        if not self.active or self.paper is None:
            return
        pid = self.paper.id
        try:
            stored = self.library.papers.get(pid)
        except Exception:  # noqa: BLE001 - deleted, busy or closing: the next tick looks again
            return
        if (
            self.notes.paper_id() == pid
            and not self.notes.banner.isVisible()
            and stored.note != self.notes.saved_text()
        ):
            self.notes.changed_elsewhere(stored.note)
            self.notes.setVisible(True)
        shown = (self.paper.title, self.paper.tags, self.paper.status, self.paper.rating, self.paper.decision)
        if (stored.title, stored.tags, stored.status, stored.rating, stored.decision) != shown:
            self._cache.pop(pid, None)
            if self.current_id() == pid:
                self.show_current()

    def show_current(self) -> None:
        """Show the paper at ``pos`` (skipping papers deleted since triage started)."""
        while 0 <= self.pos < len(self.ids):
            pair = self._load(self.ids[self.pos])
            if pair is not None:
                break
            del self.ids[self.pos]
        else:
            self.paper = None
            self.title.setText(self.tr("Nothing left to triage in this list"))
            self.abstract.setHtml("")
            return
        paper, html = pair
        self.paper = paper
        self.title.setText(paper.title)
        self.meta.setText(self.window_.reader.meta_text(paper))
        self.status.set_status(paper.status)
        self.rating.set_rating(paper.rating)
        self.decision.set_decision(paper.decision)
        why = self._why.get(paper.id)
        self.why.setText(self.tr("Here because of: {0}").format(", ".join(why)) if why else "")
        if self.tags.tags() != paper.tags:
            self.tags.set_tags(paper.tags)
        self.abstract.setHtml(html)
        self._spacious()
        self._mark_abstract(paper)
        if self.notes.paper_id() != paper.id:
            self.notes.load(paper.id, paper.note)
            self.notes.setVisible(bool(paper.note))
        self.position.setText(self.tr("Paper {0} of {1}").format(f"{self.pos + 1:,}", f"{len(self.ids):,}"))
        self._put("paper", str(paper.id))
        self._prefetch_timer.start()

    # ---- the two-second view: word lists and the contribution sentence ---------------------
    def word_lists(self) -> tuple[list[str], list[str]]:
        """This library's include and exclude words (Settings → Triage, or the abstract's menu)."""
        s, key = self.window_.settings, self.window_.window_settings.key
        return (
            word_marks.parse_words(str(s.value(key(word_marks.INCLUDE_KEY), "") or "")),
            word_marks.parse_words(str(s.value(key(word_marks.EXCLUDE_KEY), "") or "")),
        )

    def add_word(self, word: str, include: bool) -> None:
        s, key = self.window_.settings, self.window_.window_settings.key
        name = key(word_marks.INCLUDE_KEY if include else word_marks.EXCLUDE_KEY)
        words = word_marks.parse_words(str(s.value(name, "") or ""))
        word = " ".join(word.split()).lower()
        if word and word not in words:
            s.setValue(name, ", ".join([*words, word]))
        self._cache.clear()
        if self.active:
            self.show_current()

    def _mark_abstract(self, paper: PaperView) -> None:
        include, exclude = self.word_lists()
        doc = self.abstract.document()
        self.marked = word_marks.mark_words(doc, include, exclude)
        if preferences.get_bool(self.window_.settings, preferences.TRIAGE_EMPHASIS):
            from desktop_app.core.text.titles import contribution_sentence

            word_marks.emphasise_sentence(doc, contribution_sentence(paper.abstract_text))

    def _abstract_menu(self, pos: QPoint) -> None:
        cursor = self.abstract.textCursor()
        word = cursor.selectedText().strip() if cursor.hasSelection() else ""
        if not word:
            at = self.abstract.cursorForPosition(pos)
            at.select(QTextCursor.SelectionType.WordUnderCursor)
            word = at.selectedText().strip()
        menu = self.abstract.createStandardContextMenu()
        if word and not self.library.read_only:
            menu.addSeparator()
            menu.addAction(self.tr("Colour “{0}” as an include word").format(word), lambda: self.add_word(word, True))
            menu.addAction(self.tr("Colour “{0}” as an exclude word").format(word), lambda: self.add_word(word, False))
        menu.exec(self.abstract.mapToGlobal(pos))

    def _spacious(self) -> None:
        """Lines 150% apart, for reading (a document style sheet's line-height reaches only <p>)."""
        fmt = QTextBlockFormat()
        fmt.setLineHeight(LINE_HEIGHT, QTextBlockFormat.LineHeightTypes.ProportionalHeight.value)
        cur = QTextCursor(self.abstract.document())
        cur.select(QTextCursor.SelectionType.Document)
        cur.mergeBlockFormat(fmt)

    def _prefetch(self) -> None:
        """Read the next papers before their key is pressed (and drop what lies far behind)."""
        wanted = {self.ids[i] for i in range(max(0, self.pos - 1), min(len(self.ids), self.pos + 1 + PREFETCH_AHEAD))}
        for pid in [p for p in self._cache if p not in wanted]:
            del self._cache[pid]
        for i in range(self.pos + 1, min(len(self.ids), self.pos + 1 + PREFETCH_AHEAD)):
            self._load(self.ids[i])

    def go(self, delta: int) -> None:
        new = min(max(self.pos + delta, 0), len(self.ids) - 1)
        if new == self.pos:
            if delta > 0:
                self.window_.status_message(self.tr("This is the last paper of the list"), 3000)
            return
        self.pos = new
        self.show_current()

    def go_to(self, pid: int) -> None:
        if pid in self._ids_set and pid in self.ids:
            self.pos = self.ids.index(pid)
            self.show_current()

    # ---- progress ---------------------------------------------------------------------------
    def _update_progress(self) -> None:
        triaged = self._triaged & self._ids_set
        midnight = datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
        try:
            logged = self.library.progress.decided_since(midnight)
        except Exception:  # noqa: BLE001 - a busy library: the session's count stands alone
            logged = set()
        today = len((logged | self._session) & triaged)
        self.progress.setText(
            self.tr("{0} of {1} triaged; {2} today").format(f"{len(triaged):,}", f"{len(self.ids):,}", f"{today:,}")
        )

    def on_change(self, change: Change) -> None:
        """A change (ours, its undo or redo, another view's): show it if it concerns the paper
        on screen, bring an undone paper back, keep the progress line right."""
        if not self.active:
            return
        ids = list(change.paper_ids) if change.paper_ids else None
        if ids is None:
            self._cache.clear()
            self._triaged = self.library.progress.triaged_ids()
        else:
            for pid in ids:
                self._cache.pop(pid, None)
            for pid, status in self.library.progress.statuses(ids).items():
                if status == "unread":
                    self._triaged.discard(pid)
                    self._session.discard(pid)
                else:
                    self._triaged.add(pid)
        if change.kind == ChangeKind.TAGS:
            self._known_tags()
        cur = self.current_id()
        if ids is not None and ids == [self._leaving] and ids[0] == cur:
            pass  # our own decision on the paper we are about to leave: the next one is shown next
        elif ids is not None and len(ids) == 1 and ids[0] != cur and ids[0] in self._ids_set:
            self.go_to(ids[0])  # an undo or redo of an earlier paper's decision: show that paper
        elif cur is not None and (ids is None or cur in ids):
            pair = self._load(cur)
            if pair is not None:
                paper = pair[0]
                if change.kind == ChangeKind.NOTE and self.notes.paper_id() == cur and not self.notes.dirty():
                    self.notes.load(cur, paper.note, flush=False)
                self.show_current()
        self._update_progress()

    # ---- the learned order ------------------------------------------------------------------
    def _learned_toggled(self, on: bool) -> None:
        preferences.put(self.window_.settings, preferences.TRIAGE_LEARNED_ORDER, on)
        if self.active:
            self.ranker.rank(self.ids, on)

    def _ranked(self, result: object) -> None:
        """A ranking arrived: the papers after the one on screen take its order (what was already
        shown stays where it is, so ← goes back through exactly what the user saw)."""
        if not self.active or not isinstance(result, dict):
            return
        queue = result["queue"]
        summary = queue.summary
        self._why = queue.entries.explanations()
        self.queue_line.setText(self._summary_text(summary))
        offer = result.get("near")
        if offer and offer[0] and self.paper is not None:
            self._set_offer(offer)
        if not summary.learned:  # the list's own order stays as it is
            return
        seen = self.ids[: self.pos + 1]
        seen_set = set(seen)
        rest = [pid for pid in queue.order if pid in self._ids_set and pid not in seen_set]
        known = set(rest) | seen_set
        rest += [pid for pid in self.ids[self.pos + 1 :] if pid not in known]  # added meanwhile
        if rest != self.ids[self.pos + 1 :]:
            self.ids = seen + rest
            self._prefetch_timer.start()
        cur = self.current_id()
        if cur is not None and cur in self._why and not self.why.text():
            self.why.setText(self.tr("Here because of: {0}").format(", ".join(self._why[cur])))
        self.position.setText(self.tr("Paper {0} of {1}").format(f"{self.pos + 1:,}", f"{len(self.ids):,}"))

    def _summary_text(self, s: QueueSummary) -> str:

        parts = [self.tr("{0} of {1} decided").format(i18n.number(s.decided), i18n.number(s.shown))]
        if s.seconds_left is not None and s.undecided:
            minutes = round(s.seconds_left / 60)
            left = (
                self.tr("about {0} h {1} min left at your pace of the last {2}").format(minutes // 60, minutes % 60, 50)
                if minutes >= 60
                else self.tr("about {0} min left at your pace of the last {1}").format(max(minutes, 1), 50)
            )
            parts.append(left)
        if s.likely_keeps is not None and s.undecided:
            parts.append(self.tr("about {0} likely keeps remain").format(i18n.number(round(s.likely_keeps))))
        if not s.learned and s.message:
            parts.append(
                self.tr("list order until there is at least one keep and one skip")
                if "one keep" in s.message
                else self.tr("list order")
            )
        return " · ".join(parts)

    def _set_offer(self, offer: tuple[list[int], str] | None) -> None:

        self._offer = offer
        if not offer:
            self.offer.hide()
            return
        ids, decision = offer
        self.offer.setText(
            self.tr("{0} near-duplicate(s) of the paper you just decided: press d to decide them {1} too").format(
                len(ids), i18n.decision_word(decision)
            )
        )
        self.offer.show()

    def apply_offer(self) -> None:
        """d: the offered near-duplicates get the same decision (one undo step)."""
        if self._offer is None or self.library.read_only:
            return
        ids, decision = self._offer
        self._set_offer(None)
        self.window_.edits.set_decision(decision, ids)
        self._session.update(ids)

    def decision_keys(self) -> dict[str, str]:
        """{"keep": "y", "maybe": "m", "skip": "x"} from Settings (single lower-case letters)."""
        keys = preferences.get_list(self.window_.settings, preferences.TRIAGE_DECISION_KEYS)
        default = list(preferences.TRIAGE_DECISION_KEYS.default)  # type: ignore[call-overload]
        keys = [(k or "").strip().lower()[:1] for k in keys] if len(keys) == 3 else default
        if len(set(keys)) < 3 or any(not k or not k.isalpha() or k in RESERVED_KEYS for k in keys):
            keys = default
        return dict(zip(("keep", "maybe", "skip"), keys, strict=True))

    def decide(self, decision: str | None) -> None:
        """keep / maybe / skip (None clears) for the paper on screen, then the next one at once;
        the ranking is redone in the background."""

        pid = self.current_id()
        if pid is None or self.library.read_only:
            return
        self._session.add(pid)
        self._set_offer(None)
        advance = preferences.get_bool(self.window_.settings, preferences.TRIAGE_ADVANCE)
        self._leaving = pid if advance else None  # on_change need not redraw it
        try:
            self.window_.edits.set_decision(decision, [pid])
        finally:
            self._leaving = None
        if not advance:
            self.decision.set_decision(decision)
        self.flash.flash(self.tr("✓ {0}").format(i18n.decision_label(decision)))
        self.ranker.rank(self.ids, self.learned.isChecked(), decided=(pid, decision))
        self._after_decision()

    # ---- decisions --------------------------------------------------------------------------
    def _after_decision(self) -> None:
        if preferences.get_bool(self.window_.settings, preferences.TRIAGE_ADVANCE):
            self.go(1)

    def decide_status(self, status: str) -> None:
        pid = self.current_id()
        if pid is None or self.library.read_only:
            return
        if status != "unread":
            self._session.add(pid)
        self.window_.edits.set_status(status, [pid])
        self.flash.flash(self.tr("Marked {0}").format(i18n.status_word(status)))
        self._after_decision()

    def decide_rating(self, rating: int) -> None:
        pid = self.current_id()
        if pid is None or self.library.read_only:
            return
        self.window_.edits.set_rating(rating, [pid])
        self.flash.flash(self.tr("Rated {0}").format(rating))
        self._after_decision()

    def _tags_added(self, names: list[str]) -> None:
        pid = self.current_id()
        if pid is not None:
            self.window_.edits.add_tags([pid], names)
        self._keys_back()

    def _keys_back(self) -> None:
        self.setFocus(Qt.FocusReason.OtherFocusReason)

    def _tag_removed(self, name: str) -> None:
        pid = self.current_id()
        if pid is not None:
            self.window_.edits.remove_tag([pid], name)

    def quick_tag(self, slot: int) -> None:
        """Alt+``slot``: add its tag (a free key asks which tag to put on it first)."""
        pid = self.current_id()
        if pid is None:
            return
        names = quick_tags(self.window_.settings)
        name = names[slot - 1]
        if not name:
            name = self.assign_quick_tag(slot)
            if not name:
                return
        if self.paper is not None and name.lower() in {t.lower() for t in self.paper.tags}:
            self.window_.status_message(self.tr("Already tagged “{0}”").format(name), 3000)
            return
        self.window_.edits.add_tags([pid], [name])

    def assign_quick_tag(self, slot: int) -> str:
        """Ask for the tag of Alt+``slot``; "" when cancelled."""
        names = quick_tags(self.window_.settings)
        known = sorted(t.name for t in self.library.tags.all())
        name, ok = QInputDialog.getItem(
            self,
            self.tr("Quick tag"),
            self.tr("Tag for Alt+{0}:").format(slot),
            [names[slot - 1]] + known if names[slot - 1] else known,
            0,
            True,
        )
        name = " ".join(name.split()) if ok else ""
        if ok:
            self.set_quick_tag(slot, name)
        return name

    def set_quick_tag(self, slot: int, name: str) -> None:
        names = quick_tags(self.window_.settings)
        names[slot - 1] = name
        preferences.put(self.window_.settings, preferences.TRIAGE_QUICK_TAGS, names)
        self._show_keys()

    def _quick_tag_menu(self) -> None:
        menu = QMenu(self)
        for slot, name in enumerate(quick_tags(self.window_.settings), 1):
            label = self.tr("Alt+{0}: {1}").format(slot, name) if name else self.tr("Alt+{0}: (free)").format(slot)
            menu.addAction(label.replace("&", "&&"), lambda s=slot: self.assign_quick_tag(s))
        menu.exec(self.quick_button.mapToGlobal(self.quick_button.rect().bottomLeft()))

    # ---- keys -------------------------------------------------------------------------------
    def _show_keys(self) -> None:
        keys = self.decision_keys()
        self.decision.set_keys(keys)
        text = self.tr(
            "{0} keep · {1} maybe · {2} skip · o learned order · e emphasis · u unread · s skimmed · r read · "
            "0–5 rate · t tag · n note · Space, j or → next · k or ← previous · Esc leave"
        ).format(keys["keep"], keys["maybe"], keys["skip"])
        quick = [
            self.tr("Alt+{0} {1}").format(n, name)
            for n, name in enumerate(quick_tags(self.window_.settings), 1)
            if name
        ]
        if quick:
            text += "\n" + self.tr("Quick tags: {0}").format(" · ".join(quick))
        self.keys.setText(text)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        key, mods = event.key(), event.modifiers()
        alt = Qt.KeyboardModifier.AltModifier
        plain = not (mods & ~Qt.KeyboardModifier.KeypadModifier)
        if mods == alt and Qt.Key.Key_1 <= key <= Qt.Key.Key_9:
            self.quick_tag(key - Qt.Key.Key_0)
        elif not plain:
            super().keyPressEvent(event)
        elif key in (Qt.Key.Key_Space, Qt.Key.Key_Right, Qt.Key.Key_J):
            self.go(1)
        elif key in (Qt.Key.Key_Left, Qt.Key.Key_K):
            self.go(-1)
        elif event.text().lower() in (keys := {v: k for k, v in self.decision_keys().items()}):
            self.decide(keys[event.text().lower()])
        elif key == Qt.Key.Key_O:
            self.learned.toggle()
        elif key == Qt.Key.Key_E:
            on = not preferences.get_bool(self.window_.settings, preferences.TRIAGE_EMPHASIS)
            preferences.put(self.window_.settings, preferences.TRIAGE_EMPHASIS, on)
            self._cache.clear()
            self.show_current()
        elif key == Qt.Key.Key_D and self._offer is not None:
            self.apply_offer()
        elif key in STATUS_KEYS:
            self.decide_status(STATUS_KEYS[key])
        elif Qt.Key.Key_0 <= key <= Qt.Key.Key_5:
            self.decide_rating(key - Qt.Key.Key_0)
        elif key == Qt.Key.Key_T:
            self.tags.line.clear()  # a new tag starts from an empty field
            self.tags.line.setFocus(Qt.FocusReason.ShortcutFocusReason)
        elif key == Qt.Key.Key_N:
            self.notes.show()
            self.notes.focus_editor()
        elif key == Qt.Key.Key_Escape:
            self.leave()
        elif key in (Qt.Key.Key_PageDown, Qt.Key.Key_PageUp, Qt.Key.Key_Down, Qt.Key.Key_Up):
            bar = self.abstract.verticalScrollBar()
            step = bar.pageStep() if key in (Qt.Key.Key_PageDown, Qt.Key.Key_PageUp) else bar.singleStep()
            bar.setValue(bar.value() + (step if key in (Qt.Key.Key_PageDown, Qt.Key.Key_Down) else -step))
        else:
            super().keyPressEvent(event)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.KeyPress and event.key() == Qt.Key.Key_Escape:  # type: ignore[attr-defined]
            if obj is self.notes.edit:
                self.notes.flush()
                self.notes.setVisible(bool(self.notes.edit.toPlainText().strip()))
                self.setFocus(Qt.FocusReason.OtherFocusReason)
                return True
        return super().eventFilter(obj, event)

    # ---- look -------------------------------------------------------------------------------
    def _css(self) -> None:
        self.abstract.document().setDefaultStyleSheet(TRIAGE_CSS + theme.document_css(theme.colors()))

    def _theme_changed(self) -> None:
        self._css()
        self._cache.clear()
        if self.active:
            self.show_current()

    # ---- remembered per library -------------------------------------------------------------
    def _settings_value(self, name: str) -> int | None:
        value = self.window_.settings.value(self.window_.window_settings.key(f"triage/{name}"))
        return int(value) if value not in (None, "") and str(value).isdigit() else None

    def _put(self, name: str, value: str) -> None:
        self.window_.settings.setValue(self.window_.window_settings.key(f"triage/{name}"), value)


class TriageController(QObject):
    """The View menu's entry; builds the view on first use."""

    def __init__(self, window: WindowLike) -> None:
        super().__init__(window.window())
        self.window_ = window
        self.view: TriageView | None = None

    def enter(self, only: list[int] | None = None) -> bool:
        if self.view is None:
            self.view = TriageView(self.window_)
        return self.view.enter(only)

    def toggle(self) -> None:
        if self.view is not None and self.view.active:
            self.view.leave()
        else:
            self.enter()

    def resume_if_open(self) -> None:
        """The last session ended in triage: open it again (after the first paint)."""
        w = self.window_
        if str(w.settings.value(w.window_settings.key("triage/open"), "0")) == "1":
            QTimer.singleShot(0, self.enter)


def install(window: WindowLike, menu: QMenu) -> TriageController:
    """View → Triage, and the resume of an unfinished triage."""
    ctl = TriageController(window)
    action = QAction(QCoreApplication.translate("MainWindow", "&Triage"), window.window())
    action.setObjectName("triageAction")
    action.setShortcut(QKeySequence(TRIAGE_SHORTCUT))
    action.triggered.connect(lambda _=False: ctl.toggle())
    menu.addAction(action)
    ctl.action = action  # type: ignore[attr-defined]
    ctl.resume_if_open()
    return ctl


def screenshot_view(window: WindowLike) -> QWidget:
    """Triage mode on the window's list, at its first paper, with two quick tags assigned."""
    ctl = window.triage
    names = quick_tags(window.settings)
    if not any(names):
        names[0], names[1] = "to-read", "rl"
        preferences.put(window.settings, preferences.TRIAGE_QUICK_TAGS, names)
    ctl.enter()
    assert ctl.view is not None
    return window.window()
