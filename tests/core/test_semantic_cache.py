"""A large folder library's semantic space is fitted by a child process into the library's
cache and memory-mapped by the caller: the same space as a fit in the caller (same related
papers), none of the fit's memory in the caller, and a later state fitted anew."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from desktop_app.core.insights import cache_lock, semantic
from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record

TOPICS = [
    "graph neural networks for molecules and proteins",
    "reinforcement learning agents in robotics",
    "diffusion models for image generation",
    "causal inference for economic policy",
]


def _records(n: int) -> list[Record]:
    return [
        Record(
            title=f"Study {i} on {TOPICS[i % 4]}",
            abstract=f"We study {TOPICS[i % 4]}. Variant {i} improves benchmark {i % 7} "
            f"with method m{i % 11} and {'attention' if i % 3 else 'kernels'}.",
            authors=[f"Author{i % 13}, A."],
            year=2020 + i % 5,
        )
        for i in range(n)
    ]


@pytest.fixture
def lib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(semantic, "WAIT_PAPERS", 20)  # "large" from 21 papers: fitted in the background
    monkeypatch.setattr(semantic, "CHILD_PAPERS", 20)  # ... by the child
    with Library.open(tmp_path / "lib") as lib:
        lib.imports.from_records([("test", ParseResult("bibtex", _records(60)))])
        yield lib


def test_the_space_comes_from_a_child_through_the_cache(lib: Library) -> None:
    space = semantic.library_space(lib.store)
    cached = list((lib.folder / "cache").glob(semantic.SPACE_PREFIX + "*"))
    assert len(cached) == 1 and (cached[0] / "vectors.npy").is_file()
    assert space.mapped and not space.vectors.flags.writeable  # mapped from the cache, read-only
    here = semantic.fit_space(*semantic.paper_texts(lib.store))  # the same fit, in this process
    assert np.array_equal(np.asarray(space.ids), here.ids)
    assert np.allclose(np.asarray(space.vectors), here.vectors, atol=1e-5)
    pid = int(here.ids[0])
    assert [p for p, _ in space.related(pid, 5)] == [p for p, _ in here.related(pid, 5)]


def test_a_new_state_is_fitted_anew_and_the_old_one_goes(lib: Library) -> None:
    first = semantic.library_space(lib.store)
    lib.imports.from_records([("more", ParseResult("bibtex", _records(70)[60:]))])
    second = semantic.library_space(lib.store)
    assert len(second.ids) == len(first.ids) + 10
    assert len(list((lib.folder / "cache").glob(semantic.SPACE_PREFIX + "*"))) == 1


def test_a_damaged_cache_is_fitted_again(lib: Library) -> None:
    semantic.library_space(lib.store)
    (cached,) = (lib.folder / "cache").glob(semantic.SPACE_PREFIX + "*")
    (cached / "indptr.npy").write_bytes(b"not an array")
    assert semantic.load_space(lib.folder, semantic.library_state(lib.store)) is None
    semantic.forget(lib.store)
    again = semantic.library_space(lib.store)
    assert len(again.ids) == 60


def test_callers_at_once_wait_for_one_fit(lib: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three workers asking at once, and ready_space during the fit: one child, one space."""
    children: list[Path] = []
    real = semantic.fit_and_save

    def child(folder: Path, timeout: float = 0.0) -> bool:
        children.append(folder)
        assert semantic.ready_space(lib.store) is None  # a fit under way: no second one started
        time.sleep(0.4)  # the other callers arrive meanwhile
        return real(lib.store, folder) is not None

    monkeypatch.setattr(semantic, "fit_in_child", child)
    with ThreadPoolExecutor(3) as pool:
        spaces = list(pool.map(lambda _: semantic.library_space(lib.store), range(3)))
    assert semantic.ready_space(lib.store) is spaces[0]
    assert len(children) == 1
    assert spaces[0] is spaces[1] is spaces[2] and spaces[0].mapped


def test_a_child_waits_for_another_process_fitting_and_keeps_its_space(lib: Library) -> None:
    """The child fitting the space (``marginalia triage space``) waits while another process
    holds the cache's lock, then takes the space that one saved instead of fitting again."""
    state = semantic.library_state(lib.store)
    done: list[bool] = []
    with cache_lock.held(lib.folder, "space"):  # this process is "the other one", fitting
        child = threading.Thread(target=lambda: done.append(semantic.fit_in_child(lib.folder)))
        child.start()
        time.sleep(1.0)  # the child is up and waiting for the lock (or, before, fitting)
        other = semantic.fit_space(*semantic.paper_texts(lib.store), dimensions=5)
        assert semantic.save_space(lib.folder, state, other) is not None
    child.join(60)
    assert done == [True]
    kept = semantic.load_space(lib.folder, state)
    assert kept is not None and kept.vectors.shape[1] == 5  # the one saved here: not fitted again


def _resident_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmRSS")
def test_a_pass_over_the_mapped_space_leaves_its_pages_out_of_memory(tmp_path: Path) -> None:
    """related() reads every vector and every tf-idf row; a space mapped from the cache gives
    those pages back after it, so the window's resident set does not keep the whole space."""
    from scipy.sparse import csr_matrix

    rng = np.random.default_rng(3)
    n, dims, per_row = 60_000, 100, 30
    vectors = rng.normal(size=(n, dims)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    weights = csr_matrix(
        (
            rng.random(n * per_row, dtype=np.float32),
            rng.integers(0, 20_000, n * per_row).astype(np.int32),
            np.arange(0, n * per_row + 1, per_row),
        ),
        shape=(n, 20_000),
    )
    words = np.array([f"w{i}" for i in range(20_000)])
    space = semantic.SemanticSpace(np.arange(1, n + 1, dtype=np.int64), vectors, weights, words)
    semantic.save_space(tmp_path, (n,), space)
    expected = space.related(7, 5)
    del space, vectors, weights
    mapped = semantic.load_space(tmp_path, (n,))
    assert mapped is not None
    before = _resident_mb()
    assert mapped.related(7, 5) == expected
    mapped.similar(7, 5)
    w = mapped.weights
    size_mb = (mapped.vectors.nbytes + w.data.nbytes + w.indices.nbytes) / 2**20  # ~37 MB
    assert _resident_mb() - before < size_mb / 3


def test_the_child_fitting_the_space_leaves_a_missing_index_to_the_window(lib: Library) -> None:
    """``marginalia triage space`` reads the database's texts only: an index being built (here:
    missing) is not built by the child too, which at 100,000 papers made the fit take minutes."""
    import shutil

    folder = Path(lib.folder)
    state = semantic.library_state(lib.store)
    lib.close()
    shutil.rmtree(folder / "index")
    assert semantic.fit_in_child(folder, timeout=300)
    assert not (folder / "index").exists() or not any((folder / "index").glob("*.toc"))
    assert semantic.load_space(folder, state) is not None


def test_a_child_doing_the_windows_work_fits_the_space_itself(lib: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    """The topics or the map computed in a child process: the space it needs is fitted there
    (and left in the cache for the window), not by a grandchild started from it."""

    def no_grandchild(_folder: Path, timeout: float = 0) -> bool:
        raise AssertionError("a child of the window started another child to fit the space")

    monkeypatch.setattr(semantic, "fit_in_child", no_grandchild)
    monkeypatch.setattr(semantic, "_fits_here", False)
    semantic.fit_in_this_process()
    space = semantic.library_space(lib.store)
    assert len(space.ids) == 60 and space.mapped  # read back from the cache it saved
    assert len(list((lib.folder / "cache").glob(semantic.SPACE_PREFIX + "*"))) == 1


def test_a_small_library_is_fitted_where_it_is_asked_for(lib: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    """Up to CHILD_PAPERS papers no child starts: at 5,000 its start-up was most of the first fit."""

    def no_child(_folder: Path, timeout: float = 0) -> bool:
        raise AssertionError("a child was started for a small library")

    monkeypatch.setattr(semantic, "CHILD_PAPERS", 60)
    monkeypatch.setattr(semantic, "fit_in_child", no_child)
    assert len(semantic.library_space(lib.store).ids) == 60


def test_a_middle_sized_library_fits_here_and_keeps_the_space_for_the_next_process(
    lib: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between WAIT_PAPERS and CHILD_PAPERS papers the space is fitted where it is asked for,
    and left in the cache: the next process (a command after a command) maps it, fitting
    nothing (at 10,000 papers `marginalia related` fitted it every time: 4.8 s of CPU)."""

    def no_child(_folder: Path, timeout: float = 0) -> bool:
        raise AssertionError("a child was started for a middle-sized library")

    monkeypatch.setattr(semantic, "CHILD_PAPERS", 60)
    monkeypatch.setattr(semantic, "fit_in_child", no_child)
    first = semantic.library_space(lib.store)
    assert len(first.ids) == 60
    assert len(list((lib.folder / "cache").glob(semantic.SPACE_PREFIX + "*"))) == 1
    pid = int(first.ids[0])
    related = [p for p, _ in first.related(pid, 5)]

    def no_fit(*_args: object, **_kwargs: object) -> semantic.SemanticSpace:
        raise AssertionError("the space was fitted again instead of read from the cache")

    semantic.forget(lib.store)  # as a new process: nothing kept in memory
    monkeypatch.setattr(semantic, "fit_space", no_fit)
    again = semantic.library_space(lib.store)
    assert again.mapped and [p for p, _ in again.related(pid, 5)] == related
