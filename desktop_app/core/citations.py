"""Formatted references in a CSL style (citeproc-py), as plain text and as safe HTML.

Five styles are bundled in ``resources/csl`` (APA, Chicago author-date, IEEE, Nature, ACM; from
the CSL styles repository, CC BY-SA 3.0); any ``.csl`` file the user puts in
:func:`~desktop_app.paths.user_styles_dir` is listed with them (a user file named like a bundled
style replaces it). Papers become CSL-JSON through the CSL-JSON exporter's own mapping
(:func:`~desktop_app.core.formats.csljson_writer.paper_item`).

citeproc-py's HTML formatter does not escape the items' text (a title ``<script>`` comes out as
a tag), so ``<``, ``>`` and ``&`` in the items are swapped for private-use characters before
formatting and turned into entities afterwards: no untrusted text reaches the HTML as markup.
citeproc (and its lxml) are imported at the first formatting, not with this module.
"""

from __future__ import annotations

import html
import re
import threading
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast
from xml.etree import ElementTree

from desktop_app.core.errors import LibraryError
from desktop_app.core.records import ExportPaper

if TYPE_CHECKING:
    from desktop_app.core.library import Library

BUNDLED = ("apa", "chicago-author-date", "ieee", "nature", "association-for-computing-machinery")
DEFAULT_STYLE = "apa"
_CSL_NS = "{http://purl.org/net/xbiblio/csl}"
# what a bibliography entry never shows: the user's note, the abstract, keywords and tags
_DROPPED = ("note", "abstract", "keyword", "citation-key", "custom")
# <, > and & in the items travel through citeproc as these private-use characters
_SWAP = {"<": "\ue000", ">": "\ue001", "&": "\ue002"}
_UNSWAP_HTML = {"\ue000": "&lt;", "\ue001": "&gt;", "\ue002": "&amp;"}
_UNSWAP_TEXT = {v: k for k, v in _SWAP.items()}
# a numbered style's label ("[1]", "1.") is a left-margin block citeproc-py glues to the text
_TAG = re.compile(r"<[^>]*>")  # the formatter's own tags: the items' text holds no "<"
_LABEL = re.compile(r"^(\[\d+\]|\d+\.)(?=\S)")


class CitationStyleError(LibraryError):
    """A style that cannot be used; the message names the file and says why, in one line."""


@dataclass(frozen=True)
class CitationStyle:
    id: str
    title: str
    path: Path
    bundled: bool


def bundled_dir() -> Path:
    """The folder of the bundled ``.csl`` files."""
    return Path(str(resources.files("desktop_app.resources") / "csl"))


def _user_dir(user_dir: Path | None) -> Path:
    if user_dir is not None:
        return user_dir
    from desktop_app.paths import user_styles_dir

    return user_styles_dir()


def _title_of(path: Path) -> str:
    """The style's ``<info><title>``, else its file name."""
    try:
        for _, elem in ElementTree.iterparse(path, events=("end",)):
            if elem.tag == f"{_CSL_NS}title" and (elem.text or "").strip():
                return " ".join(cast(str, elem.text).split())  # not None: it has words
    except (ElementTree.ParseError, OSError, UnicodeDecodeError):
        pass
    return path.stem


def styles(user_dir: Path | None = None) -> list[CitationStyle]:
    """The bundled styles (in :data:`BUNDLED` order), then the user's, by title; a user file
    named like a bundled style takes its place."""
    user: dict[str, Path] = {}
    folder = _user_dir(user_dir)
    if folder.is_dir():
        user = {p.stem: p for p in sorted(folder.glob("*.csl")) if p.is_file()}
    out = []
    for sid in BUNDLED:
        path = user.pop(sid, None)
        out.append(
            CitationStyle(
                sid, _title_of(path or bundled_dir() / f"{sid}.csl"), path or bundled_dir() / f"{sid}.csl", path is None
            )
        )
    extra = [CitationStyle(sid, _title_of(path), path, False) for sid, path in user.items()]
    return out + sorted(extra, key=lambda s: s.title.lower())


def available_styles(user_dir: Path | None = None) -> list[tuple[str, str]]:
    """(id, title) of every style, bundled first."""
    return [(s.id, s.title) for s in styles(user_dir)]


def style_path(style_id: str, user_dir: Path | None = None) -> Path:
    """The ``.csl`` file of a style id (or ``style_id`` itself when it is a path to one)."""
    if style_id.endswith(".csl") and ("/" in style_id or "\\" in style_id):
        path = Path(style_id).expanduser()
        if not path.is_file():
            raise CitationStyleError(f"citation style file {path} does not exist")
        return path
    for s in styles(user_dir):
        if s.id == style_id:
            return s.path
    names = ", ".join(i for i, _ in available_styles(user_dir))
    raise CitationStyleError(f"no citation style '{style_id}'; available: {names}")


def csl_items(papers: Sequence[ExportPaper]) -> list[dict[str, Any]]:
    """The papers as CSL-JSON items for a bibliography: the CSL-JSON exporter's mapping, the
    title's LaTeX made plain, without the note, abstract and keywords."""
    from desktop_app.core.formats.csljson_writer import paper_item
    from desktop_app.core.formats.writer_common import DERIVED_NOTE, is_derived, latex_to_plain

    items = []
    for paper in papers:
        item: dict[str, Any] = paper_item(paper)  # CSL-JSON: the title is a str
        for key in _DROPPED:
            item.pop(key, None)
        if item.get("title"):
            item["title"] = " ".join(latex_to_plain(item["title"]).split())
            if is_derived(paper):  # a bibliography says where such a title came from
                item["title"] += f" [{DERIVED_NOTE}]"
        items.append(item)
    return items


def _swap(value: object) -> object:
    if isinstance(value, str):
        for ch in _UNSWAP_HTML:
            value = value.replace(ch, "")
        for raw, stand_in in _SWAP.items():
            value = value.replace(raw, stand_in)
        return value
    if isinstance(value, list):
        return [_swap(v) for v in value]
    if isinstance(value, dict):
        return {k: (v if k == "id" else _swap(v)) for k, v in value.items()}
    return value


def _check_style(path: Path) -> None:
    """A clear error for a file that is not XML, or not a CSL style with a bibliography."""
    from defusedxml import ElementTree as SafeTree

    try:
        root = cast(ElementTree.Element, SafeTree.parse(path).getroot())  # a parsed file has a root
    except (ElementTree.ParseError, OSError, UnicodeDecodeError, ValueError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise CitationStyleError(f"citation style {path.name} cannot be read: {first}") from exc
    if root.tag != f"{_CSL_NS}style" or root.find(f"{_CSL_NS}bibliography") is None:
        raise CitationStyleError(f"citation style {path.name} is not a CSL style with a bibliography")


def _speed_up_macros() -> None:
    """citeproc-py looks a macro up with an XPath search at every use (APA: 36,000 searches,
    0.8 s for three papers); remember each style's macros instead."""
    from citeproc import model

    if getattr(model.CitationStylesElement.get_macro, "cached", False):
        return
    found: dict[tuple[int, str], tuple[object, object]] = {}

    def get_macro(self: Any, name: str) -> Any:  # noqa: ANN401 - citeproc's own signature (citeproc has no types)
        root = self.get_root()
        hit = found.get((id(root), name))
        if hit is not None and hit[0] is root:
            return hit[1]
        macro = root.xpath_search(f"cs:macro[@name='{name}'][1]")[0]
        found[(id(root), name)] = (root, macro)  # keeps root alive: its id is not reused
        return macro

    get_macro.cached = True  # type: ignore[attr-defined]
    model.CitationStylesElement.get_macro = get_macro


_STYLES: dict[tuple[str, float], object] = {}
# a parsed style holds the formatter of the bibliography being made: one formatting at a time
_FORMATTING = threading.Lock()


def _load_style(path: Path) -> Any:  # noqa: ANN401 - a citeproc CitationStylesStyle (citeproc has no types)
    """The parsed style, kept while its file is unchanged (a few styles at most)."""
    try:
        key = (str(path.resolve()), path.stat().st_mtime)
    except OSError as exc:
        raise CitationStyleError(f"citation style {path.name} cannot be read: {exc.strerror}") from exc
    style = _STYLES.get(key)
    if style is not None:
        return style
    _check_style(path)
    from citeproc import CitationStylesStyle
    from lxml.etree import LxmlError

    _speed_up_macros()
    try:
        style = CitationStylesStyle(str(path), validate=False)
    except (LxmlError, OSError, ValueError, AttributeError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise CitationStyleError(f"citation style {path.name} cannot be read: {first}") from exc
    if len(_STYLES) >= 8:
        _STYLES.pop(next(iter(_STYLES)))
    _STYLES[key] = style
    return style


def _clean(entry: str) -> str:
    entry = _LABEL.sub(r"\1 ", str(entry).strip())
    return re.sub(r"\.(\s*\.)+", ".", entry)


def format_citation(
    papers: Sequence[ExportPaper], style_id: str = DEFAULT_STYLE, *, user_dir: Path | None = None
) -> tuple[list[str], list[str]]:
    """(plain text entries, HTML entries) of the papers' bibliography in a style, one entry per
    paper in the style's order (author order for APA, the given order for numbered styles).

    Raises :class:`CitationStyleError` for an unknown id or a file that is not a usable style.
    """
    if not papers:
        return [], []
    path = style_path(style_id, user_dir)
    items = csl_items(papers)
    with _FORMATTING:
        return _format(_load_style(path), path, items)


def _format(style: Any, path: Path, items: list[dict[str, Any]]) -> tuple[list[str], list[str]]:  # noqa: ANN401 - a citeproc style
    from citeproc import Citation, CitationItem, CitationStylesBibliography, formatter
    from citeproc.source.json import CiteProcJSON

    # one HTML pass; the plain text is that HTML without its tags (citeproc-py is slow: APA
    # takes ~20 ms a paper, Chicago ~30 ms; formatting twice would double the wait)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # citeproc-py warns about variables it does not know
        try:
            bib = CitationStylesBibliography(style, CiteProcJSON(_swap(items)), formatter.html)
            bib.register(Citation([CitationItem(i["id"]) for i in items]))
            entries = [_clean(e) for e in bib.bibliography()]
            titles = [cast(str, _swap(i["title"])) for i in items if "author" not in i and i.get("title")]
            entries = [_drop_repeated_title(e, titles) for e in entries]
        except Exception as exc:
            detail = str(exc).splitlines()[0] if str(exc) else ""
            raise CitationStyleError(
                f"citation style {path.name} cannot format these papers: {type(exc).__name__} {detail}".rstrip()
            ) from exc
    plain = [_unswap(html.unescape(_TAG.sub("", e)), _UNSWAP_TEXT) for e in entries]
    return plain, [_unswap(e, _UNSWAP_HTML) for e in entries]


def _drop_repeated_title(entry: str, titles: list[str]) -> str:
    """A paper without authors has its title in the authors' place (CSL's substitute), and
    citeproc-py then prints it a second time where the title goes: drop that second one."""
    for title in titles:
        found = list(re.finditer(rf"“?{re.escape(title)}”?[.,]?\s*", entry, re.IGNORECASE))
        if len(found) >= 2:
            entry = (entry[: found[1].start()] + entry[found[1].end() :]).rstrip()
    return entry


def _unswap(text: str, table: dict[str, str]) -> str:
    for stand_in, value in table.items():
        text = text.replace(stand_in, value)
    return text


def bibliography_text(plain: Sequence[str]) -> str:
    """Plain entries as one text, a blank line between entries."""
    return "\n\n".join(plain) + ("\n" if plain else "")


def bibliography_html(entries: Sequence[str], title: str = "") -> str:
    """HTML entries (already safe) as a fragment, or a whole document when ``title`` is given."""
    body = "\n".join(f'<p class="csl-entry">{e}</p>' for e in entries)
    if not title:
        return body
    t = html.escape(title)
    return (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{t}</title></head>\n'
        f"<body>\n<h1>{t}</h1>\n{body}\n</body></html>\n"
    )


def render_bibliography(
    papers: Sequence[ExportPaper],
    fmt: str,
    style_id: str = DEFAULT_STYLE,
    title: str = "Bibliography",
    *,
    user_dir: Path | None = None,
) -> str:
    """The papers' bibliography as a whole file: ``bibliography-html`` (an HTML document whose
    text is all escaped) or ``bibliography-txt``."""
    plain, entries = format_citation(papers, style_id, user_dir=user_dir)
    if fmt == "bibliography-html":
        return bibliography_html(entries, title or "Bibliography")
    if fmt == "bibliography-txt":
        return bibliography_text(plain)
    raise ValueError(f"unknown bibliography format {fmt!r}")


def cite_papers(
    lib: Library, paper_ids: Sequence[int], style_id: str = DEFAULT_STYLE, *, user_dir: Path | None = None
) -> tuple[list[str], list[str]]:
    """:func:`format_citation` for papers of a library, by id."""
    return format_citation(lib.exports.papers(list(paper_ids)), style_id, user_dir=user_dir)
