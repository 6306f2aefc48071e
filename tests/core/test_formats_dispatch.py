"""The public dispatcher: encodings, detection by content, non-bibliographic files, limits."""

from __future__ import annotations

import random
import zlib

import pytest

from desktop_app.core.formats import FORMATS, ImportTooLarge, read_bytes, read_path
from desktop_app.core.formats.detect import detect_format, sniff_binary
from desktop_app.core.formats.encoding import decode_bytes

BIB = "@article{k, title = {Über Größe}, author = {Çelik, Ayşe}}\n"


def _png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    header = chunk(b"IHDR", (1).to_bytes(4, "big") * 2 + b"\x08\x02\x00\x00\x00")
    pixels = chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00"))
    return b"\x89PNG\r\n\x1a\n" + header + pixels + chunk(b"IEND", b"")


NOT_BIBLIOGRAPHIC = {
    "empty": (b"", "the file is empty"),
    "blank": (b" \n\t\r\n", "the file is empty"),
    "png": (_png(), "not a bibliographic file (looks like a PNG image)"),
    "pdf": (
        b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n",
        "not a bibliographic file (looks like a PDF document)",
    ),
    "jpeg": (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00", "not a bibliographic file (looks like a JPEG image)"),
    "zip": (b"PK\x03\x04\x14\x00\x00\x00", "not a bibliographic file (looks like a ZIP archive or an Office document)"),
    "random": (random.Random(7).randbytes(4096), "not a bibliographic file (looks like binary data)"),
    "prose": (b"Dear diary,\nnothing to see here.\n", None),
    "json": (b"[1, 2, 3]", "not a bibliographic file (JSON, but not a CSL-JSON list of items)"),
    "html": (b"<!DOCTYPE html><html><body>Hi</body></html>", "not a bibliographic file (looks like a web page)"),
}


@pytest.mark.parametrize("case", sorted(NOT_BIBLIOGRAPHIC))
@pytest.mark.parametrize("name", ["", "papers.bib"])
def test_not_bibliographic(case, name):
    data, message = NOT_BIBLIOGRAPHIC[case]
    result = read_bytes(data, name=name)
    assert result.format == "unknown"
    assert result.records == []
    (error,) = result.errors
    assert "\n" not in error.message
    if message:
        assert error.message == message
    else:
        assert error.message.startswith("not a bibliographic file")


def test_forcing_a_format_does_not_read_a_pdf():
    assert read_bytes(NOT_BIBLIOGRAPHIC["pdf"][0], fmt="bibtex").format == "unknown"


@pytest.mark.parametrize(
    ("data", "encoding", "warning"),
    [
        (BIB.encode("utf-8"), "UTF-8", None),
        (b"\xef\xbb\xbf" + BIB.encode("utf-8"), "UTF-8", None),
        (b"\xff\xfe" + BIB.encode("utf-16-le"), "UTF-16 LE", None),
        (b"\xfe\xff" + BIB.encode("utf-16-be"), "UTF-16 BE", None),
        (BIB.encode("utf-16-le"), "UTF-16 LE", "no byte-order mark: decoded as UTF-16 LE"),
        (BIB.encode("cp1252", errors="replace"), "Windows-1252", "not UTF-8: decoded as Windows-1252"),
    ],
)
def test_decode_bytes(data, encoding, warning):
    decoded = decode_bytes(data)
    assert decoded.encoding == encoding
    assert decoded.warning == warning


def test_stray_cp1252_byte_in_utf8_is_patched_and_located():
    data = "line one é\nline two ü\n".encode() + b"smart \x93quote\x94\n"
    decoded = decode_bytes(data)
    assert decoded.text.endswith("smart \u201cquote\u201d\n")
    assert "é" in decoded.text and "ü" in decoded.text
    assert decoded.warning == "not valid UTF-8: 2 stray byte(s) decoded as Windows-1252 (line 3)"


@pytest.mark.parametrize(
    ("text", "codec", "label"),
    [
        ("@article{x, title={深度学习的理论研究}, author={张三 and 李四}}", "gbk", "GBK"),
        ("@article{x, title={Здравствуйте, мир. Привет}}", "cp1251", "Windows-1251"),
        ("@article{x, title={日本語のテキストです。こんにちは}}", "shift_jis", "Shift_JIS"),
    ],
)
def test_legacy_encodings_are_decoded_and_reported(text, codec, label):
    result = read_bytes(text.encode(codec), name="x.bib")
    assert result.records[0].title == text.split("title={")[1].split("}")[0]
    assert [str(w) for w in result.warnings] == [f"not UTF-8: decoded as {label}"]


@pytest.mark.parametrize(
    ("text", "name", "fmt"),
    [
        ("TY  - JOUR\nTI  - x\nER  - \n", "wrong.bib", "ris"),
        (BIB, "notes.txt", "bibtex"),
        ('[{"title": "x"}]', "", "csljson"),
        ("title,abstract\nx,y\n", "a.bib", "csv"),
        ('<feed xmlns="http://www.w3.org/2005/Atom"><entry/></feed>', "", "arxiv"),
        ("PT J\nAU Doe, J\nTI x\nER\n", "", "wos"),
        ("NeurIPS 2026 Papers\n\n" + "A long abstract sentence that goes on. " * 4 + "\n", "", "seed"),
    ],
)
def test_detection_is_by_content(text, name, fmt):
    assert detect_format(text, name) == fmt


def test_forced_format_is_used():
    result = read_bytes(b"title,abstract\nx,y\n", fmt="bibtex")
    assert result.format == "bibtex"
    assert result.records == [] and "no records found" in result.errors[0].message
    with pytest.raises(ValueError):
        read_bytes(b"x", fmt="endnote")
    assert set(FORMATS) == {"seed", "bibtex", "ris", "wos", "medline", "csljson", "arxiv", "csv"}


def test_sniff_binary_leaves_text_alone():
    assert sniff_binary(BIB.encode()) is None
    assert sniff_binary(BIB.encode("utf-16-le")) is None
    assert sniff_binary(b"\x00\x01\x02binary") == "binary data"


def test_too_large(tmp_path):
    path = tmp_path / "big.bib"
    path.write_bytes(BIB.encode() * 40)
    result = read_path(path, max_bytes=1024)
    assert result.format == "unknown" and result.records == []
    (error,) = result.errors
    assert error.message.startswith("big.bib is 2 KB; the limit is 1 KB")
    assert read_path(path, max_bytes=10_000).records  # under the limit it reads
    assert issubclass(ImportTooLarge, Exception)


def test_unreadable_paths(tmp_path):
    missing = read_path(tmp_path / "nope.bib")
    assert missing.format == "unknown" and "cannot open nope.bib" in missing.errors[0].message
    folder = read_path(tmp_path)
    assert folder.format == "unknown" and "folder" in folder.errors[0].message


def test_read_path_time_budget(tmp_path):
    path = tmp_path / "a.ris"
    path.write_text("TY  - JOUR\nTI  - x\nER  - \n", encoding="utf-8")
    result = read_path(path, time_budget=0)
    assert result.records == [] and "time budget" in result.errors[0].message
    assert read_path(path).records[0].title == "x"


def test_a_reader_bug_becomes_an_error(monkeypatch):
    import desktop_app.core.formats as formats

    def broken(text, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setitem(formats._READERS, "bibtex", broken)
    result = read_bytes(BIB.encode())
    assert result.format == "bibtex"
    assert result.errors[0].message == "could not read the file as BibTeX: boom"


def test_the_format_with_more_records_wins():
    entries = "".join(f"@misc{{k{i}, title={{T{i}}}}}\n" for i in range(3))
    text = entries + "@misc{r, abstract={quoted export:\nTY  - JOUR\nER  - \n}}\n"
    assert detect_format(text) == "bibtex"
    assert detect_format(text, "papers.ris") == "ris"  # the extension breaks the tie it sees


def test_legacy_encoding_is_judged_by_the_lines_that_need_it():
    ascii_first = b"".join(b"@misc{a%d, title={plain ascii}}\n" % i for i in range(20_000))
    data = ascii_first + "@misc{b, title={深度学习}, author={张三}}\n".encode("gbk")
    result = read_bytes(data, name="x.bib")
    assert result.records[-1].title == "深度学习" and result.records[-1].authors == ["张三"]
    assert [str(w) for w in result.warnings] == ["not UTF-8: decoded as GBK"]
