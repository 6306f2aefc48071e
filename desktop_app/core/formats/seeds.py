"""The seed format: a header line naming venue and year, then one abstract per paragraph."""

from __future__ import annotations

import re

from desktop_app.core.records import ParseResult, Problem, Record

_YEAR = re.compile(r"\b(19|20)\d{2}\b")
_HEADER_MAX = 200


def parse_header(line: str) -> tuple[str | None, int | None]:
    """Return (venue, year) from a header such as "NeurIPS 2026 Papers" or "NeurIPS 2026 论文列表"."""
    m = _YEAR.search(line)
    if not m:
        return None, None
    venue = line[: m.start()].strip(" -–—:|") or None
    return venue, int(m.group(0))


def looks_like_seed(text: str) -> bool:
    """A short first line with a year, followed by a blank line and prose paragraphs."""
    lines = text.lstrip("\ufeff").splitlines()
    if len(lines) < 3 or len(lines[0]) > _HEADER_MAX or lines[1].strip():
        return False
    venue, year = parse_header(lines[0])
    if year is None or lines[0].lstrip().startswith(("@", "TY ", "{", "[", "<", "%")):
        return False
    body = [ln for ln in lines[2:] if ln.strip()]
    return bool(body) and sum(len(b) for b in body) / len(body) > 80


def read_seeds(text: str) -> ParseResult:
    """Parse a seed list. Every non-empty paragraph after the header is one abstract."""
    result = ParseResult(format="seed")
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not lines or not lines[0].strip():
        result.errors.append(Problem("the first line should name the venue and year", 1))
        return result
    venue, year = parse_header(lines[0])
    if year is None:
        result.warnings.append(Problem("the header names no year; papers get none", 1))
    para: list[str] = []
    start = 0
    for number, line in enumerate(lines[1:] + [""], start=2):
        if line.strip():
            if not para:
                start = number
            para.append(line.strip())
            continue
        if para:
            abstract = " ".join(para)
            result.records.append(Record(abstract=abstract, venue=venue, year=year, raw="\n".join(para), line=start))
            para = []
    if not result.records:
        result.errors.append(Problem("no abstracts found after the header line", 1))
    return result
