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


def test_pdf_of_a_reading_list(qapp, seed_library: Library, tmp_path: Path) -> None:
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


def test_a_failed_pdf_export_leaves_the_old_file(qapp, seed_library: Library, tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "old.pdf"
    out.write_bytes(b"%PDF-1.4 an older export")
    import desktop_app.gui.pdf_export as pdf

    def boom(*_a, **_k):
        raise RuntimeError("disk full")

    monkeypatch.setattr(pdf.QTextDocument, "drawContents", boom)
    import pytest

    with pytest.raises(RuntimeError, match="disk full"):
        export_to_file(seed_library, "pdf", out)
    assert out.read_bytes() == b"%PDF-1.4 an older export"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".old")] == []


def test_a_pdf_export_onto_a_full_disk_keeps_the_old_pdf(
    qapp, seed_library: Library, tmp_path: Path, monkeypatch
) -> None:
    """QPdfWriter reports no write errors; the PDF now goes through the checked atomic write."""
    import pytest

    from desktop_app.core.errors import ExportFailed
    from tests.helpers.full_disk import OLD, full_disk_on_fsync, full_disk_on_write

    folder = tmp_path / "exports"
    folder.mkdir()
    out = folder / "papers.pdf"
    for failure in (full_disk_on_write, full_disk_on_fsync):
        out.write_bytes(OLD)
        with monkeypatch.context() as m:
            failure(m)
            with pytest.raises(ExportFailed, match=f"no space left on {folder}; the old file is unchanged"):
                export_to_file(seed_library, "pdf", out)
        assert out.read_bytes() == OLD
        assert [p.name for p in folder.iterdir()] == ["papers.pdf"]


def test_a_pdf_without_its_trailer_never_replaces_the_old_one(
    qapp, seed_library: Library, tmp_path: Path, monkeypatch
) -> None:
    import pytest

    import desktop_app.gui.pdf_export as pdf
    from desktop_app.core.errors import ExportFailed

    out = tmp_path / "papers.pdf"
    out.write_bytes(b"%PDF-1.4 the good old export\n%%EOF\n")
    real_render = pdf.render_pdf
    cut: list[int] = []

    def truncated(html: str, *, title: str) -> tuple[bytes, int]:
        data, pages = real_render(html, title=title)
        cut.append(len(data))
        return data[: len(data) * 2 // 3], pages

    monkeypatch.setattr(pdf, "render_pdf", truncated)
    with pytest.raises(ExportFailed, match="incomplete.*no %%EOF trailer"):
        export_to_file(seed_library, "pdf", out, ids=seed_library.query("").ids[:5])
    assert cut and out.read_bytes() == b"%PDF-1.4 the good old export\n%%EOF\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".papers")] == []
    monkeypatch.undo()
    assert export_to_file(seed_library, "pdf", out, ids=seed_library.query("").ids[:5]) == 5
    pdf.check_pdf(out)
    assert len(PdfReader(str(out)).pages) >= 1


def test_file_export_pdf_onto_a_full_disk_shows_one_error(
    make_window, library_dir: Path, seed_paths, qtbot, tmp_path: Path, monkeypatch
) -> None:
    """File → Export → PDF in the window: an error message, no "Exported" in the status bar."""
    from PySide6.QtWidgets import QMessageBox

    from tests.helpers.full_disk import OLD, full_disk_on_write

    win = make_window(library_dir)
    win.library.imports.from_files(seed_paths[:1])
    win.refresh_query()
    folder = tmp_path / "exports"
    folder.mkdir()
    out = folder / "papers.pdf"
    out.write_bytes(OLD)
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: shown.append(text))
    statuses: list[str] = []
    win.files.message.connect(lambda text, *_: statuses.append(text))
    full_disk_on_write(monkeypatch)
    win.files.export_to("pdf", out, "all")
    qtbot.waitUntil(lambda: bool(shown), timeout=60000)
    assert shown == [f"could not write {out}: no space left on {folder}; the old file is unchanged"]
    assert not any("Exported" in s for s in statuses)
    assert out.read_bytes() == OLD and [p.name for p in folder.iterdir()] == ["papers.pdf"]
