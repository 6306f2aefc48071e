"""A reader whose index generation is replaced under it by another writer's commit retries on
the newest generation instead of failing with "No such file or directory: …/_MAIN_n.toc"."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from desktop_app.core.library import Library
from desktop_app.core.search import index as index_mod


def _race(folder: Path, rounds: int) -> list[str]:
    errors: list[str] = []
    done = threading.Event()
    writer, reader = Library.open(folder), Library.open(folder)
    ids = writer.query("").ids
    try:

        def write() -> None:
            try:
                for n in range(rounds):
                    writer.notes.set(ids[n % len(ids)], f"round {n}: reinforcement and graphs {n}")
            finally:
                done.set()

        t = threading.Thread(target=write)
        t.start()
        while not done.is_set():
            for q in ("reinforcement", "graphs", "round"):
                try:
                    reader.query(q)
                except Exception as exc:  # noqa: BLE001 - counted, the test says which
                    errors.append(f"{type(exc).__name__}: {exc}")
        t.join()
    finally:
        writer.close()
        reader.close()
    return errors


def test_reads_follow_the_newest_generation(seed_library: Library) -> None:
    folder = seed_library.folder
    seed_library.close()
    assert _race(folder, 60) == []


def test_a_vanished_generation_file_is_retried_on_the_newest(
    seed_library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a racing commit does to a reader, made to happen: the first read finds the TOC of its
    generation gone; the read is answered from the newest generation, and a file that stays gone
    still fails after the retries, with the error (nothing is hidden)."""
    ix = seed_library.index.index
    real = index_mod.SearchIndex.matching_pid_array.__wrapped__  # type: ignore[attr-defined]
    calls = {"n": 0, "refresh": 0}

    def flaky(self, q):
        calls["n"] += 1
        if calls["n"] == 1:
            raise FileNotFoundError(2, "No such file or directory", str(ix.folder / "_MAIN_1261.toc"))
        return real(self, q)

    refresh = index_mod.SearchIndex._refresh

    def counted(self) -> None:
        calls["refresh"] += 1
        refresh(self)

    monkeypatch.setattr(index_mod.SearchIndex, "matching_pid_array", index_mod.follows_generation(flaky))
    monkeypatch.setattr(index_mod.SearchIndex, "_refresh", counted)
    assert seed_library.query("reinforcement").total > 0
    assert calls == {"n": 2, "refresh": 1}

    def gone(self, q):
        raise FileNotFoundError(2, "No such file or directory", "_MAIN_1.toc")

    monkeypatch.setattr(index_mod.SearchIndex, "matching_pid_array", index_mod.follows_generation(gone))
    with pytest.raises(Exception, match="index|No such file"):
        seed_library.query("reinforcement")
