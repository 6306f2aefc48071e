"""The sidebar's "Merge into…": pick the tag to merge into (nothing is chosen for you), read
what will change, then merge; Edit → Undo puts every tag back as it was (``Tags.unmerge``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_app.core.library import Library

if TYPE_CHECKING:
    from desktop_app.gui.window_protocol import WindowLike


def _papers(n: int) -> str:
    return f"{n:,} paper" + ("" if n == 1 else "s")


def preview_text(source: str, target: str, preview: dict[str, int]) -> str:
    """“9 papers tagged 'rl' will be tagged 'reinforcement-learning'; 3 already have both; the tag
    'rl' is removed.”"""
    gaining, both = preview["gaining"], preview["both"]
    parts = [
        f"{_papers(gaining)} tagged '{source}' will be tagged '{target}'"
        if gaining
        else f"no paper gains the tag '{target}'"
    ]
    if both:
        parts.append(f"{both:,} already {'has' if both == 1 else 'have'} both")
    parts.append(f"the tag '{source}' is removed")
    if not preview["target_exists"]:
        parts.append(f"'{target}' is a new tag")
    text = "; ".join(parts) + "."
    return text[0].upper() + text[1:] + " Edit → Undo brings it all back."


class MergeTagsDialog(QDialog):
    """Choose the tag ``source`` merges into; :meth:`target` is the choice (None until one)."""

    def __init__(self, library: Library, source: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mergeTagsDialog")
        self.setWindowTitle(self.tr("Merge tags"))
        self.library, self.source = library, source
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(self.tr("Merge the tag “{0}” into:").format(source), self))
        self.filter = QLineEdit(self)
        self.filter.setObjectName("mergeTagsFilter")
        self.filter.setPlaceholderText(self.tr("Filter tags…"))
        self.filter.setAccessibleName(self.tr("Filter tags"))
        self.filter.textChanged.connect(self._filter)
        lay.addWidget(self.filter)
        self.list = QListWidget(self)
        self.list.setObjectName("mergeTagsList")
        self.list.setAccessibleName(self.tr("Tag to merge into"))
        for info in library.tags.all():
            if info.name.lower() != source.lower():
                item = QListWidgetItem(f"{info.name}  ({info.count})", self.list)
                item.setData(Qt.ItemDataRole.UserRole, info.name)
        self.list.setCurrentRow(-1)  # nothing chosen: the user picks the target
        self.list.clearSelection()
        self.list.itemSelectionChanged.connect(self._chosen)
        self.list.itemDoubleClicked.connect(lambda _i: self.accept() if self.target() else None)
        lay.addWidget(self.list, 1)
        self.preview = QLabel(self.tr("Choose the tag to merge into; nothing changes until you press Merge."), self)
        self.preview.setObjectName("mergeTagsPreview")
        self.preview.setTextFormat(Qt.TextFormat.PlainText)  # tag names are the user's text
        self.preview.setWordWrap(True)
        lay.addWidget(self.preview)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.merge_button = self.buttons.addButton(self.tr("Merge"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.merge_button.setObjectName("mergeTagsMerge")
        self.merge_button.setEnabled(False)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self.resize(420, 420)

    def target(self) -> str | None:
        items = self.list.selectedItems()
        return items[0].data(Qt.ItemDataRole.UserRole) if items else None

    def choose(self, name: str) -> None:
        """Select ``name`` in the list (as a click would)."""
        for row in range(self.list.count()):
            if self.list.item(row).data(Qt.ItemDataRole.UserRole) == name:
                self.list.setCurrentRow(row)
                return

    def _filter(self, text: str) -> None:
        needle = text.strip().lower()
        for row in range(self.list.count()):
            item = self.list.item(row)
            item.setHidden(bool(needle) and needle not in item.data(Qt.ItemDataRole.UserRole).lower())

    def _chosen(self) -> None:
        target = self.target()
        self.merge_button.setEnabled(target is not None)
        if target is None:
            return
        preview = self.library.tags.merge_preview(self.source, target)
        self.preview.setText(preview_text(self.source, target, preview))


def ask_merge_target(library: Library, source: str, parent: QWidget | None) -> str | None:
    """The merge dialog, modal; the chosen target, or None when cancelled."""
    dlg = MergeTagsDialog(library, source, parent)
    try:
        return dlg.target() if dlg.exec() == QDialog.DialogCode.Accepted else None
    finally:
        dlg.deleteLater()


def screenshot_merge_tags(window: WindowLike) -> QWidget:
    """The merge dialog on a window's library, for the docs: the first tag into the second."""
    lib = window.library
    names = [t.name for t in lib.tags.all()]
    if len(names) < 2:
        ids = lib.query("").ids[:12]
        lib.tags.add(ids[:9], ["rl"])
        lib.tags.add(ids[6:], ["reinforcement-learning"])
        names = [t.name for t in lib.tags.all()]
    source = "rl" if "rl" in names else names[0]
    dlg = MergeTagsDialog(lib, source, window.window())
    dlg.choose("reinforcement-learning" if "reinforcement-learning" in names else next(n for n in names if n != source))
    dlg.show()
    return dlg
