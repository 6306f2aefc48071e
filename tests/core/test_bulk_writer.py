"""The bulk writer of a full rebuild writes the segment Whoosh's own writer writes, file by file,
and a library rebuilt with it (in one process or two) answers every query as before."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from whoosh import index as windex
from whoosh.reading import IndexReader
from whoosh.writing import SegmentWriter

from benchmarks.corpus import make_corpus
from desktop_app.core.search import bulk_writer
from desktop_app.core.search.index import IndexDoc, SearchIndex, _fields
from desktop_app.core.search.schema import build_schema

# words that test the analysis: case, stems, dotted words, digits, CJK, accents, a combining
# mark after a capital that lowercases into two characters, underscores and markdown
ODD_TEXT = [
    "İstanbul ISTANBUL istanbul Straße STRASSE naïve café CAFÉ",
    "v1.2.3 e.g. U.S.A. 3.14 x_y __init__ *platypus* **bold** `code` [link](http://a.b/c?d=1)",
    "注意力机制 Transformer 的 自注意力 学習 강화학습",
    "running runs ran runner RUNNING generalization generalisation generalizations",
    "",
    "   ",
    "a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a",
]


def _docs(n: int, seed: int = 7) -> list[IndexDoc]:
    rng = random.Random(seed)
    out: list[IndexDoc] = []
    for i, rec in enumerate(make_corpus(n, seed=seed), 1):
        odd = ODD_TEXT[i % len(ODD_TEXT)] if i % 3 == 0 else ""
        out.append(
            IndexDoc(
                pid=i * 3 + 1,
                title=rec.title or "",
                abstract=(rec.abstract or "") + (" " + odd if odd else ""),
                authors="; ".join(rec.authors),
                note=odd if i % 5 == 0 else "",
                highlight=ODD_TEXT[(i * 7) % len(ODD_TEXT)] if i % 11 == 0 else "",
                venue=rec.venue or "",
                year=rec.year if i % 13 else None,
                uid=f"uid-{i}-{rng.randrange(10**9)}",
                keywords="deep learning; rl" if i % 4 == 0 else "",
            )
        )
    return out


def _segment_files(folder: Path) -> dict[str, str]:
    """The index's segment files, each named by its role (the random segment name left out),
    with a digest of its bytes."""
    ix = windex.open_dir(str(folder))
    (segment,) = ix._segments()
    segid = segment.segment_id()
    ix.close()
    out: dict[str, str] = {}
    for path in folder.iterdir():
        if segid in path.name:
            role = path.name.replace(segid, "SEG")
            out[role] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def _write(folder: Path, docs: list[IndexDoc], bulk: bool, share_values: bool = True) -> None:
    folder.mkdir()
    ix = windex.create_in(str(folder), build_schema())
    if bulk:
        writer = bulk_writer.BulkSegmentWriter(ix, share_values=share_values, compound=False)
        for d in docs:
            writer.add_document(**_fields(d))
        writer.commit()
    else:
        writer = SegmentWriter(ix, compound=False, limitmb=1)  # small runs: the merge is used too
        for d in docs:
            writer.add_document(**_fields(d))
        writer.commit()
    ix.close()


def test_without_shared_values_the_bulk_segment_is_whooshs_byte_for_byte(tmp_path: Path) -> None:
    docs = _docs(700)  # common terms span several 128-posting blocks
    _write(tmp_path / "whoosh", docs, bulk=False)
    _write(tmp_path / "bulk", docs, bulk=True, share_values=False)
    theirs, ours = _segment_files(tmp_path / "whoosh"), _segment_files(tmp_path / "bulk")
    assert set(theirs) == set(ours)
    assert len(theirs) >= 4  # terms, postings, columns...: something was compared
    differ = [role for role in theirs if theirs[role] != ours[role]]
    assert not differ, f"files that differ from Whoosh's: {differ}"


def _postings(reader: IndexReader, term: tuple[str, bytes]) -> list[tuple[int, float, bytes]]:
    m = reader.postings(*term)
    out = []
    while m.is_active():
        out.append((m.id(), m.weight(), m.value()))
        m.next()
    return out


def _statistics(reader: IndexReader, term: tuple[str, bytes]) -> tuple[object, ...]:
    i = reader.term_info(*term)
    return (i.weight(), i.doc_frequency(), i.min_length(), i.max_length(), i.max_weight(), i.min_id(), i.max_id())


def test_with_shared_values_every_term_and_posting_is_whooshs(tmp_path: Path) -> None:
    docs = _docs(700)
    _write(tmp_path / "whoosh", docs, bulk=False)
    _write(tmp_path / "bulk", docs, bulk=True)
    theirs, ours = _segment_files(tmp_path / "whoosh"), _segment_files(tmp_path / "bulk")
    assert {r: d for r, d in theirs.items() if r != "SEG.pst" and r != "SEG.trm"} == {
        r: d for r, d in ours.items() if r != "SEG.pst" and r != "SEG.trm"
    }  # stored fields, columns and lengths: the same bytes
    assert sum(p.stat().st_size for p in (tmp_path / "bulk").glob("*.pst")) < sum(
        p.stat().st_size for p in (tmp_path / "whoosh").glob("*.pst")
    )
    a = windex.open_dir(str(tmp_path / "whoosh")).reader()
    b = windex.open_dir(str(tmp_path / "bulk")).reader()
    terms = list(a.all_terms())
    assert len(terms) > 3000
    assert list(b.all_terms()) == terms
    for term in terms:
        assert _statistics(b, term) == _statistics(a, term), term
        assert _postings(b, term) == _postings(a, term), term
    a.close()
    b.close()


def test_a_field_the_bulk_writer_does_not_analyse_itself_goes_through_whoosh(tmp_path: Path) -> None:
    from whoosh.analysis import StandardAnalyzer
    from whoosh.fields import ID, TEXT, Schema

    # a field with term vectors too: the per-document vector file is Whoosh's as well
    schema = Schema(key=ID(stored=True), body=TEXT(analyzer=StandardAnalyzer()), vec=TEXT(vector=True))
    docs = [{"key": str(i), "body": text or "x", "vec": text or "y"} for i, text in enumerate(ODD_TEXT * 30)]
    digests = []
    for bulk in (False, True):
        folder = tmp_path / f"ix{bulk}"
        folder.mkdir()
        ix = windex.create_in(str(folder), schema)
        if bulk:
            assert bulk_writer.build(ix, iter(docs), len(docs))
        else:
            writer = SegmentWriter(ix, compound=False)
            for d in docs:
                writer.add_document(**d)
            writer.commit()
        ix.close()
        digests.append(_segment_files(folder))
    assert digests[0] == digests[1]


QUERIES = [
    "learning",
    "transf*",
    '"reinforcement learning"',
    "graph AND neural",
    "istanbul",
    "straße",
    "platypus",
    "注意力机制",
    "v1.2.3",
    "author:smith",
    "year:2020",
    "keyword:rl",
    "running",
    "title:learning OR venue:neurips",
]


def _answers(folder: Path, docs: list[IndexDoc], procs: int, segment_postings: int | None = None) -> dict[str, object]:
    index = SearchIndex(folder)
    if procs:
        from unittest import mock

        limit = segment_postings or bulk_writer.SEGMENT_POSTINGS
        with (
            mock.patch("desktop_app.core.search.worker.build_procs", return_value=procs),
            mock.patch.object(bulk_writer, "SEGMENT_POSTINGS", limit),
        ):
            assert index.rebuild(iter(docs), len(docs))
        segments = len(index.searcher.reader().leaf_readers())
        assert segments >= (len(docs) * 100 // limit if segment_postings else procs), segments
    else:  # Whoosh's own writer, as the rebuild wrote before the bulk writer
        from desktop_app.core.search.index import STAMP, _write_segment_arrays

        folder.mkdir()
        ix = windex.create_in(str(folder), build_schema())
        writer = SegmentWriter(ix, compound=False)
        for d in docs:
            writer.add_document(**_fields(d))
        writer.commit()
        _write_segment_arrays(folder, ix)
        ix.close()
        (folder / STAMP).write_text('{"schema": 0}', "utf-8")
        index.open()
    from whoosh.qparser import MultifieldParser

    parser = MultifieldParser(["title", "abstract", "author", "note", "highlight"], build_schema())
    out: dict[str, object] = {}
    for text in QUERIES:
        q = parser.parse(text)
        out[text] = sorted(index.matching_pids(q))
        # every match with its score (ties in pid order: two segments number documents apart)
        ranked = [(pid, round(score, 9)) for pid, score in index.ranked_pids(q, len(docs))]
        out[f"ranked {text}"] = sorted(ranked, key=lambda hit: (-hit[1], hit[0]))
    out["count"] = [index.doc_count()]
    index.close()
    return out


@pytest.mark.parametrize(("procs", "segment_postings"), [(1, None), (2, None), (1, 20_000), (2, 20_000)])
def test_a_rebuilt_index_answers_as_whooshs_did(tmp_path: Path, procs: int, segment_postings: int | None) -> None:
    """In one process or two, in one segment each or in several (a writer holds at most
    ``segment_postings`` postings in memory): the same matches, scores and count."""
    docs = _docs(1200, seed=11)
    theirs = _answers(tmp_path / "whoosh", docs, 0)
    ours = _answers(tmp_path / "bulk", docs, procs, segment_postings)
    assert theirs["count"] == [1200]
    assert sum(len(v) for k, v in theirs.items() if isinstance(v, list) and k != "count") > 1000
    assert ours == theirs


def _failing_docs(docs: list[IndexDoc]) -> Iterator[dict[str, object]]:
    for n, d in enumerate(docs):
        fields = _fields(d)
        if n == len(docs) - 5:
            fields["no_such_field"] = "x"
        yield fields


@pytest.mark.parametrize("procs", [1, 2])
def test_a_failed_or_cancelled_build_commits_nothing(tmp_path: Path, procs: int) -> None:
    from whoosh.fields import UnknownFieldError

    docs = _docs(900, seed=3)
    folder = tmp_path / "ix"
    folder.mkdir()
    ix = windex.create_in(str(folder), build_schema())
    with pytest.raises((UnknownFieldError, bulk_writer.HelperFailed)):
        bulk_writer.build(ix, _failing_docs(docs), len(docs), procs=procs)
    assert windex.open_dir(str(folder)).doc_count() == 0
    seen: list[int] = []
    done = bulk_writer.build(
        ix, (_fields(d) for d in docs), len(docs), procs, lambda n, t: seen.append(n), lambda: len(seen) >= 1
    )
    assert not done
    assert windex.open_dir(str(folder)).doc_count() == 0
    assert bulk_writer.build(ix, (_fields(d) for d in docs), len(docs), procs=procs)
    assert windex.open_dir(str(folder)).doc_count() == 900
    ix.close()
