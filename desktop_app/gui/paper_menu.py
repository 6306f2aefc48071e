"""The papers' context menu (right-click in the table), Copy citation and Copy BibTeX.

:func:`install` connects the table's ``customContextMenuRequested`` to :func:`show_paper_menu`
and adds Copy citation (Ctrl+Shift+C) and Copy BibTeX to the Paper menu. :func:`build_paper_menu`
builds the menu for the selected papers (the clicked row is selected first when it is not part of
the selection); every entry acts on all of them, through the window's ``EditController`` (so each
is one undo step), and names how many it acts on. The citation style is the user's preference
(``preferences.CITATION_STYLE``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QMimeData, QPoint, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QInputDialog, QMenu, QMessageBox, QWidget

from desktop_app.core.errors import LibraryError
from desktop_app.core.store.column_types import DECISIONS, STATUSES
from desktop_app.gui import collation, i18n, preferences

if TYPE_CHECKING:
    # the functions take the app's MainWindow, typed against WindowLike (main_window.py imports
    # this module), and use its table, library, edits, files, search, settings and status_message
    from desktop_app.gui.window_protocol import WindowLike

COPY_CITATION_KEY = "Ctrl+Shift+C"
MENU_TAGS = 12  # tags offered in Tags ▸: the selection's own, then the most used
# more papers than this are formatted in a worker (citeproc-py: APA ~20 ms, Chicago ~30 ms a paper)
CITE_IN_PLACE = 10


def _papers(n: int) -> str:
    return "paper" if n == 1 else f"{n} papers"


def _suffix(n: int) -> str:
    return "" if n == 1 else f" ({n} papers)"


def citation_style(window: WindowLike) -> str:
    return preferences.get_str(window.settings, preferences.CITATION_STYLE) or preferences.DEFAULT_CITATION_STYLE


def copy_citation(window: WindowLike, ids: list[int] | None = None) -> bool:
    """Put the papers' references in the preferred style on the clipboard, as text and HTML."""
    from desktop_app.core.citations import bibliography_html, bibliography_text, cite_papers

    ids = ids if ids is not None else window.table.selected_ids()
    if not ids:
        return False
    style, lib = citation_style(window), window.library

    def put(result: tuple[list[str], list[str]]) -> None:  # cite_papers' (plain, html)
        plain, entries = result
        mime = QMimeData()
        mime.setText(bibliography_text(plain).rstrip("\n"))
        mime.setHtml(bibliography_html(entries))
        QApplication.clipboard().setMimeData(mime)
        window.status_message(i18n.plurals().copied_references(len(ids)).format(style))

    def failed(message: str) -> None:
        QMessageBox.warning(window.window(), QCoreApplication.translate("PaperMenu", "Copy citation"), message)

    if len(ids) > CITE_IN_PLACE:
        from desktop_app.gui.jobs import start_job

        start_job(
            window.window(),
            i18n.plurals().formatting_references(len(ids)),
            lambda _progress, _cancelled: cite_papers(lib, ids, style),
            put,
            failed,
        )
        return True
    try:
        put(cite_papers(lib, ids, style))
    except LibraryError as exc:
        failed(str(exc))
        return False
    return True


def copy_bibtex(window: WindowLike, ids: list[int] | None = None) -> bool:
    """Put the papers' BibTeX entries (the BibTeX export's) on the clipboard."""
    from desktop_app.core.formats.writers import render_export

    ids = ids if ids is not None else window.table.selected_ids()
    if not ids:
        return False
    QApplication.clipboard().setText(render_export("bib", window.library.exports.papers(ids)))
    window.status_message(i18n.plurals().copied_bibtex(len(ids)))
    return True


def show_related(window: WindowLike, ids: list[int]) -> None:
    """Show the papers related to these in the table: the search ``related:ID`` (ORed for
    several), over all papers, ranked by similarity."""
    if not ids:
        return
    text = " OR ".join(f"related:{pid}" for pid in ids)
    window.on_sidebar_filter("all", "")
    window.set_sort("relevance", False)  # the related: query ranks by its key terms
    window.search.set_text(text)
    window.on_query_typed(text)


def _add_tag_dialog(window: WindowLike, ids: list[int]) -> None:
    name, ok = QInputDialog.getText(
        window.window(),
        QCoreApplication.translate("PaperMenu", "Add tag"),
        QCoreApplication.translate("PaperMenu", "Tag for {0}:").format(_papers(len(ids))),
    )
    if ok and name.strip():
        window.edits.add_tags(ids, [name.strip()])


def _tag_entries(window: WindowLike, ids: list[int]) -> list[tuple[str, bool]]:
    """(tag, every selected paper has it): the selection's tags first, then the most used."""
    rows = window.library.papers.rows(ids)
    have: dict[str, int] = {}
    for row in rows.values():
        for name in row.tags:
            have[name] = have.get(name, 0) + 1
    names = collation.sorted_names(have)
    for info in sorted(window.library.tags.all(), key=lambda i: (-i.count, i.name.lower())):
        if len(names) >= MENU_TAGS:
            break
        if info.name not in have:
            names.append(info.name)
    return [(n, have.get(n, 0) == len(ids)) for n in names]


def _toggle_tag(window: WindowLike, ids: list[int], name: str, on: bool) -> None:
    if on:
        window.edits.add_tags(ids, [name])
    else:
        window.edits.remove_tag(ids, name)


def _select_clicked(window: WindowLike, pos: QPoint | None) -> None:
    """A right-click on a row outside the selection selects that row (as file managers do)."""
    if pos is None:
        return
    index = window.table.indexAt(pos)
    if not index.isValid():
        return
    if not window.table.selectionModel().isRowSelected(index.row(), index.parent()):
        window.table.select_row(index.row())


def build_paper_menu(window: WindowLike, pos: QPoint | None = None) -> QMenu | None:
    """The context menu for the selected papers (after selecting the row at ``pos``, a point in
    the table's viewport); None when no paper is selected."""
    _select_clicked(window, pos)
    ids = window.table.selected_ids()
    if not ids:
        return None
    n, ed, lib = len(ids), window.edits, window.library
    writable = not lib.read_only
    menu = QMenu(window.window())
    menu.setObjectName("paperMenu")
    if window.state.trash:  # trashed papers: restore or delete for good, nothing else
        from desktop_app.gui.trash_view import add_trash_entries

        add_trash_entries(window, menu, n)
        return menu

    def add(text: str, slot: Callable[..., object], parent: QMenu = menu, enabled: bool = True) -> QAction:
        act = parent.addAction(text)
        act.triggered.connect(lambda _=False: slot())
        act.setEnabled(enabled)
        return act

    if callable(getattr(window, "open_paper", None)):
        add(
            QCoreApplication.translate("PaperMenu", "Open paper")
            if n == 1
            else QCoreApplication.translate("PaperMenu", "Open the current paper"),
            window.open_paper,
        )  # one viewer, not n
    # the key is the Paper menu's action's; shown here as text only (one registration per key)
    add(
        (
            QCoreApplication.translate("PaperMenu", "Copy citation")
            if n == 1
            else QCoreApplication.translate("PaperMenu", "Copy {0} citations").format(n)
        )
        + f"\t{COPY_CITATION_KEY}",
        lambda: copy_citation(window, ids),
    )
    add(
        QCoreApplication.translate("PaperMenu", "Copy BibTeX")
        if n == 1
        else QCoreApplication.translate("PaperMenu", "Copy BibTeX of {0} papers").format(n),
        lambda: copy_bibtex(window, ids),
    )
    menu.addSeparator()

    lists = menu.addMenu(
        QCoreApplication.translate("PaperMenu", "Add to reading list")
        if n == 1
        else QCoreApplication.translate("PaperMenu", "Add {0} papers to reading list").format(n)
    )
    lists.setEnabled(writable)
    for info in lib.lists.all():
        add(info.name, lambda name=info.name: ed.add_to_list(name, ids), lists)
    if lib.lists.all():
        lists.addSeparator()
    add(QCoreApplication.translate("PaperMenu", "New list…"), lambda: ed.new_list_dialog(ids), lists)

    tags = menu.addMenu(QCoreApplication.translate("PaperMenu", "Tags") + _suffix(n))
    tags.setEnabled(writable)
    for name, checked in _tag_entries(window, ids):
        act = tags.addAction(name)
        act.setCheckable(True)
        act.setChecked(checked)
        act.toggled.connect(lambda on, name=name: _toggle_tag(window, ids, name, on))
    tags.addSeparator()
    add(QCoreApplication.translate("PaperMenu", "Add tag…"), lambda: _add_tag_dialog(window, ids), tags)

    status = menu.addMenu(QCoreApplication.translate("PaperMenu", "Status") + _suffix(n))
    status.setEnabled(writable)
    current = {row.status for row in lib.papers.rows(ids).values()}
    for value in STATUSES:
        act = add(
            QCoreApplication.translate("PaperMenu", "Mark {0}").format(i18n.status_word(value)),
            lambda v=value: ed.set_status(v),
            status,
        )
        act.setCheckable(True)
        act.setChecked(current == {value})

    decision = menu.addMenu(QCoreApplication.translate("PaperMenu", "Decision") + _suffix(n))
    decision.setEnabled(writable)
    decided = {row.decision for row in lib.papers.rows(ids).values()}
    for choice in (*DECISIONS, None):
        act = add(i18n.decision_label(choice), lambda v=choice: ed.set_decision(v), decision)
        act.setCheckable(True)
        act.setChecked(decided == {choice})

    rating = menu.addMenu(QCoreApplication.translate("PaperMenu", "Rating") + _suffix(n))
    rating.setEnabled(writable)
    ratings = {row.rating for row in lib.papers.rows(ids).values()}
    for stars in range(6):
        act = add(
            QCoreApplication.translate("PaperMenu", "No rating") if stars == 0 else "★" * stars,
            lambda v=stars: ed.set_rating(v),
            rating,
        )
        act.setCheckable(True)
        act.setChecked(ratings == {stars})
    menu.addSeparator()

    add(
        QCoreApplication.translate("PaperMenu", "Related papers")
        if n == 1
        else QCoreApplication.translate("PaperMenu", "Papers related to these {0}").format(n),
        lambda: show_related(window, ids),
        enabled=window.files.index_ready,
    )
    if callable(getattr(window, "edit_metadata", None)):
        add(QCoreApplication.translate("PaperMenu", "Edit metadata…"), window.edit_metadata, enabled=writable)
    menu.addSeparator()
    add(
        QCoreApplication.translate("PaperMenu", "Move to the trash")
        if n == 1
        else QCoreApplication.translate("PaperMenu", "Move {0} papers to the trash").format(n),
        ed.delete_selected,
        enabled=writable,
    )
    return menu


def show_paper_menu(window: WindowLike, pos: QPoint) -> None:
    """customContextMenuRequested: pop the menu up where the table was clicked."""
    menu = build_paper_menu(window, pos)
    if menu is not None:
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # one menu per right-click, not kept
        menu.popup(window.table.viewport().mapToGlobal(pos))


def install(window: WindowLike, paper_menu: QMenu) -> None:
    """The table's context menu, and Copy citation / Copy BibTeX in the Paper menu."""
    table = window.table
    table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
    table.customContextMenuRequested.connect(lambda pos: show_paper_menu(window, pos))
    paper_menu.addSeparator()
    act = QAction(QCoreApplication.translate("PaperMenu", "Copy citation"), window.window())
    act.setObjectName("copyCitationAction")
    act.setShortcut(QKeySequence(COPY_CITATION_KEY))
    act.triggered.connect(lambda _=False: copy_citation(window))
    paper_menu.addAction(act)
    bib = QAction(QCoreApplication.translate("PaperMenu", "Copy BibTeX"), window.window())
    bib.setObjectName("copyBibtexAction")
    bib.triggered.connect(lambda _=False: copy_bibtex(window))
    paper_menu.addAction(bib)


def screenshot_view(window: WindowLike) -> QWidget:
    """The context menu popped up over the table's third row, for the docs: returns the window
    with the menu painted into it (a grab of the window does not include a popup, so the
    returned widget is a label holding the composed picture)."""
    from PySide6.QtGui import QPainter, QPixmap
    from PySide6.QtWidgets import QLabel

    table = window.table
    row = min(2, max(table.paper_model.rowCount() - 1, 0))
    table.select_row(row)
    window.follow.flush()  # the reader shows that paper now, not one event-loop turn later
    # its tag chips are shown by a queued call (QLayout::addChildWidget) and laid out: one turn
    # of the event loop, for a picture only
    QApplication.processEvents()
    rect = table.visualRect(table.paper_model.index(row, 1))
    pos = QPoint(rect.left() + 40, rect.center().y())
    menu = build_paper_menu(window, pos)
    shot = window.window().grab()
    if menu is not None:
        menu.popup(table.viewport().mapToGlobal(pos))
        menu.ensurePolished()
        menu.adjustSize()
        where = table.viewport().mapTo(window.window(), pos)
        picture = menu.grab()
        painter = QPainter(shot)
        x = min(where.x(), shot.width() - picture.width())
        y = min(where.y(), shot.height() - picture.height())
        painter.drawPixmap(max(x, 0), max(y, 0), picture)
        painter.end()
        menu.hide()
    label = QLabel()
    label.setObjectName("paperMenuScreenshot")
    label.setPixmap(QPixmap(shot))
    label.resize(shot.size())
    return label
