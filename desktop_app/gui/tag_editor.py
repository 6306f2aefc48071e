"""Tag chips with an entry line: autocomplete from existing tags, create on Enter.

Esc in the line first takes back what was typed; Esc in an empty line asks to leave it
(``leaveRequested``: the window gives the keys back to the table, triage to its view)."""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import QEvent, QObject, QStringListModel, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QCompleter, QLineEdit, QToolButton, QWidget

from desktop_app.gui import theme
from desktop_app.gui.flow_layout import FlowLayout
from desktop_app.gui.theme import chip_colors


class TagEditor(QWidget):
    tagsAdded = Signal(list)  # noqa: N815
    tagRemoved = Signal(str)  # noqa: N815
    tagClicked = Signal(str)  # noqa: N815
    leaveRequested = Signal()  # noqa: N815  Esc in the empty line

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tagEditorBox")
        self._layout = FlowLayout(self)
        self._chips: list[QToolButton] = []
        self._tags: list[str] = []
        self._colors: dict[str, str] = {}
        theme.follow(self, lambda: self.set_tags(self._tags))  # a neutral chip's colours are the theme's
        self.line = QLineEdit(self)
        self.line.setObjectName("tagEditor")
        self.line.setAccessibleName(self.tr("Add tag"))
        self.line.setPlaceholderText(self.tr("Add tag…  (Enter; a/b for a child tag)"))
        self.line.setMinimumWidth(200)
        self.line.setClearButtonEnabled(True)
        self._model = QStringListModel(self)
        comp = QCompleter(self._model, self)
        comp.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        comp.setFilterMode(Qt.MatchFlag.MatchContains)
        self.line.setCompleter(comp)
        # a chosen suggestion is the tag: add it and empty the box (the completer writes the
        # suggestion into the box after this signal: _choose empties it once more at once)
        comp.activated[str].connect(self._choose)  # type: ignore[index]  # the stub omits a signal's overloads
        self.line.returnPressed.connect(self._commit)
        self._written_back: str | None = None  # a chosen suggestion, until the line edit writes it
        self.line.textChanged.connect(self._take_back)
        self.line.installEventFilter(self)
        self._layout.addWidget(self.line)

    def set_known_tags(self, names: list[str], colors: dict[str, str]) -> None:
        self._model.setStringList(names)
        self._colors = colors

    def tags(self) -> list[str]:
        return list(self._tags)

    def set_tags(self, tags: list[str]) -> None:
        for chip in self._chips:
            self._layout.removeWidget(chip)
            chip.hide()  # at once: deleteLater waits for the event loop
            chip.deleteLater()
        self._chips = []
        self._tags = list(tags)
        self._layout.removeWidget(self.line)
        for name in tags:
            chip = QToolButton(self)
            chip.setText(f"{name}  ✕")
            chip.setObjectName("tagChip")
            chip.setAccessibleName(self.tr("Tag {0}; press to remove").format(name))
            chip.setToolTip(self.tr("Remove tag “{0}”").format(name))
            bg, fg = chip_colors(self._colors.get(name, ""))
            chip.setStyleSheet(
                f"QToolButton#tagChip {{ background: {bg}; color: {fg}; border-radius: 10px;"
                " padding: 2px 8px; border: none; }"
            )
            chip.clicked.connect(lambda _=False, n=name: self.tagRemoved.emit(n))
            self._layout.addWidget(chip)
            self._chips.append(chip)
        self._layout.addWidget(self.line)
        self.updateGeometry()

    def _choose(self, name: str) -> None:
        self.line.completer().popup().hide()
        self.line.setText(name)
        self._commit()
        # the line edit writes the suggestion into the box right after this signal: that text
        # is taken back as it comes (a clear a turn later ate what was typed meanwhile, such as
        # the next tag's first letter)
        self._written_back = name
        QTimer.singleShot(0, self._forget_write_back)

    def _take_back(self, text: str) -> None:
        if self._written_back is not None and text == self._written_back:
            self._written_back = None
            self.line.clear()

    def _forget_write_back(self) -> None:
        self._written_back = None

    def _commit(self) -> None:
        popup = self.line.completer().popup()
        if popup.isVisible() and popup.currentIndex().isValid():
            return  # Return on a highlighted suggestion: the completer's activated adds it (_choose)
        text = self.line.text().strip()
        if not text:
            return
        names = [t.strip() for t in text.split(",") if t.strip()]
        self.line.clear()
        popup.hide()  # an open list would keep taking the keys after the focus moves on
        new = [n for n in names if n.lower() not in {t.lower() for t in self._tags}]
        if new:
            self.tagsAdded.emit(new)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if obj is self.line and event.type() == QEvent.Type.KeyPress:
            event = cast(QKeyEvent, event)  # a KeyPress is one
            if event.key() == Qt.Key.Key_Backspace and not self.line.text() and self._tags:
                self.tagRemoved.emit(self._tags[-1])
                return True
            if event.key() == Qt.Key.Key_Escape:
                if self.line.text():
                    self.line.clear()  # first Esc: what was typed goes; the second leaves
                else:
                    self.leaveRequested.emit()
                return True
        return super().eventFilter(obj, event)
