"""A deterministic synthetic corpus of ML paper abstracts for the benchmarks.

``make_corpus(n)`` returns ``n`` :class:`~desktop_app.core.records.Record` values. Record ``i``
depends only on ``(seed, i)``, so the 1,000-paper corpus is a prefix of the 10,000 one, and the
same call gives the same corpus on every machine and run. The text imitates the seed files
(``../shared/seeds``): ML vocabulary with a long tail, LaTeX fragments (``\\textbf{R}ecursive``,
``$\\mathbb{R}^d$``, ``\\emph{...}``, ``\\cite{...}``, an undefined ``\\projectname``), markdown
emphasis, numbers. About two thirds carry a title; the rest get a derived one at import. About
40% carry tags, some hierarchical ("rl/rlvr", "llm/reasoning") and some flat ("to-cite").

``to_bibtex(records)`` / ``write_bibtex(records, path)`` give the same records as plain BibTeX
text for the importer benchmark.

Bump ``GENERATOR_VERSION`` whenever the output changes: cached benchmark libraries are keyed by it.

    python benchmarks/corpus.py --size 1000 --bib out.bib     # write a BibTeX file
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from desktop_app.core.records import Record

GENERATOR_VERSION = 2
DEFAULT_SEED = 20260

# ---- vocabulary ------------------------------------------------------------------------------
# Each topic: words and phrases used in its sentences, the tags a paper on it may carry, and
# method-name stems.
TOPICS: dict[str, dict[str, list[str]]] = {
    "rl": {
        "task": [
            "reinforcement learning",
            "policy optimization",
            "offline reinforcement learning",
            "reinforcement learning with verifiable rewards",
            "multi-agent reinforcement learning",
            "exploration in sparse-reward environments",
            "model-based planning",
        ],
        "thing": [
            "policy gradient",
            "reward model",
            "value function",
            "advantage estimator",
            "replay buffer",
            "behavior policy",
            "verifiable reward",
            "Q-function",
            "actor-critic architecture",
            "trust region",
        ],
        "tags": ["rl", "rl/rlvr", "rl/offline", "rl/exploration"],
    },
    "llm": {
        "task": [
            "large language models",
            "in-context learning",
            "chain-of-thought reasoning",
            "instruction tuning",
            "preference alignment",
            "long-context retrieval",
            "mathematical reasoning with LLMs",
            "tool use by language agents",
        ],
        "thing": [
            "language model",
            "reasoning trace",
            "prompt",
            "reward hacking",
            "tokenizer",
            "KV cache",
            "mixture-of-experts layer",
            "speculative decoding",
            "process reward model",
            "direct preference optimization",
        ],
        "tags": ["llm", "llm/reasoning", "llm/alignment", "llm/agents", "llm/efficiency"],
    },
    "vision": {
        "task": [
            "image generation",
            "diffusion models",
            "video synthesis",
            "semantic segmentation",
            "3D reconstruction",
            "open-vocabulary detection",
            "flow matching for images",
        ],
        "thing": [
            "diffusion model",
            "denoising network",
            "score function",
            "vision transformer",
            "latent space",
            "noise schedule",
            "classifier-free guidance",
            "image encoder",
            "rectified flow",
            "U-Net backbone",
        ],
        "tags": ["vision", "vision/diffusion", "vision/3d", "vision/segmentation"],
    },
    "optim": {
        "task": [
            "stochastic optimization",
            "quasi-Newton methods",
            "nonconvex optimization",
            "distributed training",
            "learning-rate scheduling",
            "second-order optimization",
            "quasiconvex minimization",
        ],
        "thing": [
            "quasi-Newton update",
            "Hessian approximation",
            "momentum term",
            "step size",
            "gradient estimator",
            "preconditioner",
            "Adam optimizer",
            "line search",
            "quasi-static schedule",
            "curvature estimate",
        ],
        "tags": ["theory/optimization", "optimization", "optimization/second-order"],
    },
    "graph": {
        "task": [
            "graph representation learning",
            "molecular property prediction",
            "link prediction",
            "combinatorial optimization on graphs",
            "hypergraph learning",
            "relational reasoning",
        ],
        "thing": [
            "graph neural network",
            "message-passing layer",
            "graph transformer",
            "node embedding",
            "hypergraph",
            "positional encoding",
            "attention mechanism",
            "equivariant network",
            "spectral filter",
        ],
        "tags": ["graphs", "graphs/gnn", "graphs/molecules"],
    },
    "theory": {
        "task": [
            "learning theory",
            "generalization",
            "sample complexity",
            "online learning",
            "statistical estimation",
            "PAC-Bayesian analysis",
            "kernel methods",
        ],
        "thing": [
            "generalization bound",
            "regret bound",
            "minimax rate",
            "estimator",
            "kernel",
            "hypothesis class",
            "Rademacher complexity",
            "concentration inequality",
            "lower bound",
            "convergence rate",
        ],
        "tags": ["theory", "theory/generalization", "theory/bandits"],
    },
    "transfer": {
        "task": [
            "transfer learning",
            "domain adaptation",
            "continual learning",
            "few-shot learning",
            "meta-learning",
            "out-of-distribution generalization",
        ],
        "thing": [
            "pretrained transformer",
            "feature extractor",
            "adapter",
            "transferability score",
            "source domain",
            "task embedding",
            "low-rank adaptation",
            "prototype",
            "distribution shift",
            "transformer encoder",
        ],
        "tags": ["transfer", "transfer/continual", "transfer/few-shot"],
    },
}
TOPIC_NAMES = list(TOPICS)
FLAT_TAGS = ["to-cite", "to-read", "survey", "reproduce", "reading-group", "favorites"]

ADJECTIVES = [
    "scalable",
    "efficient",
    "robust",
    "simple",
    "principled",
    "adaptive",
    "hierarchical",
    "provably efficient",
    "sample-efficient",
    "lightweight",
    "unified",
    "modular",
    "sparse",
    "calibrated",
    "compositional",
    "self-supervised",
    "contrastive",
    "variational",
    "causal",
    "interpretable",
    "differentiable",
    "data-driven",
    "training-free",
    "parameter-efficient",
]
TECHNIQUES = [
    "contrastive pretraining",
    "knowledge distillation",
    "curriculum learning",
    "data augmentation",
    "importance sampling",
    "optimal transport",
    "variational inference",
    "Monte Carlo tree search",
    "low-rank factorization",
    "quantization",
    "pruning",
    "mixture of experts",
    "self-play",
    "retrieval augmentation",
    "synthetic data generation",
    "energy-based modeling",
    "normalizing flows",
    "Gaussian processes",
    "Bayesian optimization",
    "spectral clustering",
    "attention pooling",
    "test-time scaling",
    "active learning",
    "label smoothing",
]
PROBLEM_WORDS = [
    "distribution shift",
    "reward misspecification",
    "catastrophic forgetting",
    "overfitting",
    "high variance",
    "exposure bias",
    "mode collapse",
    "spurious correlations",
    "label noise",
    "computational cost",
    "memory footprint",
    "slow convergence",
    "poor calibration",
    "hallucination",
    "privacy leakage",
    "benchmark contamination",
]
BENCHMARKS = [
    "ImageNet-1k",
    "CIFAR-100",
    "MATH",
    "GSM8K",
    "HumanEval",
    "MMLU",
    "D4RL",
    "Atari-57",
    "MuJoCo",
    "OGB-MolHIV",
    "COCO",
    "ADE20K",
    "LongBench",
    "AIME 2025",
    "SWE-bench",
    "BIG-Bench Hard",
    "Procgen",
    "Meta-World",
    "ZINC",
    "WikiText-103",
    "LibriSpeech",
    "ARC-AGI",
]
MODELS = [
    "Qwen3-14B",
    "Llama-3-8B",
    "DeepSeek-R1-Distill-Qwen-7B",
    "GPT-2",
    "ViT-B/16",
    "ResNet-50",
    "Stable Diffusion 3",
    "Mistral-7B",
    "T5-large",
    "BERT-base",
    "CLIP ViT-L/14",
    "Gemma-2-9B",
]
# A long tail: rare technical words, each used by few papers.
RARE_ROOTS = [
    "hyper",
    "meta",
    "poly",
    "iso",
    "multi",
    "neuro",
    "quasi",
    "pseudo",
    "trans",
    "inter",
    "auto",
    "micro",
    "macro",
    "geo",
    "chrono",
    "morpho",
    "spectro",
    "topo",
    "thermo",
    "photo",
]
RARE_STEMS = [
    "graph",
    "morphism",
    "tensor",
    "kernel",
    "manifold",
    "simplex",
    "lattice",
    "operator",
    "sampler",
    "encoder",
    "metric",
    "entropy",
    "variety",
    "polytope",
    "sketch",
    "filter",
    "cascade",
    "lens",
    "flow",
    "field",
    "bundle",
    "scheme",
    "partition",
    "spline",
]
RARE_SUFFIXES = ["", "ic", "al", "ization", "ity", "ness", "oid", "ist"]
ACRONYM_WORDS = [
    "Recursive",
    "Automated",
    "Composition",
    "Environment",
    "Scaling",
    "Adaptive",
    "Bootstrapped",
    "Contrastive",
    "Diffusion",
    "Efficient",
    "Factorized",
    "Gated",
    "Hierarchical",
    "Iterative",
    "Joint",
    "Kernelized",
    "Latent",
    "Masked",
    "Neural",
    "Optimal",
    "Policy",
    "Quantized",
    "Reward",
    "Sparse",
    "Temporal",
    "Unified",
    "Variational",
    "Weighted",
    "Explainable",
    "Yielding",
    "Zero-shot",
    "Attention",
    "Bayesian",
    "Causal",
    "Distilled",
    "Ensemble",
]
FAMILY_NAMES = [
    "Smith",
    "Zhang",
    "Wang",
    "Li",
    "Chen",
    "Liu",
    "Kumar",
    "Müller",
    "Garcia",
    "Nguyen",
    "Kim",
    "Park",
    "Rossi",
    "Silva",
    "Tanaka",
    "Suzuki",
    "Ivanov",
    "Novak",
    "Kowalski",
    "Dubois",
    "Martin",
    "Bernard",
    "Schmidt",
    "Fischer",
    "Weber",
    "Johnson",
    "Williams",
    "Brown",
    "Jones",
    "Miller",
    "Davis",
    "Wilson",
    "Anderson",
    "Taylor",
    "Thomas",
    "Moore",
    "Jackson",
    "White",
    "Harris",
    "Clark",
    "Lewis",
    "Robinson",
    "Walker",
    "Young",
    "Allen",
    "King",
    "Wright",
    "Scott",
    "Green",
    "Baker",
    "Adams",
    "Nelson",
    "Hill",
    "Ramirez",
    "Campbell",
    "Mitchell",
    "Roberts",
    "Carter",
    "Phillips",
    "Evans",
    "Turner",
    "Torres",
    "Parker",
    "Collins",
    "Edwards",
    "Stewart",
    "Flores",
    "Morris",
    "Murphy",
    "Cook",
    "Rogers",
    "Morgan",
    "Peterson",
    "Cooper",
    "Reed",
    "Bailey",
    "Bell",
    "Gomez",
    "Kelly",
    "Howard",
    "Ward",
    "Cox",
    "Diaz",
    "Richardson",
    "Wood",
    "Watson",
    "Brooks",
    "Bennett",
    "Gray",
    "James",
    "Reyes",
    "Cruz",
    "Hughes",
    "Price",
    "Sato",
    "Yamamoto",
    "Watanabe",
    "Huang",
    "Zhao",
    "Wu",
    "Zhou",
    "Xu",
    "Sun",
    "Ma",
    "Hu",
    "Guo",
    "He",
    "Lin",
    "Luo",
    "Gao",
    "Zheng",
    "Liang",
    "Xie",
    "Song",
    "Tang",
    "Han",
    "Feng",
    "Deng",
    "Cao",
    "Peng",
    "Zeng",
    "Xiao",
    "Tian",
    "Dong",
    "Pan",
    "Yuan",
    "Cai",
    "Jiang",
    "Yu",
    "Du",
    "Ye",
    "Cheng",
    "Wei",
    "Shen",
    "Lu",
    "Ren",
    "Zhu",
    "Singh",
    "Patel",
    "Shah",
    "Gupta",
    "Sharma",
    "Das",
    "Bose",
    "Iyer",
    "Reddy",
    "Nair",
    "Khan",
    "Ali",
    "Hassan",
    "Öztürk",
]
GIVEN_NAMES = [
    "Alice",
    "Bob",
    "Carla",
    "David",
    "Elena",
    "Farid",
    "Grace",
    "Hiro",
    "Ines",
    "Jun",
    "Kavya",
    "Lars",
    "Mei",
    "Noah",
    "Olga",
    "Pablo",
    "Qing",
    "Rahul",
    "Sofia",
    "Tomás",
    "Uma",
    "Victor",
    "Wen",
    "Xin",
    "Yara",
    "Zoe",
    "Aditi",
    "Ben",
    "Chloé",
    "Dmitri",
    "Emma",
    "Felix",
    "Giulia",
    "Hannah",
    "Ivan",
    "Jana",
    "Kai",
    "Lena",
    "Marco",
    "Nina",
    "Oscar",
    "Priya",
    "Rui",
    "Sara",
    "Tariq",
    "Ulrich",
    "Vera",
    "William",
    "Yuki",
    "Zhiyuan",
    "Ana",
    "Boris",
    "Chen",
    "Diego",
    "Eva",
    "Fatima",
    "Georg",
    "Hao",
    "Isabel",
    "Jakob",
    "Keisuke",
    "Lucía",
    "Minh",
    "Nadia",
]
VENUES = [
    ("NeurIPS", "inproceedings"),
    ("ICML", "inproceedings"),
    ("ICLR", "inproceedings"),
    ("AAAI", "inproceedings"),
    ("ACL", "inproceedings"),
    ("EMNLP", "inproceedings"),
    ("CVPR", "inproceedings"),
    ("ICCV", "inproceedings"),
    ("COLT", "inproceedings"),
    ("AISTATS", "inproceedings"),
    ("UAI", "inproceedings"),
    ("TMLR", "article"),
    ("JMLR", "article"),
    ("arXiv", "article"),
]
MACROS_MATH = [
    r"$\mathbb{R}^d$",
    r"$O(\sqrt{T})$",
    r"$\epsilon$",
    r"$\tilde{O}(d/\epsilon^2)$",
    r"$\mathcal{O}(n \log n)$",
    r"$\ell_2$",
    r"$k$",
    r"$\alpha \in (0, 1)$",
    r"$\mathbb{E}[\|\nabla f(x)\|^2]$",
    r"$1/\sqrt{n}$",
    r"$\lambda_{\max}$",
    r"$L$-smooth",
    r"$\mathcal{H}$",
    r"$\pi_\theta$",
    r"$p_\theta(x_t \mid x_{t-1})$",
    r"$d \gg n$",
]
EMPHASIS_WORDS = [
    "setwise",
    "without",
    "any",
    "provably",
    "both",
    "exactly",
    "not",
    "only",
    "jointly",
    "first",
]


def _rare_word(rng: random.Random) -> str:
    # Zipf-ish: small indices much more often, giving a long tail of rare terms.
    root = RARE_ROOTS[min(int(rng.paretovariate(1.2)) - 1, len(RARE_ROOTS) - 1)]
    stem = RARE_STEMS[min(int(rng.paretovariate(1.0)) - 1, len(RARE_STEMS) - 1)]
    suffix = rng.choice(RARE_SUFFIXES)
    return root + stem + suffix


def _method(rng: random.Random) -> tuple[str, str, str]:
    """(acronym, LaTeX expansion with bold initials, plain expansion)."""
    words = rng.sample(ACRONYM_WORDS, rng.randint(3, 5))
    acronym = "".join(w[0] for w in words).upper()
    if rng.random() < 0.3:
        acronym += rng.choice(["-2", "++", "-X", "-Lite", "v2"])
    latex = " ".join(rf"\textbf{{{w[0]}}}{w[1:]}" for w in words)
    return acronym, latex, " ".join(words)


def _authors(rng: random.Random, at_least: int = 1) -> list[str]:
    n = min(int(rng.paretovariate(1.3)), 12) if rng.random() < 0.9 else rng.randint(1, 3)
    return [f"{rng.choice(FAMILY_NAMES)}, {rng.choice(GIVEN_NAMES)}" for _ in range(max(n, at_least))]


def _cite(rng: random.Random) -> str:
    return rf"\cite{{{rng.choice(FAMILY_NAMES).lower()}{rng.randint(2015, 2025)}}}"


def _abstract(rng: random.Random, topics: list[str], method: tuple[str, str, str]) -> str:
    main, other = TOPICS[topics[0]], TOPICS[topics[-1]]
    acronym, latex, _plain = method
    task = rng.choice(main["task"])
    thing, thing2 = rng.choice(main["thing"]), rng.choice(other["thing"])
    technique = rng.choice(TECHNIQUES)
    problem = rng.choice(PROBLEM_WORDS)
    adj = rng.choice(ADJECTIVES)
    rare = _rare_word(rng)
    math = rng.choice(MACROS_MATH)
    sentences = [
        rng.choice(
            [
                f"{task[0].upper()}{task[1:]} has emerged as a central problem, yet existing approaches "
                f"suffer from {problem}.",
                f"Recent work on {task} {_cite(rng)} relies on a {thing} whose {problem} limits its use in practice.",
                f"A key challenge in {task} is {problem}, which becomes severe as the {thing} grows.",
                f"While {task} has seen rapid progress, little is known about how the {thing} "
                f"interacts with {technique}.",
            ]
        ),
        rng.choice(
            [
                f"This paper introduces {acronym} ({latex}), a {adj} framework that combines "
                f"{technique} with a {thing2}.",
                f"We propose {acronym}, a {adj} method for {task} based on {technique}.",
                f"In this work, we present \\projectname{{}}, a {adj} {thing2} trained with "
                f"{technique}, and call the resulting method {acronym}.",
                f"We introduce \\emph{{{acronym}}}, which treats the {thing} as a {rare} and learns "
                f"it with {technique}.",
            ]
        ),
        rng.choice(
            [
                f"Our analysis shows that the estimator attains {math} error under mild assumptions on the {thing}.",
                f"We prove that {acronym} converges at rate {rng.choice(MACROS_MATH)} for any "
                f"{rng.choice(ADJECTIVES)} {thing2} in {math}.",
                f"The key insight is that a *{rng.choice(EMPHASIS_WORDS)}* {thing} can be decomposed "
                f"into {rng.randint(2, 64)} independent {rare} blocks.",
                f"Unlike prior methods {_cite(rng)}, {acronym} requires ***no*** access to a {thing2} at test time.",
            ]
        ),
        rng.choice(
            [
                f"Extensive experiments on {rng.choice(BENCHMARKS)} and {rng.choice(BENCHMARKS)} show "
                f"that {acronym} improves {rng.choice(MODELS)} by {rng.randint(1, 15)}."
                f"{rng.randint(0, 9)} points on average.",
                f"On {rng.choice(BENCHMARKS)}, {acronym} reduces {problem} by "
                f"{rng.randint(5, 80)}\\% compared with {rng.choice(TECHNIQUES)}.",
                f"Empirically, {acronym} matches the accuracy of {rng.choice(MODELS)} while using "
                f"{rng.randint(2, 20)}x less compute on {rng.choice(BENCHMARKS)}.",
            ]
        ),
    ]
    extras = [
        f"We further study the role of the {thing2} and find that {technique} is "
        f"\\emph{{{rng.choice(EMPHASIS_WORDS)}}} necessary.",
        f"Ablations on {rng.choice(BENCHMARKS)} confirm that each component of the {thing} contributes to the gains.",
        f"Our results suggest that {rare} structure is a useful inductive bias for {task}.",
        f"We also release a benchmark of {rng.randint(100, 50000)} {task} problems with "
        f"{rng.choice(['human', 'verifiable', 'synthetic'])} annotations.",
        f"The approach extends to {rng.choice(TOPICS[rng.choice(TOPIC_NAMES)]['task'])} with "
        f"minor changes to the {thing2}.",
        f"Theoretical results in {math} are complemented by experiments with "
        f"{rng.choice(MODELS)} and {rng.choice(MODELS)}.",
        f"Code is available at https://github.com/{rng.choice(FAMILY_NAMES).lower()}-lab/"
        f"{acronym.lower().replace('+', 'p')}.",
    ]
    details = [
        f"Concretely, {acronym} maintains a {rng.choice(ADJECTIVES)} {thing} and updates it with "
        f"{rng.choice(TECHNIQUES)}, so that each step costs {rng.choice(MACROS_MATH)} time.",
        f"The method alternates between estimating the {thing2} from {rng.choice(['rollouts', 'samples', 'demonstrations', 'unlabeled data', 'synthetic tasks'])} "
        f"and refining the {thing} by {rng.choice(TECHNIQUES)}.",
        f"To avoid {rng.choice(PROBLEM_WORDS)}, we regularize the {thing} towards a {rare} "
        f"prior and anneal the temperature over {rng.randint(2, 50)} stages.",
        f"We show that {rng.choice(TECHNIQUES)} is a special case of our objective when the "
        f"{thing2} is {rng.choice(ADJECTIVES)}, which explains its success on "
        f"{rng.choice(BENCHMARKS)}.",
        f"Our design is motivated by the observation that the {thing} of a {rng.choice(MODELS)} "
        f"is surprisingly {rng.choice(['low-rank', 'sparse', 'redundant', 'stable', 'brittle'])}.",
    ]
    limits = [
        f"We discuss limitations, including the reliance on a {rng.choice(ADJECTIVES)} "
        f"{thing2} and the cost of {rng.choice(TECHNIQUES)} at scale.",
        f"Finally, we identify {problem} as the main open problem for {task} and outline directions for future work.",
        f"These findings challenge the common belief that {rng.choice(TECHNIQUES)} is required for {task}.",
    ]
    rng.shuffle(extras)
    rng.shuffle(details)
    sentences[2:2] = details[: rng.randint(1, 3)]
    sentences[-1:-1] = extras[: rng.randint(2, 5)]
    if rng.random() < 0.5:
        sentences.append(rng.choice(limits))
    return " ".join(sentences)


def _title(rng: random.Random, topics: list[str], method: tuple[str, str, str]) -> str:
    main = TOPICS[topics[0]]
    acronym, _latex, plain = method
    task = rng.choice(main["task"])
    technique = rng.choice(TECHNIQUES)
    return rng.choice(
        [
            f"{acronym}: {plain} for {task.title()}",
            f"{rng.choice(ADJECTIVES).capitalize()} {task} via {technique} and {rng.choice(main['thing'])}s",
            f"On the {rng.choice(PROBLEM_WORDS)} of {rng.choice(main['thing'])}s: the {acronym} approach",
            f"{acronym}: {rng.choice(ADJECTIVES).capitalize()} {technique.title()} in $\\mathbb{{R}}^d$",
            f"\\emph{{{rng.choice(['Towards', 'Beyond', 'Rethinking', 'Revisiting'])}}} {task} with {acronym}",
            f"{technique.capitalize()} Is All You Need for {task.title()}: {acronym}",
        ]
    )


def make_record(i: int, seed: int = DEFAULT_SEED) -> Record:
    """Paper number ``i`` of the corpus (depends only on ``seed`` and ``i``)."""
    rng = random.Random(seed * 1_000_003 + i)
    topics = [rng.choice(TOPIC_NAMES)]
    if rng.random() < 0.5:
        topics.append(rng.choice(TOPIC_NAMES))
    method = _method(rng)
    venue, entry_type = rng.choice(VENUES)
    year = rng.randint(2018, 2026)
    titled = rng.random() < 0.65
    # Untitled papers get three or more authors: the importer's fallback identity key for a
    # record without a title is (author families, year, venue), which two different
    # single-author papers often share; the corpus should import as exactly n papers.
    authors = _authors(rng, 1 if titled else 3)
    tags: list[str] = []
    if rng.random() < 0.4:
        pool = TOPICS[topics[0]]["tags"]
        tags.append(rng.choice(pool))
        if rng.random() < 0.4:
            tags.append(rng.choice(FLAT_TAGS))
        if len(topics) > 1 and rng.random() < 0.3:
            tags.append(rng.choice(TOPICS[topics[1]]["tags"]))
        tags = list(dict.fromkeys(tags))
    family = authors[0].split(",")[0].lower()
    key = f"{family}{year}{method[0].lower().strip('+-')}{i}"
    return Record(
        abstract=_abstract(rng, topics, method),
        title=_title(rng, topics, method) if titled else None,
        authors=authors,
        venue=f"{venue} {year}" if venue != "arXiv" else venue,
        year=year,
        doi=f"10.5555/mbench.{i:07d}" if rng.random() < 0.4 else None,
        arxiv_id=f"{year % 100:02d}{rng.randint(1, 12):02d}.{i:05d}" if rng.random() < 0.5 else None,
        bibtex_key=key,
        entry_type=entry_type,
        tags=tags,
        note=(
            f"Compare with {_cite(rng)}; check the {rng.choice(TECHNIQUES)} ablation." if rng.random() < 0.03 else None
        ),
    )


def make_corpus(n: int, seed: int = DEFAULT_SEED) -> list[Record]:
    """``n`` synthetic papers; deterministic, and a prefix of any larger corpus."""
    return [make_record(i, seed) for i in range(n)]


# ---- BibTeX ----------------------------------------------------------------------------------
def _bib_value(text: str) -> str:
    return "{" + text.replace("\n", " ") + "}"


def to_bibtex(records: Iterable[Record]) -> str:
    """Plain BibTeX (the shape bibtexparser and reference managers write)."""
    out: list[str] = []
    for rec in records:
        lines = [f"@{rec.entry_type or 'article'}{{{rec.bibtex_key},"]
        fields: list[tuple[str, str]] = []
        if rec.title:
            fields.append(("title", rec.title))
        if rec.authors:
            fields.append(("author", " and ".join(rec.authors)))
        if rec.venue:
            fields.append(("booktitle" if rec.entry_type == "inproceedings" else "journal", rec.venue))
        if rec.year:
            fields.append(("year", str(rec.year)))
        if rec.doi:
            fields.append(("doi", rec.doi))
        if rec.arxiv_id:
            fields += [("eprint", rec.arxiv_id), ("archiveprefix", "arXiv")]
        if rec.tags:
            fields.append(("keywords", ", ".join(rec.tags)))
        fields.append(("abstract", rec.abstract))
        lines += [f"  {name} = {_bib_value(value)}," for name, value in fields]
        lines[-1] = lines[-1].rstrip(",")
        lines.append("}")
        out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


def write_bibtex(records: Iterable[Record], path: str | Path) -> Path:
    path = Path(path)
    path.write_text(to_bibtex(records), "utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--bib", help="write the corpus as BibTeX to this file")
    ap.add_argument("--show", type=int, default=2, help="print this many records")
    args = ap.parse_args(argv)
    records = make_corpus(args.size, args.seed)
    for rec in records[: args.show]:
        print(rec.title, "|", "; ".join(rec.authors), "|", rec.venue, rec.year, "|", rec.tags)
        print("  ", rec.abstract, "\n")
    if args.bib:
        print("wrote", write_bibtex(records, args.bib))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
