"""Core benchmark: import, index, search (beside SQLite FTS5), listing, bulk tagging, BibTeX reading.

    .venv/bin/python benchmarks/bench_core.py --size 10000

Everything runs in a fresh temporary library on the synthetic corpus of ``corpus.py``. The
targets are set for 10,000 papers; at other sizes they are printed for orientation only.
``--profile`` adds a cProfile summary of the slowest query and of the bulk tag.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import re
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from common import ROOT, TARGET_SIZE, cached_library, corpus, environment, ms, percentile, verdict

from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult
from desktop_app.core.store.engine import connect

# Targets at 10,000 papers.
TARGET_LISTED = 2_000  # papers/s
TARGET_INDEX_S = 60.0
TARGET_P95_RATIO = 1.0  # Marginalia p95 / FTS5 p95 (the aim: no slower than SQLite's C engine)
TARGET_MAX_QUERY_S = 0.2
TARGET_TANTIVY_RATIO = 2.0  # Marginalia p95 / tantivy p95, set for 100,000 papers
TANTIVY_TARGET_SIZE = 100_000
TARGET_CLI_RATIO = 8.0  # CPU of `marginalia search` / CPU of `python -c 'import sqlite3'`
TARGET_BULK_TAG_S = 0.5
LIMIT = 50
PAGE = 200  # the table model's page size


@dataclass(frozen=True)
class Q:
    kind: str
    text: str  # Marginalia query language
    fts: str | None  # FTS5 MATCH expression
    tag: str | None = None  # tag filter answered by SQL in the reference


QUERIES = [
    Q("term", "transformer", "transformer"),
    Q("term", "diffusion", "diffusion"),
    Q("term (rare)", "hypergraph", "hypergraph"),
    Q("term (broad)", "learning", "learning"),
    Q("AND", "reinforcement learning", "reinforcement learning"),
    Q("AND", "policy AND reward", "policy AND reward"),
    Q("AND", "graph neural network", "graph neural network"),
    Q("phrase", '"in-context learning"', '"in context learning"'),
    Q("phrase", '"large language models"', '"large language models"'),
    Q("phrase", '"replay buffer"', '"replay buffer"'),
    Q("prefix", "quas*", "quas*"),
    Q("prefix", "transf*", "transf*"),
    Q("prefix", "optim*", "optim*"),
    Q("tag", "tag:rl", None, "rl"),
    Q("tag", "tag:llm/reasoning", None, "llm/reasoning"),
    Q("tag", "tag:to-cite", None, "to-cite"),
    Q("tag+term", "tag:rl reward", "reward", "rl"),
    Q("OR", "diffusion OR flow", "diffusion OR flow"),
    Q("OR", "Hessian OR preconditioner", "Hessian OR preconditioner"),
]


# ---- the FTS5 reference ---------------------------------------------------------------------
def read_papers(db_path: Path) -> tuple[list[tuple[int, str, str, str]], list[tuple[int, str]]]:
    """The papers as the references index them, (id, title, plain abstract, authors), and the
    (paper id, tag) pairs, read from the library's database."""
    src = connect(db_path, read_only=True)  # a percent-encoded URI: any folder name
    papers = src.execute(
        "SELECT id, title, abstract_text, authors_json FROM paper WHERE deleted_at IS NULL ORDER BY id"
    ).fetchall()
    tags = src.execute("SELECT pt.paper_id, t.name FROM paper_tag pt JOIN tag t ON t.id = pt.tag_id").fetchall()
    src.close()
    rows = [
        (pid, title or "", text or "", " ".join(json.loads(authors or "[]"))) for pid, title, text, authors in papers
    ]
    return rows, tags


def build_fts(rows: list[tuple[int, str, str, str]], tags: list[tuple[int, str]]) -> tuple[sqlite3.Connection, float]:
    """In-memory FTS5 tables over the papers (title, plain abstract, authors) and a tag table.
    Returns the connection and the build time."""
    t0 = time.perf_counter()
    db = sqlite3.connect(":memory:")
    # "fts" stems like Whoosh's StemmingAnalyzer. FTS5 stems the text of a prefix query too
    # ("quas*" becomes "qua*", matching twice the papers), so prefix queries go to "fts_raw",
    # which does not stem: that matches what Marginalia's prefix queries do.
    for table, tokenizer in (("fts", "porter unicode61"), ("fts_raw", "unicode61")):
        db.execute(f"CREATE VIRTUAL TABLE {table} USING fts5(title, abstract, authors, tokenize='{tokenizer}')")
        db.execute(f"INSERT INTO {table}({table}, rank) VALUES('rank', 'bm25(3.0, 1.0, 1.5)')")  # Whoosh's boosts
        db.executemany(f"INSERT INTO {table}(rowid, title, abstract, authors) VALUES (?, ?, ?, ?)", rows)
    db.execute("CREATE TABLE ptag(paper_id INTEGER, tag TEXT)")
    db.executemany("INSERT INTO ptag VALUES (?, ?)", tags)
    db.execute("CREATE INDEX ptag_tag ON ptag(tag COLLATE NOCASE)")
    db.commit()
    return db, time.perf_counter() - t0


def fts_query(db: sqlite3.Connection, q: Q, count: bool = False) -> list[int]:
    """The reference answer: the best LIMIT papers by bm25 (tags by SQL). ``count`` returns
    [number of all matches] instead (untimed, to check that both sides match the same papers)."""
    tag_sql = "SELECT paper_id FROM ptag WHERE tag = :t COLLATE NOCASE OR tag LIKE :tl"
    params = {"m": q.fts, "t": q.tag, "tl": f"{q.tag}/%", "n": -1 if count else LIMIT}
    # "+rowid": without the unary plus SQLite drives the FTS5 scan by the tag list and runs
    # the MATCH once per tagged paper (220 ms instead of 10 ms at 10,000 papers).
    fts = "fts_raw" if q.kind == "prefix" else "fts"
    if q.fts and q.tag:
        sql = f"SELECT rowid FROM {fts} WHERE {fts} MATCH :m AND +rowid IN ({tag_sql}) ORDER BY rank LIMIT :n"
    elif q.fts:
        sql = f"SELECT rowid FROM {fts} WHERE {fts} MATCH :m ORDER BY rank LIMIT :n"
    else:
        sql = f"SELECT DISTINCT paper_id FROM ({tag_sql}) ORDER BY paper_id LIMIT :n"
    ids = [r[0] for r in db.execute(sql, params)]
    return [len(ids)] if count else ids


# ---- the tantivy reference (a child with the benchmark venv's python) -----------------------
TANTIVY_PYTHON = Path(os.environ.get("MARGINALIA_TANTIVY_PYTHON", ROOT / ".venv-tantivy" / "bin" / "python"))
TANTIVY_SIDE = Path(__file__).resolve().parent / "tantivy_side.py"


def tantivy_query(q: Q) -> dict[str, str | None]:
    """``q`` for tantivy_side.py: the FTS5 expression in tantivy's query language (an implicit
    or explicit AND becomes ``+a +b``; OR and phrases read the same), or the prefix of a prefix
    query (answered there on unstemmed fields, as FTS5's are on ``fts_raw``), and the tag."""
    parse = prefix = None
    if q.kind == "prefix":
        prefix = (q.fts or "").rstrip("*")
    elif q.fts and " OR " in q.fts:
        parse = q.fts
    elif q.fts:
        parse = " ".join("+" + t for t in re.findall(r'"[^"]*"|\S+', q.fts) if t != "AND")
    return {"key": q.text, "parse": parse, "prefix": prefix, "tag": q.tag}


def run_tantivy(
    rows: list[tuple[int, str, str, str]], tags: list[tuple[int, str]], reps: int, tmp: Path
) -> dict | None:
    """The same papers and queries through tantivy in a child process; None (with a note
    printed) when the benchmark venv is missing or the child fails."""
    if not TANTIVY_PYTHON.exists():
        print(f"  tantivy: skipped — no {TANTIVY_PYTHON} (`make bench` creates it: a venv with tantivy only)")
        return None
    by_paper: dict[int, list[str]] = {}
    for pid, name in tags:
        by_paper.setdefault(pid, []).append(name)
    spec = {
        "docs": [[*row, by_paper.get(row[0], [])] for row in rows],
        "queries": [tantivy_query(q) for q in QUERIES],
        "reps": reps,
        "limit": LIMIT,
    }
    path = tmp / "tantivy-input.json"
    path.write_text(json.dumps(spec), "utf-8")
    done = subprocess.run([str(TANTIVY_PYTHON), str(TANTIVY_SIDE), str(path)], capture_output=True, text=True)
    path.unlink()
    if done.returncode:
        tail = done.stderr.strip().splitlines()[-1:] or ["(no message)"]
        print(f"  tantivy: skipped — {TANTIVY_SIDE.name} exited with {done.returncode}: {tail[0]}")
        return None
    return json.loads(done.stdout)


# ---- measuring ------------------------------------------------------------------------------
FIRST_ASKED: dict[str, tuple[float, float]] = {}  # query -> (wall, CPU) of its warm-up run, Marginalia's


def time_queries(
    run: Callable[[Q], object], reps: int, first: dict[str, tuple[float, float]] | None = None
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Run every query once to warm up, then ``reps`` rounds; per-query wall and CPU times
    (``time.process_time``: the load of a shared machine does not count). ``first`` gets each
    query's warm-up time: the first time it is asked, nothing kept for it yet (its parsed
    tree, its words' unions, its id lists), the postings of its words read from the index."""
    for q in QUERIES:
        c0, t0 = time.process_time(), time.perf_counter()
        run(q)
        if first is not None:
            first[q.text] = (time.perf_counter() - t0, time.process_time() - c0)
    times: dict[str, list[float]] = {q.text: [] for q in QUERIES}
    cpu: dict[str, list[float]] = {q.text: [] for q in QUERIES}
    for _ in range(reps):
        for q in QUERIES:
            c0, t0 = time.process_time(), time.perf_counter()
            run(q)
            times[q.text].append(time.perf_counter() - t0)
            cpu[q.text].append(time.process_time() - c0)
    return times, cpu


def child_cpu(argv: list[str], runs: int = 5) -> float:
    """Median CPU time (user + system) of a child process."""
    out = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(
            argv,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(out)


def bench_cli(folder: Path) -> tuple[float, float]:
    """CPU of `marginalia --library L search transformer` beside a bare `python -c 'import sqlite3'`."""
    py = sys.executable
    floor = child_cpu([py, "-c", "import sqlite3"])
    ours = child_cpu([py, "-m", "desktop_app", "--library", str(folder), "search", "transformer"])
    return ours, floor


def summary(times: dict[str, list[float]]) -> tuple[float, float, float]:
    allt = [t for ts in times.values() for t in ts]
    return percentile(allt, 50), percentile(allt, 95), max(allt)


def profile_call(fn, top: int = 18) -> str:  # noqa: ANN001
    prof = cProfile.Profile()
    prof.enable()
    fn()
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).strip_dirs().sort_stats("cumulative").print_stats(top)
    return "\n".join(line for line in out.getvalue().splitlines() if line.strip())


def bench_bibtex(size: int) -> list[str]:
    lines = []
    try:
        from desktop_app.core.formats import read_bytes
    except ImportError as exc:
        return [f"BibTeX read: skipped — desktop_app.core.formats.read_bytes is missing ({exc})"]
    import bibtexparser

    text = corpus.to_bibtex(corpus.make_corpus(size))
    data = text.encode("utf-8")
    t0 = time.perf_counter()
    result = read_bytes(data, name="bench.bib")
    t_ours = time.perf_counter() - t0
    t0 = time.perf_counter()
    library = bibtexparser.parse_string(text)
    t_ref = time.perf_counter() - t0
    n_ours, n_ref = len(result.records), len(library.entries)
    lines.append(f"BibTeX read ({size:,} entries, {len(data) / 1e6:.1f} MB, format detected: {result.format})")
    lines.append(
        f"  desktop_app.core.formats.read_bytes  {t_ours:7.2f} s  {n_ours / t_ours:8,.0f} entries/s"
        f"  ({n_ours:,} records, {len(result.errors)} errors, {len(result.warnings)} warnings)"
    )
    lines.append(
        f"  bibtexparser.parse_string (raw)       {t_ref:7.2f} s  {n_ref / t_ref:8,.0f} entries/s"
        f"  ({n_ref:,} entries, {len(library.failed_blocks)} failed blocks)"
    )
    lines.append(
        f"  read_bytes / parse_string time: {t_ours / t_ref:.2f}×"
        "  (read_bytes also decodes, expands strings/crossrefs and maps fields to records)"
    )
    return lines


def bench_build(lib: Library, records: list, out: dict[str, object]) -> None:
    """Import the corpus in one transaction, then build the index (both timed)."""
    n = len(records)
    t0 = time.perf_counter()
    report = lib.imports.from_records([("benchmark corpus", ParseResult("bibtex", records))])
    t_import = time.perf_counter() - t0
    rate = report.added / t_import
    print(
        f"import_records (one transaction)   {report.added:,} papers in {t_import:.1f} s"
        f" = {rate:,.0f} papers/s   ({report.duplicates} duplicates)"
    )
    t0 = time.perf_counter()
    why = lib.ensure_index()
    t_index = time.perf_counter() - t0
    print(
        f"index build (first ensure_index, {why})   {t_index:.1f} s = {n / t_index:,.0f} papers/s"
        f"   target ≤ {TARGET_INDEX_S:.0f} s   {verdict(t_index <= TARGET_INDEX_S)}"
    )
    out.update(import_s=t_import, import_rate=rate, index_s=t_index)


def fine_ms(seconds: float) -> str:
    return f"{seconds * 1000:,.2f} ms"


def engine_line(name: str, wall: dict[str, list[float]], cpu: dict[str, list[float]], extra: str = "") -> str:
    w50, w95, wmax = summary(wall)
    c50, c95, cmax = summary(cpu)
    return (
        f"  {name:<24}  wall p50 {fine_ms(w50):>9} p95 {fine_ms(w95):>9} max {fine_ms(wmax):>9}"
        f"   CPU p50 {fine_ms(c50):>9} p95 {fine_ms(c95):>9} max {fine_ms(cmax):>9}{extra}"
    )


def ratio_line(name: str, m: tuple[float, float], ref: tuple[float, float], target: float, note: str = "") -> str:
    """Marginalia p95 / a reference's p95, (wall, CPU) each, against ``target``."""
    wall, cpu = (a / b if b else float("inf") for a, b in zip(m, ref, strict=True))
    return (
        f"  p95 ratio Marginalia/{name:<8} wall {wall:5.2f}×   CPU {cpu:5.2f}×   target ≤ {target}×{note}   "
        f"{verdict(wall <= target)} (wall) {verdict(cpu <= target)} (CPU)"
    )


def bench_search(lib: Library, n: int, reps: int, profile: bool, tmp: Path, out: dict[str, object]) -> None:
    """The query mix through Marginalia, SQLite FTS5 and (when its venv exists) tantivy."""

    def ours(q: Q) -> list[int]:
        return lib.query(q.text, sort="relevance", limit=LIMIT).ids

    lib.query("zzzqqq", sort="relevance", limit=LIMIT)  # the index's arrays loaded: once per session, not per query
    m_times, m_cpu = time_queries(ours, reps, FIRST_ASKED)
    rows, tags = read_papers(lib.db_path)
    fts, t_fts_build = build_fts(rows, tags)
    f_times, f_cpu = time_queries(lambda q: fts_query(fts, q), reps)
    tv = run_tantivy(rows, tags, reps, tmp)
    del rows, tags
    m50, m95, mmax = summary(m_times)
    f50, f95, fmax = summary(f_times)
    c95, fc95 = summary(m_cpu)[1], summary(f_cpu)[1]
    ratio, cpu_ratio = m95 / f95, (c95 / fc95 if fc95 else float("inf"))
    samples = sum(len(v) for v in m_times.values())
    print(f"search, limit {LIMIT}, sort=relevance: {len(QUERIES)} queries × {reps} rounds = {samples} samples")
    print(engine_line("Marginalia (Whoosh+SQL)", m_times, m_cpu))
    print(engine_line("SQLite FTS5 reference", f_times, f_cpu, f"   (build {t_fts_build:.1f} s)"))
    if tv:
        print(
            engine_line(
                f"tantivy {tv['version'].split(',')[0].removeprefix('tantivy ')}",
                tv["times"],
                tv["cpu"],
                f"   (build {tv['build_s']:.1f} s, {tv['segments']} segment(s))",
            )
        )
    print(ratio_line("FTS5", (m95, c95), (f95, fc95), TARGET_P95_RATIO))
    if tv:
        t95, tc95 = summary(tv["times"])[1], summary(tv["cpu"])[1]
        at = "" if n == TANTIVY_TARGET_SIZE else f" (set at {TANTIVY_TARGET_SIZE:,})"
        print(ratio_line("tantivy", (m95, c95), (t95, tc95), TARGET_TANTIVY_RATIO, at))
        first_wall = percentile([w for w, _ in FIRST_ASKED.values()], 95)
        first_cpu = percentile([c for _, c in FIRST_ASKED.values()], 95)
        print(
            f"  first time each query is asked (nothing kept for it): Marginalia p95 wall {fine_ms(first_wall)}"
            f" CPU {fine_ms(first_cpu)} = {first_wall / t95:.2f}× / {first_cpu / tc95 if tc95 else float('inf'):.2f}×"
            " tantivy's warm p95 (for orientation: the target is set on the warm rounds)"
        )
        out.update(first_asked_p95=first_wall, first_asked_cpu_p95=first_cpu)
        out.update(
            tantivy_version=tv["version"],
            tantivy_p50=summary(tv["times"])[0],
            tantivy_p95=t95,
            tantivy_max=summary(tv["times"])[2],
            tantivy_cpu_p95=tc95,
            p95_tantivy_ratio=m95 / t95,
            p95_tantivy_cpu_ratio=c95 / tc95 if tc95 else float("inf"),
            tantivy_per_query={k: statistics.median(v) for k, v in tv["times"].items()},
        )
    print(
        f"  slowest query                {ms(mmax)}   target ≤ {TARGET_MAX_QUERY_S * 1000:.0f} ms   "
        f"{verdict(mmax <= TARGET_MAX_QUERY_S)}"
    )
    totals = {q.text: lib.query(q.text, sort="relevance", limit=LIMIT).total for q in QUERIES}
    f_totals = {q.text: fts_query(fts, q, count=True)[0] for q in QUERIES}
    t_totals = tv["counts"] if tv else {}
    head = f"  {'kind':<12} {'query':<28} {'median':>9} {'max':>9} {'FTS5 med':>9} {'×':>6}"
    if tv:
        head += f" {'tantivy':>9} {'×':>6}"
    print(head + f" {'matches':>8} {'FTS5':>8}" + (f" {'tantivy':>8}" if tv else ""))
    for q in QUERIES:
        med, fmed = statistics.median(m_times[q.text]), statistics.median(f_times[q.text])
        line = f"  {q.kind:<12} {q.text:<28} {fine_ms(med):>9} {fine_ms(max(m_times[q.text])):>9} {fine_ms(fmed):>9} {med / fmed:>6.2f}"
        if tv:
            tmed = statistics.median(tv["times"][q.text])
            line += f" {fine_ms(tmed):>9} {med / tmed:>6.1f}"
        counts = [totals[q.text], f_totals[q.text]] + ([t_totals[q.text]] if tv else [])
        line += "".join(f" {c:>8,}" for c in counts)
        print(line + ("   ≠" if len(set(counts)) > 1 else ""))
    if any(len({totals[q.text], f_totals[q.text], *([t_totals[q.text]] if tv else [])}) > 1 for q in QUERIES):
        print(
            "  ≠ the match counts differ: Whoosh's Porter stemmer leaves derived forms (hypergraphic,"
            " hypergraphization) whole where FTS5's porter and tantivy's en_stem (Snowball English) reduce"
            " them to hypergraph; Marginalia also searches fields the references do not have (note, venue,"
            " keywords, highlights: a few papers more), and its prefix queries read stemmed terms"
            " (QUAS is indexed as qua, so quas* misses a paper whose only quas- word it is)"
        )
    out.update(
        search_p50=m50,
        search_p95=m95,
        search_max=mmax,
        fts_p50=f50,
        fts_p95=f95,
        fts_max=fmax,
        p95_ratio=ratio,
        search_cpu_p95=c95,
        fts_cpu_p95=fc95,
        p95_cpu_ratio=cpu_ratio,
        per_query={k: statistics.median(v) for k, v in m_times.items()},
    )
    if profile:
        slowest = max(QUERIES, key=lambda q: statistics.median(m_times[q.text]))
        print(f"  cProfile of the slowest query {slowest.text!r}:")
        print("    " + profile_call(lambda: ours(slowest)).replace("\n", "\n    "))
    fts.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Marginalia core benchmark")
    ap.add_argument("--size", type=int, default=TARGET_SIZE, help="papers in the corpus (default 10000)")
    ap.add_argument("--reps", type=int, default=5, help="timed rounds over the query mix (default 5)")
    ap.add_argument("--bib-size", type=int, default=10_000, help="entries in the BibTeX read test (0 skips)")
    ap.add_argument("--seed", type=int, default=corpus.DEFAULT_SEED)
    ap.add_argument("--profile", action="store_true", help="cProfile the slowest query and the bulk tag")
    ap.add_argument("--json", help="also write the figures to this JSON file")
    ap.add_argument(
        "--cached",
        action="store_true",
        help="start from a copy of the cached library (common.py) instead of importing "
        "and indexing the corpus: for 100,000 papers",
    )
    args = ap.parse_args(argv)
    n = args.size
    note = "" if n == TARGET_SIZE else f"   (targets are set for {TARGET_SIZE:,} papers)"
    print(
        f"Marginalia core benchmark — {n:,} papers, corpus generator v{corpus.GENERATOR_VERSION} seed {args.seed}{note}"
    )
    print(f"  {environment()}")
    out: dict[str, object] = {"size": n}
    with tempfile.TemporaryDirectory(prefix="marginalia-bench-core-") as tmp:
        if args.cached:  # a copy of the cached library: search, listing and tagging only
            shutil.copytree(cached_library(n, args.seed), Path(tmp) / "lib")
            lib = Library.open(Path(tmp) / "lib")
        else:
            lib = Library.open(Path(tmp) / "lib", ensure_index=False)
        try:
            if not args.cached:
                bench_build(lib, corpus.make_corpus(n, args.seed), out)

            bench_search(lib, n, args.reps, args.profile, Path(tmp), out)
            lib.index.drain()
            cli, floor = bench_cli(lib.folder)
            print(
                f"CLI `marginalia search transformer`   CPU {ms(cli)} vs `python -c 'import sqlite3'` "
                f"{ms(floor)}: {cli / floor:.1f}×   target ≤ {TARGET_CLI_RATIO:.0f}×   "
                f"{verdict(cli / floor <= TARGET_CLI_RATIO)}"
            )
            out.update(cli_search_cpu=cli, python_sqlite3_cpu=floor, cli_cpu_ratio=cli / floor)

            # listing: every paper through query("") and rows() pages, as the table reads them
            t0 = time.perf_counter()
            res = lib.query("")
            for i in range(0, len(res.ids), PAGE):
                lib.papers.rows(res.ids[i : i + PAGE])
            t_list = time.perf_counter() - t0
            listed = len(res.ids) / t_list
            print(
                f"listing (query('') + rows() in pages of {PAGE})   {len(res.ids):,} papers in {t_list:.2f} s"
                f" = {listed:,.0f} papers/s   target ≥ {TARGET_LISTED:,}/s   {verdict(listed >= TARGET_LISTED)}"
            )
            out.update(listed_rate=listed)

            # bulk tag: 1,000 papers spread over the library, three times with new tags
            step = max(1, len(res.ids) // 1000)
            ids = res.ids[::step][:1000]
            tag_times = []
            for k in range(3):
                t0 = time.perf_counter()
                lib.tags.add(ids, [f"bench/bulk-{k}"])
                tag_times.append(time.perf_counter() - t0)
            worst = max(tag_times)
            print(
                f"bulk add_tags on {len(ids):,} papers   "
                + " / ".join(ms(t) for t in tag_times)
                + f"   worst {ms(worst)}   target ≤ {TARGET_BULK_TAG_S * 1000:.0f} ms   "
                f"{verdict(worst <= TARGET_BULK_TAG_S)}"
            )
            out.update(bulk_tag_s=tag_times)
            if args.profile:
                print("  cProfile of one bulk add_tags:")
                print("    " + profile_call(lambda: lib.tags.add(ids, ["bench/bulk-p"])).replace("\n", "\n    "))
        finally:
            lib.close()

    if args.bib_size:
        for line in bench_bibtex(args.bib_size):
            print(line)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
