"""Keep / Maybe / Skip as a segmented control: the triage decision of a paper.

Pressing the checked button again clears the decision (undecided). The keys it names are the
triage view's (``preferences.TRIAGE_DECISION_KEYS``, remappable in Settings).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QToolButton, QWidget

from desktop_app.core.store.column_types import DECISIONS
from desktop_app.gui import i18n


class DecisionControl(QWidget):
    decisionChosen = Signal(str)  # noqa: N815 - "keep" / "maybe" / "skip", "" to clear

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("decisionControl")
        self.setAccessibleName(self.tr("Decision"))
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        self.buttons: dict[str, QToolButton] = {}
        self._value: str | None = None
        for decision in DECISIONS:
            b = QToolButton(self)
            b.setCheckable(True)
            b.setObjectName(f"decision_{decision}")
            b.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            b.clicked.connect(lambda _=False, d=decision: self._clicked(d))
            lay.addWidget(b)
            self.buttons[decision] = b
        self.set_keys({})

    def set_keys(self, keys: dict[str, str]) -> None:
        """Label each button with its key: "Keep (y)"."""
        for decision, b in self.buttons.items():
            label = i18n.decision_label(decision)
            key = keys.get(decision, "")
            b.setText(self.tr("{0} ({1})").format(label, key) if key else label)
            b.setToolTip(self.tr("Decide {0}; press again to clear").format(i18n.decision_word(decision)))

    def decision(self) -> str | None:
        return self._value

    def set_decision(self, decision: str | None) -> None:
        """Show a decision without emitting ``decisionChosen``."""
        self._value = decision if decision in self.buttons else None
        for d, b in self.buttons.items():
            b.setChecked(d == self._value)

    def _clicked(self, decision: str) -> None:
        new = None if decision == self._value else decision
        self.set_decision(new)
        self.decisionChosen.emit(new or "")
