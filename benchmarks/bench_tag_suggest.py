"""Tag suggestions: leave-one-out precision@3 on tagged corpora.

    .venv/bin/python benchmarks/bench_tag_suggest.py [--synthetic 2000]

Two corpora, each imported into a fresh temporary library (untimed):

* real: the 76 seed abstracts plus every file of ``/work/shared/corpus`` (``MARGINALIA_CORPUS``
  overrides), imported with "keywords as tags" — each paper's file keywords become its tags
  (``keywords/…``); the seeds carry none and only stand between the others as neighbours.
* synthetic: the benchmark corpus generator's first N papers (``corpus.py``; 40% carry topic tags
  such as ``rl/rlvr``).

For every paper that has tags and an abstract, its tags are hidden (``suggest_tags(...,
hide_own=True)``: it counts as untagged, and a tag only it carries does not exist), three tags
are suggested, and the hits counted. Printed: P@3 = hits / 3 (the usual definition), hits /
min(3, its tags), and the share of papers with at least one hit; the time per suggestion.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus
from common import ROOT, environment, ms, percentile

SEEDS = Path(os.environ.get("MARGINALIA_SEEDS", "/work/shared/seeds"))
CORPUS = Path(os.environ.get("MARGINALIA_CORPUS", "/work/shared/corpus"))
K = 3


def _real_files() -> list[Path]:
    files = sorted(SEEDS.glob("*.txt"))
    for sub in ("bibtex", "ris", "csl-json", "arxiv-atom"):
        files += sorted(p for p in (CORPUS / sub).glob("*") if p.is_file())
    return files


def evaluate(lib, label: str) -> None:  # noqa: ANN001 - a Library
    from desktop_app.core.insights.tag_suggest import suggest_tags

    ids = lib.finder.list_ids()
    rows = lib.papers.rows(ids)
    texts = {pid: lib.papers.get(pid).abstract_text for pid in ids if rows[pid].tags}
    tagged = [pid for pid, text in texts.items() if text.strip()]
    p_at_k, p_adj, any_hit, times = [], [], [], []
    for pid in tagged:
        truth = {t.lower() for t in rows[pid].tags}
        t0 = time.perf_counter()
        got = [s.name.lower() for s in suggest_tags(lib, pid, K, hide_own=True)]
        times.append(time.perf_counter() - t0)
        hits = len(set(got) & truth)
        p_at_k.append(hits / K)
        p_adj.append(hits / min(K, len(truth)))
        any_hit.append(1.0 if hits else 0.0)
    tags = {t for pid in tagged for t in rows[pid].tags}
    print(f"  {label}: {len(ids):,} papers, {len(tagged):,} tagged with an abstract, {len(tags):,} distinct tags")
    if not tagged:
        print("    nothing to evaluate")
        return
    print(
        f"    leave-one-out precision@{K}: {statistics.mean(p_at_k):.3f}"
        f"  (hits / min({K}, own tags): {statistics.mean(p_adj):.3f}; at least one hit: {statistics.mean(any_hit):.1%})"
    )
    print(f"    time per suggestion: p50 {ms(statistics.median(times))}, p95 {ms(percentile(times, 95))}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--synthetic", type=int, default=2000, help="synthetic corpus size (0: skip)")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from desktop_app.core.library import Library
    from desktop_app.core.records import ParseResult

    print(f"tag suggestions, leave-one-out ({environment()})")
    with tempfile.TemporaryDirectory() as tmp:
        files = _real_files()
        with Library.open(Path(tmp) / "real") as lib:
            lib.imports.from_files(files, keywords_as_tags=True)
            lib.flush_index()
            evaluate(lib, f"seeds + corpus keywords ({len(files)} files)")
        if args.synthetic:
            records = corpus.make_corpus(args.synthetic)
            with Library.open(Path(tmp) / "synthetic") as lib:
                lib.imports.from_records([("benchmark corpus", ParseResult("bibtex", records))])
                lib.flush_index()
                evaluate(lib, f"synthetic corpus (corpus.py, {args.synthetic:,})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
