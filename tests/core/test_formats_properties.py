"""Property tests: damaged real files and random input never make a reader raise.

Each mutation starts from a real corpus file (truncated, with characters deleted, with
braces, quotes, tags or stray bytes inserted). Besides "does not raise", the result must be
well formed and must not come from the dispatcher's last-resort catch of a reader crash.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from desktop_app.core.formats import FORMATS, read_bytes
from desktop_app.core.records import ParseResult

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
SAMPLES = {
    path.name: path.read_bytes()[:12_000]
    for path in sorted(CORPUS.rglob("*"))
    if path.is_file() and path.name != "SOURCES.md"
}
INSERTS = [
    b"{",
    b"}",
    b'"',
    b"@",
    b"#",
    b",",
    b"=",
    b"\n",
    b"\r",
    b"\\",
    b"@article{",
    b"TY  - ",
    b"ER  - ",
    b"\nER\n",
    b"PT J\n",
    b"<",
    b"</entry>",
    b"[",
    b"]",
    b"\x00",
    b"\xff",
    b"\xc3",
    b"%",
    b"$",
    b"&amp;",
    b"\t",
]
SETTINGS = settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def check(result: ParseResult) -> None:
    assert isinstance(result, ParseResult)
    assert result.format in (*FORMATS, "unknown")
    assert not any(e.message.startswith("could not read the file as") for e in result.errors)
    for problem in result.errors + result.warnings:
        assert isinstance(problem.message, str) and problem.message
        assert problem.line is None or problem.line >= 1
    for record in result.records:
        assert isinstance(record.abstract, str) and isinstance(record.raw, str)
        assert all(isinstance(a, str) for a in record.authors)
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in record.extra.items())
        assert record.year is None or isinstance(record.year, int)


@st.composite
def mutated(draw) -> tuple[str, bytes]:
    name = draw(st.sampled_from(sorted(SAMPLES)))
    data = bytearray(SAMPLES[name])
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["truncate", "delete", "insert", "duplicate"]))
        at = draw(st.integers(0, len(data)))
        if kind == "truncate":
            del data[at:]
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        elif kind == "insert":
            data[at:at] = draw(st.sampled_from(INSERTS)) * draw(st.integers(1, 3))
        else:
            data[at:at] = data[at : at + draw(st.integers(1, 200))]
    return name, bytes(data)


@pytest.mark.shared
@SETTINGS
@given(mutated())
def test_mutated_corpus_files_never_raise(sample):
    name, data = sample
    check(read_bytes(data, name=name))


@pytest.mark.shared
@SETTINGS
@given(mutated(), st.sampled_from(FORMATS))
def test_forcing_any_reader_on_any_damaged_file_never_raises(sample, fmt):
    _, data = sample
    check(read_bytes(data, fmt=fmt))


@settings(max_examples=200, deadline=None, database=None)
@given(st.text(alphabet=st.sampled_from('@{}"#,=\n abcTY-ER<>[]:\\%$0123456789'), max_size=400))
def test_random_bibliography_like_text_never_raises(text):
    for fmt in (None, "bibtex", "ris", "csljson", "csv"):
        check(read_bytes(text.encode(), name="random.bib", fmt=fmt))


@settings(max_examples=200, deadline=None, database=None)
@given(st.binary(max_size=600))
def test_random_bytes_never_raise(data):
    check(read_bytes(data))
