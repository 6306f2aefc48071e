"""Reading import files: what ``desktop_app.core.formats`` exports (see its docstring).

Kept out of the package's ``__init__`` so that importing a light submodule
(``formats.identity``, which the duplicate rules need at start-up) does not load every reader
(about 50 ms: charset_normalizer, bibtexparser, pylatexenc, defusedxml: start-up time)."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path

from desktop_app.core.formats import detect, seeds
from desktop_app.core.formats.arxiv_reader import read_arxiv
from desktop_app.core.formats.bibtex_reader import read_bibtex
from desktop_app.core.formats.csljson_reader import read_csljson
from desktop_app.core.formats.csv_reader import read_csv
from desktop_app.core.formats.encoding import DecodedText, decode_bytes
from desktop_app.core.formats.identity import has_content
from desktop_app.core.formats.limits import (
    MAX_RECORDS,
    NO_DEADLINE,
    Deadline,
    ImportTooLarge,
    cap_record,
    holds_nul,
    too_large_message,
    too_many_records,
)
from desktop_app.core.formats.medline_reader import read_medline
from desktop_app.core.formats.regular_file import NotAFile, open_regular
from desktop_app.core.formats.ris_reader import read_ris
from desktop_app.core.formats.wos_reader import read_wos
from desktop_app.core.records import ParseResult, Problem

__all__ = ["FORMATS", "FORMAT_LABELS", "ImportTooLarge", "read_bytes", "read_path", "read_text"]

log = logging.getLogger("desktop_app.core.formats")  # the package's name, as before

FORMATS = ("seed", "bibtex", "ris", "wos", "medline", "csljson", "arxiv", "csv")
FORMAT_LABELS = {
    "seed": "seed list",
    "bibtex": "BibTeX",
    "ris": "RIS",
    "wos": "Web of Science",
    "medline": "PubMed/MEDLINE",
    "csljson": "CSL-JSON",
    "arxiv": "arXiv Atom",
    "csv": "CSV",
    "unknown": "unknown",
}
DEFAULT_MAX_BYTES = 200 * 1024 * 1024
DEFAULT_TIME_BUDGET = 60.0


def _read_seed(text: str, *, deadline: Deadline = NO_DEADLINE) -> ParseResult:
    return seeds.read_seeds(text)


_READERS: dict[str, Callable[..., ParseResult]] = {
    "seed": _read_seed,
    "bibtex": read_bibtex,
    "ris": read_ris,
    "wos": read_wos,
    "medline": read_medline,
    "csljson": read_csljson,
    "arxiv": read_arxiv,
    "csv": read_csv,
}


def _unknown(message: str) -> ParseResult:
    return ParseResult(format="unknown", errors=[Problem(message)])


def _check_format(fmt: str | None) -> None:
    if fmt is not None and fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")


def read_text(text: str, *, name: str = "", fmt: str | None = None, deadline: Deadline = NO_DEADLINE) -> ParseResult:
    """Read already decoded text (detecting the format unless ``fmt`` forces one)."""
    _check_format(fmt)
    if not text.strip("\ufeff \t\r\n"):
        return _unknown("the file is empty")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        chosen = fmt or detect.detect_format(text, name)
    except Exception as exc:
        log.exception("format detection failed on %s", name or "<bytes>")
        return _unknown(f"could not recognise the file: {exc}")
    if chosen is None:
        return _unknown(detect.describe_unrecognised(text))
    try:
        result = _READERS[chosen](text, deadline=deadline)
    except Exception as exc:
        log.exception("reader %s failed on %s", chosen, name or "<bytes>")
        return ParseResult(
            format=chosen,
            errors=[Problem(f"could not read the file as {FORMAT_LABELS[chosen]}: {exc}")],
        )
    had_records = bool(result.records)
    _screen_records(result)
    if not result.records and not result.errors and not had_records:
        result.errors.append(Problem(f"no records found in this {FORMAT_LABELS[chosen]} file"))
    return result


_NOTHING = "a record with neither title nor abstract (nor authors, venue or identifier); it was not imported"


def _screen_records(result: ParseResult) -> None:
    """Drop the records that hold a NUL character or nothing at all (no title, abstract,
    authors, venue or identifier) and cut over-long texts to the caps of :mod:`.limits`, each
    with its line in the report."""
    kept = []
    if len(result.records) > MAX_RECORDS:
        beyond = result.records[MAX_RECORDS:]
        result.errors.append(Problem(too_many_records(len(beyond), beyond[0].line), beyond[0].line))
        result.records = result.records[:MAX_RECORDS]
    for record in result.records:
        if not has_content(record):
            result.errors.append(Problem(_NOTHING, record.line))
            continue
        cut = cap_record(record)
        if holds_nul(record):
            result.errors.append(
                Problem(
                    "the record holds a NUL byte (binary data inside a text file); it was not imported", record.line
                )
            )
            continue
        if cut:
            result.warnings.append(Problem(f"too long, cut: {'; '.join(cut)}", record.line))
        kept.append(record)
    if len(kept) != len(result.records):
        result.records = kept
        result.errors.sort(key=lambda p: p.line or 0)


def read_bytes(
    data: bytes,
    *,
    name: str = "",
    fmt: str | None = None,
    time_budget: float | None = None,
) -> ParseResult:
    """Decode and read an import file's bytes.

    ``fmt`` None detects the format from the content (``name``'s extension only breaks
    ties); a name from :data:`FORMATS` forces that reader. ``time_budget`` (seconds) stops
    a long import between records, with an error saying so.
    """
    _check_format(fmt)
    decoded = _decode(data)
    return _read_decoded(decoded, name=name, fmt=fmt, deadline=Deadline(time_budget))


def _decode(data: bytes) -> DecodedText | ParseResult:
    """The decoded text, or the result that says why there is none."""
    if not data.strip():
        return _unknown("the file is empty")
    kind = detect.sniff_binary(data)
    if kind:
        return _unknown(f"not a bibliographic file (looks like {kind})")
    return decode_bytes(data)


def _read_decoded(decoded: DecodedText | ParseResult, *, name: str, fmt: str | None, deadline: Deadline) -> ParseResult:
    if isinstance(decoded, ParseResult):
        return decoded
    text, warning = decoded.text, decoded.warning
    decoded.text = ""  # the reader then holds the only reference to the text
    result = read_text(text, name=name, fmt=fmt, deadline=deadline)
    if warning:
        result.warnings.insert(0, Problem(warning))
    return result


def read_path(
    path: str | Path,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    time_budget: float = DEFAULT_TIME_BUDGET,
    fmt: str | None = None,
) -> ParseResult:
    """Read an import file from disk (size-checked before it is loaded)."""
    _check_format(fmt)
    deadline = Deadline(time_budget)
    path = Path(path)
    try:
        with open_regular(path) as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > max_bytes:
                raise ImportTooLarge(too_large_message(path.name, size, max_bytes))
            data = handle.read(max_bytes + 1)
        if len(data) > max_bytes:  # grew while we looked
            raise ImportTooLarge(too_large_message(path.name, len(data), max_bytes))
    except (ImportTooLarge, NotAFile) as exc:
        return _unknown(str(exc))
    except IsADirectoryError:
        return _unknown(f"{path.name} is a folder, not a file")
    except OSError as exc:
        return _unknown(f"cannot open {path.name}: {exc.strerror or exc}")
    decoded = _decode(data)
    del data  # not kept while the file is parsed: a large file would be in memory twice
    return _read_decoded(decoded, name=path.name, fmt=fmt, deadline=deadline)
