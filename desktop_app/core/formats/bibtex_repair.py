"""Read the entries that real exports get slightly wrong, which bibtexparser refuses or misreads.

bibtexparser's splitter is strict about the syntax between the fields of an entry. Three slips
are common in files written by other tools, and each has one reading only:

- no citation key: EndNote writes ``@article{`` and, on the next line, ``author = ...``;
  likewise a key without its comma (``@article{key`` then ``title = ...``);
- an empty field between two commas (``title = {X},, year = 2000``);
- a missing comma between two fields (``title = {X}`` then ``year = {2000}``): bibtexparser
  reads the next field into the value of the first.

:func:`read_entry_leniently` reads an entry the splitter refused, where the first two slips
stop it; :func:`split_run_on_value` cuts a value that swallowed the next fields. Anything else
(unbalanced braces, a field without ``=``) is still refused by both.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from bibtexparser import model

_ENTRY_OPEN = re.compile(r"@[ \t]*([A-Za-z]\w*)[ \t]*([{(])")
_NOT_ENTRIES = {"comment", "preamble", "string"}
_FIELD_NAME = re.compile(r"\s*([A-Za-z_][\w\-.:+]*)\s*=")
_WHITESPACE = re.compile(r"\s*")
# value delimiters, and a block start at the beginning of a line (an entry left unclosed)
_VALUE_MARKS = re.compile(r'(?<!\\)[{}",()]|\n[ \t]*@\w*[ \t]*[{(]')
_TOP_LEVEL_MARKS = re.compile(r'(?<!\\)[{}"=]')
_NAME_CHARS = set("_-.:+")


@dataclass
class Repaired:
    """An entry read despite its slips: the entry, where its text ends, and what was repaired
    (message, line relative to the entry's first line)."""

    entry: model.Entry
    end: int
    repairs: list[tuple[str, int]] = field(default_factory=list)


class LineIndex:
    """0-based line numbers of positions in a text, in logarithmic time."""

    def __init__(self, text: str) -> None:
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(self, pos: int) -> int:
        return bisect_right(self._starts, pos) - 1

    def start(self, line: int) -> int:
        return self._starts[min(max(line, 0), len(self._starts) - 1)]


def _past_space(text: str, pos: int) -> int:
    """The first position from ``pos`` on that is not whitespace."""
    m = _WHITESPACE.match(text, pos)
    return m.end() if m else pos  # (never None: \s* matches the empty string)


def is_entry_start(raw: str | None) -> bool:
    """True when ``raw`` begins an entry (not an @comment, @preamble or @string block)."""
    m = _ENTRY_OPEN.match(raw or "")
    return m is not None and m.group(1).lower() not in _NOT_ENTRIES


def _value_end(text: str, pos: int, close: str) -> int:
    """Index of the ``,`` or closing delimiter that ends the value starting at ``pos``;
    -1 when the value is not closed before the end of the text or a new block."""
    depth, in_quotes = 0, False
    for m in _VALUE_MARKS.finditer(text, pos):
        char = m.group()
        if char[0] == "\n":
            return -1  # a new block starts while this entry is still open
        if char == "{":
            depth += 1
        elif char == "}" and depth:
            depth -= 1
        elif char == '"' and not depth:
            in_quotes = not in_quotes
        elif not depth and not in_quotes and char in ("," + close):
            return m.start()
    return -1


def _head(text: str, pos: int, close: str) -> tuple[str, int] | None:
    """The text between the opening delimiter and the first ``,`` or ``=``, and where that
    mark is; None when a brace, a quote or the end of the entry comes first."""
    stops = {",", "=", "{", '"', close}
    end = pos
    while end < len(text) and text[end] not in stops:
        end += 1
    if end >= len(text) or text[end] not in ",=":
        return None
    return text[pos:end], end


def read_entry_leniently(text: str, start: int, lines: LineIndex) -> Repaired | None:
    """Read the entry at ``text[start]`` (an ``@``) despite a missing key, a key without its
    comma and empty fields; None when it has any other fault."""
    m = _ENTRY_OPEN.match(text, start)
    if not m or m.group(1).lower() in _NOT_ENTRIES:
        return None
    close = "}" if m.group(2) == "{" else ")"
    first_line = lines.line(start)
    repairs: list[tuple[str, int]] = []
    head = _head(text, m.end(), close)
    if head is None:
        return None
    words, pos = head[0].split(), head[1]
    pending: str | None = None
    if text[pos] == ",":
        key, pos = head[0].strip(), pos + 1
    elif len(words) == 1:  # "@article{\n author = ...": no key at all
        key, pending = "", words[0]
    elif len(words) == 2:  # "@article{key\n author = ...": the comma after the key is missing
        key, pending = words
        key_at = m.end() + len(head[0]) - len(head[0].lstrip())
        repairs.append(("no comma after the citation key", lines.line(key_at) - first_line))
    else:
        return None
    fields: list[model.Field] = []
    while True:
        if pending is not None:
            name, equals, pending = pending, pos, None
            pos += 1
        else:
            pos = _past_space(text, pos)
            if pos >= len(text):
                return None
            if text[pos] == close:
                break
            if text[pos] == ",":
                repairs.append(("an empty field (two commas in a row) was skipped", lines.line(pos) - first_line))
                pos += 1
                continue
            name_match = _FIELD_NAME.match(text, pos)
            if not name_match:
                return None
            name, equals, pos = name_match.group(1), name_match.end() - 1, name_match.end()
        end = _value_end(text, pos, close)
        if end < 0:
            return None
        fields.append(model.Field(key=name, value=text[pos:end].strip(), start_line=lines.line(equals)))
        pos = end + 1 if text[end] == "," else end
    entry = model.Entry(
        start_line=first_line, entry_type=m.group(1).lower(), key=key, fields=fields, raw=text[start : pos + 1]
    )
    return Repaired(entry, pos + 1, repairs)


def split_run_on_value(value: str) -> list[tuple[str | None, str, int]]:
    """Cut a raw field value that swallowed the following fields because a comma was missing
    (``{X}\\n  year = {2000}``) into ``(name, raw value, lines into the value)`` pieces; the
    first piece has no name (it is the field's own value). A value without such a slip comes
    back whole.

    Outside braces and quotes a BibTeX value holds only numbers, macro names and ``#``, so an
    ``=`` there, after a word that stands on its own, is the next field."""
    if "=" not in value:
        return [(None, value, 0)]
    pieces: list[tuple[str | None, str, int]] = []
    name: str | None = None
    start = line = 0
    for equals in _top_level_equals(value):
        name_start = _name_before(value, start, equals)
        if name_start < 0:
            continue
        pieces.append((name, value[start:name_start].strip(), line))
        line += value.count("\n", start, equals)
        name, start = value[name_start:equals].strip(), equals + 1
    pieces.append((name, value[start:].strip(), line))
    return pieces


def _name_before(value: str, start: int, equals: int) -> int:
    """Where the field name that ends just before ``value[equals]`` starts; -1 when the word
    there is no field name or does not stand on its own (``?a=b`` in a bare URL)."""
    end = equals
    while end > start and value[end - 1].isspace():
        end -= 1
    begin = end
    while begin > start and (value[begin - 1].isalnum() or value[begin - 1] in _NAME_CHARS):
        begin -= 1
    if begin == end or not (value[begin].isalpha() or value[begin] == "_"):
        return -1
    if begin > 0 and not (value[begin - 1].isspace() or value[begin - 1] in '}"'):
        return -1
    return begin


def _top_level_equals(value: str) -> list[int]:
    """Positions of the ``=`` signs outside braces and quotes."""
    found = []
    depth, in_quotes = 0, False
    for m in _TOP_LEVEL_MARKS.finditer(value):
        char = m.group()
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
        elif char == '"' and not depth:
            in_quotes = not in_quotes
        elif char == "=" and not depth and not in_quotes:
            found.append(m.start())
    return found
