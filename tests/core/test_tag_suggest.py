"""Tag suggestions on a small tagged library where the answer is clear: two topics, each tagged."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.core.insights.tag_suggest import suggest_tags, tag_stems
from desktop_app.core.library import Library

RL = [
    "Proximal policy optimization with clipped surrogate rewards stabilises reinforcement learning agents "
    "in continuous control; the policy gradient estimator uses advantage normalisation.",
    "We study reinforcement learning agents trained by proximal policy optimization on sparse rewards; "
    "the policy gradient variance falls with advantage normalisation and clipped updates.",
    "Policy gradient methods for reinforcement learning: a clipped proximal policy objective and reward "
    "shaping make agents learn continuous control faster.",
    "Reinforcement learning agents with policy gradient updates: proximal policy optimization with "
    "clipped ratios and advantage estimates for continuous control rewards.",
]
BIO = [
    "Protein structure prediction from amino acid sequences with attention over residue contacts; "
    "folding accuracy improves with multiple sequence alignments of homologous proteins.",
    "We predict protein folding from amino acid sequences: residue contacts and multiple sequence "
    "alignments of homologous proteins give accurate structure prediction.",
    "Residue contact maps for protein structure prediction; amino acid sequences and homologous "
    "proteins aligned in multiple sequence alignments guide the folding model.",
    "Protein folding with residue contacts predicted from amino acid sequences and alignments of "
    "homologous proteins; structure prediction accuracy rises.",
]


def _bib(path: Path) -> Path:
    entries = []
    for n, abstract in enumerate(RL + BIO):
        entries.append(
            f"@article{{p{n},\n  title = {{Paper number {n} on {'control' if n < 4 else 'folding'}}},\n"
            f"  author = {{Author{n}, A.}},\n  year = {{2024}},\n  abstract = {{{abstract}}}\n}}\n"
        )
    path.write_text("\n".join(entries), "utf-8")
    return path


@pytest.fixture
def tagged(tmp_path: Path):
    with Library.open(tmp_path / "lib") as lib:
        assert lib.imports.from_files([_bib(tmp_path / "two.bib")]).added == 8
        lib.flush_index()
        ids = {p.title: p.id for p in lib.papers.rows(lib.finder.list_ids()).values()}
        rl = [ids[f"Paper number {n} on control"] for n in range(4)]
        bio = [ids[f"Paper number {n} on folding"] for n in range(4, 8)]
        lib.tags.add(rl[1:], ["rl/ppo"])
        lib.tags.add(bio[1:], ["biology"])
        lib.tags.add([rl[1]], ["to-cite"])
        yield lib, rl, bio


def test_an_untagged_paper_gets_its_topics_tag_first(tagged) -> None:
    lib, rl, bio = tagged
    got = suggest_tags(lib, rl[0])
    assert got[0].name == "rl/ppo"
    assert "biology" not in [s.name for s in got[:1]]
    assert suggest_tags(lib, bio[0])[0].name == "biology"
    assert len(got) <= 5


def test_never_a_tag_it_has_and_leave_one_out(tagged) -> None:
    lib, rl, _bio = tagged
    assert "rl/ppo" not in [s.name for s in suggest_tags(lib, rl[2])]
    hidden = suggest_tags(lib, rl[2], hide_own=True)  # as if untagged: its own tag comes back
    assert hidden[0].name == "rl/ppo"


def test_key_terms_match_a_tags_last_part(tagged) -> None:
    lib, rl, _bio = tagged
    assert tag_stems("rl/ppo") == {"ppo"}  # the last part only
    assert tag_stems("ml/rl") == frozenset()  # too short to match a key term
    assert tag_stems("methods/policy-gradient") == tag_stems("policy gradient") != frozenset()
    lib.tags.add([lib.finder.list_ids()[-1]], ["methods/policy-gradient"])  # on one paper only
    got = {s.name: s for s in suggest_tags(lib, rl[0])}
    assert "methods/policy-gradient" in got
    assert "key terms" in got["methods/policy-gradient"].why


def test_tagged_neighbours_in_the_semantic_space_vote(tagged) -> None:
    lib, rl, bio = tagged
    # no related papers handed in: only the tagged papers nearest in the space can name "biology"
    got = suggest_tags(lib, bio[0], related=[])
    assert got[0].name == "biology" and got[0].why == "similar papers"
    assert suggest_tags(lib, rl[0], related=[])[0].name == "rl/ppo"
    assert lib.tags.tagged_ids() == sorted(rl[1:] + bio[1:])


def test_without_a_ready_space_the_related_papers_alone_vote(tagged, monkeypatch) -> None:
    from desktop_app.core.insights import semantic

    lib, _rl, bio = tagged
    monkeypatch.setattr(semantic, "ready_space", lambda store: None)  # a large library still fitting
    assert "biology" not in [s.name for s in suggest_tags(lib, bio[0], related=[])]
    assert suggest_tags(lib, bio[0])[0].name == "biology"
