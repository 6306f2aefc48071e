"""The paper's DOI, arXiv id and URL as links under the reader's meta line.

The values come from imported files, so nothing of them is trusted: each link's address is built
here from a validated identifier (``https://doi.org/<DOI, percent-encoded>``,
``https://arxiv.org/abs/<id>``) or is the record's own URL only when it is a well-formed http(s)
address. The links are flat buttons with plain text (no HTML is ever rendered from them), and a
link is opened in the browser only when the user clicks it or presses Enter on it (the row is one
Tab stop, ←/→ move between its links: ``arrow_keys.ArrowGroup``) (:func:`open_external`, which
refuses anything but http and https once more).
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QHBoxLayout, QToolButton, QWidget

from desktop_app.core.values import PaperView
from desktop_app.gui.arrow_keys import ArrowGroup

_DOI = re.compile(r"^10\.\d{4,9}/\S+$")
_DOI_PREFIX = re.compile(r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)", re.I)
_ARXIV_NEW = re.compile(r"^\d{4}\.\d{4,5}(?:v\d+)?$")
_ARXIV_OLD = re.compile(r"^[a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?$")
_ARXIV_PREFIX = re.compile(r"^(?:arxiv:\s*|https?://arxiv\.org/abs/)", re.I)
_CONTROL = re.compile(r"[\x00-\x20\x7f-\x9f<>\"\\^`{|}]")
SHOWN_CHARS = 48  # of a link's text; the whole address is in its tooltip


def doi_url(doi: str | None) -> str | None:
    """``https://doi.org/<doi>`` for a well-formed DOI (``10.<registrant>/<suffix>``), else None."""
    value = _DOI_PREFIX.sub("", (doi or "").strip())
    if not _DOI.match(value) or len(value) > 300:
        return None
    return "https://doi.org/" + quote(value, safe="/:;()._-")


def arxiv_url(arxiv_id: str | None) -> str | None:
    """``https://arxiv.org/abs/<id>`` for a new-style (2401.01234) or old-style (hep-th/9901001) id."""
    value = _ARXIV_PREFIX.sub("", (arxiv_id or "").strip())
    if not (_ARXIV_NEW.match(value) or _ARXIV_OLD.match(value)):
        return None
    return "https://arxiv.org/abs/" + value


def web_url(url: str | None) -> str | None:
    """The URL itself when it is an absolute http or https address with a host and no spaces,
    control characters or quotes; otherwise None (``javascript:``, ``file:``, ``data:``…)."""
    value = (url or "").strip()
    if not value or len(value) > 2000 or _CONTROL.search(value):
        return None
    try:
        parts = urlsplit(value)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    q = QUrl(value, QUrl.ParsingMode.StrictMode)
    if not q.isValid() or q.scheme().lower() not in ("http", "https") or not q.host():
        return None
    return q.toString(QUrl.ComponentFormattingOption.FullyEncoded)


def paper_links(paper: PaperView | None) -> list[tuple[str, str, str]]:
    """(kind, shown text, address) for each link the paper has: arXiv, DOI, URL (in that order);
    the URL is left out when it is the same address as one before it."""
    if paper is None:
        return []
    out: list[tuple[str, str, str]] = []
    if (a := arxiv_url(paper.arxiv_id)) is not None:
        out.append(("arxiv", f"arXiv:{a.rsplit('/abs/', 1)[1]}", a))
    if (d := doi_url(paper.doi)) is not None:
        out.append(("doi", f"doi:{_DOI_PREFIX.sub('', (paper.doi or '').strip())}", d))
    if (u := web_url(paper.url)) is not None and all(u != x[2] for x in out):
        out.append(("url", u.split("://", 1)[1], u))
    return out


def open_external(url: str | QUrl) -> bool:
    """Open an http(s) address in the browser (only ever called on the user's click)."""
    q = QUrl(url) if isinstance(url, str) else url
    if q.scheme().lower() not in ("http", "https") or not q.isValid():
        return False
    return bool(QDesktopServices.openUrl(q))


def _shown(text: str) -> str:
    text = text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"
    return text.replace("&", "&&")  # a button's "&" marks a mnemonic


class PaperLinks(QWidget):
    """A row of flat link buttons; hidden when the paper has none. ``opened`` tells the address
    opened (for the status bar)."""

    opened = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("paperLinks")
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(0, 0, 0, 0)
        self.row.setSpacing(4)
        self.row.addStretch(1)
        self.buttons: list[QToolButton] = []
        self.links: list[tuple[str, str, str]] = []
        self.keys = ArrowGroup(self, lambda: list(self.buttons))
        self.hide()

    def set_paper(self, paper: PaperView | None) -> None:
        links = paper_links(paper)
        if links == self.links:
            return
        self.links = links
        had_focus = any(b.hasFocus() for b in self.buttons)
        for b in self.buttons:
            b.hide()
            b.deleteLater()
        self.buttons = []
        for n, (kind, text, address) in enumerate(links):
            b = QToolButton(self)
            b.setObjectName(f"link_{kind}")
            b.setAutoRaise(True)
            self.keys.watch(b)  # one Tab stop (focus_order); ←/→ between links, Enter opens (no mouse needed)
            b.setText(_shown(text))
            b.setToolTip(address)  # encoded: never read as rich text
            b.setAccessibleName(self.tr("Open {0} in the browser").format(text))
            b.setCursor(Qt.CursorShape.PointingHandCursor)
            font = b.font()
            font.setUnderline(True)
            b.setFont(font)
            b.clicked.connect(lambda _=False, a=address: self.open(a))
            self.row.insertWidget(n, b)
            self.buttons.append(b)
        self.setVisible(bool(links))
        if had_focus and self.buttons:
            self.buttons[0].setFocus(Qt.FocusReason.OtherFocusReason)

    def open(self, address: str) -> None:
        if open_external(address):
            self.opened.emit(address)
