"""Hostile import files: every reader runs in time and memory linear in its input.

Each file is made by a small generator (tests/helpers/hostile_cases.py) and read in a fresh
interpreter under RLIMIT_AS = 1 GB and a timeout. The read must end in a report (errors or
warnings with line numbers), never a traceback, within 10 s and 300 MB, and the good entries
in the same file must be imported.

Time: the CPU time of the read must stay under 10 s; so must its wall-clock time, except that
on a machine busier than its cores (load average above the core count) the wall-clock limit is
stretched by that ratio, at most four times, since the read then waits for a core.
"""

from __future__ import annotations

import os

import pytest

from desktop_app.core.formats import read_bytes
from desktop_app.core.formats.bibtex_reader import (
    ExpansionTooLarge,
    expand_value,
    strip_outer_braces,
)
from desktop_app.core.formats.limits import MAX_ABSTRACT_CHARS, MAX_EXPANSION_CHARS
from tests.helpers.hostile_cases import CASE_BY_NAME, measure

SECONDS = 10.0
MEGABYTES = 300.0


def _busy_factor() -> float:
    """How much busier than its cores the machine is (1.0 when it is not; at most 4.0)."""
    return min(4.0, max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1)))


def _run(tmp_path, name: str) -> dict:
    case = CASE_BY_NAME[name]
    path = tmp_path / name
    path.write_bytes(case.make())
    report = measure(path, timeout=60)
    assert report["returncode"] == 0, report["stderr"][-2000:]
    assert "Traceback" not in report["stderr"], report["stderr"][-2000:]
    assert report["cpu"] <= SECONDS, report
    assert report["wall"] <= SECONDS * _busy_factor(), report
    peak = report["peak_mb"] if report["peak_mb"] is not None else report["maxrss_mb"]
    assert peak <= MEGABYTES, report
    for title in case.good_titles:
        assert title in report["titles"], report
    return report


def test_string_bomb_is_capped_and_the_entry_reported(tmp_path):
    report = _run(tmp_path, "string_bomb.bib")
    assert "bomb" not in [t for t in report["titles"] if t]
    (error,) = report["errors"]
    assert error[0] == 36 and "bomb" in error[1] and "not imported" in error[1]
    assert report["warnings"][0][0] == 24 and "s17" in report["warnings"][0][1]


def test_deeply_nested_braces_are_stripped_in_linear_time(tmp_path):
    report = _run(tmp_path, "nested_braces.bib")
    index = report["keys"].index("deep")
    assert report["abstract_lengths"][index] == len("deep")  # all 200,000 layers stripped
    (warning,) = report["warnings"]  # the title is cut before any LaTeX conversion
    assert warning[0] == 7 and "title (400,002 characters; kept the first 10,000)" in warning[1]


def test_a_ris_record_of_a_million_lines(tmp_path):
    report = _run(tmp_path, "long_record.ris")
    index = report["titles"].index("The long one")
    assert report["abstract_lengths"][index] == MAX_ABSTRACT_CHARS
    assert any(line == 6 and "abstract" in message for line, message in report["warnings"])


def test_a_ris_record_of_a_million_keywords(tmp_path):
    report = _run(tmp_path, "many_tags.ris")
    assert "Many tags" in report["titles"]
    assert any(line == 6 and "keywords" in message for line, message in report["warnings"])


@pytest.mark.parametrize(("name", "line"), [("nul.bib", 7), ("nul.ris", 6), ("nul.json", 3), ("nul.csv", 3)])
def test_a_nul_byte_drops_only_its_record(tmp_path, name, line):
    report = _run(tmp_path, name)
    assert len(report["titles"]) == 2
    (error,) = report["errors"]
    assert error[0] == line and "NUL" in error[1]


@pytest.mark.parametrize(
    ("name", "line", "cut"),
    [
        ("huge_abstract.bib", 7, "abstract (52,428,774 characters; kept the first 100,000)"),
        ("huge_abstract.ris", 6, "abstract (52,428,774 characters; kept the first 100,000)"),
        ("huge_abstract.json", 7, "abstract (52,428,750 characters; kept the first 400,000)"),
        ("huge_abstract.xml", 4, "abstract (52,428,774 characters; kept the first 100,000)"),
    ],
)
def test_a_50_mb_abstract_is_cut_with_a_warning(tmp_path, name, line, cut):
    report = _run(tmp_path, name)
    index = report["titles"].index("Huge")
    assert report["abstract_lengths"][index] == MAX_ABSTRACT_CHARS
    assert any(at == line and cut in message for at, message in report["warnings"]), report


# ---------------------------------------------------------------- the pieces, in process


def test_strip_outer_braces_of_deep_nesting():
    depth = 50_000
    assert strip_outer_braces("{" * depth + " x " + "}" * depth) == "x"
    assert strip_outer_braces("{{a} {b}}") == "{a} {b}"
    assert strip_outer_braces("{a} {b}") == "{a} {b}"
    assert strip_outer_braces("{ {x} }") == "x"
    assert strip_outer_braces("{x\\}") == "{x\\}"


def test_expand_value_caps_macro_growth():
    macros: dict[str, str | None] = {"big": "x" * (MAX_EXPANSION_CHARS // 2 + 1)}
    with pytest.raises(ExpansionTooLarge) as raised:
        expand_value("big # big", macros)
    assert raised.value.name == "big"
    macros["huge"] = None
    with pytest.raises(ExpansionTooLarge):
        expand_value('"a" # huge', macros)
    long_literal = "{" + "y" * (MAX_EXPANSION_CHARS + 10) + "} # {z}"
    assert expand_value(long_literal, {}).endswith("yz")  # its own text is never too long


def test_nul_outside_the_first_block_and_binary_data():
    text = b"@misc{a, title={One}}\n@misc{b, title={Tw\x00o}}\n@misc{c, title={Three}}\n"
    result = read_bytes(text, name="x.bib")
    assert [r.title for r in result.records] == ["One", "Three"]
    assert [e.line for e in result.errors] == [2]
    assert read_bytes(bytes(range(256)) * 16).errors[0].message.endswith("(looks like binary data)")


def test_the_time_budget_stops_each_stage_with_one_error():
    lines = "".join(f"@string{{m{i} = {{v{i}}}}}\n" for i in range(2000))
    result = read_bytes((lines + "@misc{a, title = m1}\n").encode(), name="x.bib", time_budget=0)
    stops = [e for e in result.errors if e.message.startswith("stopped after")]
    assert len(stops) == 1 and not result.records
    ris = ("TY  - JOUR\nTI  - x\n" + "N1  - note\n" * 50_000 + "ER  - \n").encode()
    result = read_bytes(ris, name="x.ris", time_budget=0)
    assert result.errors and result.errors[0].message.startswith("stopped after")


def test_many_macros_under_the_cap_spend_the_files_expansion_budget():
    big = (
        '@string{b0 = "'
        + "x" * 1000
        + '"}\n'
        + "".join(f"@string{{b{i} = b{i - 1} # b{i - 1}}}\n" for i in range(1, 10))
    )
    entries = "".join(f"@misc{{e{i}, title = {{T{i}}}, note = b9 # b8 # b7}}\n" for i in range(200))
    result = read_bytes((big + entries + "@misc{last, title={Last}}\n").encode(), name="x.bib")
    assert "Last" in [r.title for r in result.records]
    assert 10 < len(result.records) < 100  # the budget (16 million characters) stops the rest
    (error,) = result.errors
    assert error.line == 11 + len(result.records) - 1 and "not imported" in error.message
