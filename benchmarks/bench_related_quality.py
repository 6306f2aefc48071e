"""Related-papers quality on the shared labelled sets: BM25 key terms, the semantic space, a blend.

    .venv/bin/python benchmarks/bench_related_quality.py [--weights 0.3 0.5 0.7]

For each screening CSV (``../shared/screening``) a temporary library holds its papers (title and
abstract); for each included paper, the share of its ten related papers that are included too,
averaged over the included papers. Printed for BM25 alone (``core/insights/related.py``'s key terms),
the semantic space alone (plain cosine), the semantic ranking ``SemanticSpace.related`` (the
space with neighbour expansion, mixed with the tf-idf cosine: ``core/insights/semantic.py``),
blends of the space's cosine with BM25 (the weight is the space's share) and for what ``Library.related`` gives now, with chance (the share of included
papers) for scale. Target: at least 1.3× BM25 on each set.

With ``.venv-wordllama`` (``make bench`` makes it), a packaged embedding model is measured too:
wordllama 0.4's 256-dimension model (weights and tokenizer inside its wheel), its cosine alone
and averaged with the space's. The app does not ship it; these lines say whether it should.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from desktop_app.core.library import Library
from tests.helpers.labelled_sets import SCREENING, import_records, screening_records, truth

TARGET_RATIO = 1.3
N = 10
WORDLLAMA = Path(__file__).resolve().parents[1] / ".venv-wordllama" / "bin" / "python"


def _wordllama(lib: Library, ids: list[int]) -> tuple[object, str] | None:
    """Unit vectors of these papers from the packaged model (None without its venv), and a line
    with its load and embedding time."""
    import numpy as np
    from sqlalchemy import select

    from desktop_app.core.store import tables as t

    if not WORDLLAMA.exists():
        return None
    with lib.store.read() as conn:
        rows = dict(conn.execute(select(t.paper.c.id, t.paper.c.title + ". " + t.paper.c.abstract_text)).all())
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "texts.json", Path(tmp) / "vectors.npy"
        src.write_text(json.dumps([rows[i] for i in ids]), encoding="utf-8")
        done = subprocess.run(
            [str(WORDLLAMA), str(Path(__file__).with_name("wordllama_side.py")), str(src), str(out)],
            capture_output=True,
            text=True,
            check=True,
        )
        info = json.loads(done.stdout.strip().splitlines()[-1])
        return np.load(
            out
        ), f"wordllama loaded in {info['load_s']:.2f} s, embedded {info['n']} in {info['embed_s']:.2f} s"


def _nearest(vectors, ids: list[int], of: set[int], extra=None) -> dict[int, list[int]]:  # noqa: ANN001
    """The N nearest papers of each paper in ``of`` by cosine (plus ``extra``'s scores, averaged)."""
    import numpy as np

    pos = {pid: n for n, pid in enumerate(ids)}
    out = {}
    for pid in of:
        scores = vectors @ vectors[pos[pid]]
        if extra is not None:
            scores = (scores + extra(pid)) / 2
        scores[pos[pid]] = -np.inf
        top = np.argsort(-scores)[:N]
        out[pid] = [ids[i] for i in top]
    return out


def precision(related: dict[int, list[int]], included: set[int]) -> float:
    shares = [sum(1 for r in ids[:N] if r in included) / N for ids in related.values()]
    return sum(shares) / len(shares) if shares else 0.0


def measure(path: Path, weights: list[float]) -> dict[str, float]:
    from desktop_app.core.insights import related as rel
    from desktop_app.core.insights import semantic

    with tempfile.TemporaryDirectory() as tmp:
        lib = Library.open(Path(tmp) / "lib")
        try:
            import_records(lib, screening_records(path))
            labels = truth(lib)
            included = {pid for pid, label in labels.items() if label == "included"}
            idx = lib.index.index
            t0 = time.perf_counter()
            space = semantic.library_space(lib.store)
            fit = time.perf_counter() - t0
            bm25 = {pid: [i for i, _ in rel.bm25_related(lib.store, idx, pid, rel.POOL)] for pid in included}
            bm25_scored = {pid: rel.bm25_related(lib.store, idx, pid, rel.POOL) for pid in included}
            sem_scored = {pid: space.similar(pid, rel.POOL) for pid in included}
            out = {
                "chance": len(included) / len(labels),
                "bm25": precision(bm25, included),
                "space alone": precision({p: [i for i, _ in s] for p, s in sem_scored.items()}, included),
                "semantic": precision({p: [i for i, _ in space.related(p, N)] for p in included}, included),
            }
            for w in weights:
                blended = {p: [i for i, _ in rel.blend(bm25_scored[p], sem_scored[p], w)] for p in included}
                out[f"blend {w:.2f}"] = precision(blended, included)
            ids = sorted(labels)
            embedded = _wordllama(lib, ids)
            if embedded is not None:
                vectors, line = embedded
                print(f"  {line}")
                out["wordllama alone"] = precision(_nearest(vectors, ids, included), included)
                space_row = _space_scores(space, ids)
                out["wordllama + space"] = precision(_nearest(vectors, ids, included, space_row), included)
            t1 = time.perf_counter()
            out["Library.related"] = precision(
                {p: [i for i, _ in lib.insights.related(p, N)] for p in included}, included
            )
            per_paper = (time.perf_counter() - t1) / max(len(included), 1)
        finally:
            lib.close()
    print(
        f"{path.name}: {len(labels)} papers, {len(included)} included; space fitted in {fit:.2f} s; "
        f"Library.related {per_paper * 1000:.1f} ms a paper"
    )
    return out


def _space_scores(space, ids: list[int]):  # noqa: ANN001, ANN202
    """A paper's cosine in the semantic space to every paper of ``ids`` (0 where it has no vector)."""
    import numpy as np

    def row(pid: int):  # noqa: ANN202
        scores = np.zeros(len(ids), dtype=np.float32)
        got = dict(space.similar(pid, len(ids)))
        for n, other in enumerate(ids):
            scores[n] = got.get(other, 0.0)
        return scores

    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--weights", type=float, nargs="*", default=[0.3, 0.5, 0.7, 0.85])
    args = ap.parse_args(argv)
    ok = True
    for path in SCREENING:
        res = measure(path, args.weights)
        base = res["bm25"]
        for name, value in res.items():
            ratio = f"{value / base:.2f}× BM25" if base and name != "chance" else ""
            print(f"  {name:<16} {value:.3f}  {ratio}")
        now = res["Library.related"] / base if base else 0.0
        ok = ok and now >= TARGET_RATIO
        print(
            f"  Library.related: {now:.2f}× BM25 (target ≥ {TARGET_RATIO}: {'ok' if now >= TARGET_RATIO else 'MISSED'})"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
