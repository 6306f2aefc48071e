"""Lookup tables for the LaTeX-lite converter: macro names to Unicode, fonts, scripts.

Our own tables cover what abstracts actually use and fix a few readability choices
(``\\epsilon`` reads ε, ``\\phi`` reads φ). Anything else is looked up in pylatexenc's
default latex2text context (hundreds of symbols, accents, ligatures), cached per name;
pylatexenc itself is imported on first need.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Any

_GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε",
    "varepsilon": "ε", "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ",
    "iota": "ι", "kappa": "κ", "varkappa": "ϰ", "lambda": "λ", "mu": "μ", "nu": "ν",
    "xi": "ξ", "omicron": "ο", "pi": "π", "varpi": "ϖ", "rho": "ρ", "varrho": "ϱ",
    "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "φ",
    "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
    "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π",
    "Sigma": "Σ", "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
    "varGamma": "Γ", "varDelta": "Δ", "varTheta": "Θ", "varLambda": "Λ", "varPi": "Π",
    "varSigma": "Σ", "varPhi": "Φ", "varPsi": "Ψ", "varOmega": "Ω",
}  # fmt: skip

#: Relations and arrows: padded with spaces in math so ``a\leq b`` reads "a ≤ b".
RELATIONS = {
    "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "leqslant": "⩽", "geqslant": "⩾",
    "neq": "≠", "ne": "≠", "approx": "≈", "sim": "∼", "simeq": "≃", "cong": "≅",
    "equiv": "≡", "propto": "∝", "asymp": "≍", "doteq": "≐", "coloneqq": "≔",
    "in": "∈", "notin": "∉", "ni": "∋", "subset": "⊂", "subseteq": "⊆", "supset": "⊃",
    "supseteq": "⊇", "subsetneq": "⊊", "ll": "≪", "gg": "≫", "prec": "≺", "succ": "≻",
    "preceq": "⪯", "succeq": "⪰", "lesssim": "≲", "gtrsim": "≳", "perp": "⊥",
    "parallel": "∥", "mid": "|", "nmid": "∤", "models": "⊨", "vdash": "⊢",
    "to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←", "leftrightarrow": "↔",
    "Rightarrow": "⇒", "Leftarrow": "⇐", "Leftrightarrow": "⇔", "implies": "⟹",
    "impliedby": "⟸", "iff": "⟺", "mapsto": "↦", "longrightarrow": "⟶",
    "longleftarrow": "⟵", "longmapsto": "⟼", "Longrightarrow": "⟹",
    "uparrow": "↑", "downarrow": "↓", "hookrightarrow": "↪", "rightharpoonup": "⇀",
    "triangleq": "≜",
}  # fmt: skip

_OPERATORS = {
    "times": "×", "cdot": "·", "div": "÷", "pm": "±", "mp": "∓", "ast": "∗",
    "star": "⋆", "circ": "∘", "bullet": "•", "oplus": "⊕", "otimes": "⊗",
    "ominus": "⊖", "odot": "⊙", "cup": "∪", "cap": "∩", "setminus": "∖",
    "wedge": "∧", "land": "∧", "vee": "∨", "lor": "∨", "neg": "¬", "lnot": "¬",
    "sum": "∑", "prod": "∏", "coprod": "∐", "int": "∫", "iint": "∬", "oint": "∮",
    "bigcup": "⋃", "bigcap": "⋂", "bigoplus": "⨁", "bigotimes": "⨂",
    "bigwedge": "⋀", "bigvee": "⋁", "infty": "∞", "partial": "∂", "nabla": "∇",
    "forall": "∀", "exists": "∃", "nexists": "∄", "emptyset": "∅", "varnothing": "∅",
    "top": "⊤", "bot": "⊥", "dagger": "†", "ddagger": "‡", "prime": "′", "ell": "ℓ",
    "hbar": "ℏ", "Re": "ℜ", "Im": "ℑ", "aleph": "ℵ", "wp": "℘", "imath": "ı",
    "jmath": "ȷ", "langle": "⟨", "rangle": "⟩", "lceil": "⌈", "rceil": "⌉",
    "lfloor": "⌊", "rfloor": "⌋", "lvert": "|", "rvert": "|", "vert": "|",
    "lVert": "‖", "rVert": "‖", "Vert": "‖", "|": "‖", "ldots": "…", "dots": "…",
    "cdots": "⋯", "vdots": "⋮", "ddots": "⋱", "dotsc": "…", "dotsb": "⋯",
    "angle": "∠", "triangle": "△", "square": "□", "Box": "□", "diamond": "◇",
    "checkmark": "✓", "surd": "√", "sharp": "♯", "flat": "♭", "natural": "♮",
    "degree": "°", "lbrace": "{", "rbrace": "}", "backslash": "∖", "colon": ":",
    "vartriangle": "△", "blacksquare": "■", "complement": "∁",
}  # fmt: skip

#: Operator names written upright in math ("\\log n" reads "log n").
FUNCTIONS = frozenset(
    """log ln lg exp sin cos tan sec csc cot arcsin arccos arctan sinh cosh tanh coth
    min max sup inf lim limsup liminf argmin argmax det dim ker deg gcd lcm hom Pr
    arg mod bmod tr Tr rank diag sgn sign poly polylog softmax var Var Cov cov erf""".split()
)

#: Text symbols and the usual abbreviation macros papers define for themselves.
_TEXT = {
    "LaTeX": "LaTeX", "TeX": "TeX", "LaTeXe": "LaTeX2ε", "BibTeX": "BibTeX",
    "S": "§", "P": "¶", "copyright": "©", "textcopyright": "©", "pounds": "£",
    "textsterling": "£", "euro": "€", "texteuro": "€", "yen": "¥", "textyen": "¥",
    "ldots": "…", "textellipsis": "…", "dots": "…", "textbullet": "•",
    "textquoteleft": "‘", "textquoteright": "’", "textquotedblleft": "“",
    "textquotedblright": "”", "textless": "<", "textgreater": ">", "textbar": "|",
    "textunderscore": "_", "textbackslash": "\\", "textasciitilde": "~",
    "textasciicircum": "^", "textendash": "–", "textemdash": "—", "textdagger": "†",
    "textdegree": "°", "textregistered": "®", "texttrademark": "™", "xmark": "✗",
    "cmark": "✓", "checkmark": "✓", "ie": "i.e.", "eg": "e.g.", "Eg": "E.g.",
    "Ie": "I.e.", "etal": "et al.", "etc": "etc.", "wrt": "w.r.t.", "cf": "cf.",
    "Cf": "Cf.", "vs": "vs.", "iid": "i.i.d.", "aka": "a.k.a.", "ss": "ß", "o": "ø",
    "O": "Ø", "aa": "å", "AA": "Å", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ",
    "l": "ł", "L": "Ł", "i": "ı", "j": "ȷ",
}  # fmt: skip

#: Escaped single characters: ``\\%`` and friends.
ESCAPES = {
    "%": "%", "&": "&", "_": "_", "#": "#", "$": "$", "{": "{", "}": "}",
    "|": "‖", "@": "", "/": "", "-": "", "!": "", "\\": " ", ",": " ", ";": " ",
    ":": " ", ">": " ", " ": " ", "\n": " ", "\t": " ", "\r": " ",
}  # fmt: skip

#: Accent macros that take one argument: math combining marks.
MATH_ACCENTS = {
    "tilde": "\u0303", "widetilde": "\u0303", "hat": "\u0302", "widehat": "\u0302",
    "bar": "\u0304", "overline": "\u0305", "vec": "\u20d7", "overrightarrow": "\u20d7",
    "dot": "\u0307", "ddot": "\u0308", "check": "\u030c", "breve": "\u0306",
    "acute": "\u0301", "grave": "\u0300", "mathring": "\u030a", "underline": "\u0332",
}  # fmt: skip

#: Text accent macros (``\\'e``, ``\\"{u}``, ``\\c{c}``); converted by pylatexenc.
TEXT_ACCENTS = frozenset("'\"`^~=.uvHckrdbt")

SYMBOLS: dict[str, str] = {**_TEXT, **_OPERATORS, **RELATIONS, **_GREEK}
for _name in FUNCTIONS:
    SYMBOLS.setdefault(_name, _name)

SUPERSCRIPTS = dict(
    zip(
        "0123456789+-−=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVWαβγδεθιφχ⊤",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵅᵝᵞᵟᵋᶿᶥᵠᵡᵀ",
        strict=True,
    )
)
SUBSCRIPTS = dict(
    zip(
        "0123456789+-−=()aehijklmnoprstuvxβγρφχ",
        "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ",
        strict=True,
    )
)


@lru_cache(maxsize=1)
def _pylatexenc() -> tuple[Any, Any]:  # pylatexenc has no type hints
    """pylatexenc's converter and its macro table, loaded on first need (import is slow)."""
    from pylatexenc import latex2text

    return latex2text.LatexNodes2Text(), latex2text.get_default_latex_context_db()


@lru_cache(maxsize=2048)
def pylatexenc_symbol(name: str) -> str | None:
    """Text for an argument-less macro known to pylatexenc, or None if it has no plain string."""
    try:
        spec = _pylatexenc()[1].get_macro_spec(name)
    except Exception:  # noqa: BLE001  # pragma: no cover - defensive: pylatexenc internals
        return None
    repl = getattr(spec, "simplify_repl", None)
    if isinstance(repl, str) and "%" not in repl:
        return repl
    return None


@lru_cache(maxsize=4096)
def pylatexenc_fragment(fragment: str) -> str:
    """Convert a small LaTeX fragment (an accent such as ``\\"{u}``) with pylatexenc."""
    try:
        return unicodedata.normalize("NFC", _pylatexenc()[0].latex_to_text(fragment))
    except Exception:  # noqa: BLE001 - whatever pylatexenc raises: letters and digits kept
        return "".join(c for c in fragment if c.isalnum())


_FONT_PREFIX = {
    "mathbb": ("MATHEMATICAL DOUBLE-STRUCK", "DOUBLE-STRUCK"),
    "bbm": ("MATHEMATICAL DOUBLE-STRUCK", "DOUBLE-STRUCK"),
    "mathds": ("MATHEMATICAL DOUBLE-STRUCK", "DOUBLE-STRUCK"),
    "mathcal": ("MATHEMATICAL SCRIPT", "SCRIPT"),
    "mathscr": ("MATHEMATICAL SCRIPT", "SCRIPT"),
    "mathfrak": ("MATHEMATICAL FRAKTUR", "BLACK-LETTER"),
}
FONT_MACROS = frozenset(_FONT_PREFIX)

_DIGIT_NAMES = "ZERO ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE".split()


@lru_cache(maxsize=1024)
def font_char(font: str, ch: str) -> str:
    """One character in a math alphabet (``mathbb`` R → ℝ); other characters unchanged."""
    if ch.isascii() and ch.isalpha():
        kind = "CAPITAL" if ch.isupper() else "SMALL"
        key = f"{kind} {ch.upper()}"
    elif ch.isascii() and ch.isdigit():
        key = f"DIGIT {_DIGIT_NAMES[int(ch)]}"
    else:
        return ch
    for prefix in _FONT_PREFIX[font]:
        try:
            return unicodedata.lookup(f"{prefix} {key}")
        except KeyError:
            continue
    return ch


def to_script(text: str, table: dict[str, str], max_letters: int) -> str | None:
    """Text in Unicode super/subscripts, or None when a character has no such form."""
    if not text or sum(c.isalpha() for c in text) > max_letters:
        return None
    out = []
    for c in text:
        mapped = table.get(c)
        if mapped is None:
            return None
        out.append(mapped)
    return "".join(out)


#: Cross-references: shown as a neutral "[ref]" marker.
REF_MACROS = frozenset(
    """ref cref Cref autoref Autoref eqref pageref nameref vref Vref crefrange Crefrange
    labelcref cpageref subref""".split()
)
#: Citations: shown as a neutral "[cite]" marker.
CITE_MACROS = frozenset(
    """cite citep citet citealp citealt citeauthor citeyear citeyearpar parencite textcite
    autocite footcite Citet Citep Citealp Citeauthor citenum smartcite supercite
    fullcite Autocite Parencite Textcite""".split()
)
#: Macros dropped together with their (braced) arguments.
DROP_WITH_ARG = frozenset(
    """label tag hspace vspace phantom hphantom vphantom nocite index bibliographystyle
    bibliography addcontentsline vskip hskip kern setlength setcounter addtocounter
    includegraphics pagestyle thispagestyle""".split()
)
#: Argument-less macros that produce nothing (layout, sizes, spacing hints).
DROP = frozenset(
    """left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr
    displaystyle textstyle scriptstyle scriptscriptstyle limits nolimits nonumber notag
    noindent centering relax protect xspace ignorespaces smallskip medskip bigskip
    maketitle null hfill vfill hfil vfil clearpage newpage pagebreak allowbreak
    nobreak unskip strut mathstrut leavevmode selectfont negthinspace""".split()
)
#: Argument-less macros that read as a space.
SPACES = frozenset("quad qquad enspace thinspace medspace thickspace newline linebreak par".split())
