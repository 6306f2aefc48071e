"""Tag suggestion chips under the reader's tag editor: "+ rl/ppo  Alt+Shift+1"; a click or the
key adds the tag (through the reader's ``tagsAdded``: one undoable edit). The chips are one Tab
stop after the tag field (``focus_order``): ←/→ move between them, Enter adds. Filled by
``related_panel.SimilarWork`` from ``core.insights.tag_suggest`` in a worker."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QLabel, QToolButton, QWidget

from desktop_app.core.insights.tag_suggest import SHOWN, TagSuggestion
from desktop_app.gui import theme
from desktop_app.gui.arrow_keys import ArrowGroup
from desktop_app.gui.flow_layout import FlowLayout

KEY = "Alt+Shift+{0}"  # Alt+Shift+1 … 5: free in the window (Shift+1…5 highlight, Alt+1…9 quick tags in triage)


class SuggestionChips(QWidget):
    accepted = Signal(int, str)  # paper id, tag name
    focusLost = Signal()  # noqa: N815 - the focused chip went and no chip is left

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tagSuggestions")
        self._layout = FlowLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel(self.tr("Suggested:"), self)
        self.label.setObjectName("hintText")
        self._layout.addWidget(self.label)
        self.chips: list[QToolButton] = []
        self.keys = ArrowGroup(self, lambda: list(self.chips))  # one Tab stop; ←/→, Enter adds (no mouse needed)
        self._pid: int | None = None
        self._names: list[str] = []
        for n in range(1, SHOWN + 1):
            sc = QShortcut(QKeySequence(KEY.format(n)), self)
            sc.setContext(Qt.ShortcutContext.WindowShortcut)  # only while the chips are visible
            sc.activated.connect(lambda n=n: self.accept(n))
        theme.follow(self, self._restyle)
        self.hide()

    def show_suggestions(self, pid: int | None, suggestions: list[TagSuggestion]) -> None:
        had_focus = any(c.hasFocus() for c in self.chips)
        if had_focus:  # a focused chip hidden would pass the focus on along the window's chain
            self.label.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            self.label.setFocus(Qt.FocusReason.OtherFocusReason)
        for chip in self.chips:
            self._layout.removeWidget(chip)
            chip.hide()
            chip.deleteLater()
        self.chips = []
        self._pid = pid
        self._names = [s.name for s in suggestions[:SHOWN]]
        for n, s in enumerate(suggestions[:SHOWN], 1):
            key = QKeySequence(KEY.format(n)).toString(QKeySequence.SequenceFormat.NativeText)
            chip = QToolButton(self)
            chip.setObjectName("tagSuggestion")
            chip.setText(f"+ {s.name}  {key}".replace("&", "&&"))
            chip.setAccessibleName(self.tr("Add suggested tag {0}").format(s.name))
            chip.setToolTip(self.tr("Add the tag “{0}” (suggested from {1})").format(s.name, self._why(s.why)))
            chip.clicked.connect(lambda _=False, k=n: self.accept(k))
            self.keys.watch(chip)
            self._layout.addWidget(chip)
            self.chips.append(chip)
        if self.chips:  # the label on the chips' middle line (the flow layout aligns tops)
            self.label.setFixedHeight(self.chips[0].sizeHint().height())
            self.label.setAlignment(Qt.AlignmentFlag.AlignVCenter)
        self._restyle()
        if had_focus:  # the keys were on a chip: the first new chip takes them, else the tag field
            if self.chips:
                self.chips[0].setFocus(Qt.FocusReason.OtherFocusReason)
            else:
                self.focusLost.emit()
            self.label.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setVisible(bool(self.chips))

    def _why(self, why: str) -> str:
        return {
            "similar papers": self.tr("similar papers"),
            "key terms": self.tr("its key terms"),
            "similar papers and key terms": self.tr("similar papers and its key terms"),
        }.get(why, why)

    def accept(self, n: int) -> None:
        """Add suggestion ``n`` (1-based) to the paper it was made for."""
        if self._pid is None or not 1 <= n <= len(self._names) or not self.isVisible():
            return
        name = self._names[n - 1]
        self.accepted.emit(self._pid, name)

    def _restyle(self) -> None:
        k = theme.colors()
        self.setStyleSheet(
            f"QToolButton#tagSuggestion {{ background: transparent; color: {k.text}; border: 1px dashed {k.border};"
            " border-radius: 10px; padding: 2px 8px; }"
            f"QToolButton#tagSuggestion:hover {{ background: {k.chip}; color: {k.chip_text}; }}"
            "QToolButton#tagSuggestion:focus { border: 2px solid palette(highlight); }"
        )
