"""The LaTeX-lite reader: raw seed abstracts to plain text and safe HTML (no Qt)."""

from __future__ import annotations

import html
import re
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop_app.core.formats.seeds import read_seeds
from desktop_app.core.text import Mark, Segment, segments, to_html, to_plain
from desktop_app.core.text import symbols as sym
from desktop_app.core.text.mathtext import math_to_text
from desktop_app.core.text.segments import _cached_segments, _segments_strict

SEED_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"


def _load_seeds() -> list[str]:
    abstracts: list[str] = []
    for path in sorted(SEED_DIR.glob("*.txt")):
        abstracts += [r.abstract for r in read_seeds(path.read_text(encoding="utf-8")).records]
    return abstracts


SEEDS = _load_seeds()
pytestmark = pytest.mark.skipif(not SEEDS, reason="seed abstracts not found")


def seed(words: str) -> str:
    """The raw seed abstract containing ``words`` (as written in the raw text)."""
    found = [a for a in SEEDS if words in a]
    assert len(found) == 1, f"{len(found)} seeds contain {words!r}"
    return found[0]


def seg_with(raw: str, text: str) -> Segment:
    """The segment of ``raw`` whose text is exactly ``text``."""
    found = [s for s in segments(raw) if s.text.strip() == text]
    assert found, f"no segment {text!r} in {segments(raw)[:20]}"
    return found[0]


# Tags to_html is allowed to produce; anything else in the output must be escaped text.
_OWN_TAG = re.compile(
    r'</?(?:b|i|code)>|<span class="(?:math|ref|hit|hl hl-[a-z0-9-]+)"'
    r'(?: data-key="[^"<>]*")?(?: style="background-color:#[0-9a-f]{3,6}")?>|</span>'
)


class _Balance(HTMLParser):
    """Fails on a close tag that does not match the innermost open tag."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack}"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def check_html(fragment: str, plain: str) -> None:
    """Well formed, only our own tags, and its text is exactly the plain text."""
    parser = _Balance()
    parser.feed(fragment)
    parser.close()
    assert parser.stack == []
    assert "".join(parser.text) == plain
    leftover = _OWN_TAG.sub("", fragment)
    assert "<" not in leftover and ">" not in leftover
    assert html.unescape(leftover) == plain


# -- the search-for-what-you-see rule ------------------------------------------------------


def test_races_plain_text_reads_the_expansion() -> None:
    raw = seed(r"\textbf{R}ecursive")
    plain = to_plain(raw)
    assert "Recursive Automated Composition for Environment Scaling" in plain
    assert "RACES (Recursive Automated" in plain
    assert "<b>R</b>ecursive <b>A</b>utomated" in to_html(raw)
    assert seg_with(raw, "R").bold


def test_plain_is_the_join_of_segments_and_clean_for_every_seed() -> None:
    assert len(SEEDS) == 76
    for raw in SEEDS:
        segs = segments(raw)
        plain = to_plain(raw)
        assert plain == "".join(s.text for s in segs)
        assert segs == _segments_strict(raw)  # no seed needs the fallback reading
        assert "\\" not in plain and "**" not in plain and "$" not in plain
        assert "  " not in plain and plain == plain.strip() and "\n" not in plain
        assert all(s.text for s in segs)
        check_html(to_html(raw), plain)


# -- LaTeX text macros -----------------------------------------------------------------------


def test_bold_italic_code_and_kept_content() -> None:
    nexus = seed(r"\textit{Nexus}")
    assert seg_with(nexus, "Nexus").italic
    assert "<i>Nexus</i> optimizer" in to_html(nexus)
    prestige = seed(r"\emph{The Prestige}")
    assert seg_with(prestige, "The Prestige").italic
    decode = seed(r"\textbf{\underline{D}}ynamic")
    plain = to_plain(decode)
    assert "DecodeTS (Dynamic Expert-Coupled Optimal DEcoder for Time Series Forecasting)" in plain
    assert seg_with(decode, "DE").bold
    assert "more than 15 datasets" in plain and seg_with(decode, "15").bold
    raw = r"Use \texttt{run\_all()} with \text{kept} and \mathrm{roman} \underline{under}."
    assert to_plain(raw) == "Use run_all() with kept and roman under."
    assert seg_with(raw, "run_all()").code
    assert "<code>run_all()</code>" in to_html(raw)


def test_group_scoped_declarations() -> None:
    raw = r"plain {\bf bold \em both} plain"
    assert to_plain(raw) == "plain bold both plain"
    assert seg_with(raw, "both").bold and seg_with(raw, "both").italic


def test_math_reads_as_unicode() -> None:
    ridge = seed(r"$\mathbb{R}^d$")
    plain = to_plain(ridge)
    assert "for every d ≥ 2, there exists a random design linear model in ℝᵈ whose" in plain
    assert "at least d - 1 local maxima" in plain
    assert seg_with(ridge, "ℝᵈ").math
    assert '<span class="math">ℝᵈ</span>' in to_html(ridge)

    graphs = to_plain(seed(r"f : V \to \mathbb{R}"))
    assert "oracle access to an unknown function f : V → ℝ, the goal" in graphs
    assert "such that f(v) ≤ f(u) for all (u,v) ∈ E" in graphs
    assert "upper bound of O(n^(1/t) (sΔ)^(1-1/t))" in graphs
    assert "lower bound of Ω(n^(1/t))" in graphs

    dp = to_plain(seed(r"\Omega(\frac{1}{\epsilon}"))
    assert "Ω(1/ε√(VC(ℋ)/n))" in dp  # \frac, \sqrt, \text, \mathcal, Greek
    assert "Õ(√(VC(ℋ)/(ε n)))" in dp and "Õ(d²/(n²ε²))" in dp

    assert "O(Tᵧ log Tᵧ) regret" in to_plain(seed(r"O(T_\gamma \log T_\gamma)"))
    assert "Ω(log log T)" in to_plain(seed(r"O(T_\gamma \log T_\gamma)"))
    assert "regret O(log³ T) even" in to_plain(seed(r"\log^3 T"))
    assert "cos(g_SFT, g_RL) ≈ 0" in to_plain(seed(r"\approx 0"))
    assert "network φ that maps" in to_plain(seed(r"$\phi^{-1}$"))
    assert "inverse transformation φ⁻¹" in to_plain(seed(r"$\phi^{-1}$"))
    logistic = to_plain(seed(r"\lVert\theta^*\rVert_2\geq"))
    assert "parameter θ* ∈ ℝᵈ (‖θ*‖₂ ≥ 1) from n i.i.d. samples {(xᵢ,yᵢ)}ᵢ₌₁ⁿ" in logistic
    assert "where xᵢ ∼ N(0,I_d)" in logistic and "ℓ₂ error" in logistic
    shifting = to_plain(seed(r"\Delta_{\min}^{-2}"))
    assert "K (σ² + U²) Δₘᵢₙ⁻² ln 1/δ" in shifting and "ISM" in shifting
    assert "p → 1" in to_plain(seed(r"p\rightarrow 1"))
    assert "1.3× ImageReward" in to_plain(seed(r"1.3$\times$"))
    assert "k ≪ m" in to_plain(seed(r"k\ll m"))


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        (r"$\mathcal{O}(n)$", "𝒪(n)"),
        (r"$\alpha + \beta \leq \infty$", "α + β ≤ ∞"),
        (r"$a \times b \approx c \sim d$", "a × b ≈ c ∼ d"),
        (r"$x \in \mathbb{R}^{n}$", "x ∈ ℝⁿ"),
        (r"\(x_1 \rightarrow x_2\)", "x₁ → x₂"),
        (r"\[\sqrt{x}\]", "√x"),
        (r"$$\frac{a+b}{2}$$", "(a+b)/2"),
        (r"$\log n$", "log n"),
        (r"$\hat{y}$ and $\bar{x}$", "ŷ and x̄"),
        (r"$\not\in$", "∉"),
        (r"\begin{equation}E = mc^2\end{equation}", "E = mc²"),
    ],
)
def test_math_forms(latex: str, text: str) -> None:
    assert to_plain(latex) == text


def test_math_never_gives_up_loudly() -> None:
    assert math_to_text("{" * 500) == ""
    assert "\\" not in math_to_text("\\sqrt" * 500)
    assert math_to_text(r"\frac{1}") == "1/"


def test_punctuation_rules() -> None:
    assert "out of ∼ 10,000 species" in to_plain(seed(r"10{,}000"))
    assert "memorization–generalization trade-off" in to_plain(seed("memorization--generalization"))
    assert "a local minimum—a vertex" in to_plain(seed("minimum---a vertex"))
    assert "a 17.06% performance gain" in to_plain(seed(r"\textbf{17.06\%}"))
    assert "large “constants,” such as" in to_plain(seed("``constants,''"))
    assert "adding only ~1% trainable" in to_plain(seed("only ~1%"))  # "~" before a number kept
    assert to_plain(r"See Fig.~3 \& Tab.~2 for A\_B at 5\% cost") == "See Fig. 3 & Tab. 2 for A_B at 5% cost"
    assert to_plain(r"\$5 -- or \$10") == "$5 – or $10"


def test_references_become_neutral_markers() -> None:
    raw = seed(r"\cref{fig:cwa_illustration:close}")
    plain = to_plain(raw)
    assert "(e.g., [ref]), or merely" in plain and "(see [ref])" in plain
    assert seg_with(raw, "[ref]").ref
    assert '<span class="ref">[ref]</span>' in to_html(raw)
    usp = seed(r"\cite{marsdenuniversal}")
    assert "Preconditioning (USP) [cite] is a method" in to_plain(usp)
    assert seg_with(usp, "[cite]").ref
    raw = r"As in \citep[p.~3]{a,b}, \citet*{c}, \eqref{eq:1}, \autoref{sec:x} and \ref{t}."
    assert to_plain(raw) == "As in [cite], [cite], [ref], [ref] and [ref]."


def test_unknown_macros_read_as_their_name_or_argument() -> None:
    raw = seed(r"\projectname")
    plain = to_plain(raw)
    assert "we introduce projectname, a large-scale synthetic" in plain
    assert "projectname inverts this process" in plain
    assert to_plain(r"A \mymacro{kept text} here, \other{} there") == "A kept text here, other there"


def test_accents_through_pylatexenc() -> None:
    assert "The Pokémon theorem shows" in to_plain(seed(r"Pok\'emon"))
    assert to_plain(r"{\"u}ber \c{c}a \ss{} na\"ive \v{S}koda") == "über ça ß naïve Škoda"


def test_markdown_emphasis() -> None:
    games = seed("*setwise*")
    assert seg_with(games, "setwise").italic
    assert seg_with(games, "sets of policies").italic
    assert "closed under better replies (club)" in to_plain(games)
    assert "Q-club sets" in to_plain(games)
    rec = seed("**REC**")
    assert seg_with(rec, "REC").bold and not seg_with(rec, "REC").italic
    fprm = seed("***FPRM***")
    assert seg_with(fprm, "FPRM").bold and seg_with(fprm, "FPRM").italic
    assert "we propose FPRM: a Fixed-Point Reasoning Model" in to_plain(fprm)
    sortition = seed("_representative_")
    assert seg_with(sortition, "representative").italic
    assert "the panel complexity problem" in to_plain(sortition)
    for raw in (games, rec, fprm, sortition):
        assert "*" not in to_plain(raw) and "_" not in to_plain(raw)
    # A lone star, a product and a star in math are not emphasis.
    assert to_plain("a * b and 2 * 3") == "a * b and 2 * 3"
    assert to_plain(r"$\theta^*$ and $a * b$ stay") == "θ* and a * b stay"
    assert "θ* ∈ ℝᵈ" in to_plain(seed(r"\theta^* \in"))
    assert to_plain("snake_case_name and file_name_") == "snake_case_name and file_name_"
    assert to_plain("**unclosed bold") == "**unclosed bold"


def test_urls_are_kept_verbatim() -> None:
    assert "Code: https://tinyurl.com/4hre257u" in to_plain(seed("tinyurl"))
    raw = r"See https://x.org/a_b_c/~u--v*w*. Next"
    assert to_plain(raw) == "See https://x.org/a_b_c/~u--v*w*. Next"


def test_source_html_is_escaped() -> None:
    raw = r"An <img src=x> and <script>alert(1)</script> & \textbf{<b>}"
    out = to_html(raw)
    assert "&lt;img src=x&gt;" in out
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    assert "<b>&lt;b&gt;</b>" in out
    check_html(out, to_plain(raw))


# -- hits and highlights ---------------------------------------------------------------------


def test_term_hits_case_insensitive_whole_words_and_prefixes() -> None:
    raw = seed(r"\textbf{R}ecursive")
    plain = to_plain(raw)
    out = to_html(raw, terms=["races", "compos*"])
    hits = re.findall(r'<span class="hit"[^>]*>(.*?)</span>', out)
    assert hits.count("RACES") == plain.count("RACES")
    assert {"composable", "<b>C</b>omposition", "composition", "composite"} <= set(hits)
    assert not any("trace" in h.lower() for h in hits)
    check_html(out, plain)
    # A phrase across bold boundaries, and no partial words.
    out = to_html(raw, terms=["recursive automated composition"])
    assert '<span class="hit" style="background-color:#ffd54f"><b>R</b>ecursive <b>A</b>utomated' in out
    assert "hit" not in to_html("spaces and traces", terms=["ace"])
    assert to_html("x", terms=["*", "", '""']) == "x"


def test_marks_map_onto_plain_offsets_across_segments_and_overlaps() -> None:
    raw = seed(r"\textbf{R}ecursive")
    plain = to_plain(raw)
    start = plain.index("Recursive Automated")
    marks = [
        Mark(start, start + 19, "green", key="a"),
        Mark(start + 10, start + 40, "#ABCDEF", key='b"<'),
        Mark(5, 2, "yellow", key="empty"),
        Mark(0, 5, "pink", key="gone", orphan=True),
        Mark(len(plain) - 3, len(plain) + 50, "weird color!", key="end"),
    ]
    out = to_html(raw, terms=["automated"], marks=marks)
    check_html(out, plain)
    assert 'data-key="gone"' not in out and 'data-key="empty"' not in out
    assert 'data-key="b&quot;&lt;"' in out
    assert "background-color:#abcdef" in out and "hl-weirdcolor" in out

    def marked(key: str) -> str:
        """Concatenated text of every span carrying ``key``."""
        parser = _Balance()
        chunks: list[str] = []
        depth_keys: list[bool] = []
        parser.handle_starttag = lambda tag, attrs: depth_keys.append(("data-key", key) in attrs)
        parser.handle_endtag = lambda tag: depth_keys.pop()
        parser.handle_data = lambda data: chunks.append(data) if any(depth_keys) else None
        parser.feed(out)
        return "".join(chunks)

    assert to_html("a b", terms="b", marks=[Mark(None, 2, "red")]) == (  # type: ignore[arg-type]
        'a <span class="hit" style="background-color:#ffd54f">b</span>'
    )
    assert marked("a") == plain[start : start + 19] == "Recursive Automated"
    assert marked('b"<') == plain[start + 10 : start + 40]
    assert marked("end") == plain[-3:]


# -- robustness and speed ----------------------------------------------------------------------

_KNOWN = sorted(
    (set(sym.SYMBOLS) | sym.REF_MACROS | sym.CITE_MACROS | sym.DROP | sym.SPACES)
    | {"textbf", "emph", "textit", "texttt", "frac", "sqrt", "mathbb", "mathcal", "underline"}
)
_PRINTS_BACKSLASH = ["textbackslash"]  # its whole point is to print one
_PIECES = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["\\" + name for name in _KNOWN if name not in _PRINTS_BACKSLASH]),
    st.sampled_from(list("{}$*_~`'-^\\ []()<>&%") + ["$$", "**", "***", "\\(", "\\)", "--"]),
)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_never_raises_and_stays_escaped(raw: str) -> None:
    plain = to_plain(raw)
    out = to_html(raw, terms=["a", "b*"], marks=[Mark(0, 4, "yellow", "k"), Mark(2, 9, "blue")])
    check_html(out, plain)
    assert plain == "".join(s.text for s in segments(raw))


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_latex_soup_never_raises_and_leaves_no_known_macro(raw: str) -> None:
    _segments_strict(raw)  # the reader itself copes: no need for the safety net
    plain = to_plain(raw)
    for name in re.findall(r"\\([A-Za-z]+)", plain):
        assert name not in _KNOWN, f"\\{name} left in {plain!r}"
    check_html(to_html(raw, terms=["x"]), plain)


@pytest.mark.parametrize(
    "raw",
    ["{" * 5000, "}" * 5000, "\\sqrt" * 3000, "\\textbf" * 3000, "$" + "{" * 3000 + "$",
     "*a " * 3000, "x^" * 3000, "\\" * 999, "\\begin{equation}", "\x00\x01 \ud800 ok"],
)  # fmt: skip
def test_pathological_input(raw: str) -> None:
    plain = to_plain(raw)
    check_html(to_html(raw), plain)
    assert "\ud800" not in plain and "\x00" not in plain


def test_speed_on_the_seeds() -> None:
    _cached_segments.cache_clear()
    math_to_text.cache_clear()
    start = time.perf_counter()
    for raw in SEEDS:
        to_plain(raw)
        to_html(raw)
    elapsed = time.perf_counter() - start
    print(f"\n{len(SEEDS)} seed abstracts to plain+html: {elapsed * 1000:.1f} ms "
          f"({elapsed * 1000 / len(SEEDS):.3f} ms each)")  # fmt: skip
    assert elapsed < 0.5


def test_core_text_does_not_import_qt() -> None:
    code = "import sys, desktop_app.core.text as t; t.to_html('x'); print('PySide6' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
