"""UTF-16 without a byte-order mark: recognised by its NUL bytes, little- or big-endian."""

from __future__ import annotations

import random

import pytest

from desktop_app.core.formats import read_bytes
from desktop_app.core.formats.detect import sniff_binary
from desktop_app.core.formats.encoding import decode_bytes, looks_like_utf16_without_bom

ASCII_BIB = "@article{k,\n  title = {Plain ASCII only},\n  author = {Muller, J}\n}\n"
CJK_BIB = "@article{k,\n title={深度学习的研究进展与应用综述：方法、数据与评测},\n author={李明 and 王芳}}\n"
CYRILLIC_BIB = "@article{k, title={Исследование свойств графена}, author={Иванов, И. И.}}\n"


@pytest.mark.parametrize("text", [ASCII_BIB, CJK_BIB, CYRILLIC_BIB], ids=["ascii", "cjk", "cyr"])
@pytest.mark.parametrize(("codec", "label"), [("utf-16-le", "UTF-16 LE"), ("utf-16-be", "UTF-16 BE")])
def test_utf16_without_bom_is_decoded(text, codec, label):
    # ASCII-only UTF-16 is valid UTF-8 too (NULs and all): it must not be read as such
    decoded = decode_bytes(text.encode(codec))
    assert (decoded.text, decoded.encoding) == (text, label)
    assert decoded.warning == f"no byte-order mark: decoded as {label}"
    result = read_bytes(text.encode(codec), name="x.bib")
    assert result.format == "bibtex" and len(result.records) == 1 and result.errors == []


def test_utf16_cut_in_half_a_character_still_imports():
    result = read_bytes(ASCII_BIB.encode("utf-16-le") + b"\n", name="x.bib")
    assert result.records[0].title == "Plain ASCII only"
    assert "undecodable bytes were replaced" in result.warnings[0].message


@pytest.mark.parametrize(
    "data",
    [
        ASCII_BIB.encode(),
        ASCII_BIB.encode() + b"\x00" + ASCII_BIB.encode(),  # one stray NUL in UTF-8
        ASCII_BIB.encode("utf-32-le"),
        bytes(b if i % 2 else 0 for i, b in enumerate(random.Random(3).randbytes(4096))),
    ],
    ids=["utf8", "stray-nul", "utf32", "binary-with-nul-pairs"],
)
def test_not_utf16(data):
    assert looks_like_utf16_without_bom(data) is None


def test_binary_with_alternating_nuls_is_still_binary():
    data = bytes(b if i % 2 else 0 for i, b in enumerate(random.Random(3).randbytes(4096)))
    assert sniff_binary(data) == "binary data"
