"""A full rebuild's segments, written byte for byte as Whoosh's own writer writes them, faster.

Whoosh's ``SegmentWriter`` analyses each field through a chain of generators (one ``Token``
object per word and filter), pickles every posting into sorted runs on disk, merges the runs at
commit and reads each posting's field length back from the column it just wrote (a ``stat`` per
posting where a field has no lengths). Profiled on a rebuild of 10,000 papers those were most of
its 64 s. :class:`BulkSegmentWriter` keeps the same segment format and differs only in how it
gets there:

- a text field analysed by the schema's ``StemmingAnalyzer`` (regex words, lowercased, Porter
  stems) is analysed by one ``findall`` and a per-build stem cache, with the same positions,
  weights and encoded values; any other field (ids, numbers, an analyser this module does not
  know) goes through the field's own ``index()``;
- postings are kept in memory per field and term (the document numbers in an ``array``), sorted
  once when the segment is written, and each term's postings are handed to Whoosh's postings
  writer a block at a time instead of one call per posting;
- the encoded value of a word found once in a field (its one position) is one shared object per
  position, so the pickle of a block of postings refers back to an equal value it already holds:
  the postings file is smaller than Whoosh's, and reads back the same postings.

The per-document data (stored fields, columns, lengths) is still written by Whoosh's codec.
``tests/core/test_bulk_writer.py`` checks that without the shared values every file is Whoosh's
byte for byte, and with them every term, its statistics and its postings.

:func:`build` writes a new index's documents with this writer: on two cores the batches go to a
forked helper that writes a segment of its own whenever it is not behind (as Whoosh's ``MpWriter``
with ``multisegment`` did, which split them evenly), the others to this process's writer, and the
parent commits both segments in one table of contents.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import re
import threading
import traceback
from array import array
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from whoosh.analysis import CompositeAnalyzer, LowercaseFilter, RegexTokenizer, StemFilter
from whoosh.formats import Positions
from whoosh.lang.porter import stem as porter_stem
from whoosh.util.numeric import byte_to_length, length_to_byte
from whoosh.writing import SegmentWriter

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from whoosh.fields import FieldType
    from whoosh.index import Index

__all__ = ["BATCH", "SEGMENT_POSTINGS", "BulkSegmentWriter", "HelperFailed", "SegmentsWriter", "build"]

BATCH = 250  # documents per batch sent to the helper process
Fields = dict[str, Any]


class _Postings:
    """One term's postings in one segment: document numbers, weights and encoded values."""

    __slots__ = ("docs", "values", "weights")

    def __init__(self) -> None:
        self.docs = array("I")
        self.weights = array("d")
        self.values: list[bytes | None] = []


def _words_pattern(field: FieldType) -> re.Pattern[str] | None:
    """The word pattern of a field this module can analyse itself: a Positions format over
    ``RegexTokenizer | LowercaseFilter | StemFilter`` (Porter, nothing ignored). None: any other."""
    analyzer = getattr(field, "analyzer", None)
    if not isinstance(field.format, Positions) or getattr(field, "vector", None) or field.separate_spelling():
        return None
    if not isinstance(analyzer, CompositeAnalyzer) or len(analyzer.items) != 3:
        return None
    tokenizer, lower, stemmer = analyzer.items
    if type(tokenizer) is not RegexTokenizer or tokenizer.gaps or type(lower) is not LowercaseFilter:
        return None
    if type(stemmer) is not StemFilter or stemmer.stemfn is not porter_stem or stemmer.lang or stemmer.ignore:
        return None
    pattern: re.Pattern[str] = tokenizer.expression
    return pattern


class BulkSegmentWriter(SegmentWriter):  # type: ignore[misc]  # Whoosh is untyped
    """A ``SegmentWriter`` for a batch of new documents: see the module's docstring. Deleting,
    updating and merging are not what it is for (a rebuild writes a new index)."""

    def __init__(self, ix: Index, share_values: bool = True, **kwargs: Any) -> None:  # noqa: ANN401 - SegmentWriter's options
        super().__init__(ix, **kwargs)
        # one bytes object for each one-position value (most postings): a posting's value costs
        # no memory of its own, and the block's pickle refers back to an equal value instead of
        # repeating it, so the postings file is smaller; False writes Whoosh's very bytes
        self._share_values = share_values
        self._terms: dict[str, dict[Any, _Postings]] = {}
        self._lengths: dict[str, array[int]] = {}  # field -> each document's length as stored
        self._words: dict[str, re.Pattern[str] | None] = {
            name: _words_pattern(field) for name, field in self.schema.items() if field.indexed
        }
        self.postings = 0  # postings held in memory (SegmentsWriter starts a new segment past a budget)
        self._stems: dict[str, str] = {}  # a word as found -> its stem
        self._one_position: dict[int, bytes] = {}  # position -> Positions.encode([position])

    # ---- documents -------------------------------------------------------------------------
    def add_document(self, **fields: Any) -> None:  # noqa: ANN401 - a document's field values
        self._check_state()
        perdoc = self.perdocwriter
        schema = self.schema
        docnum = self.docnum
        docboost = self._doc_boost(fields)
        names = sorted(name for name in fields if not name.startswith("_"))
        self._check_fields(schema, names)
        perdoc.start_doc(docnum)
        try:
            for name in names:
                value = fields[name]
                if value is None:
                    continue
                field = schema[name]
                length = 0
                if field.indexed:
                    boost = self._field_boost(fields, name, docboost)
                    pattern = self._words.get(name)
                    if pattern is not None and isinstance(value, str):
                        length = self._add_words(name, field, pattern, value, docnum, boost)
                    else:
                        length = self._add_terms(name, field, value, docnum, boost)
                    if length:
                        self._length(name, docnum, length)
                if field.vector:  # as Whoosh's add_document writes a field's term vector
                    items = field.vector.word_values(value, field.analyzer, mode="index")
                    perdoc.add_vector_items(name, field, sorted((t, w, v) for t, _, w, v in items))
                stored = fields.get(f"_stored_{name}", value)
                perdoc.add_field(name, field, stored if field.stored else None, length)
                column = field.column_type
                if column and stored is not None:
                    perdoc.add_column_value(name, column, field.to_column_value(stored))
        except Exception:
            perdoc.cancel_doc()
            raise
        perdoc.finish_doc()
        self._added = True
        self.docnum += 1

    def _postings(self, name: str) -> dict[Any, _Postings]:
        terms = self._terms.get(name)
        if terms is None:
            terms = self._terms[name] = {}
        return terms

    def _add_words(
        self, name: str, field: FieldType, pattern: re.Pattern[str], text: str, docnum: int, boost: float
    ) -> int:
        """A text field's terms as the StemmingAnalyzer gives them: the words of ``pattern``
        (numbered from 0), lowercased and stemmed; each term's positions as Positions encodes them."""
        stems = self._stems
        positions: dict[str, list[int]] = {}
        count = 0
        for match in pattern.finditer(text):
            word = match.group(0)
            term = stems.get(word)
            if term is None:
                term = stems[word] = porter_stem(word.lower())
            at = positions.get(term)
            if at is None:
                positions[term] = [count]
            else:
                at.append(count)
            count += 1
        if not count:
            return 0
        fmt = field.format
        field_boost = fmt.field_boost
        one = self._one_position
        terms = self._postings(name)
        self.postings += len(positions)
        for term, at in positions.items():
            entry = terms.get(term)
            if entry is None:
                entry = terms[term] = _Postings()
            entry.docs.append(docnum)
            freq = len(at)
            # the weight as Positions.word_values sums it (1.0 a word), then the writer's boost
            entry.weights.append(float(freq) * field_boost * boost)
            if freq == 1 and self._share_values:
                value = one.get(at[0])
                if value is None:
                    value = one[at[0]] = fmt.encode(at)
            else:
                value = fmt.encode(at)
            entry.values.append(value)
        return count

    def _add_terms(self, name: str, field: FieldType, value: object, docnum: int, boost: float) -> int:
        """Any other indexed field, through its own ``index()``: its length when scorable."""
        terms = self._postings(name)
        length = 0
        scorable = field.scorable
        for btext, freq, weight, vbytes in field.index(value):
            entry = terms.get(btext)
            if entry is None:
                entry = terms[btext] = _Postings()
            entry.docs.append(docnum)
            entry.weights.append(weight * boost)
            entry.values.append(vbytes)
            self.postings += 1
            if scorable:
                length += freq
        return length

    def _length(self, name: str, docnum: int, length: int) -> None:
        """The length a posting is written with: as the lengths column gives it back (one byte)."""
        lengths = self._lengths.get(name)
        if lengths is None:
            lengths = self._lengths[name] = array("I")
        missing = docnum - self.docbase + 1 - len(lengths)
        if missing > 0:
            lengths.extend([0] * missing)
        lengths[docnum - self.docbase] = byte_to_length(length_to_byte(length))

    # ---- the segment -----------------------------------------------------------------------
    def _flush_segment(self) -> None:
        self.perdocwriter.close()
        writer = self.fieldwriter
        for name in sorted(self._terms):
            terms = self._terms[name]
            if not terms:
                continue
            field = self.schema[name]
            lengths = self._lengths.get(name, array("I"))
            writer.start_field(name, field)
            keyed = sorted(((t.encode("utf-8") if isinstance(t, str) else t), p) for t, p in terms.items())
            for btext, postings in keyed:
                writer.start_term(btext)
                self._write_postings(writer._postwriter, postings, lengths)
                writer.finish_term()
            writer.finish_field()
        self.fieldwriter.close()
        self._terms.clear()

    def _write_postings(self, pw: Any, postings: _Postings, lengths: array[int]) -> None:  # noqa: ANN401
        """One term's postings into Whoosh's W3 postings writer (``pw``), a block at a time,
        leaving it as its ``add_posting`` would have: full blocks written, the last one pending
        (``finish_term`` writes or inlines it)."""
        docs, weights, values = postings.docs, postings.weights, postings.values
        limit = pw._blocklimit
        base = self.docbase
        known = len(lengths)
        for start in range(0, len(docs), limit):
            if start:
                pw._write_block()  # as add_posting does when the next posting finds a full block
            end = start + limit
            ids = docs[start:end]
            ws = weights[start:end]
            pw._ids = ids
            pw._weights = array("f", ws)
            pw._values = [v for v in values[start:end] if v]
            pw._maxweight = max(0, max(ws))
            stored = [lengths[d - base] for d in ids if d - base < known]
            stored = [n for n in stored if n]
            pw._minlength = min(stored) if stored else None
            pw._maxlength = max(stored) if stored else 0


# ---- building a new index ------------------------------------------------------------------

SEGMENT_POSTINGS = 4_000_000  # postings one writer holds before it writes them as a segment


class SegmentsWriter:
    """Documents into as many segments as it takes to hold at most ``limit`` postings in memory
    at a time (about 25,000 papers: 350 MB of a process at most, whatever the library's size).
    ``lead`` writes the first segment and, if it holds the index's lock, commits them all."""

    def __init__(self, ix: Index, lead: BulkSegmentWriter, limit: int | None = None) -> None:
        self._ix = ix
        self._limit = SEGMENT_POSTINGS if limit is None else limit
        self.lead = lead
        self._current = lead
        self.segments: list[Any] = []

    def add(self, fields: Fields) -> None:
        current = self._current
        current.add_document(**fields)
        if current.postings >= self._limit:
            self.segments.append(current._finalize_segment())
            self._current = BulkSegmentWriter(self._ix, _lk=False, compound=False)

    def finish(self) -> list[Any]:
        """Write the last segment; every segment written."""
        current = self._current
        if current._added:
            self.segments.append(current._finalize_segment())
        elif current is not self.lead:
            current._close_segment()
        return self.segments

    def cancel(self) -> None:
        if self._current is not self.lead:
            with contextlib.suppress(Exception):
                self._current._close_segment()
        self.lead.cancel()


def build(
    ix: Index,
    docs: Iterable[Fields],
    total: int,
    procs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> bool:
    """Write ``docs`` (each the keyword arguments of ``add_document``) into the empty index
    ``ix`` and commit them. With ``procs`` 2 a batch of :data:`BATCH` documents goes to a forked
    helper writing its own segment whenever the helper is not behind. False (nothing committed)
    when ``cancelled``."""
    lead = BulkSegmentWriter(ix, compound=False, timeout=60, delay=0.1)
    writer = SegmentsWriter(ix, lead)
    helper: _Helper | None = None
    try:
        if procs > 1 and total > BATCH:
            helper = _Helper(ix)
        batch: list[Fields] = []
        for n, fields in enumerate(docs, 1):
            batch.append(fields)
            if len(batch) == BATCH:
                # the helper takes a batch when it is not behind; else this process writes it,
                # so the two share the work by their speed (this one also reads the database)
                if helper is None or not helper.offer(batch):
                    for one in batch:
                        writer.add(one)
                batch = []
            if progress and (n % 500 == 0 or n == total):
                progress(n, total)
            if cancelled and n % 200 == 0 and cancelled():
                raise _Cancelled
        for one in batch:
            writer.add(one)
        if helper is not None:
            helper.finish_input()  # it writes its segment while this process writes its own
        mine = writer.finish()
        if not lead._added:
            lead._close_segment()
        segments = helper.segments() if helper is not None else []
        helper = None
        lead._commit_toc(segments + mine)
        lead._finish()
        return True
    except _Cancelled:
        writer.cancel()
        return False
    except BaseException:
        writer.cancel()
        raise
    finally:
        if helper is not None:
            helper.kill()


class _Cancelled(Exception):
    """The caller's ``cancelled()`` said so: nothing is committed."""


class HelperFailed(RuntimeError):
    """The helper process writing half the segments died or raised."""


class _Helper:
    """A forked process with its own :class:`BulkSegmentWriter` on the same new index: it
    takes batches over a pipe and answers with its finished segment. A thread of this process
    feeds the pipe from a short queue, so handing over a batch never waits for the helper."""

    WAITING = 2  # batches queued for the helper at most

    def __init__(self, ix: Index) -> None:
        ctx = multiprocessing.get_context("fork")
        self._conn, theirs = ctx.Pipe()
        # not a daemon: a daemon process may not start processes of its own
        self._process = ctx.Process(target=_helper_main, args=(ix, theirs))
        self._process.start()
        theirs.close()
        self._queue: queue.Queue[list[Fields] | None] = queue.Queue(self.WAITING)
        self._broken: BaseException | None = None
        self._feeder = threading.Thread(target=self._feed, name="index-helper-feed", daemon=True)
        self._feeder.start()

    def _feed(self) -> None:
        while True:
            batch = self._queue.get()
            try:
                self._conn.send(batch)
            except (OSError, EOFError, ValueError) as exc:  # the helper is gone (its error comes back)
                self._broken = exc
                return
            if batch is None:
                return

    def offer(self, batch: list[Fields]) -> bool:
        """Queue ``batch`` for the helper; False when it is behind (the caller writes it)."""
        if self._broken is not None:
            raise HelperFailed(self._failure() or f"the index helper process is gone ({self._broken})")
        try:
            self._queue.put_nowait(batch)
        except queue.Full:
            return False
        return True

    def finish_input(self) -> None:
        """No more batches: the helper writes its segment."""
        self._queue.put(None)
        self._feeder.join()
        if self._broken is not None:
            raise HelperFailed(self._failure() or f"the index helper process is gone ({self._broken})")

    def segments(self) -> list[Any]:
        """Its segments, once written (none when it was sent no document)."""
        try:
            kind, value = self._conn.recv()
        except (BrokenPipeError, ConnectionResetError, EOFError) as exc:
            raise HelperFailed(self._failure() or f"the index helper process is gone ({exc})") from exc
        finally:
            self._process.join(timeout=60)
            self._conn.close()
        if kind == "error":
            raise HelperFailed(f"the index helper process failed: {value}")
        segments: list[Any] = value
        return segments

    def _failure(self) -> str:
        with contextlib.suppress(OSError, EOFError):
            if self._conn.poll(1):
                kind, value = self._conn.recv()
                if kind == "error":
                    return f"the index helper process failed: {value}"
        return ""

    def kill(self) -> None:
        if self._process.is_alive():
            self._process.kill()
        with contextlib.suppress(queue.Full):
            self._queue.put_nowait(None)  # the feeder, if waiting for a batch, ends
        self._process.join(timeout=10)
        with contextlib.suppress(OSError):
            self._conn.close()


def _helper_main(ix: Index, conn: Connection) -> None:
    try:
        lead = BulkSegmentWriter(ix, _lk=False, compound=False)
        writer = SegmentsWriter(ix, lead)
        while True:
            batch = conn.recv()
            if batch is None:
                break
            for fields in batch:
                writer.add(fields)
        segments = writer.finish()
        if not lead._added:
            lead._close_segment()
        conn.send(("segments", segments))
    except BaseException:  # noqa: BLE001 - told to the parent, which raises HelperFailed
        with contextlib.suppress(OSError):
            conn.send(("error", traceback.format_exc(limit=5)))
    finally:
        conn.close()
