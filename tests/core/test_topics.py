"""Topics of a list (core/insights/topics.py) over the semantic space (core/insights/semantic.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_app import cli
from desktop_app.core.errors import LibraryError
from desktop_app.core.insights import semantic
from desktop_app.core.insights.topics import NO_WORDS_NAME, find_topics
from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from tests.helpers.labelled_sets import import_records, mix_records, truth
from tests.helpers.pg_fixtures import BACKENDS, new_database


@pytest.fixture
def mix(library_dir: Path, shared_dir: Path) -> Library:
    lib = Library.open(library_dir)
    import_records(lib, mix_records())
    yield lib
    lib.close()


def _add(lib: Library, records: list[Record]) -> list[int]:
    report = lib.imports.from_records([("test", ParseResult(format="csv", records=records))], duplicates="skip")
    lib.flush_index()
    assert report.added == len(records), report.as_dict()
    return lib.query("", sort="id", limit=None).ids


def test_topics_of_a_known_mix_recover_it(mix: Library) -> None:
    from sklearn.metrics import normalized_mutual_info_score

    labels = truth(mix)
    found = mix.topics.of()
    assert found.chosen and found.papers == len(labels) == 156
    member = {pid: t.number for t in found.topics for pid in t.ids}
    assert sorted(member) == sorted(labels)  # every paper in exactly one topic
    assert sum(t.size for t in found.topics) == len(labels)
    ids = sorted(labels)
    nmi = normalized_mutual_info_score([labels[i] for i in ids], [member[i] for i in ids])
    assert nmi >= 0.6, [(t.name, t.size) for t in found.topics]
    adhd = max(found.topics, key=lambda t: sum(labels[i] == "adhd" for i in t.ids))
    assert sum(labels[i] == "adhd" for i in adhd.ids) >= 18 and "adhd" in adhd.words
    assert [t.size for t in found.topics] == sorted((t.size for t in found.topics), reverse=True)
    assert len({t.name.casefold() for t in found.topics}) == len(found.topics)
    assert all(t.decisions["undecided"] == t.size for t in found.topics)


def test_a_filter_and_an_asked_count(mix: Library) -> None:
    labels = truth(mix)
    adhd_or_depression = sorted(pid for pid, label in labels.items() if label != "ml")
    found = mix.topics.of(adhd_or_depression, k=2)
    assert not found.chosen and len(found.topics) == 2
    assert sorted(pid for t in found.topics for pid in t.ids) == adhd_or_depression
    purity = [max(sum(labels[i] == g for i in t.ids) for g in ("adhd", "depression")) / t.size for t in found.topics]
    assert min(purity) >= 0.9, purity
    assert find_topics(mix.store, adhd_or_depression, k=2).as_json() == found.as_json()  # deterministic
    with pytest.raises(LibraryError, match="at least 1"):
        mix.topics.of(k=0)


def test_find_a_topic_by_number_or_name_and_save_it_as_a_tag(mix: Library) -> None:
    found = mix.topics.of()
    second = found.topics[1]
    assert found.find("2") is second and found.find(second.name.upper()) is second
    with pytest.raises(LibraryError, match="no topic 'nothing'"):
        found.find("nothing")
    change = mix.topics.save_as_tag(second, "my/topic")
    assert change.tag_names == ("topics/my topic",)
    assert sorted(mix.query("tag:'topics/my topic'", limit=None).ids) == sorted(second.ids)
    mix.topics.save_as_tag(found.topics[0])
    assert sorted(mix.query(f"tag:'topics/{found.topics[0].name}'", limit=None).ids) == sorted(found.topics[0].ids)


def test_no_one_or_two_papers(empty_library: Library) -> None:
    lib = empty_library
    none = lib.topics.of()
    assert none.topics == [] and none.papers == 0 and "No papers" in none.message
    _add(
        lib,
        [
            Record(
                title="Clonidine for pain after tonsillectomy",
                abstract="Oral clonidine compared with intravenous fentanyl in children.",
            )
        ],
    )
    one = lib.topics.of()
    assert [t.size for t in one.topics] == [1] and "Too few" in one.message
    ids = _add(
        lib,
        [
            Record(
                title="Graph neural networks for molecules",
                abstract="Message passing networks predict molecular properties.",
            )
        ],
    )
    two = lib.topics.of()
    assert [sorted(t.ids) for t in two.topics] == [ids]
    assert sorted(pid for t in lib.topics.of(k=2).topics for pid in t.ids) == ids
    assert lib.topics.of([]).topics == []


def test_papers_without_abstracts_and_identical_abstracts(empty_library: Library) -> None:
    lib = empty_library
    same = "We study reward models for reinforcement learning from human feedback in language models."
    ids = _add(
        lib,
        [Record(title=f"Reward models, part {n}", abstract=same) for n in range(5)]
        + [
            Record(title=title)
            for title in (
                "Optimal transport barycenters",
                "Wasserstein barycenters fast",
                "Optimal transport on graphs",
            )
        ],
    )
    found = lib.topics.of(k=4)
    assert sorted(pid for t in found.topics for pid in t.ids) == ids
    copies = ids[:5]
    assert any(set(copies) <= set(t.ids) for t in found.topics)  # the copies stay together
    chosen = lib.topics.of()
    assert sorted(pid for t in chosen.topics for pid in t.ids) == ids
    wordless = _add(lib, [Record(title="On the 2024 one")])[-1]  # stop words and a number only
    with_one = lib.topics.of()
    assert with_one.topics[-1].name == NO_WORDS_NAME and with_one.topics[-1].ids == [wordless]


def test_only_identical_texts_give_one_topic_with_a_message(empty_library: Library) -> None:
    lib = empty_library
    text = "Stimulant medication for attention deficit hyperactivity disorder in adults."
    ids = _add(
        lib, [Record(title="Stimulants in ADHD", abstract=text, year=2000 + n, doi=f"10.1/{n}") for n in range(4)]
    )
    found = lib.topics.of(k=3)
    assert [sorted(t.ids) for t in found.topics] == [ids] and "Only 1 different texts" in found.message


def test_a_chinese_abstract_among_english_ones(mix: Library) -> None:
    zh = _add(
        mix,
        [
            Record(
                title="强化学习中的奖励模型",
                abstract="我们研究大型语言模型的强化学习，奖励模型和可验证奖励的推理能力。",
            ),
            Record(
                title="注意缺陷多动障碍的药物治疗", abstract="本研究比较了儿童注意缺陷多动障碍的兴奋剂药物治疗效果。"
            ),
        ],
    )[-2:]
    found = mix.topics.of()
    placed = [pid for t in found.topics for pid in t.ids]
    assert sorted(placed) == sorted(mix.query("", limit=None).ids) and set(zh) <= set(placed)
    space = semantic.library_space(mix.store)
    assert space.has_words()[space.rows(zh)].all()  # single characters are words: 模型, 药物 ...


def test_the_space_is_kept_until_a_text_changes(mix: Library) -> None:
    first = semantic.library_space(mix.store)
    assert semantic.library_space(mix.store) is first
    pid = int(first.ids[0])
    mix.tags.add([pid], ["read-later"])
    mix.notes.set(pid, "a note changes no text the space is made of")
    assert semantic.library_space(mix.store) is first
    mix.papers.set_abstract(pid, "Quite another abstract about optimal transport and barycenters.")
    assert semantic.library_space(mix.store) is not first


@pytest.fixture(params=BACKENDS)
def mix_location(request: pytest.FixtureRequest, library_dir: Path, shared_dir: Path) -> str:
    location = new_database(request.getfixturevalue("pg_server")) if request.param == "postgresql" else str(library_dir)
    with Library.open(location) as lib:
        import_records(lib, mix_records())
    return location


def test_cli_topics(mix_location: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--library", mix_location, "topics", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["papers"] == 156 and doc["chosen"]
    assert sorted(i for t in doc["topics"] for i in t["ids"]) == list(range(1, 157))
    assert all(set(t) >= {"number", "name", "words", "size", "decisions", "ids"} for t in doc["topics"])
    assert cli.main(["--library", mix_location, "topics", "clonidine OR methylphenidate", "--k", "2"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("  1. ") and "undecided" in out and "2 topics of" in err and "asked for" in err
    assert cli.main(["--library", mix_location, "topics", "tag", "1", "first"]) == 0
    assert capsys.readouterr().out.startswith("tagged ")
    assert cli.main(["--library", mix_location, "topics", "tag", "99"]) == 1
    assert "no topic '99'" in capsys.readouterr().err
    assert cli.main(["--library", mix_location, "topics", "--k", "0"]) == 1
    assert cli.main(["--library", mix_location, "topics", "nosuchwordanywhere"]) == 0
    assert "No papers" in capsys.readouterr().err


def test_like_and_related_rank_by_the_semantic_space(mix: Library) -> None:
    from desktop_app.core.search.errors import QuerySyntaxError

    labels = truth(mix)
    adhd = sorted(pid for pid, label in labels.items() if label == "adhd")
    ranked = mix.insights.related(adhd[0], 10)
    assert [pid for pid, _ in ranked] == [pid for pid, _ in semantic.library_space(mix.store).related(adhd[0], 10)]
    assert sum(labels[pid] == "adhd" for pid, _ in ranked) >= 8
    like = mix.query(f"like:{adhd[0]}", sort="relevance")
    assert like.ids[:10] == [pid for pid, _ in ranked] and adhd[0] not in like.ids
    assert like.scores[like.ids[0]] == pytest.approx(ranked[0][1])
    assert mix.query(f"related:{adhd[0]}", sort="relevance").ids == like.ids
    unread = mix.query(f"like:{adhd[0]} status:unread", sort="relevance")
    assert unread.ids == like.ids
    with pytest.raises(QuerySyntaxError, match="like: needs a paper id"):
        mix.query("like:abc")


def test_a_large_librarys_search_does_not_wait_for_the_fit(mix: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from desktop_app.core.insights.related import related_to

    monkeypatch.setattr(semantic, "WAIT_PAPERS", 0)  # every library counts as large
    adhd = sorted(pid for pid, label in truth(mix).items() if label == "adhd")
    assert semantic.ready_space(mix.store) is None  # nothing fitted yet: a thread starts the fit
    ranked, rank = related_to(mix.store, mix.index.index, adhd[0], 10, wait=False)
    assert len(ranked) == 10 and not isinstance(rank, dict)  # BM25 answered meanwhile
    deadline = time.monotonic() + 120
    while semantic.ready_space(mix.store) is None and time.monotonic() < deadline:
        time.sleep(0.05)
    fitted = semantic.ready_space(mix.store)
    assert fitted is semantic.library_space(mix.store)
    gone = mix.insights.related(adhd[0], 1)[0][0]
    mix.papers.delete([gone])
    stale, _ = related_to(mix.store, mix.index.index, adhd[0], 10, wait=False)  # the last space, refitting
    assert gone not in [pid for pid, _ in stale] and len(stale) == 10


def test_deciding_a_topic_applies_to_exactly_its_undecided_members_and_undoes_in_one_step(mix: Library) -> None:
    found = mix.topics.of()
    topic, other = found.topics[0], found.topics[1]
    before_decided = topic.ids[:3]
    mix.papers.set_decision(before_decided[:2], "skip")
    mix.papers.set_decision(before_decided[2:], "maybe")
    mix.papers.set_decision(other.ids[:1], "skip")
    assert len(mix.topics.undecided(topic)) == topic.size - 3  # the count shown before it applies
    change = mix.topics.decide(topic, "keep")
    assert sorted(change.paper_ids) == sorted(set(topic.ids) - set(before_decided))
    kept = set(mix.query("decision:keep", limit=None).ids)
    assert kept == set(topic.ids) - set(before_decided)
    assert set(mix.query("decision:skip", limit=None).ids) == {*before_decided[:2], other.ids[0]}
    assert set(mix.query("decision:maybe", limit=None).ids) == {before_decided[2]}
    counts = mix.topics.of().find(topic.name).decisions
    assert counts == {"keep": topic.size - 3, "maybe": 1, "skip": 2, "undecided": 0}
    mix.topics.undo_decide(change)
    assert mix.query("decision:keep", limit=None).ids == []
    assert set(mix.query("decision:skip", limit=None).ids) == {*before_decided[:2], other.ids[0]}
    assert mix.topics.decide(mix.topics.of().find(topic.name), "maybe").paper_ids == change.paper_ids
    assert mix.topics.decide(mix.topics.of().find(topic.name), "skip").paper_ids == ()  # none undecided left
    with pytest.raises(LibraryError, match="a decision is one of"):
        mix.topics.decide(topic, "later")


def test_cli_topics_decide(mix_location: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--library", mix_location, "topics", "--json"]) == 0
    topics = json.loads(capsys.readouterr().out)["topics"]
    first = topics[0]
    assert cli.main(["--library", mix_location, "topics", "decide", first["name"], "skip"]) == 0
    assert capsys.readouterr().out.startswith(f"skip: {first['size']} papers of topic 1 ")
    assert cli.main(["--library", mix_location, "list", "--query", "decision:skip", "--json"]) == 0
    assert sorted(p["id"] for p in json.loads(capsys.readouterr().out)["papers"]) == sorted(first["ids"])
    assert cli.main(["--library", mix_location, "topics", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)["topics"][0]
    assert again["decisions"]["skip"] == first["size"] and again["decisions"]["undecided"] == 0
    assert cli.main(["--library", mix_location, "topics", "decide", "1", "later"]) == 1
    assert "a decision is one of" in capsys.readouterr().err
    assert cli.main(["--library", mix_location, "topics", "decide", "1"]) == 1


def test_more_topics_asked_for_than_papers(empty_library: Library) -> None:
    ids = _add(
        empty_library,
        [
            Record(title=t, abstract=a)
            for t, a in (
                ("Clonidine for pain", "Oral clonidine against fentanyl after tonsillectomy in children."),
                ("Graph networks", "Message passing networks predict molecular properties of graphs."),
                ("Optimal transport", "Wasserstein barycenters of measures computed by entropic transport."),
            )
        ],
    )
    found = empty_library.topics.of(k=50)
    assert sorted(sorted(t.ids) for t in found.topics) == [[i] for i in ids]
    assert found.message == "Only 3 papers to group: 3 topics instead of 50."
