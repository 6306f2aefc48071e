"""The metadata editor's field-by-field choice (as JabRef's merge dialog offers it): when another
program or desk changed some of the fields being edited, each such field shows both values,
theirs and mine, and the user keeps one of each (mine by default); Save then writes the choice.

Values come from imported files and other people's edits: they are shown as plain text only."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QButtonGroup, QGroupBox, QLabel, QRadioButton, QVBoxLayout, QWidget

from desktop_app.gui.i18n import QT_TRANSLATE_NOOP

SHOWN_CHARS = 400  # a long abstract is cut here in the choice (the whole text is what is kept)

FIELD_LABELS = {  # the fields as the editor's form names them
    "title": QT_TRANSLATE_NOOP("FieldChoices", "Title"),
    "authors": QT_TRANSLATE_NOOP("FieldChoices", "Authors"),
    "venue": QT_TRANSLATE_NOOP("FieldChoices", "Venue"),
    "year": QT_TRANSLATE_NOOP("FieldChoices", "Year"),
    "doi": "DOI",
    "arxiv_id": QT_TRANSLATE_NOOP("FieldChoices", "arXiv id"),
    "url": "URL",
    "entry_type": QT_TRANSLATE_NOOP("FieldChoices", "Entry type"),
    "citation_key": QT_TRANSLATE_NOOP("FieldChoices", "Citation key"),
    "abstract": QT_TRANSLATE_NOOP("FieldChoices", "Abstract"),
}


def shown_value(value: object) -> str:
    """A field's value as one line of plain text: authors joined, nothing as "(empty)"."""
    if isinstance(value, list):
        text = "; ".join(str(v) for v in value)
    else:
        text = "" if value is None else str(value)
    text = " ".join(text.split())
    return text[:SHOWN_CHARS] + ("…" if len(text) > SHOWN_CHARS else "")


class FieldChoices(QWidget):
    """One group per conflicting field: "Theirs: …" and "Mine: …", mine checked."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("metadataChoices")
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._fields: dict[str, tuple[object, QRadioButton]] = {}  # field -> (theirs, its button)
        self.hide()

    def ask(self, fields: dict[str, tuple[object, object]]) -> None:
        """Show a choice for each field: {field: (theirs, mine)}."""
        self.clear()
        for name, (theirs, mine) in fields.items():
            box = QGroupBox(
                self.tr("{0}: changed elsewhere while you edited it").format(self.tr(FIELD_LABELS.get(name, name))),
                self,
            )
            box.setObjectName(f"choice_{name}")
            column = QVBoxLayout(box)
            group = QButtonGroup(box)
            theirs_button = QRadioButton(self.tr("Keep theirs"), box)
            theirs_button.setObjectName(f"theirs_{name}")
            mine_button = QRadioButton(self.tr("Keep mine"), box)
            mine_button.setObjectName(f"mine_{name}")
            for button, value in ((theirs_button, theirs), (mine_button, mine)):
                group.addButton(button)
                column.addWidget(button)
                label = QLabel(shown_value(value) or self.tr("(empty)"), box)
                label.setTextFormat(Qt.TextFormat.PlainText)  # never rendered as HTML
                label.setWordWrap(True)
                label.setIndent(24)
                label.setBuddy(button)
                column.addWidget(label)
            mine_button.setChecked(True)
            self._layout.addWidget(box)
            self._fields[name] = (theirs, theirs_button)
        self.setVisible(bool(fields))
        if fields:
            next(iter(self._fields.values()))[1].setFocus()

    def asking(self) -> bool:
        return bool(self._fields)

    def chosen(self) -> dict[str, tuple[bool, object]]:
        """{field: (theirs kept, theirs)} for each field asked about."""
        return {name: (button.isChecked(), theirs) for name, (theirs, button) in self._fields.items()}

    def clear(self) -> None:
        while self._layout.count():
            item = self._layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self._fields = {}
        self.hide()
