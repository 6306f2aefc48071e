r"""LaTeX to plain Unicode text, for the titles, names, venues and keywords of BibTeX files.

A fast regular-expression pass decodes the accents and special letters that most names hold
(``{\"O}zge``, ``\c{c}``, ``\ss``); what is left goes to pylatexenc. pylatexenc's stock
databases are made for documents, and three of their rules lose text that bibliographies hold:

- the parser gives arguments to macros it knows (``\mbox``, ``\texttt``, ...), but the text
  converter drops a macro it has no rule for *together with those arguments*
  (``{\mbox{$\mu$}}J`` came out as "J"). Here a macro without a rule keeps its arguments'
  text; only the setup macros of :data:`_SETUP_MACROS`, which carry no text, are dropped;
- logos and symbols common in titles have no rule and vanish (``\LaTeX{}``, ``AND\slash OR``):
  :data:`_SYMBOLS` gives them their text;
- ``\url{...}`` was parsed as LaTeX (its ``~`` became a space) and put in angle brackets:
  here ``\url``, ``\path`` and ``\nolinkurl`` read their argument verbatim and keep it as
  written;
- inline math kept its ``^`` and ``_`` (``$\Sigma^{0}$`` -> "Σ^0", ``CO$_2$`` -> "CO_2"): it is
  read by the project's own math reader (:func:`desktop_app.core.text.mathtext.math_to_text`,
  which abstracts use too), giving "Σ⁰" and "CO₂".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache

from pylatexenc import latex2text, latexwalker
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec
from pylatexenc.macrospec import (
    LatexContextDb,
    MacroSpec,
    MacroStandardArgsParser,
    ParsedMacroArgs,
    ParsedVerbatimArgs,
)

# ---------------------------------------------------------------- fast pass: accents

_ACCENTS = {
    '"': "\u0308",
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
    "u": "\u0306",
    "v": "\u030c",
    "H": "\u030b",
    "c": "\u0327",
    "k": "\u0328",
    "r": "\u030a",
    "d": "\u0323",
    "b": "\u0331",
}
# An accent over nothing (``\~{}``, or ``\~`` before a closing brace) prints the mark itself;
# ``\~{}`` is how old BibTeX files write the tilde of a URL.
_SPACING_ACCENTS = {  # a bare "~" would be read as a tie (a space) later
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    '"': "\u00a8",
    "'": "\u00b4",
    "`": "`",
    "=": "\u00af",
    ".": "\u02d9",
}
_NOT_ESCAPED = r"(?<!\\)"  # "\\'e" is a line break and a quote, not an accented e
_LETTER = r"([A-Za-z]|\\[ij](?![A-Za-z]))"
_SYMBOL_ACCENT = r"\\([\"'`^~=.])"
_LETTER_ACCENT = r"\\([uvHckrdb])"
_ACCENT_FORMS = (
    r"\{" + _SYMBOL_ACCENT + r"\s*" + _LETTER + r"\}",  # {\"u}
    r"\{" + _SYMBOL_ACCENT + r"\s*\{" + _LETTER + r"\}\}",  # {\"{u}}
    r"\{" + _LETTER_ACCENT + r"\s+" + _LETTER + r"\}",  # {\c c}
    r"\{" + _LETTER_ACCENT + r"\{" + _LETTER + r"\}\}",  # {\c{c}}
    r"\\([\"'`^~=.uvHckrdb])\{" + _LETTER + r"\}",  # \"{u}  \c{c}
    _SYMBOL_ACCENT + _LETTER,  # \"u (a letter accent needs braces or a space)
)
_ACCENT = re.compile(_NOT_ESCAPED + "(?:" + "|".join(f"(?:{f})" for f in _ACCENT_FORMS) + ")")
_EMPTY_ACCENT = re.compile(_NOT_ESCAPED + r"\\([\"'`^~=.])(?:\{\s*\}|(?!\s*[A-Za-z{\\]))")
_SPECIAL_LETTERS = {
    "ss": "ß",
    "o": "ø",
    "O": "Ø",
    "ae": "æ",
    "AE": "Æ",
    "oe": "œ",
    "OE": "Œ",
    "aa": "å",
    "AA": "Å",
    "l": "ł",
    "L": "Ł",
    "i": "ı",
    "j": "ȷ",
}
_SPECIAL_LETTER = re.compile(
    _NOT_ESCAPED + r"(?:\{\\(ss|ae|AE|oe|OE|aa|AA|o|O|l|L|i|j)\}"
    r"|\\(ss|ae|AE|oe|OE|aa|AA|o|O|l|L|i|j)(?![A-Za-z])(?:\{\}|\s)?)"
)
_ESCAPED_CHAR = re.compile(r"\\([&%_#$])")


def _accent(match: re.Match[str]) -> str:
    mark, letter = (g for g in match.groups() if g is not None)
    base = {"\\i": "ı", "\\j": "ȷ"}.get(letter, letter)
    if base in "ıȷ" and mark in "\"'`^~=.":
        base = "i" if base == "ı" else "j"  # \"{\i} is a plain i with the accent
    return unicodedata.normalize("NFC", base + _ACCENTS[mark])


def _special_letter(match: re.Match[str]) -> str:
    return _SPECIAL_LETTERS[match.group(1) or match.group(2)]


def decode_common_accents(value: str) -> str:
    """Fast pre-pass for the LaTeX that most titles and names hold: accents such as
    ``{\\"u}``, ``\\'{e}``, ``\\c{c}``, letters such as ``\\ss`` or ``\\o``, and accents over
    nothing (``\\~{}`` is a tilde). What is left (math, other commands) goes to pylatexenc."""
    if "\\" not in value:
        return value
    value = _SPECIAL_LETTER.sub(_special_letter, _ACCENT.sub(_accent, value))
    return _EMPTY_ACCENT.sub(lambda m: _SPACING_ACCENTS[m.group(1)], value)


# ---------------------------------------------------------------- pylatexenc databases

# Macros the parser reads arguments for that hold no text: dropped with their arguments.
_SETUP_MACROS = (
    "label",
    "color",
    "definecolor",
    "providecolor",
    "colorlet",
    "pagecolor",
    "rowcolors",
    "setlength",
    "addlength",
    "setcounter",
    "addcounter",
    "newcommand",
    "renewcommand",
    "providecommand",
    "newenvironment",
    "renewenvironment",
    "provideenvironment",
    "DeclareMathOperator",
    "documentclass",
    "usepackage",
    "RequirePackage",
    "selectlanguage",
    "hypersetup",
    "hphantom",
    "vphantom",
    "bibliography",
    "defcitealias",
    # the sorting tricks of BibTeX styles: \noopsort{a}Zeta sorts as "a" and prints "Zeta"
    "noopsort",
    "sortnoop",
    "SortNoop",
    "NoOpSort",
    # natbib's citation commands (pylatexenc writes \cite as "<cit.>"; the keys are no text)
    "citealt",
    "citealp",
    "citeauthor",
    "citefullauthor",
    "citeyear",
    "citeyearpar",
    "Citet",
    "Citep",
    "Citealt",
    "Citealp",
    "Citeauthor",
    "citenum",
    "citetalias",
    "citepalias",
)
_SYMBOLS = {
    "TeX": "TeX",
    "LaTeX": "LaTeX",
    "LaTeXe": "LaTeX2ε",
    "BibTeX": "BibTeX",
    "XeTeX": "XeTeX",
    "XeLaTeX": "XeLaTeX",
    "LuaTeX": "LuaTeX",
    "LuaLaTeX": "LuaLaTeX",
    "pdfTeX": "pdfTeX",
    "pdfLaTeX": "pdfLaTeX",
    "ConTeXt": "ConTeXt",
    "AmS": "AMS",
    "AmSTeX": "AMS-TeX",
    "METAFONT": "METAFONT",
    "MF": "Metafont",
    "eTeX": "ε-TeX",
    "slash": "/",
    "textslash": "/",
    "textbar": "|",
    "textless": "<",
    "textgreater": ">",
    "textunderscore": "_",
    "textquotedbl": '"',
    "textasciicircum": "^",
    "S": "§",
    "P": "¶",
    "ddag": "‡",
    "euro": "€",
    "pounds": "£",
    "copyright": "©",
    "textmultiply": "×",
    "checkmark": "✓",
    "nobreakspace": " ",
    "deg": "°",
    "degree": "°",
    "upmu": "μ",
    "micro": "µ",
    "ohm": "Ω",
    "celsius": "℃",
    "Angstrom": "Å",
    "SS": "SS",
}
_VERBATIM_MACROS = ("url", "path", "nolinkurl")
_URL_ESCAPE = re.compile(r"\\([&%_#$~])(?:\{\})?")
_VERBATIM_START = re.compile(r"\\(?:url|path|nolinkurl)\s*\{")


class _BracedVerbatimArg(MacroStandardArgsParser):  # type: ignore[misc]  # pylatexenc: no hints
    """One ``{...}`` argument read as written (braces balanced), as ``\\url`` reads it."""

    def __init__(self) -> None:
        super().__init__(argspec="{")

    def parse_args(
        self,
        w: latexwalker.LatexWalker,
        pos: int,
        parsing_state: latexwalker.ParsingState | None = None,
    ) -> tuple[ParsedMacroArgs, int, int]:
        start = pos
        while start < len(w.s) and w.s[start].isspace():
            start += 1
        if start >= len(w.s) or w.s[start] != "{":
            parsed: tuple[ParsedMacroArgs, int, int]
            parsed = super().parse_args(w, pos, parsing_state=parsing_state)
            return parsed
        end = _closing_brace(w.s, start)
        chars = w.s[start + 1 : end]
        node = w.make_node(
            latexwalker.LatexCharsNode, parsing_state=parsing_state, chars=chars, pos=start + 1, len=len(chars)
        )
        return ParsedVerbatimArgs(node, verbatim_delimiters=("{", "}")), pos, end + 1 - pos


def _closing_brace(text: str, start: int) -> int:
    """Index of the brace that closes the one at ``start`` (the end of ``text`` if none)."""
    depth = 0
    for i in range(start, len(text)):
        char = text[i]
        if char == "{" and (i == 0 or text[i - 1] != "\\"):
            depth += 1
        elif char == "}" and text[i - 1] != "\\":
            depth -= 1
            if depth == 0:
                return i
    return len(text)


def _verbatim_text(node: latexwalker.LatexMacroNode) -> str:
    argd = node.nodeargd
    text = argd.verbatim_text if isinstance(argd, ParsedVerbatimArgs) else ""
    return _URL_ESCAPE.sub(r"\1", text)


def _href_text(node: latexwalker.LatexMacroNode, l2tobj: LatexNodes2Text) -> str:
    args = node.nodeargd.argnlist if node.nodeargd else []
    return l2tobj.nodelist_to_text([args[1]]) if len(args) > 1 and args[1] else ""


def _walker_context() -> LatexContextDb:
    context = latexwalker.get_default_latex_context_db()
    context.add_context_category(
        "bibliography",
        prepend=True,
        macros=[
            *(MacroSpec(name, args_parser=_BracedVerbatimArg()) for name in _VERBATIM_MACROS),
            *(MacroSpec(name, "{") for name in ("noopsort", "sortnoop", "SortNoop", "NoOpSort")),
            MacroSpec("href", "{{"),
        ],
    )
    return context


def _text_context() -> LatexContextDb:
    context = latex2text.get_default_latex_context_db()
    context.add_context_category(
        "bibliography",
        prepend=True,
        macros=[
            *(MacroTextSpec(name, simplify_repl=text) for name, text in _SYMBOLS.items()),
            *(MacroTextSpec(name, discard=True) for name in _SETUP_MACROS),
            *(MacroTextSpec(name, simplify_repl=_verbatim_text) for name in _VERBATIM_MACROS),
            MacroTextSpec("href", simplify_repl=_href_text),
        ],
    )
    context.set_unknown_macro_spec(MacroTextSpec("", discard=False))  # keep the arguments
    return context


class _BibliographyText(LatexNodes2Text):  # type: ignore[misc]  # pylatexenc has no type hints
    """pylatexenc's text converter, with inline math read by the project's math reader."""

    def math_node_to_text(self, node: latexwalker.LatexNode) -> str:
        if not node.isNodeType(latexwalker.LatexMathNode) or node.displaytype != "inline":
            text: str = super().math_node_to_text(node)
            return text
        from desktop_app.core.text.mathtext import math_to_text  # the text package is heavy

        source = node.latex_verbatim()
        opening, closing = node.delimiters
        if source.startswith(opening) and source.endswith(closing):
            source = source[len(opening) : len(source) - len(closing)]
        return math_to_text(source)


# built once: pylatexenc would rebuild its default databases on every call
_WALKER_CONTEXT = _walker_context()
_TO_TEXT = _BibliographyText(latex_context=_text_context())

# ---------------------------------------------------------------- conversion

_SPACES = re.compile(r"[ \t\n\r\f\v\xa0]+")  # one space for any run (not only up to a line break)
_UNESCAPED_SPECIAL = re.compile(r"(?<!\\)[%&]")  # a comment / alignment mark to LaTeX
_NEEDS_LATEX = re.compile(r"[\\$]")


def _outside_verbatim(convert: Callable[[str], str], value: str) -> str:
    """``convert`` applied to ``value`` but not to the arguments of ``\\url`` and its kin
    (``\\url{http://x.org/\\~user}`` keeps its tilde for the verbatim reading)."""
    if "\\" not in value or not _VERBATIM_START.search(value):
        return convert(value)
    pieces, start = [], 0
    for m in _VERBATIM_START.finditer(value):
        if m.start() < start:
            continue
        end = _closing_brace(value, m.end() - 1) + 1
        pieces += [convert(value[start : m.start()]), value[m.start() : end]]
        start = end
    pieces.append(convert(value[start:]))
    return "".join(pieces)


def _plain_typography(value: str) -> str:
    """Text without commands: escaped characters, ties, dashes, quotes, grouping braces."""
    value = _ESCAPED_CHAR.sub(lambda m: "\0" + m.group(1), value)  # protect \& \% ...
    value = value.replace("~", " ").replace("---", "\u2014").replace("--", "\u2013")
    value = value.replace("``", "\u201c").replace("''", "\u201d")
    return value.replace("{", "").replace("}", "").replace("\0", "")


@lru_cache(maxsize=8192)
def latex_to_text(value: str) -> str:
    """LaTeX to plain Unicode text (``{\\"O}zge`` -> ``Özge``), whitespace collapsed."""
    value = _outside_verbatim(decode_common_accents, value)
    if _NEEDS_LATEX.search(_ESCAPED_CHAR.sub("", value)):
        try:
            walker = latexwalker.LatexWalker(
                _UNESCAPED_SPECIAL.sub(r"\\\g<0>", value), latex_context=_WALKER_CONTEXT, tolerant_parsing=True
            )
            value = _TO_TEXT.nodelist_to_text(walker.get_latex_nodes()[0])
        except Exception:  # noqa: BLE001 - pylatexenc is tolerant; keep the text if not
            value = _plain_typography(value)
    else:
        value = _plain_typography(value)
    return unicodedata.normalize("NFC", _SPACES.sub(" ", value).strip())
