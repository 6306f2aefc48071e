"""The tantivy side of bench_core's search comparison, run in a child with the benchmark venv.

    .venv-tantivy/bin/python benchmarks/tantivy_side.py INPUT.json

Standard library and tantivy only (``make bench`` creates ``.venv-tantivy`` with tantivy; the
app's venv never has it). INPUT.json holds ``docs`` (``[id, title, plain abstract, authors,
[tags]]``), ``queries`` (``{"key", "parse", "prefix", "tag"}``: a tantivy query-language string,
an unstemmed prefix, a tag path; each may be null), ``reps`` and ``limit``. The papers go into an
in-RAM index: title, abstract and authors with the ``en_stem`` tokenizer (queries) and again
with ``default`` (lower-cased, not stemmed: prefix queries), the tags and their ancestors as
raw terms (``rl/rlvr`` is indexed as ``rl/rlvr`` and ``rl``), the id as a fast field. Every query
runs once to warm up, then ``reps`` rounds in the same order; each run parses the query,
searches (top ``limit`` by BM25 with the title ×3 / authors ×1.5 boosts, and the match count)
and reads the ids of the hits. The JSON on stdout holds per-query wall and CPU
(``time.process_time``) times, match counts and the index build time.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import tantivy

FIELDS = ["title", "abstract", "authors"]
BOOSTS = {"title": 3.0, "abstract": 1.0, "authors": 1.5}  # Whoosh's field boosts


def build(docs: list) -> tuple[tantivy.Index, tantivy.Schema, float]:
    sb = tantivy.SchemaBuilder()
    sb.add_integer_field("id", stored=False, indexed=False, fast=True)
    for field in FIELDS:
        sb.add_text_field(field, tokenizer_name="en_stem")
        sb.add_text_field(field + "_raw", tokenizer_name="default")
    sb.add_text_field("tag", tokenizer_name="raw", index_option="basic")
    schema = sb.build()
    t0 = time.perf_counter()
    index = tantivy.Index(schema)  # in RAM
    writer = index.writer(heap_size=400_000_000, num_threads=1)  # one thread: few segments
    for pid, title, abstract, authors, tags in docs:
        paths = set()
        for tag in tags:
            parts = tag.lower().split("/")
            paths.update("/".join(parts[:k]) for k in range(1, len(parts) + 1))
        writer.add_document(
            tantivy.Document(
                id=pid,
                title=title,
                abstract=abstract,
                authors=authors,
                title_raw=title,
                abstract_raw=abstract,
                authors_raw=authors,
                tag=sorted(paths),
            )
        )
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    return index, schema, time.perf_counter() - t0


def main(path: str) -> int:
    spec = json.loads(Path(path).read_text(encoding="utf-8"))
    index, schema, build_s = build(spec["docs"])
    searcher = index.searcher()
    limit = spec["limit"]
    must = tantivy.Occur.Must

    def run(q: dict, count_only: bool = False) -> list[int] | int:
        text = None
        if q["parse"]:
            text = index.parse_query(q["parse"], FIELDS, field_boosts=BOOSTS)
        elif q["prefix"]:
            # The query parser has no single-term prefix, and a one-word phrase_prefix_query
            # expands to 50 terms at most (11,807 of 12,215 matches for quas* at 100,000), so
            # a regex query per field: every term, constant score.
            pattern = re.escape(q["prefix"].lower()) + ".*"
            text = tantivy.Query.boolean_query(
                [
                    (
                        tantivy.Occur.Should,
                        tantivy.Query.boost_query(tantivy.Query.regex_query(schema, f + "_raw", pattern), BOOSTS[f]),
                    )
                    for f in FIELDS
                ]
            )
        if q["tag"]:
            tag = tantivy.Query.term_query(schema, "tag", q["tag"].lower())
            if text is None:  # the FTS5 reference lists these by id
                result = searcher.search(tag, limit, count=True, order_by_field="id", order=tantivy.Order.Asc)
            else:  # the tag filters, the text scores
                query = tantivy.Query.boolean_query([(must, text), (must, tantivy.Query.const_score_query(tag, 0.0))])
                result = searcher.search(query, limit, count=True)
        else:
            result = searcher.search(text, limit, count=True)
        if count_only:
            return result.count
        return searcher.fast_field_values("id", [addr for _, addr in result.hits])

    queries = spec["queries"]
    for q in queries:  # warm-up
        run(q)
    times: dict[str, list[float]] = {q["key"]: [] for q in queries}
    cpu: dict[str, list[float]] = {q["key"]: [] for q in queries}
    for _ in range(spec["reps"]):
        for q in queries:
            c0, t0 = time.process_time(), time.perf_counter()
            run(q)
            times[q["key"]].append(time.perf_counter() - t0)
            cpu[q["key"]].append(time.process_time() - c0)
    out = {
        "version": getattr(tantivy, "__version__", "?"),
        "build_s": build_s,
        "segments": searcher.num_segments,
        "docs": searcher.num_docs,
        "times": times,
        "cpu": cpu,
        "counts": {q["key"]: run(q, count_only=True) for q in queries},
    }
    json.dump(out, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
