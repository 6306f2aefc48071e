"""Where the checkout and the real input beside it (``../shared``: seeds, corpus) are.

A test that reads ``../shared`` says so: it uses the ``seed_paths`` fixture (or one built on it,
``seed_library``, ``seeded_dir``...) or carries ``@pytest.mark.shared``. Without ``../shared``
those tests are skipped with :data:`SHARED_MISSING` (``tests/conftest.py``); with ``CI`` set the
run stops instead."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
SEEDS = sorted((SHARED / "seeds").glob("*.txt"))
CORPUS = SHARED / "corpus"

SHARED_MISSING = (
    f"needs the shared seeds and corpus, expected in {SHARED} (beside the checkout); a checkout alone skips these tests"
)
