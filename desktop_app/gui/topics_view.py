"""View → Topics: the shown list grouped into topics (``lib.topics``), computed in a worker,
each with its distinctive words, size and decisions; a topic's undecided papers can be kept,
marked maybe or skipped at once (the count is asked first; one undo step), a topic saved as
the tag ``topics/<name>``, or shown in the table or on the map (``paper_map.py``). A topic's name
can be changed (F2, a double-click on it, or Rename…): the new name is the tag's and the map's,
in this and later sessions (``topic_names.py``).

Names and words come from the papers' own texts and are shown as plain text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_app.gui import i18n
from desktop_app.gui.jobs import SerialJob
from desktop_app.gui.topic_names import remember, user_names

if TYPE_CHECKING:
    from collections.abc import Callable

    from desktop_app.core.insights.topics import Topic, TopicSet
    from desktop_app.core.library import Library
    from desktop_app.gui.window_protocol import WindowLike

MAX_COUNT = 40


class _NameOnly(QStyledItemDelegate):
    """Edits a topic's name (the first column) and nothing else."""

    # None: no editor, as Qt takes it (the stub says a QWidget is returned)
    def createEditor(  # type: ignore[override]  # noqa: N802
        self, parent: QWidget, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QWidget | None:
        if index.column() != 0:
            return None
        return super().createEditor(parent, option, index)


class TopicsDialog(QDialog):
    def __init__(self, window: WindowLike) -> None:
        super().__init__(window.window())
        self.setObjectName("topicsDialog")
        self.setWindowTitle(self.tr("Topics"))
        self.window_ = window
        self.resize(900, 560)
        self.topics: TopicSet | None = None
        self.worker = SerialJob(self)  # one computation at a time; a request meanwhile runs after it
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        self.summary = QLabel(self)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        top.addWidget(self.summary, 1)
        top.addWidget(QLabel(self.tr("Topics:"), self))
        self.count = QSpinBox(self)
        self.count.setObjectName("topicCount")
        self.count.setRange(0, MAX_COUNT)
        self.count.setSpecialValueText(self.tr("chosen by Marginalia"))
        self.count.setAccessibleName(self.tr("Number of topics"))
        top.addWidget(self.count)
        self.recompute = QPushButton(self.tr("&Recompute"), self)
        self.recompute.clicked.connect(self.compute)
        top.addWidget(self.recompute)
        lay.addLayout(top)

        self.tree = QTreeWidget(self)
        self.tree.setObjectName("topicList")
        self.tree.setRootIsDecorated(False)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.setHeaderLabels(
            [
                self.tr("Topic"),
                self.tr("Distinctive words"),
                self.tr("Papers"),
                i18n.decision_label("keep"),
                i18n.decision_label("maybe"),
                i18n.decision_label("skip"),
                i18n.decision_label(None),
            ]
        )
        self.tree.setColumnWidth(0, 220)
        self.tree.setColumnWidth(1, 360)
        for col in range(2, 7):
            self.tree.setColumnWidth(col, 64)
        self.tree.itemSelectionChanged.connect(self._selection_changed)
        self.tree.itemActivated.connect(lambda *_: self.show_papers())
        self.tree.setItemDelegate(_NameOnly(self.tree))
        self.tree.setEditTriggers(
            QAbstractItemView.EditTrigger.EditKeyPressed | QAbstractItemView.EditTrigger.DoubleClicked
        )
        self.tree.itemChanged.connect(self._renamed)
        lay.addWidget(self.tree, 1)

        buttons = QHBoxLayout()
        self.decide_buttons: dict[str, QPushButton] = {}
        for value, label in (
            ("keep", self.tr("&Keep its undecided…")),
            ("maybe", self.tr("&Maybe its undecided…")),
            ("skip", self.tr("&Skip its undecided…")),
        ):
            b = QPushButton(label, self)
            b.setObjectName(f"topicDecide_{value}")
            b.clicked.connect(lambda _=False, v=value: self.decide(v))
            buttons.addWidget(b)
            self.decide_buttons[value] = b
        self.tag_button = QPushButton(self.tr("Save as &tag…"), self)
        self.tag_button.clicked.connect(self.save_as_tag)
        self.show_button = QPushButton(self.tr("Show its &papers"), self)
        self.show_button.clicked.connect(self.show_papers)
        self.triage_button = QPushButton(self.tr("T&riage the chosen topics"), self)
        self.triage_button.setObjectName("topicTriage")
        self.triage_button.setToolTip(
            self.tr("Walk only the papers of the selected topics (Ctrl+click chooses several), most likely keeps first")
        )
        self.triage_button.clicked.connect(self.triage_chosen)
        self.rename_button = QPushButton(self.tr("Re&name…"), self)
        self.rename_button.setToolTip(self.tr("Give the topic a name of your own (F2); kept for this session"))
        self.rename_button.clicked.connect(self.rename)
        self.map_button = QPushButton(self.tr("On the m&ap"), self)
        self.map_button.setObjectName("topicMap")
        self.map_button.setToolTip(self.tr("Show these topics' papers as a map"))
        self.map_button.clicked.connect(self.show_map)
        buttons.addStretch(1)
        buttons.addWidget(self.rename_button)
        buttons.addWidget(self.map_button)
        buttons.addWidget(self.tag_button)
        buttons.addWidget(self.show_button)
        buttons.addWidget(self.triage_button)
        lay.addLayout(buttons)
        self._selection_changed()
        window.edits.changed.connect(self._library_changed)

    # ---- computing ---------------------------------------------------------------------------
    def compute(self) -> None:
        """Topics of the window's shown list, in a worker (a second request waits for the first)."""
        ids = list(self.window_.model.ids)
        k = self.count.value() or None
        library = self.window_.library
        if self.worker.start(
            lambda _p, cancelled: topics_of(library, ids, k, cancelled), self._done, self._failed, again=self.compute
        ):
            self.summary.setText(self.tr("Finding the topics of {0}…").format(i18n.papers(len(ids))))

    def busy(self) -> bool:
        return self.worker.busy()

    def _failed(self, message: str) -> None:
        self.summary.setText(self.tr("No topics: {0}").format(message.splitlines()[0]))

    def _done(self, result: object) -> None:
        selected = self.selected()
        self.topics = result  # type: ignore[assignment]
        ts = self.topics
        assert ts is not None
        ts.keep_names(user_names(self.window_.window()))
        self.tree.blockSignals(True)
        self.tree.clear()
        for t in ts.topics:
            d = t.decisions
            item = QTreeWidgetItem(
                [
                    t.name,
                    ", ".join(t.words),
                    i18n.number(t.size),
                    *(i18n.number(d.get(k, 0)) for k in ("keep", "maybe", "skip", "undecided")),
                ]
            )
            item.setData(0, Qt.ItemDataRole.UserRole, t.number)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
            item.setToolTip(0, self.tr("F2 or a double-click renames the topic"))
            for col in range(2, 7):
                item.setTextAlignment(col, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.tree.addTopLevelItem(item)
            if selected is not None and t.name == selected.name:
                self.tree.setCurrentItem(item)
        if ts.topics and self.tree.currentItem() is None:
            self.tree.setCurrentItem(cast(QTreeWidgetItem, self.tree.topLevelItem(0)))  # the first topic's
        self.tree.blockSignals(False)
        self._selection_changed()
        if ts.topics:
            text = self.tr("{0} topics in {1}").format(len(ts.topics), i18n.papers(ts.papers))
            if ts.chosen:
                text += self.tr(" (the number chosen by Marginalia; set one on the right)")
        else:
            text = ts.message or self.tr("No topics here")
        self.summary.setText(text)

    def _library_changed(self, _change: object) -> None:
        if self.isVisible() and self.topics is not None:
            self.compute()  # decisions and tags change the counts

    # ---- acting on a topic -------------------------------------------------------------------
    def selected(self) -> Topic | None:
        item = self.tree.currentItem()
        if item is None or self.topics is None:
            return None
        number = item.data(0, Qt.ItemDataRole.UserRole)
        return next((t for t in self.topics.topics if t.number == number), None)

    def _selection_changed(self) -> None:
        topic = self.selected()
        writable = not self.window_.library.read_only
        for b in (*self.decide_buttons.values(), self.tag_button):
            b.setEnabled(topic is not None and writable)
        self.show_button.setEnabled(topic is not None)
        self.triage_button.setEnabled(topic is not None)
        self.rename_button.setEnabled(topic is not None)
        self.map_button.setEnabled(bool(self.topics is not None and self.topics.topics))

    # ---- names ---------------------------------------------------------------------------------
    def rename(self) -> None:
        """Edit the current topic's name in place (as F2 does)."""
        item = self.tree.currentItem()
        if item is not None:
            self.tree.setFocus()
            self.tree.editItem(item, 0)

    def _renamed(self, item: QTreeWidgetItem, column: int) -> None:
        if column != 0 or self.topics is None:
            return
        from desktop_app.core.errors import LibraryError

        number = item.data(0, Qt.ItemDataRole.UserRole)
        topic = next((t for t in self.topics.topics if t.number == number), None)
        if topic is None or item.text(0) == topic.name:
            return
        try:
            self.topics.rename(number, item.text(0))
        except LibraryError as exc:
            self.window_.status_message(self.tr("Not renamed: {0}").format(str(exc)))
        remember(self.window_.window(), self.topics)  # for the map, a recomputation and later sessions
        self.tree.blockSignals(True)
        item.setText(0, topic.name)  # the name kept (blanks folded), or the old one when refused
        self.tree.blockSignals(False)
        from desktop_app.gui.paper_map import MapDialog

        view = self.window_.window().findChild(MapDialog)
        if view is not None:
            view.refresh_names()

    def show_map(self) -> None:
        """The map of these topics' papers, with their names as they are here."""
        if self.topics is None or not self.topics.topics:
            return
        from desktop_app.gui.paper_map import show_map

        show_map(self.window_, self.topics)

    def decide(self, value: str) -> None:
        topic = self.selected()
        if topic is None:
            return
        n = len(self.window_.library.topics.undecided(topic))
        if n == 0:
            self.window_.status_message(self.tr("Every paper of “{0}” is decided already").format(topic.name))
            return
        answer = QMessageBox.question(
            self,
            self.tr("Decide a topic"),
            self.tr("Decide {0} of “{1}” {2}? Papers decided before keep their decision; Ctrl+Z undoes it.").format(
                i18n.papers(n), topic.name, i18n.decision_word(value)
            ),
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        self.window_.edits.decide_topic(topic, value)

    def save_as_tag(self) -> None:
        topic = self.selected()
        if topic is None:
            return
        name, ok = QInputDialog.getText(
            self, self.tr("Save topic as tag"), self.tr("Tag (under topics/):"), text=topic.name
        )
        if ok and name.strip():
            self.window_.edits.add_tags(list(topic.ids), [f"topics/{' '.join(name.replace('/', ' ').split())}"])

    def chosen(self) -> list[Topic]:
        """The selected topics (several with Ctrl+click)."""
        if self.topics is None:
            return []
        numbers = {it.data(0, Qt.ItemDataRole.UserRole) for it in self.tree.selectedItems()}
        return [t for t in self.topics.topics if t.number in numbers]

    def triage_chosen(self) -> None:
        """Triage only the papers of the chosen topics, in the list's order (the learned order
        takes over once it has a keep and a skip)."""
        topics = self.chosen() or ([cast("Topic", self.selected())] if self.selected() is not None else [])
        wanted = {pid for t in topics for pid in t.ids if t is not None}
        if not wanted:
            return
        order = [pid for pid in self.window_.model.ids if pid in wanted]
        order += sorted(wanted - set(order))
        if self.window_.triage.enter(order):
            self.hide()

    def show_papers(self) -> None:
        """Select the topic's papers in the table (the bulk panel then acts on them)."""
        topic = self.selected()
        if topic is not None:
            self.window_.table.select_ids(list(topic.ids))


def topics_of(library: Library, ids: list[int], k: int | None, cancelled: Callable[[], bool]) -> TopicSet:
    """The topics of ``ids`` (in a worker): a large list in a child process, whose long calls
    holding the GIL cannot freeze the window (``core/insights/child_worker.py``)."""
    from desktop_app.core.insights import child_worker

    if child_worker.in_child_process(len(ids)):
        return child_worker.topics_in_child(child_worker.location_of(library), ids, k, cancelled)
    return library.topics.of(ids, k)


def show_topics(window: WindowLike) -> TopicsDialog:
    """Open (or bring back) the topics of the shown list, computed anew."""
    dialog = window.window().findChild(TopicsDialog)
    if dialog is None:
        dialog = TopicsDialog(window)
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    dialog.compute()
    return dialog
