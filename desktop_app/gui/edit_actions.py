"""Edits from the window, each one an undoable command that calls the Library."""

from __future__ import annotations

from PySide6.QtWidgets import QColorDialog, QInputDialog, QMessageBox

from desktop_app.core.db import LibraryError
from desktop_app.core.lib_notes import LibraryBusy
from desktop_app.core.values import Change
from desktop_app.gui.undo import perform

NOTE_SAVE_WAIT = 0.05  # seconds the GUI thread may wait for the write lock


class EditActions:
    """Mixin for MainWindow: needs ``library``, ``undo_stack``, ``on_change``, ``selected_ids``."""

    def _do(self, text: str, do, undo) -> Change | None:  # noqa: ANN001
        try:
            return perform(self.undo_stack, text, do, undo, self.on_change)
        except LibraryError as exc:
            QMessageBox.warning(self, "Marginalia", str(exc))
            return None

    # ---- tags ------------------------------------------------------------------------------
    def add_tags(self, ids: list[int], names: list[str]) -> None:
        if not ids or not names:
            return
        lib = self.library
        label = f"Add tag {', '.join(names)}" + (f" to {len(ids)} papers" if len(ids) > 1 else "")
        self._do(label, lambda: lib.add_tags(ids, names),
                 lambda ch: lib.set_tags(ch.detail["links"], present=False))

    def remove_tag(self, ids: list[int], name: str) -> None:
        lib = self.library
        self._do(f"Remove tag {name}", lambda: lib.remove_tags(ids, [name]),
                 lambda ch: lib.set_tags(ch.detail["links"], present=True))

    # ---- status, rating, title ---------------------------------------------------------------
    def _bulk(self, column: str, value: object, label: str) -> None:
        ids = self.selected_ids()
        if not ids:
            return
        lib = self.library
        before = {pid: {column: getattr(row, column)} for pid, row in lib.rows(ids).items()}
        setter = lib.set_status if column == "status" else lib.set_rating
        self._do(label + (f" ({len(ids)} papers)" if len(ids) > 1 else ""),
                 lambda: setter(ids, value), lambda _ch: lib.set_fields(before))

    def set_status(self, status: str) -> None:
        self._bulk("status", status, f"Mark {status}")

    def set_rating(self, rating: int) -> None:
        self._bulk("rating", rating, f"Rate {rating}")

    def edit_title(self, pid: int, title: str) -> None:
        lib = self.library
        self._do("Edit title", lambda: lib.set_title(pid, title),
                 lambda ch: lib.set_title(pid, ch.detail["old"][0], source=ch.detail["old"][1]))

    # ---- notes -----------------------------------------------------------------------------
    def save_note(self, pid: int, text: str) -> bool:
        """Called by the note editor. False means: busy, try again shortly."""
        try:
            change = self.library.set_note(pid, text, wait=NOTE_SAVE_WAIT)
        except LibraryBusy:
            return False
        except LibraryError:
            return True  # the paper is gone; nothing to save it to
        self.model.refresh_papers(change.paper_ids)
        if "old" in change.detail:  # the text changed: one undo step per bout of writing
            from desktop_app.gui.undo import NoteCommand

            top = self.undo_stack.command(self.undo_stack.index() - 1) if self.undo_stack.index() else None
            if isinstance(top, NoteCommand) and top.paper_id != pid:
                top.closed = True
            self.undo_stack.push(NoteCommand(pid, change.detail["old"], text, self._apply_note, self.on_change))
        return True

    def _apply_note(self, pid: int, text: str) -> Change:
        """Undo/redo of a note: store the text and show it if that paper is on screen."""
        change = self.library.set_note(pid, text)
        if self.reader.notes.paper_id() == pid:
            self.reader.notes.load(pid, text, flush=False)
        return change

    # ---- delete ----------------------------------------------------------------------------
    def delete_selected(self) -> None:
        ids = self.selected_ids()
        if not ids:
            return
        what = "this paper" if len(ids) == 1 else f"these {len(ids)} papers"
        answer = QMessageBox.question(
            self, "Delete papers", f"Delete {what}? Their tags, notes and highlights go with them.\n"
            "You can undo this with Ctrl+Z.", QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel)
        if answer != QMessageBox.StandardButton.Yes:
            return
        lib = self.library
        row = self.table.currentIndex().row()
        self._do(f"Delete {len(ids)} papers" if len(ids) > 1 else "Delete paper",
                 lambda: lib.delete_papers(ids), lambda _ch: lib.restore_papers(ids))
        if self.model.rowCount():
            self.select_row(min(max(row, 0), self.model.rowCount() - 1))

    # ---- highlights ------------------------------------------------------------------------
    def add_highlight(self, pid: int, start: int, end: int, color: str, comment: str) -> None:
        lib = self.library
        state: dict = {}

        def do() -> Change:
            if "row" in state:
                return lib.restore_highlight(state["row"])
            return lib.add_highlight(pid, start, end, color, comment)

        def undo(ch: Change) -> Change:
            gone = lib.delete_highlight(ch.detail["id"])
            state["row"] = gone.detail["row"]
            return gone

        self._do("Highlight", do, undo)

    def delete_highlight(self, hid: int) -> None:
        lib = self.library
        state: dict = {}

        def do() -> Change:
            ch = lib.delete_highlight(hid)
            state["row"] = ch.detail["row"]
            return ch

        self._do("Delete highlight", do, lambda _ch: lib.restore_highlight(state["row"]))

    def edit_highlight_comment(self, hid: int, comment: str) -> None:
        lib = self.library
        self._do("Edit highlight comment", lambda: lib.edit_highlight(hid, comment=comment),
                 lambda ch: lib.edit_highlight(hid, comment=ch.detail["comment"]))

    # ---- reading lists ---------------------------------------------------------------------
    def new_list_dialog(self, ids: list[int] | None = None) -> str | None:
        name, ok = QInputDialog.getText(self, "New reading list", "Name:")
        if not ok or not name.strip():
            return None
        lib = self.library
        if self._do(f"Create list {name}", lambda: lib.create_list(name),
                    lambda _ch: lib.delete_list(name)) is None:
            return None
        if ids:
            self.add_to_list(name, ids)
        return name

    def add_to_list(self, name: str, ids: list[int]) -> None:
        lib = self.library
        self._do(f"Add {len(ids)} to {name}", lambda: lib.add_to_list(name, ids),
                 lambda ch: lib.remove_from_list(name, ch.detail["added"]))
        self.status_message(f"Added {len(ids)} paper(s) to “{name}”")

    def add_to_list_dialog(self) -> None:
        ids = self.selected_ids()
        if not ids:
            return
        names = [i.name for i in self.library.lists()]
        new = "New list…"
        choice, ok = QInputDialog.getItem(self, "Add to reading list", "List:", names + [new], 0, False)
        if not ok:
            return
        if choice == new:
            self.new_list_dialog(ids)
        else:
            self.add_to_list(choice, ids)

    def move_in_list(self, delta: int) -> None:
        name, pid = self.state.list_name, self.current_id()
        if not name or pid is None:
            self.status_message("Show a reading list to reorder it")
            return
        lib = self.library
        pos = [p for p, _, _ in lib.list_items(name)].index(pid)
        self._do("Move in list", lambda: lib.move_in_list(name, pid, pos + delta),
                 lambda ch: lib.move_in_list(name, pid, ch.detail["old"]))
        self.refresh_query(keep=pid)

    def reorder_in_list(self, ids: list[int], row: int) -> None:
        """A drag inside the shown list: the dragged papers start at ``row``."""
        name = self.state.list_name
        if not name:
            return
        lib = self.library
        keep = self.current_id()
        self._do("Reorder list", lambda: lib.move_many_in_list(name, ids, row),
                 lambda ch: lib.reorder_list(name, ch.detail["old"]))
        self.refresh_query(keep=keep)

    def remove_from_current_list(self) -> None:
        name, ids = self.state.list_name, self.selected_ids()
        if not name or not ids:
            return
        lib = self.library
        self._do(f"Remove from {name}", lambda: lib.remove_from_list(name, ids),
                 lambda ch: lib.restore_list(ch.detail["snapshot"]))

    def edit_item_note(self) -> None:
        name, pid = self.state.list_name, self.current_id()
        if not name or pid is None:
            self.status_message("Show a reading list to add notes to its items")
            return
        lib = self.library
        current = next((n for p, _, n in lib.list_items(name) if p == pid), "")
        text, ok = QInputDialog.getText(self, "List item note", f"Note for this paper in “{name}”:", text=current)
        if ok:
            self._do("Edit item note", lambda: lib.set_item_note(name, pid, text),
                     lambda ch: lib.set_item_note(name, pid, ch.detail["old"]))

    def on_list_menu(self, action: str, name: str) -> None:
        lib = self.library
        if action == "new":
            self.new_list_dialog()
        elif action == "export":
            self.export_dialog(list_name=name)
        elif action == "rename":
            new, ok = QInputDialog.getText(self, "Rename list", "New name:", text=name)
            if ok and new.strip():
                self._do("Rename list", lambda: lib.rename_list(name, new), lambda _c: lib.rename_list(new, name))
                if self.state.list_name == name:
                    self.state.list_name = new
                    self.refresh_query()
        elif action == "describe":
            info = next((i for i in lib.lists() if i.name == name), None)
            text, ok = QInputDialog.getMultiLineText(self, "Describe list", f"Description of “{name}”:",
                                                     info.description if info else "")
            if ok:
                self._do("Describe list", lambda: lib.describe_list(name, text),
                         lambda ch: lib.describe_list(name, ch.detail["old"]))
        elif action == "delete":
            self._do(f"Delete list {name}", lambda: lib.delete_list(name),
                     lambda ch: lib.restore_list(ch.detail["snapshot"]))
            if self.state.list_name == name:
                self.on_sidebar_filter("all", "")

    def on_papers_dropped(self, kind: str, value: str, ids: list[int]) -> None:
        if kind == "list":
            self.add_to_list(value, ids)
        elif kind == "tag":
            self.add_tags(ids, [value])

    # ---- tags in the sidebar ---------------------------------------------------------------
    def on_tag_menu(self, action: str, name: str) -> None:
        lib = self.library
        if action == "include":
            self.on_sidebar_filter("tag", name)
        elif action == "exclude":
            if name not in self.state.not_tags:
                self.state.not_tags.append(name)
            self.refresh_query()
        elif action == "rename":
            new, ok = QInputDialog.getText(self, "Rename tag", f"Rename “{name}” (its children follow) to:", text=name)
            if ok and new.strip() and new != name:
                self._do("Rename tag", lambda: lib.rename_tag(name, new), lambda _c: lib.rename_tag(new, name))
        elif action == "merge":
            names = [t.name for t in lib.tags() if t.name != name]
            target, ok = QInputDialog.getItem(self, "Merge tag", f"Merge “{name}” into:", names, 0, True)
            if ok and target:
                self._do("Merge tags", lambda: lib.merge_tags(name, target), lambda _c: _unmergeable())
        elif action == "color":
            color = QColorDialog.getColor(parent=self, title=f"Color of “{name}”")
            if color.isValid():
                self._do("Recolor tag", lambda: lib.recolor_tag(name, color.name()),
                         lambda ch: lib.recolor_tag(name, ch.detail["old_color"]))
        elif action == "delete":
            def undo(ch: Change) -> Change:
                out = lib.set_tags(ch.detail["links"], present=True) if ch.detail["links"] else ch
                if ch.detail["color"]:
                    lib.recolor_tag(name, ch.detail["color"])
                return Change("tags", out.paper_ids, (name,))

            self._do(f"Delete tag {name}", lambda: lib.delete_tag(name), undo)

    # ---- saved searches --------------------------------------------------------------------
    def save_search_dialog(self) -> None:
        query = self.search.box.text().strip()
        if not query:
            self.status_message("Type a search first, then save it")
            return
        name, ok = QInputDialog.getText(self, "Save search", "Name:", text=query[:40])
        if ok and name.strip():
            lib = self.library

            def undo(ch: Change) -> Change:
                if ch.detail.get("old") is not None:
                    return lib.save_search(name, ch.detail["old"])
                return lib.delete_search(name)

            self._do("Save search", lambda: lib.save_search(name, query), undo)

    def on_search_menu(self, action: str, name: str) -> None:
        lib = self.library
        if action == "delete":
            self._do("Delete saved search", lambda: lib.delete_search(name),
                     lambda ch: lib.save_search(name, ch.detail["old"]))
        elif action == "snapshot":
            query = dict(lib.saved_searches()).get(name, "")
            ids = lib.query(query, sort="relevance").ids
            list_name = name
            n = 2
            existing = {i.name.lower() for i in lib.lists()}
            while list_name.lower() in existing:
                list_name, n = f"{name} ({n})", n + 1

            def do() -> Change:
                lib.create_list(list_name, f"Snapshot of the search “{query}”")
                return lib.add_to_list(list_name, ids)

            self._do("Snapshot search to list", do, lambda _c: lib.delete_list(list_name))
            self.status_message(f"Reading list “{list_name}” holds the {len(ids)} papers the search found")


def _unmergeable() -> Change:
    raise LibraryError("a merge of tags cannot be undone; rename the tag back by hand")
