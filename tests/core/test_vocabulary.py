"""The vocabulary saved beside the index (core/search/vocabulary.py): the same near terms as
Whoosh's ``terms_within``, the same "Did you mean" offers as with Whoosh's scan, one file per
segment written at commit and read (not recomputed) by the next process, new words seen after
an edit."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from desktop_app.core.search import vocabulary
from desktop_app.core.search.index import SearchIndex
from desktop_app.core.search.schema import TEXT_FIELDS
from tests.helpers.shared import SEEDS

pytestmark = pytest.mark.shared  # the seeds: ../shared

MISSPELT = [
    "reinforcment lerning",
    "Reinforcment Lerning",
    "title:transformr",
    "abstract:verifable rewards",
    '"reinforcment lerning"',
    "lerning AND (optimizaton OR RLVR)",
    "tag:rl lerning",
    "benchmrk",
    "graph nueral netwroks",
    "difusion modles",
    "optimzation",
    "langauge",
    "zzzzqqq",
    "rewrd",
    "verifiabel",
    "agnet",
    "retreival augmented",
    "poliyc gradient",
    "tranformers",
    "Über naïve",
    "author:smtih",
    "venue:neurps",
]
EXTRA = [
    Record(
        title="Über naïve Bayes für Sprachmodelle",
        abstract="Naïve Bayes über Sprachmodelle, große Modelle und Ähnlichkeit.",
        doi="10.5/uber",
        authors=["Smith, Jane"],
        venue="NeurIPS",
    )
]


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    library = Library.open(tmp_path_factory.mktemp("voc") / "lib")
    library.imports.from_files(list(SEEDS))
    library.imports.from_records([("x.bib", ParseResult("bibtex", list(EXTRA)))])  # a second segment
    library.tags.add([library.query("RACES").ids[0]], ["rl"])
    yield library
    library.close()


def _probes(reader, field: str, rng: random.Random) -> list[str]:
    """Words near the field's own terms: one or two deletions, insertions, substitutions or
    swaps of each of a sample of them, and the terms themselves."""
    terms = [t.decode("utf-8") if isinstance(t, bytes) else t for t in reader.lexicon(field)]
    out = []
    for term in rng.sample(terms, min(60, len(terms))):
        word = term
        for _ in range(rng.choice((1, 2))):
            i = rng.randrange(len(word)) if word else 0
            op = rng.choice("disw")
            if op == "d" and len(word) > 1:
                word = word[:i] + word[i + 1 :]
            elif op == "i":
                word = word[:i] + rng.choice("aeiourstnxü") + word[i:]
            elif op == "s" and word:
                word = word[:i] + rng.choice("aeiourstnxé") + word[i + 1 :]
            elif op == "w" and i + 1 < len(word):
                word = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        out += [term, word]
    return [w for w in out if w]


def test_near_terms_are_whooshs_terms_within(lib: Library) -> None:
    index = lib.index.index
    reader = index.searcher.reader()
    assert len(list(reader.leaf_readers())) >= 2  # the union of segments is what is compared
    voc = index.vocabulary()
    rng = random.Random(29)
    compared = 0
    for field in TEXT_FIELDS:
        for word in _probes(reader, field, rng):
            for dist in (1, 2):
                want = {
                    t.decode("utf-8") if isinstance(t, bytes) else t
                    for t in reader.terms_within(field, word, dist, prefix=1)
                }
                assert voc.terms_within(field, word, dist) == want, (field, word, dist)
                compared += bool(want)
    assert compared > 100


class _WhooshScan:
    """What the speller used before: Whoosh's own scan of the term files."""

    def __init__(self, index: SearchIndex) -> None:
        self.reader = index.searcher.reader()

    def terms_within(self, field: str, word: str, maxdist: int) -> set[str]:
        return {
            t.decode("utf-8") if isinstance(t, bytes) else t
            for t in self.reader.terms_within(field, word, maxdist, prefix=1)
        }


def test_the_offers_are_those_of_whooshs_scan(lib: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    offers = {q: lib.did_you_mean(q, hits=0) for q in MISSPELT}
    assert offers["reinforcment lerning"] == "reinforcement learning"
    assert sum(v is not None for v in offers.values()) >= 10
    with monkeypatch.context() as m:
        m.setattr(SearchIndex, "vocabulary", lambda self: _WhooshScan(self))
        before = {q: lib.did_you_mean(q, hits=0) for q in MISSPELT}
    assert offers == before


def test_a_file_per_segment_is_written_at_commit_and_read_by_the_next_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "lib"
    with Library.open(folder) as lib:
        lib.imports.from_files(list(SEEDS)[:2])
        index_dir = lib.index.index.folder
        segments = {s.segment_id() for s in lib.index.index._ix._segments()}
        files = {p.name for p in index_dir.glob(f"{vocabulary.PREFIX}*")}
        assert files == {f"{vocabulary.PREFIX}{s}{vocabulary.SUFFIX}" for s in segments}
        offer = lib.did_you_mean("lerning", hits=0)
        assert offer == "learning"

    def no_compute(segreader):
        raise AssertionError("the vocabulary was computed again instead of read from its file")

    monkeypatch.setattr(vocabulary, "compute", no_compute)
    with Library.open(folder) as again:
        assert again.did_you_mean("lerning", hits=0) == offer


def test_a_word_added_by_an_edit_is_offered_at_once(tmp_path: Path) -> None:
    with Library.open(tmp_path / "lib") as lib:
        lib.imports.from_files(list(SEEDS)[:1])
        assert lib.did_you_mean("zanzibarian", hits=0) is None
        pid = lib.query("").ids[0]
        lib.notes.set(pid, "Zanzibarian spice routes")
        assert lib.did_you_mean("zanzibarain", hits=0) == "zanzibarian"
        assert lib.did_you_mean("note:zanzibarain", hits=0) == "note:zanzibarian"


def test_a_missing_or_stale_file_is_computed_and_saved(tmp_path: Path) -> None:
    with Library.open(tmp_path / "lib") as lib:
        lib.imports.from_files(list(SEEDS)[:2])
        index = lib.index.index
        for path in index.folder.glob(f"{vocabulary.PREFIX}*"):
            path.write_bytes(b"not a vocabulary")
        index._vocabularies.clear()
        assert lib.did_you_mean("lerning", hits=0) == "learning"
        for path in index.folder.glob(f"{vocabulary.PREFIX}*"):
            assert vocabulary.load(index.folder, path.name[len(vocabulary.PREFIX) : -len(vocabulary.SUFFIX)])
