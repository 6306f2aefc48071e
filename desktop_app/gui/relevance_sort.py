"""While a text search is active the table is sorted by relevance, unless the user chose another
sort during that search; clearing the search brings back the sort from before it.

``win`` is the app's MainWindow, typed by what this needs of it (``window_protocol.WindowLike``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from desktop_app.gui.window_protocol import WindowLike

RELEVANCE = "relevance"
FALLBACK = ("added", False)  # a search restored at start-up sorted by relevance: what comes after it


class RelevanceSort:
    """The window calls :meth:`before_query` before each query it runs."""

    def __init__(self) -> None:
        self.searching = False
        self.before: tuple[str, bool] | None = None  # the sort to return to when the search ends

    def restored(self, win: WindowLike) -> None:
        """The window restored a search and its sort (relevance, or the one chosen during it)."""
        if win.state.query.strip():
            self.searching = True
            self.before = FALLBACK

    def before_query(self, win: WindowLike) -> None:
        active = bool(win.state.query.strip())
        if active and not self.searching:
            self.searching = True
            self.before = (win.sort_key, win.sort_desc) if win.sort_key != RELEVANCE else FALLBACK
            win.set_sort(RELEVANCE, True)
        elif not active and self.searching:
            self.searching = False
            if win.sort_key == RELEVANCE and self.before is not None:
                win.set_sort(*self.before)
            self.before = None
        elif not active and win.sort_key == RELEVANCE:
            win.set_sort(*FALLBACK)
        win.table.set_search_active(active)

    def search_sort(self, win: WindowLike) -> dict[str, object]:
        """The sort the next text search will use (the first keystroke warms it)."""
        if self.searching:
            return {"sort": win.sort_key, "descending": win.sort_desc}
        return {"sort": RELEVANCE, "descending": True}
