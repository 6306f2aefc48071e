"""The packaged-embedding side of bench_related_quality, run in a child with its own venv.

    .venv-wordllama/bin/python benchmarks/wordllama_side.py INPUT.json OUTPUT.npy

Standard library, numpy and wordllama 0.4 only (``make bench`` creates ``.venv-wordllama``; the
app's venv never has it). INPUT.json is a list of texts (title and abstract); OUTPUT.npy gets one
unit-length 256-dimension row per text. The model and its tokenizer load from the wheel itself
(``cache_dir`` is the package folder), with the Hugging Face hub told to stay offline: nothing
is downloaded.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ["HF_HUB_OFFLINE"] = "1"

import numpy as np
import wordllama
from wordllama import WordLlama


def main() -> int:
    texts = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    t0 = time.perf_counter()
    model = WordLlama.load(cache_dir=Path(wordllama.__file__).parent)
    loaded = time.perf_counter() - t0
    vectors = np.asarray(model.embed(texts), dtype=np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    np.save(sys.argv[2], vectors)
    print(json.dumps({"load_s": loaded, "embed_s": time.perf_counter() - t0 - loaded, "n": len(texts)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
