"""PDF exports through Qt: right page count, page numbers, the titles in the text."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from desktop_app.core.library import Library
from desktop_app.exporting import export_to_file


def _letters(text: str) -> str:
    """Only letters and digits, NFKC-folded: PDF text extraction splits lines and ligatures."""
    import unicodedata

    return "".join(ch for ch in unicodedata.normalize("NFKC", text).lower() if ch.isalnum())


def test_pdf_of_a_reading_list(qapp, seed_library: Library, tmp_path: Path) -> None:  # noqa: ANN001
    ids = seed_library.query("").ids
    seed_library.lists.create("Group meeting", "For Friday")
    seed_library.lists.add("Group meeting", ids[:12])
    out = tmp_path / "list.pdf"
    assert export_to_file(seed_library, "pdf", out, list_name="Group meeting") == 12
    reader = PdfReader(str(out))
    pages = len(reader.pages)
    assert 3 <= pages <= 12  # twelve abstracts do not fit on one page, nor need one each
    text = " ".join(p.extract_text() for p in reader.pages)
    flat = " ".join(text.split())
    letters = _letters(text)
    for pid in ids[:12]:
        title = seed_library.papers.get(pid).title
        assert _letters(title) in letters, title
    assert f"page {pages} of {pages}" in flat
    assert reader.metadata.title == "Group meeting"


def test_a_failed_pdf_export_leaves_the_old_file(qapp, seed_library: Library, tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    out = tmp_path / "old.pdf"
    out.write_bytes(b"%PDF-1.4 an older export")
    import desktop_app.gui.pdf_export as pdf

    def boom(*_a, **_k):  # noqa: ANN002, ANN003, ANN202
        raise RuntimeError("disk full")

    monkeypatch.setattr(pdf.QTextDocument, "drawContents", boom)
    import pytest

    with pytest.raises(RuntimeError, match="disk full"):
        export_to_file(seed_library, "pdf", out)
    assert out.read_bytes() == b"%PDF-1.4 an older export"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".old")] == []
