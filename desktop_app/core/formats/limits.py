"""Size and time limits for imports: the too-large error, a cooperative deadline and the caps
on what one record may hold."""

from __future__ import annotations

import time
from typing import TypeVar

from desktop_app.core.records import Record

T = TypeVar("T")


class ImportTooLarge(Exception):
    """A file is larger than the import limit; the message says both sizes."""


def human_size(size: int) -> str:
    """Return a byte count as "312 MB", "12 KB" or "512 bytes"."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.0f} MB"
    if size >= 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size} bytes"


def too_large_message(name: str, size: int, limit: int) -> str:
    """The one-line message for a file over the size limit."""
    return (
        f"{name or 'the file'} is {human_size(size)}; the limit is {human_size(limit)} "
        "- split the file or import it in parts"
    )


class Deadline:
    """A point in time after which readers stop and report what they could not read.

    Readers call :meth:`expired` between records; the check is cheap (one clock read).
    ``Deadline(None)`` never expires; a budget of 0 or less has expired from the start.
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self._end = None if seconds is None else time.monotonic() + seconds

    def expired(self) -> bool:
        """True once the time budget is used up."""
        if self._end is None or self.seconds is None:
            return False
        return self.seconds <= 0 or time.monotonic() > self._end

    def message(self, line: int | None = None) -> str:
        """The error to report when the budget ran out (optionally where)."""
        where = f" at line {line}" if line else ""
        return (
            f"stopped after {self.seconds:g} s{where}: the import time budget ran out; "
            "the rest of the file was not imported"
        )


NO_DEADLINE = Deadline(None)


# ---------------------------------------------------------------- caps on what one record holds

MAX_ABSTRACT_CHARS = 100_000
"""An abstract (and a record's note) longer than this is cut here, with a warning. Real
abstracts stay under 10,000 characters; a longer one is a whole text pasted by mistake or a
hostile file, and would make the reader, the index and the window slow for no reader's gain."""
MAX_FIELD_CHARS = 10_000
"""Any other text of a record (title, venue, a name, a tag, an extra field) is cut here."""
MAX_RAW_CHARS = 1_000_000
"""The record's source text kept beside it (``Record.raw``) is cut here."""
MAX_EXPANSION_CHARS = 1_000_000
"""A BibTeX value may grow through ``@string`` macros up to this many characters (or its own
length, if longer); an entry whose value would grow further is reported and not imported."""


def _cut(value: str, limit: int) -> str:
    return value if len(value) <= limit else value[:limit]


def cap_record(record: Record) -> list[str]:
    """Cut the over-long texts of ``record`` in place to the caps above; return what was cut
    (for instance ``["abstract (52,428,800 characters; kept the first 100,000)"]``), empty when
    nothing was."""
    cut: list[str] = []

    def check(name: str, value: str | None, limit: int) -> str | None:
        if value is not None and len(value) > limit:
            cut.append(cut_message(name, len(value), limit))
            return value[:limit]
        return value

    record.abstract = check("abstract", record.abstract, MAX_ABSTRACT_CHARS) or ""
    record.note = check("note", record.note, MAX_ABSTRACT_CHARS)
    record.raw = check("source text", record.raw, MAX_RAW_CHARS) or ""
    for name in ("title", "venue", "url", "bibtex_key", "entry_type", "pmid", "isbn"):
        setattr(record, name, check(name, getattr(record, name), MAX_FIELD_CHARS))
    for name, one in (("authors", "an author's name"), ("editors", "an editor's name")):
        names = cap_names(getattr(record, name), name, cut)
        if any(len(a) > MAX_FIELD_CHARS for a in names):
            cut.append(f"{one} (kept the first {MAX_FIELD_CHARS:,} characters)")
            setattr(record, name, [_cut(a, MAX_FIELD_CHARS) for a in names])
    for name, one in (("tags", "a tag"), ("keywords", "a keyword")):
        words = getattr(record, name)
        if any(len(t) > MAX_FIELD_CHARS for t in words):
            cut.append(f"{one} (kept the first {MAX_FIELD_CHARS:,} characters)")
            words = [_cut(t, MAX_FIELD_CHARS) for t in words]
        if len(words) > MAX_TAGS:
            cut.append(f"{name} ({len(words):,}; kept the first {MAX_TAGS:,})")
            words = words[:MAX_TAGS]
        setattr(record, name, words)
    for key, value in list(record.extra.items()):
        record.extra[key] = check(key, value, MAX_ABSTRACT_CHARS if key == "note" else MAX_FIELD_CHARS) or ""
    return cut


def cut_message(name: str, length: int, limit: int) -> str:
    """ "abstract (52,428,800 characters; kept the first 100,000)"."""
    return f"{name} ({length:,} characters; kept the first {limit:,})"


MAX_RECORDS = 100_000
"""A file imports at most this many records (the rest are reported in one error: split the
file); a bibliography this large is a database dump, and one import of it must still end in
a few minutes."""


def too_many_records(count: int, line: int | None = None) -> str:
    """The error for the records beyond MAX_RECORDS."""
    where = f" from line {line:,}" if line else ""
    return (
        f"the file holds more than {MAX_RECORDS:,} records: the {count:,} after the first "
        f"{MAX_RECORDS:,}{where} were not imported; split the file"
    )


MAX_NAMES = 5_000
"""A record keeps at most this many authors, and this many editors (a physics collaboration's
paper lists up to a few thousand); the rest are reported, not
imported."""


def cap_names(names: list[T], what: str, cut: list[str]) -> list[T]:
    """The first MAX_NAMES of ``names``; says in ``cut`` how many there were when more."""
    if len(names) <= MAX_NAMES:
        return names
    cut.append(f"{what} ({len(names):,}; kept the first {MAX_NAMES:,})")
    return names[:MAX_NAMES]


MAX_TAGS = 1_000
"""A record keeps at most this many tags, and this many keywords; the rest are reported, not
imported."""


def holds_nul(record: Record) -> bool:
    """True when any text of the record holds a NUL character (binary data in a text file,
    which no database text column may hold)."""
    texts = [
        record.abstract,
        record.raw,
        record.title,
        record.venue,
        record.url,
        record.bibtex_key,
        record.entry_type,
        record.note,
        record.doi,
        record.arxiv_id,
        record.pmid,
        record.isbn,
        *record.authors,
        *record.editors,
        *record.tags,
        *record.keywords,
        *record.extra.keys(),
        *record.extra.values(),
    ]
    return any(text and "\x00" in text for text in texts)
