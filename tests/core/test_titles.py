"""Derived titles for abstracts that come without one (the seeds have none)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop_app.core.formats.seeds import read_seeds
from desktop_app.core.text import derive_title, to_plain
from desktop_app.core.text.titlecut import fit, sentences

SEED_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
SEEDS = [
    r.abstract for path in sorted(SEED_DIR.glob("*.txt")) for r in read_seeds(path.read_text(encoding="utf-8")).records
]
pytestmark = pytest.mark.skipif(not SEEDS, reason="seed abstracts not found")


def title_of(words: str) -> str:
    """The derived title of the one seed abstract whose raw text contains ``words``."""
    found = [a for a in SEEDS if words in a]
    assert len(found) == 1, f"{len(found)} seeds contain {words!r}"
    return derive_title(found[0])


def test_every_seed_gets_a_clean_title() -> None:
    assert len(SEEDS) == 76
    titles = [derive_title(raw) for raw in SEEDS]
    for raw, title in zip(SEEDS, titles, strict=True):
        assert title, raw[:80]
        assert len(title) <= 100, title
        assert "\\" not in title and "$" not in title and "*" not in title, title
        assert title == title.strip() and "  " not in title, title
        assert not title.endswith((",", ";", ":", "-", "–", "—", "(", ".", " and", " of")), title
        assert title.count("(") == title.count(")"), title
    assert len(set(titles)) == len(titles)  # no two abstracts share a title


def test_races_title_exact() -> None:
    title = title_of(r"\textbf{R}ecursive")
    assert title == "RACES: Recursive Automated Composition for Environment Scaling"


@pytest.mark.parametrize(
    ("words", "title"),
    [
        ("we propose ***FPRM***", "FPRM: Fixed-Point Reasoning Model"),
        ("**ComprExIT**", "ComprExIT: Context Compression via Explicit Information Transmission"),
        ("Penalized Exponential Loss (PENEX)", "PENEX: Penalized Exponential Loss"),
        ("We introduce **REC**", "REC: Random-Effects Centroid"),
        ("Tiered Gossip Learning (TGL)", "TGL: Tiered Gossip Learning"),
        ("called DecodeTS", "DecodeTS: Dynamic Expert-Coupled Optimal DEcoder for Time Series Forecasting"),
        ("Quiet Prompt (QuP)", "QuP: Quiet Prompt"),
        ("Fixed-Point Masked Generative Models (FP-MGMs)", "FP-MGMs: Fixed-Point Masked Generative Models"),
        ("($\\mathsf{ISM}$)", "ISM: Importance Weights for Shifting Means"),
        ("\\textit{Orthogonal Origin Parking} (OOPark)", "OOPark: Orthogonal Origin Parking"),
        ("assignment (SOSPA)", "SOSPA: Sequence Optimal Sub-Pattern Assignment"),
    ],
)  # fmt: skip
def test_names_with_their_expansion(words: str, title: str) -> None:
    assert title_of(words) == title


@pytest.mark.parametrize(
    ("words", "name"),
    [
        ("We introduce StomataBench", "StomataBench: A benchmark for stomatal object detection"),
        ("we propose TF-PRVR", "TF-PRVR: The first training-free framework for PRVR"),
        ("We describe ToR-OT", "ToR-OT: A transformer-based model that learns to predict"),
        ("We introduce BabyTheorist", "BabyTheorist: A benchmark for controlled training"),
        ("We introduce Alice", "Alice: A closed-loop system"),
        ("we propose INNSteer", "INNSteer: A nonlinear activation steering framework"),
        ("we propose RECAP", "RECAP: A constructive quantization method"),
        ("we propose FineVLA", "FineVLA: A framework for constructing"),
        ("we propose FineRMoE", "FineRMoE: FineR-Grained MoE"),
        ("\\emph{The Prestige}, a novel", "The Prestige: A video understanding benchmark"),
        ("the \\textit{Nexus} optimizer", "Nexus: An optimizer that encourages"),
        ("We present the PokéAgent Challenge", "PokéAgent Challenge: A large-scale benchmark"),
        ("we introduce \\projectname", "A large-scale synthetic and verifiable dataset"),
        ("called \\emph{Platonic Representation Defense}", "Platonic Representation Defense"),
    ],
)  # fmt: skip
def test_titles_lead_with_the_introduced_name(words: str, name: str) -> None:
    assert title_of(words).startswith(name)


@pytest.mark.parametrize(
    ("words", "title"),
    [
        ("We present a controlled study", "A controlled study of tokenizer choice in state-centric learned planning"),
        ("we develop a probabilistic theory", "A probabilistic theory that links a neural population's tuning statistics to its inductive bias"),
        ("We analyze the query complexity", "The query complexity of finding a local minimum in t rounds on general graphs"),
        ("This paper studies finite-resolution", "Finite-resolution sufficiency under partial linear observations and bounded measurement error"),
        ("Object-centric representations promise", "A paradigm that strictly decouples representation learning from compositional inference"),
        ("It is known that optimally", "Optimally regularized ridge regression can exhibit non-monotone dependence of the generalization…"),
        ("This position paper argues", "The sequential supervised fine-tuning followed by reinforcement learning (SFT-then-RL) pipeline"),
    ],
)  # fmt: skip
def test_without_a_name_the_topic_or_first_sentence(words: str, title: str) -> None:
    assert title_of(words) == title


@pytest.mark.parametrize(
    ("raw", "title"),
    [
        ("We propose Foo-Net, a framework that learns to rank. It works.", "Foo-Net: A framework that learns to rank"),
        ("Ranking is hard. We introduce GRANITE (Graph Ranking Network). It works.", "GRANITE: Graph Ranking Network"),
        ("We introduce Graph Ranking Networks (GRaNs), a new model.", "GRaNs: Graph Ranking Networks"),
        ("This paper introduces ZAP (Zero-shot Adaptive Planner) for robots.", "ZAP: Zero-shot Adaptive Planner"),
        ("We design a planner called SkyPlan that flies. It is fast.", "SkyPlan: A planner"),
        ("Our model, dubbed Mosaic, composes tiles. It is good.", "Mosaic: A model that composes tiles"),
        ("We propose a method, named DeepTile, for tiling.", "DeepTile: A method for tiling"),
        (r"We present \textbf{G}raph \textbf{A}ttention \textbf{T}ours for routing.", "GAT: Graph Attention Tours"),
        ("We propose ***Zebra***: a fast striped sampler.", "Zebra: A fast striped sampler"),
        ("In this paper, we show that cats are liquid. More text.", "We show that cats are liquid"),
    ],
)  # fmt: skip
def test_name_patterns(raw: str, title: str) -> None:
    assert derive_title(raw) == title


def test_long_first_sentence_is_cut_at_a_word_with_an_ellipsis() -> None:
    raw = "Alpha " * 40 + "omega."
    title = derive_title(raw, max_len=50)
    assert title.endswith("…") and len(title) <= 50 and "Alph…" not in title


def test_degenerate_inputs() -> None:
    assert derive_title("") == ""
    assert derive_title("   ") == ""
    assert derive_title(r"\label{x}") == "Untitled"
    assert derive_title("x") == "X"
    assert derive_title("We propose RACES.", max_len=3) == "RA…"
    assert len(derive_title(SEEDS[0], max_len=1)) == 1


def test_helpers() -> None:
    assert sentences("We use e.g. cats. Kearns et al. (2026) agree. Yes!") == [
        "We use e.g. cats.",
        "Kearns et al. (2026) agree.",
        "Yes!",
    ]
    assert fit("short enough", 20) == "short enough"
    text = "a benchmark for dogs, cats, and birds in the wild and elsewhere"
    assert fit(text, 40) == "a benchmark for dogs, cats, and birds"
    assert fit(text, 30) == "a benchmark for dogs"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400), st.integers(min_value=1, max_value=160))
def test_any_input_gives_a_bounded_title(raw: str, max_len: int) -> None:
    title = derive_title(raw, max_len=max_len)
    assert len(title) <= max_len
    assert bool(title) == bool(raw.strip())
    assert "\\" not in title or "\\" in to_plain(raw)


@pytest.mark.parametrize(
    ("raw", "title"),
    [
        # an undefined macro is never the name; the name given later is ("and call ... X")
        (r"We propose \projectname, a robust line search trained with self-play, and call the resulting "
         r"method ZAPS. It works.", "ZAPS: A robust line search trained with self-play"),
        (r"In this work, we introduce \projectname, a dataset for tool use. \projectname is big.",
         "A dataset for tool use"),
        ("We propose GRAIL-X. We show it works.", "GRAIL-X"),
        ("We propose a unified method for ranking. It works.", "A unified method for ranking"),
    ],
)  # fmt: skip
def test_macros_late_names_and_articles(raw: str, title: str) -> None:
    assert derive_title(raw) == title
