"""Exporters: every format re-read with its own reader, escaping, and the atomic writer."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import bibtexparser
import pytest
import rispy
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from pylatexenc.latex2text import LatexNodes2Text

from desktop_app.core.formats import atomic
from desktop_app.core.formats.atomic import write_bytes_atomic, write_text_atomic
from desktop_app.core.formats.bibtex_writer import (
    assign_keys,
    balance_latex,
    escape_latex,
    render_bibtex,
)
from desktop_app.core.formats.csv_writer import CSV_COLUMNS, safe_cell
from desktop_app.core.formats.json_writer import (
    library_json,
    papers_from_library_json,
    render_library_json,
)
from desktop_app.core.formats.markdown_writer import (
    has_raw_html,
    md_line,
    neutralise_html,
    note_markdown,
)
from desktop_app.core.formats.seeds import read_seeds
from desktop_app.core.formats.writer_common import DERIVED_LINE, plain_abstract
from desktop_app.core.formats.writers import (
    EXPORT_FORMATS,
    render_export,
    write_export,
)
from desktop_app.core.records import ExportHighlight, ExportPaper

SEEDS = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
EVIL_NOTE = "Worth a *re-read*.\n\n<script>alert('note')</script> and **bold** claim\n\n- one\n- two"
EVIL_ABSTRACT_TAIL = " See <img src=x onerror=alert(1)> for details."
HYPERLINK_TITLE = '=HYPERLINK("http://evil.example","click")'


def _to_plain(raw: str) -> str:
    try:
        from desktop_app.core.text import to_plain
    except ImportError:
        return raw
    return to_plain(raw)


def _strict_balanced(text: str) -> bool:
    """Brace balance as BibTeX counts it (every brace, escaped or not)."""
    depth = 0
    for char in text:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def _highlight(plain: str, words: int, color: str, comment: str) -> ExportHighlight:
    """A highlight on the first *words* words after the first sentence of *plain*."""
    start = plain.index(". ") + 2 if ". " in plain else 0
    quote = " ".join(plain[start:].split(" ")[:words])
    return ExportHighlight(quote, comment, color, start, start + len(quote))


def _seed_records():
    files = sorted(SEEDS.glob("*.txt"))
    if not files:
        pytest.skip(f"no seed files in {SEEDS}")
    records = []
    for path in files:
        records += read_seeds(path.read_text(encoding="utf-8")).records[:3]
    return records


@pytest.fixture(scope="module")
def papers() -> list[ExportPaper]:
    """ExportPapers from the real seed abstracts, with the awkward cases mixed in."""
    out = []
    authors = [
        ["Müller, Hans", "Doe, Jane"],
        ["Doe, Jane"],
        ["OpenAI"],
        ["Smith, John", "Johnson and Johnson"],
        [],
    ]
    for index, record in enumerate(_seed_records()):
        abstract = record.abstract + (EVIL_ABSTRACT_TAIL if index == 2 else "")
        plain = _to_plain(abstract)
        title = " ".join(plain.split()[:6])
        if index == 0:
            title = HYPERLINK_TITLE
        elif index == 1:
            title = "Fast *and* <img src=x> 50% & x_y {braces} ~ $\\alpha$"
        out.append(
            ExportPaper(
                id=index + 1,
                uid=f"uid-{index + 1:03d}",
                title=title,
                title_source="derived",
                abstract=abstract,
                abstract_text=plain,
                authors=authors[index % len(authors)],
                venue=record.venue,
                year=record.year,
                doi=f"10.1234/seed_{index}" if index % 2 == 0 else None,
                arxiv_id=f"2601.{index:05d}" if index % 3 == 0 else None,
                url=f"https://example.org/p/{index}?a=1&b=2" if index % 4 == 0 else None,
                # two papers claim the same key; one key is invalid
                bibtex_key={0: "shared2026", 1: "shared2026", 2: "bad key,"}.get(index),
                entry_type="article" if index == 3 else None,
                tags=["rl/rlvr", "to_read"] if index % 2 == 0 else ["graphs"],
                status=("unread", "skimmed", "read")[index % 3],
                rating=index % 6,
                note={0: "-1", 1: EVIL_NOTE}.get(index, f"Plain note {index}.\nSecond line."),
                note_revisions=[{"text": "first draft", "saved_at": "2026-01-02 03:04:05"}],
                highlights=(
                    [
                        _highlight(plain, 4, "yellow", "key *claim* <b>"),
                        ExportHighlight("gone text", "orphan", "green", 0, 9, orphaned=True),
                    ]
                    if index in (1, 2)
                    else []
                ),
                added_at="2026-01-01T00:00:00",
                item_note="Read before Friday\n1. then discuss" if index == 1 else None,
                extra={"pages": "1--10"} if index == 3 else {},
            )
        )
    return out


# --- dispatcher -------------------------------------------------------------------------------


def test_every_format_renders_and_unknown_ones_are_refused(papers):
    for fmt in EXPORT_FORMATS:
        assert render_export(fmt, papers).strip()
    for bad in ("pdf", "docx", ""):
        with pytest.raises(ValueError):
            render_export(bad, papers)


def test_write_export_writes_each_format(tmp_path, papers):
    for fmt in EXPORT_FORMATS:
        path = write_export(fmt, papers, tmp_path / f"out.{fmt}", title="T")
        data = path.read_bytes()
        expected = render_export(fmt, papers, title="T")
        if fmt == "csv":
            assert data.startswith(b"\xef\xbb\xbf")  # BOM so spreadsheets read UTF-8
            assert data.decode("utf-8-sig") == expected
        elif fmt != "json":  # json carries the export time
            assert data.decode("utf-8") == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"out.{f}" for f in EXPORT_FORMATS)


# --- BibTeX -----------------------------------------------------------------------------------


def test_bibtex_rereads_with_same_entries_and_fields(papers):
    text = render_export("bib", papers)
    library = bibtexparser.parse_string(text)
    assert library.failed_blocks == []
    assert len(library.entries) == len(papers)
    keys = [e.key for e in library.entries]
    assert len({k.lower() for k in keys}) == len(keys)
    decode = LatexNodes2Text().latex_to_text
    for entry, paper in zip(library.entries, papers, strict=True):
        fields = entry.fields_dict
        assert decode(fields["title"].value) == paper.title
        assert fields["year"].value == str(paper.year)
        assert ("doi" in fields) == bool(paper.doi)
        if paper.doi:
            assert fields["doi"].value == paper.doi  # verbatim: no "\_"
        assert decode(fields["keywords"].value) == ", ".join(paper.tags)
        assert fields["abstract"].value == paper.abstract  # seeds balance: kept as is
        assert "note" not in fields
        if paper.arxiv_id:
            assert fields["eprint"].value == paper.arxiv_id
            assert fields["archiveprefix"].value == "arXiv"
        for field in fields.values():
            assert _strict_balanced(field.value), field


def test_bibtex_escapes_specials_in_plain_values(papers):
    text = render_bibtex(papers)
    assert r"Fast *and* <img src=x> 50\% \& x\_y \{braces\} \textasciitilde{} \$\textbackslash{}alpha\$" in text
    assert "author = {Smith, John and {Johnson and Johnson}}" in text
    assert "booktitle = {NeurIPS}" in text  # a conference venue
    assert "journal = {NeurIPS}" in text  # entry_type "article" wins over the guess


def test_bibtex_keys_are_unique_stable_and_keep_valid_own_keys(papers):
    first, second = assign_keys(papers), assign_keys(list(papers))
    assert first == second
    assert render_bibtex(papers) == render_bibtex(papers)
    assert len({k.lower() for k in first}) == len(first)
    assert first[0] == "shared2026"  # own key kept
    assert first[1] != "shared2026"  # taken: generated instead
    assert first[2] != "bad key,"  # invalid: generated instead
    for key in first[1:]:
        assert re.fullmatch(r"[a-z]+(\d{4}|nd)[a-z0-9]*", key), key
    assert first[1].startswith("doe2026") or first[1].startswith("muller2026")


def test_bibtex_key_clashes_get_letter_suffixes():
    base = dict(
        title_source="derived",
        abstract="",
        abstract_text="",
        venue=None,
        doi=None,
        arxiv_id=None,
        url=None,
        bibtex_key=None,
        entry_type=None,
        tags=[],
        status="unread",
        rating=0,
        note="",
    )
    same = [
        ExportPaper(
            id=i,
            uid=f"u{i}",
            title="The Müller Effect",
            authors=["Ødegård, Åse"],
            year=2025,
            **base,
        )
        for i in range(3)
    ]
    assert assign_keys(same) == ["odegard2025muller", "odegard2025mullera", "odegard2025mullerb"]
    anonymous = ExportPaper(id=9, uid="u9", title="", authors=[], year=None, **base)
    assert assign_keys([anonymous]) == ["anonnd"]


def test_bibtex_notes_only_on_request(papers):
    without = bibtexparser.parse_string(render_export("bib", papers))
    with_notes = bibtexparser.parse_string(render_export("bib", papers, include_notes_in_bibtex=True))
    assert all("note" not in e.fields_dict for e in without.entries)
    assert with_notes.failed_blocks == []
    notes = [e.fields_dict["note"].value for e in with_notes.entries]
    assert notes[0] == "-1"
    assert r"<script>alert('note')</script> and **bold** claim" in notes[1]


def test_bibtex_hostile_abstract_cannot_break_out_of_its_entry(papers):
    hostile = dataclasses.replace(
        papers[3],
        abstract="Text } with\n@misc{injected, title = {x}}\n and \\{ strays { and \\\\{b}",
        title="}{ unbalanced",
    )
    library = bibtexparser.parse_string(render_bibtex([hostile, papers[4]]))
    assert library.failed_blocks == []
    assert [e.key for e in library.entries] == assign_keys([hostile, papers[4]])
    for field in library.entries[0].fields:
        assert _strict_balanced(field.value)


def test_balance_latex_keeps_balanced_latex_and_fixes_strays():
    balanced = r"\textbf{R}ecursive $\{x_i\}$ and \emph{y}"
    assert balance_latex(balanced) == balanced
    assert balance_latex("a } b {") == r"a \textbraceright{} b \textbraceleft{}"
    assert balance_latex(r"$\left\{ x \right.$") == r"$\left\lbrace{} x \right.$"


printable = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")) | st.sampled_from("\n{}\\@%$&#_~^"),
    max_size=60,
)


@settings(max_examples=200, deadline=None)
@given(title=printable, abstract=printable)
def test_any_text_stays_inside_one_bibtex_entry(title, abstract):
    text = (
        "@misc{k,\n  title = {"
        + escape_latex(title)
        + "},\n  abstract = {"
        + balance_latex(abstract)
        + "},\n  year = {2026}\n}\n"
    )
    library = bibtexparser.parse_string(text)
    assert library.failed_blocks == []
    assert [e.key for e in library.entries] == ["k"]
    assert library.entries[0].fields_dict["year"].value == "2026"
    assert _strict_balanced(escape_latex(title)) and _strict_balanced(balance_latex(abstract))


# --- RIS --------------------------------------------------------------------------------------


def test_ris_rereads_with_all_fields(papers):
    records = rispy.loads(render_export("ris", papers))
    assert len(records) == len(papers)
    for record, paper in zip(records, papers, strict=True):
        assert record["id"] == paper.uid
        assert record["type_of_reference"] == ("JOUR" if paper.entry_type == "article" else "CONF")
        assert record["title"] == " ".join(paper.title.split())
        assert record.get("authors", []) == paper.authors
        assert record["year"] == str(paper.year)
        venue = record.get("journal_name") or record.get("secondary_title")
        assert venue == paper.venue
        assert record["abstract"] == " ".join(plain_abstract(paper).split())
        assert record.get("doi") == paper.doi
        assert record["keywords"] == paper.tags
        note_lines = [line.strip() for line in paper.note.splitlines() if line.strip()]
        # these titles are derived: a note line of their own says so
        assert record["notes"] == [DERIVED_LINE, *note_lines]
        urls = record.get("urls", [])
        if paper.url:
            assert paper.url in urls
        if paper.arxiv_id:
            assert f"https://arxiv.org/abs/{paper.arxiv_id}" in urls


def test_ris_note_cannot_forge_tags_or_end_a_record(papers):
    forged = dataclasses.replace(papers[0], note="fine\nER  - \nTY  - JOUR\nTI  - forged")
    records = rispy.loads(render_export("ris", [forged, papers[1]]))
    assert len(records) == 2
    assert records[0]["title"] == papers[0].title
    assert records[0]["notes"] == [DERIVED_LINE, "fine", "ER  -", "TY  - JOUR", "TI  - forged"]


# --- CSL-JSON ---------------------------------------------------------------------------------


def test_csljson_round_trip(papers):
    items = json.loads(render_export("csljson", papers))
    assert [i["id"] for i in items] == [p.uid for p in papers]
    assert [i["citation-key"] for i in items] == assign_keys(papers)
    first = items[0]
    assert first["author"] == [
        {"family": "Müller", "given": "Hans"},
        {"family": "Doe", "given": "Jane"},
    ]
    assert items[2]["author"] == [{"literal": "OpenAI"}]
    assert "author" not in items[4]
    for item, paper in zip(items, papers, strict=True):
        assert item["type"] == ("article-journal" if paper.entry_type == "article" else "paper-conference")
        assert item["title"] == paper.title
        assert item["issued"] == {"date-parts": [[paper.year]]}
        assert item["container-title"] == paper.venue
        assert item["abstract"] == plain_abstract(paper).strip()
        assert item.get("DOI") == paper.doi
        assert item["keyword"] == ", ".join(paper.tags)
        assert item["note"] == "\n\n".join(x for x in (DERIVED_LINE, paper.note.strip()) if x)
        if paper.url:
            assert item["URL"] == paper.url
        elif paper.arxiv_id:
            assert item["URL"] == f"https://arxiv.org/abs/{paper.arxiv_id}"


# --- CSV --------------------------------------------------------------------------------------


def test_csv_round_trip_and_formula_prefix(papers):
    rows = list(csv.reader(io.StringIO(render_export("csv", papers), newline="")))
    assert tuple(rows[0]) == CSV_COLUMNS
    body = [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]
    assert len(body) == len(papers)
    assert body[0]["title"] == "'" + HYPERLINK_TITLE
    assert body[0]["note"] == "'-1"
    assert body[1]["note"] == EVIL_NOTE  # multi-line cell survives
    for row, paper in zip(body, papers, strict=True):
        assert row["uid"] == paper.uid and row["id"] == str(paper.id)
        assert row["authors"] == ";".join(paper.authors)
        assert row["tags"].split(";") == paper.tags
        assert row["year"] == str(paper.year)
        assert row["rating"] == str(paper.rating)
        assert row["highlights"] == str(len(paper.highlights))
        assert row["abstract"] == plain_abstract(paper)
        for value in row.values():
            assert not value.startswith(("=", "+", "-", "@", "\t", "\r")), value


@given(st.text(max_size=20))
def test_safe_cell_never_leaves_a_formula(value):
    cell = safe_cell(value)
    assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert cell in (value, "'" + value)


# --- JSON -------------------------------------------------------------------------------------


def test_library_json_is_lossless(papers):
    text = render_library_json(papers, [{"name": "Friday", "items": [{"uid": "uid-002"}]}])
    document = json.loads(text)
    assert document["format"] == "marginalia-library" and document["version"] == 1
    assert re.match(r"\d{4}-\d\d-\d\dT", document["exported_at"])
    assert document["reading_lists"] == [{"name": "Friday", "items": [{"uid": "uid-002"}]}]
    assert document["papers"][1]["note_revisions"] == papers[1].note_revisions
    assert document["papers"][1]["highlights"][1]["orphaned"] is True
    restored = papers_from_library_json(text)
    assert restored == papers
    assert [dataclasses.asdict(p) for p in restored] == [dataclasses.asdict(p) for p in papers]
    assert json.loads(render_export("json", papers))["papers"] == document["papers"]


def test_library_json_refuses_other_documents(papers):
    document = library_json(papers, exported_at="2026-01-01T00:00:00+00:00")
    assert document["exported_at"] == "2026-01-01T00:00:00+00:00"
    with pytest.raises(ValueError):
        papers_from_library_json({**document, "format": "something-else"})
    with pytest.raises(ValueError):
        papers_from_library_json({**document, "version": 99})


# --- Markdown ---------------------------------------------------------------------------------


def test_markdown_carries_everything_and_no_raw_html(papers):
    text = render_export("md", papers, title="Week *3* <b>", description="Papers for Friday.")
    assert text.startswith("# Week \\*3\\* &lt;b&gt;\n")
    assert "Papers for Friday." in text
    assert "## 2. Fast \\*and\\* &lt;img src=x&gt; 50% & x\\_y" in text
    assert "**bold** claim" in text and "- one\n- two" in text  # the note stays markdown
    assert "&lt;script>alert('note')&lt;/script>" in text
    quote = papers[1].highlights[0].quote
    assert f"> {quote}" in text
    assert "key \\*claim\\* &lt;b&gt;" in text
    assert "no longer found in the abstract" in text
    assert "Read before Friday\\\n1\\. then discuss" in text  # item note, not a list
    assert "★★★★★" in text and "not rated" in text
    assert "<img" not in text and "<script" not in text
    rendered = MarkdownIt("commonmark").render(text)
    assert not has_raw_html(text)
    assert "<img" not in rendered and "<script" not in rendered
    assert "<strong>bold</strong>" in rendered
    assert rendered.count("<h2>") == len(papers)


@pytest.mark.parametrize(
    "note",
    [
        "<script>`</script>\ntext ` <img src=x onerror=alert(1)> `",
        "<div>\n```\n</div>\n\n```\n<img src=x onerror=alert(1)>\n```",
        "para `x\n<div onmouseover=alert(1)>y` z",
        "| a | `b | <img src=x onerror=alert(1)>` |\n|---|---|\n| c | d |",
        "\\`<img src=x onerror=alert(1)>`",
    ],
)
def test_markdown_note_html_is_neutralised_even_when_tricky(note):
    assert not has_raw_html(neutralise_html(note))
    out = note_markdown(note)
    assert not has_raw_html(out)
    assert "<img" not in MarkdownIt("commonmark").enable("table").render(out)


def test_markdown_note_keeps_code_and_moves_headings_down():
    out = note_markdown("# Idea\n\nUse `List<int>` here.\n\n```\n<tag>\n```\n\nSub\n---")
    assert out.startswith("#### Idea")
    assert "`List<int>`" in out and "```\n<tag>\n```" in out
    assert out.endswith("#### Sub")


@given(st.text(max_size=40))
def test_md_line_never_produces_markup(text):
    line = md_line(text.replace("\n", " "))
    rendered = MarkdownIt("commonmark").render(line)
    assert "<" not in re.sub(r"</?p>", "", rendered).replace("<br />", "")


# --- HTML -------------------------------------------------------------------------------------


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


class _Text(HTMLParser):
    """The text a reader sees (not the style sheet)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        self._in_style = self._in_style or tag == "style"

    def handle_endtag(self, tag):
        self._in_style = self._in_style and tag != "style"

    def handle_data(self, data):
        if not self._in_style:
            self.parts.append(data)


def test_html_is_standalone_safe_and_complete(papers):
    text = render_export("html", papers, title="Week <3>", description="For *Friday*")
    lower = text.lower()
    assert text.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in text
    assert "<title>Week &lt;3&gt;</title>" in text
    assert "<script" not in lower and "<img" not in lower and "<link" not in lower
    assert "@import" not in lower and "url(" not in lower
    assert "page-break-inside: avoid" in text
    parser = _Tags()
    parser.feed(text)
    allowed = {
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "header",
        "h1",
        "h2",
        "h3",
        "h4",
        "div",
        "p",
        "nav",
        "ol",
        "ul",
        "li",
        "a",
        "main",
        "article",
        "span",
        "b",
        "i",
        "code",
        "strong",
        "em",
        "br",
        "figure",
        "blockquote",
        "figcaption",
        "hr",
        "pre",
    }
    assert {tag for tag, _ in parser.tags} <= allowed
    for tag, attrs in parser.tags:
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
        assert "src" not in attrs
        if tag == "a":
            assert attrs["href"].startswith(("#paper-", "https://")), attrs
    anchors = [a["href"] for t, a in parser.tags if t == "a" and a["href"].startswith("#")]
    ids = [a["id"] for t, a in parser.tags if t == "article"]
    assert anchors == [f"#{i}" for i in ids] and len(ids) == len(papers)
    # user and imported text arrives escaped
    assert "Fast *and* &lt;img src=x&gt; 50% &amp; x_y {braces}" in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in text
    assert "&lt;script&gt;alert('note')&lt;/script&gt;" in text
    assert "<strong>bold</strong>" in text and "<li>one</li>" in text
    assert "<p>Read before Friday<br>1. then discuss</p>" in text
    quote = papers[1].highlights[0].quote
    assert '<blockquote style="border-left-color: ' in text
    assert f'<p><span class="mark" style="background-color: #fff59d">{quote}</span></p>' in text
    assert "key *claim* &lt;b&gt;" in text
    assert "For *Friday*" in text


def test_html_refuses_unsafe_highlight_colours_and_links(papers):
    paper = dataclasses.replace(
        papers[1],
        highlights=[
            ExportHighlight("q", "c", "red;background:url(http://x)", 0, 1),
            ExportHighlight("q", "c", "green", 0, 1),
        ],
        url="javascript:alert(1)",
        note="[x](javascript:alert(1)) ![pixel](https://tracker.example/p.png)",
    )
    text = render_export("html", [paper])
    parser = _Tags()
    parser.feed(text)
    styles = [a["style"] for _, a in parser.tags if "style" in a]
    assert len(styles) == 2, styles  # border and mark of the green one only
    for style in styles:
        assert re.fullmatch(r"(border-left-color|background-color): (#[0-9a-f]{6}|[a-z]+)", style)
    assert not any(a.get("href", "").startswith("javascript") for _, a in parser.tags)
    assert "<img" not in text
    shown = _Text()
    shown.feed(text)
    words = " ".join(shown.parts)
    assert "red;background" not in words and "green" not in words  # colours are shown, never named


# --- atomic writes ----------------------------------------------------------------------------


class _Boom(OSError):
    """A write failure injected by the tests."""


def _leftovers(directory: Path, keep: str) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name != keep)


def test_atomic_write_replaces_content(tmp_path):
    target = tmp_path / "export.md"
    target.write_text("old", encoding="utf-8")
    assert write_text_atomic(target, "new ✓") == target
    assert target.read_text(encoding="utf-8") == "new ✓"
    assert write_bytes_atomic(str(tmp_path / "fresh.bin"), b"\x00\x01") == tmp_path / "fresh.bin"
    assert _leftovers(tmp_path, "export.md") == ["fresh.bin"]


def test_failure_mid_write_keeps_old_file_and_leaves_no_temp(tmp_path, monkeypatch):
    target = tmp_path / "export.bib"
    target.write_text("old content", encoding="utf-8")
    real_write = os.write

    def half_then_boom(fd, data):
        real_write(fd, bytes(data[: len(data) // 2]))
        raise _Boom("disk full")

    monkeypatch.setattr(atomic.os, "write", half_then_boom)
    with pytest.raises(_Boom):
        write_text_atomic(target, "new content that is long enough to be cut in half")
    assert target.read_text(encoding="utf-8") == "old content"
    assert _leftovers(tmp_path, "export.bib") == []


def test_short_writes_are_continued(tmp_path, monkeypatch):
    """os.write may take fewer bytes than offered (pipes, signals, some file systems)."""
    real_write = os.write
    sizes = []

    def three_bytes_at_a_time(fd, data):
        sizes.append(len(data))
        return real_write(fd, bytes(data[:3]))

    monkeypatch.setattr(atomic.os, "write", three_bytes_at_a_time)
    payload = bytes(range(256)) * 4
    write_bytes_atomic(tmp_path / "x.bin", payload)
    assert (tmp_path / "x.bin").read_bytes() == payload and len(sizes) == -(-len(payload) // 3)


def test_a_failed_check_keeps_old_file(tmp_path):
    target = tmp_path / "x.pdf"
    target.write_bytes(b"old")

    def reject(temp):
        assert temp.parent == tmp_path and temp.read_bytes() == b"new"
        raise atomic.IncompleteWrite("not what was expected")

    with pytest.raises(atomic.IncompleteWrite, match="not what was expected"):
        write_bytes_atomic(target, b"new", check=reject)
    assert target.read_bytes() == b"old" and _leftovers(tmp_path, "x.pdf") == []


def test_failure_at_replace_keeps_old_file_and_leaves_no_temp(tmp_path, monkeypatch, papers):
    target = tmp_path / "export.csv"
    target.write_text("old", encoding="utf-8")

    def refuse(src, dst):
        raise _Boom("cannot replace")

    monkeypatch.setattr(atomic.os, "replace", refuse)
    with pytest.raises(_Boom):
        write_export("csv", papers, target)
    assert target.read_text(encoding="utf-8") == "old"
    assert _leftovers(tmp_path, "export.csv") == []
    missing = tmp_path / "never.csv"
    with pytest.raises(_Boom):
        write_export("csv", papers, missing)
    assert not missing.exists() and _leftovers(tmp_path, "export.csv") == []


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_atomic_write_keeps_permissions(tmp_path):
    target = tmp_path / "notes.md"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o600)
    write_text_atomic(target, "new")
    assert target.stat().st_mode & 0o777 == 0o600
