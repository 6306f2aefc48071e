"""The map of a list (core/insights/paper_map.py): points placed by similarity, grouped by topic;
renamed topics (TopicSet.rename) kept by the set and by a recomputation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from desktop_app.core.errors import LibraryError
from desktop_app.core.insights.paper_map import layout
from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from tests.helpers.labelled_sets import import_records, mix_records, truth


@pytest.fixture
def mix(library_dir: Path) -> Library:
    lib = Library.open(library_dir)
    import_records(lib, mix_records())
    yield lib
    lib.close()


def _add(lib: Library, records: list[Record]) -> list[int]:
    lib.imports.from_records([("test", ParseResult(format="csv", records=records))], duplicates="skip")
    lib.flush_index()
    return lib.query("", sort="id", limit=None).ids


@pytest.mark.shared  # the mix reads ../shared (seeds and screening sets)
def test_the_map_separates_a_known_mix(mix: Library) -> None:
    from sklearn.metrics import silhouette_score
    from sklearn.neighbors import NearestNeighbors

    labels = truth(mix)
    found = mix.insights.paper_map()
    assert len(found) == 156 and sorted(found.ids.tolist()) == sorted(labels)
    assert found.xy.dtype == np.float32 and found.xy.shape == (156, 2)
    assert np.abs(found.xy).max() <= 1.0 + 1e-6 and np.isfinite(found.xy).all()
    truth_of = np.array([labels[int(i)] for i in found.ids])
    # the nearest neighbours on the map are of the same group nearly always
    _d, near = NearestNeighbors(n_neighbors=6).fit(found.xy).kneighbors(found.xy)
    agree = (truth_of[near[:, 1:]] == truth_of[:, None]).mean()
    assert agree >= 0.85, agree
    assert silhouette_score(found.xy, truth_of) >= 0.3
    # every topic's name sits among its own papers
    for number, centre in enumerate(found.centres):
        own = found.xy[found.topic == number]
        assert np.linalg.norm(own.mean(axis=0) - centre) <= found.radii[number]
    assert mix.insights.paper_map().xy.tobytes() == found.xy.tobytes()  # deterministic


@pytest.mark.shared  # the mix reads ../shared (seeds and screening sets)
def test_the_map_of_a_list_on_given_topics_keeps_their_names(mix: Library) -> None:
    labels = truth(mix)
    adhd = sorted(pid for pid, label in labels.items() if label == "adhd")
    topics = mix.topics.of(adhd + sorted(p for p, label in labels.items() if label == "ml")[:20])
    topics.rename(1, "  my   first topic ")
    found = mix.insights.paper_map(topics=topics)
    assert found.topics.topics[0].name == "my first topic"
    assert sorted(found.ids.tolist()) == sorted({pid for t in topics.topics for pid in t.ids})


@pytest.mark.shared  # the mix reads ../shared (seeds and screening sets)
def test_renaming_topics(mix: Library) -> None:
    found = mix.topics.of()
    first, second = found.topics[0], found.topics[1]
    original = first.name
    with pytest.raises(LibraryError, match="needs a name"):
        found.rename(1, "   ")
    with pytest.raises(LibraryError, match="another topic"):
        found.rename(1, second.name.upper())
    found.rename(1, "Attention deficit")
    assert first.name == "Attention deficit" and found.find("attention deficit") is first
    assert found.renamed() == {original: "Attention deficit"}
    again = mix.topics.of()
    again.keep_names(found.renamed())
    assert again.topics[0].name == "Attention deficit"
    mix.topics.save_as_tag(first)
    assert sorted(mix.query("tag:'topics/Attention deficit'", limit=None).ids) == sorted(first.ids)


def test_no_one_or_two_papers_give_a_map_and_a_message(empty_library: Library) -> None:
    lib = empty_library
    none = lib.insights.paper_map()
    assert len(none) == 0 and none.xy.shape == (0, 2) and "No papers" in none.message
    ids = _add(
        lib,
        [
            Record(
                title="Clonidine for pain after tonsillectomy",
                abstract="Oral clonidine compared with intravenous fentanyl in children.",
            )
        ],
    )
    one = lib.insights.paper_map()
    assert one.ids.tolist() == ids and np.isfinite(one.xy).all() and "Too few" in one.message
    ids = _add(
        lib,
        [
            Record(
                title="Graph neural networks for molecules",
                abstract="Message passing networks predict molecular properties.",
            )
        ],
    )
    two = lib.insights.paper_map()
    assert sorted(two.ids.tolist()) == ids and np.isfinite(two.xy).all() and two.message
    assert len(lib.insights.paper_map([])) == 0


def test_identical_abstracts_coincide_and_wordless_papers_are_spread(empty_library: Library) -> None:
    lib = empty_library
    same = "We study reward models for reinforcement learning from human feedback in language models."
    _add(
        lib,
        [Record(title="Reward models", abstract=same, doi=f"10.1/{n}") for n in range(4)]
        + [
            Record(title=t, abstract=a)
            for t, a in (
                ("Optimal transport barycenters", "Wasserstein barycenters of measures computed fast."),
                ("Optimal transport on graphs", "Graph transport distances and barycenters."),
                ("Sinkhorn iterations", "Entropic optimal transport by Sinkhorn scaling."),
                ("Reward hacking", "Language models exploit reward models trained from preferences."),
            )
        ]
        + [Record(title=f"On the {n}") for n in range(2020, 2024)],
    )  # stop words and numbers only
    found = lib.insights.paper_map()
    assert len(found) == 12 and np.isfinite(found.xy).all()
    copies = [i for i, pid in enumerate(found.ids) if lib.papers.get(int(pid)).abstract == same]
    assert len(copies) == 4 and np.ptp(found.xy[copies], axis=0).max() < 1e-5  # one point
    wordless = found.topic == len(found.topics.topics) - 1
    assert found.topics.topics[-1].name == "no shared words" and wordless.sum() == 4
    assert len(np.unique(found.xy[wordless].round(4), axis=0)) == 4  # four points, not one


@pytest.mark.shared  # the mix reads ../shared (seeds and screening sets)
def test_facets_give_titles_decisions_and_tags(mix: Library) -> None:
    found = mix.insights.paper_map()
    ids = found.ids.tolist()
    mix.triage.decide([ids[0]], "keep")
    mix.triage.decide([ids[1]], "skip")
    f = mix.insights.map_facets(ids)
    assert f.titles[0] == mix.papers.get(ids[0]).title
    assert f.decisions[0] == 1 and f.decisions[1] == 3 and f.decisions[2] == 0
    assert f.tag_names[0].startswith("truth/") and (f.tags >= 0).all()
    assert f.tag_names[f.tags[0]] == next(t for t in mix.papers.rows([ids[0]])[ids[0]].tags if t.startswith("truth/"))
    assert len(mix.insights.map_facets([]).titles) == 0
    assert list(f.titles)[-1] == f.titles[-1] == mix.papers.get(ids[-1]).title


def test_layout_of_a_large_synthetic_space_is_quick() -> None:
    import time

    from scipy.sparse import csr_matrix

    from desktop_app.core.insights.semantic import SemanticSpace
    from desktop_app.core.insights.topics import Topic, TopicSet

    rng = np.random.default_rng(1)
    n, k = 20_000, 12
    centres = rng.normal(size=(k, 50))
    member = rng.integers(0, k, n)
    vectors = (centres[member] + rng.normal(scale=0.8, size=(n, 50))).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    ids = np.arange(1, n + 1, dtype=np.int64)
    space = SemanticSpace(ids, vectors, csr_matrix(np.ones((n, 1), np.float32)), np.array(["w"], dtype=object))
    topics = TopicSet([Topic(c + 1, f"t{c}", [], [int(i) for i in ids[member == c]]) for c in range(k)], n, True)
    t0 = time.process_time()
    found = layout(space, topics)
    assert time.process_time() - t0 < 5.0
    assert len(found) == n and np.isfinite(found.xy).all()


@pytest.mark.shared  # the mix reads ../shared (seeds and screening sets)
def test_a_map_computed_in_a_child_process_is_the_same(mix: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop_app.core.insights import child_worker

    monkeypatch.delenv("MARGINALIA_MAP_WORKER", raising=False)
    assert child_worker.in_child_process(child_worker.PROCESS_ABOVE + 1) and not child_worker.in_child_process(10)
    monkeypatch.setenv("MARGINALIA_MAP_WORKER", "thread")
    assert not child_worker.in_child_process(10**6)
    topics = mix.topics.of()
    topics.rename(1, "given name")
    there, facets = child_worker.map_in_child(str(mix.folder), None, topics)
    here = mix.insights.paper_map(topics=topics)
    assert there.ids.tolist() == here.ids.tolist()
    assert np.allclose(there.xy, here.xy, atol=1e-3)  # the same fit, up to float rounding across processes
    assert there.topics.topics[0].name == "given name"
    assert list(facets.titles) == list(mix.insights.map_facets(here.ids).titles)
    with pytest.raises(LibraryError, match="cancelled"):
        child_worker.map_in_child(str(mix.folder), None, None, cancelled=lambda: True)
    assert child_worker.location_of(mix) == str(mix.folder)
    in_child = child_worker.topics_in_child(str(mix.folder), None, None)
    assert [t.ids for t in in_child.topics] == [t.ids for t in mix.topics.of().topics]


@pytest.mark.shared  # the mix reads ../shared (seeds and screening sets)
def test_a_chinese_abstract_among_english_ones_has_its_place(mix: Library) -> None:
    zh = _add(
        mix,
        [Record(title="注意缺陷多动障碍的药物治疗", abstract="本研究比较了儿童注意缺陷多动障碍的兴奋剂药物治疗效果。")],
    )[-1]
    found = mix.insights.paper_map()
    row = found.ids.tolist().index(zh)
    assert len(found) == 157 and np.isfinite(found.xy[row]).all()
    assert found.topics.topics[found.topic[row]].size >= 1
