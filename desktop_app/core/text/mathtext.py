"""Math mode to readable Unicode: ``$\\mathbb{R}^d$`` → "ℝᵈ", ``\\frac{1}{\\delta}`` → "1/δ".

A small recursive reader over the math source (no pylatexenc walk: it is too slow to run
on every abstract at import). Unknown macros read as their name; nothing ever raises.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from desktop_app.core.text import symbols as sym

_NAME = re.compile(r"[A-Za-z]+")
_PLAIN = re.compile(r"[^\\{}^_~&'\s]+")
_WS = re.compile(r"\s+")
_SIMPLE = re.compile(r"[\w.′*]+")
_OPEN_SPACE = re.compile(r"([(\[{⟨]) ")
_SPACE_CLOSE = re.compile(r" ([)\]}⟩,;])")
_MAX_DEPTH = 40

_KEEP_ARG = frozenset(
    """mathbf mathrm mathsf mathtt mathit mathnormal boldsymbol bm pmb text textrm textbf
    textit textsf texttt textnormal textup textsl emph mbox hbox operatorname
    operatornamewithlimits mathop mathbin mathrel mathord underbrace overbrace
    underline uline textsc fbox boxed cancel""".split()
)
_FRACTIONS = frozenset({"frac", "dfrac", "tfrac", "cfrac"})
_BINOMS = frozenset({"binom", "dbinom", "tbinom"})
_SECOND_ARG = frozenset({"overset", "underset", "stackrel"})
_ROOTS = {"2": "√", "3": "∛", "4": "∜"}


class TooDeep(Exception):
    """Nesting beyond what any real formula uses: fall back to a flat reading."""


def wrap(text: str) -> str:
    """Parenthesize a fraction part or root argument unless it is one simple token."""
    text = text.strip()
    if len(text) <= 1 or _SIMPLE.fullmatch(text):
        return text
    if text[0] == "(" and text[-1] == ")" and text.count("(") == 1:
        return text
    return f"({text})"


def script(marker: str, arg: str) -> str:
    """A superscript (marker "^") or subscript ("_"), in Unicode where every character has one."""
    arg = arg.strip()
    if not arg:
        return ""
    if marker == "^":
        if set(arg) <= {"*", "∗"}:
            return "*" * len(arg)
        if set(arg) <= {"′", "'"}:
            return "′" * len(arg)
        if arg in ("†", "‡", "∘", "°"):
            return arg
        converted = sym.to_script(arg, sym.SUPERSCRIPTS, 3)
    else:
        converted = sym.to_script(arg, sym.SUBSCRIPTS, 3)
    if converted is not None:
        return converted
    if len(arg) == 1 or _SIMPLE.fullmatch(arg):
        return marker + arg
    return f"{marker}({arg})"


class MathReader:
    """Reads one formula. ``seq`` returns the text up to a closing brace or the end."""

    def __init__(self, src: str) -> None:
        self.s = src
        self.i = 0
        self.n = len(src)
        self.depth = 0

    def seq(self, closer: str | None = None) -> str:
        s, out = self.s, []
        while self.i < self.n:
            c = s[self.i]
            if c == "}":
                self.i += 1
                if closer == "}":
                    break
                continue
            if c == "{":
                self.i += 1
                out.append(self.group())
            elif c == "^" or c == "_":
                self.i += 1
                out.append(script(c, self.atom()))
            elif c == "\\":
                out.append(self.macro())
            elif c == "'":
                j = self.i
                while j < self.n and s[j] == "'":
                    j += 1
                out.append("′" * (j - self.i))
                self.i = j
            elif c in "~&" or c.isspace():
                out.append(" ")
                self.i += 1
            else:
                m = _PLAIN.match(s, self.i)
                if m is None:  # pragma: no cover - every other char matches _PLAIN
                    out.append(c)
                    self.i += 1
                else:
                    out.append(m.group())
                    self.i = m.end()
        return "".join(out)

    def group(self) -> str:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise TooDeep
        text = self.seq("}")
        self.depth -= 1
        return text

    def skip_ws(self) -> None:
        while self.i < self.n and self.s[self.i].isspace():
            self.i += 1

    def atom(self) -> str:
        """One argument: a braced group, a macro (with its own arguments) or one character."""
        self.skip_ws()
        if self.i >= self.n:
            return ""
        c = self.s[self.i]
        if c == "}":
            return ""
        if c != "{" and c != "\\":
            self.i += 1
            return c
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise TooDeep
        if c == "{":
            self.i += 1
            text = self.seq("}")
        else:
            text = self.macro()
        self.depth -= 1
        return text

    def optional(self) -> str | None:
        """A ``[...]`` optional argument, if one follows."""
        self.skip_ws()
        if self.i < self.n and self.s[self.i] == "[":
            end = self.s.find("]", self.i + 1)
            if end != -1:
                reader = MathReader(self.s[self.i + 1 : end])
                reader.depth = self.depth + 1
                if reader.depth > _MAX_DEPTH:
                    raise TooDeep
                self.i = end + 1
                return tidy(reader.seq())
        return None

    def next_is_word(self) -> bool:
        j = self.i
        while j < self.n and self.s[j].isspace():
            j += 1
        return j < self.n and (self.s[j].isalnum() or self.s[j] == "\\")

    def macro(self) -> str:
        s, i = self.s, self.i + 1
        if i >= self.n:
            self.i = self.n
            return ""
        m = _NAME.match(s, i)
        if m is None:
            self.i = i + 1
            return sym.ESCAPES.get(s[i], s[i])
        name = m.group()
        self.i = m.end()
        if self.i < self.n and s[self.i] == "*":
            self.i += 1
        if name in ("left", "right", "middle") or name.startswith(("big", "Big")):
            self.skip_ws()
            if self.i < self.n and s[self.i] == ".":
                self.i += 1
            return ""
        if name in _FRACTIONS:
            num, den = self.atom(), self.atom()
            return f"{wrap(num)}/{wrap(den)}"
        if name == "sqrt":
            index = self.optional()
            root = _ROOTS.get(index or "2") or (script("^", index or "") + "√")
            return root + wrap(self.atom())
        if name in _BINOMS:
            n, k = self.atom(), self.atom()
            return f"C({n.strip()}, {k.strip()})"
        if name in sym.FONT_MACROS:
            return "".join(sym.font_char(name, ch) for ch in self.atom())
        if name in _KEEP_ARG:
            return self.atom()
        if name in _SECOND_ARG:
            self.atom()
            return self.atom()
        if name in sym.MATH_ACCENTS:
            mark, arg = sym.MATH_ACCENTS[name], self.atom().strip()
            if len(arg) == 1 or name in ("overline", "bar", "underline"):
                return "".join(ch + mark for ch in arg)
            return arg
        if name == "not":
            return f" {self.atom().strip()}\u0338 "
        if name in ("xrightarrow", "xleftarrow"):
            self.optional()
            self.atom()
            return " → " if name == "xrightarrow" else " ← "
        if name in sym.REF_MACROS or name in sym.CITE_MACROS:
            self.optional()
            self.optional()
            self.atom()
            return "[ref]" if name in sym.REF_MACROS else "[cite]"
        if name in sym.DROP_WITH_ARG:
            self.atom()
            return ""
        if name in sym.DROP:
            return ""
        if name in sym.SPACES:
            return " "
        if name in sym.FUNCTIONS:
            return name + " " if self.next_is_word() else name
        if name in sym.RELATIONS:
            return f" {sym.RELATIONS[name]} "
        known = sym.SYMBOLS.get(name)
        if known is None:
            known = sym.pylatexenc_symbol(name)
        if known is not None:
            return known
        if self.i < self.n and s[self.i] == "{":
            arg = self.atom()
            return arg if arg.strip() else name
        return name


def tidy(text: str) -> str:
    """Collapse spaces, drop spaces just inside brackets and before commas, compose accents."""
    text = _WS.sub(" ", text).strip()
    text = _OPEN_SPACE.sub(r"\1", text)
    text = _SPACE_CLOSE.sub(r"\1", text)
    return unicodedata.normalize("NFC", text)


@lru_cache(maxsize=16384)
def math_to_text(src: str) -> str:
    """Readable Unicode for the inside of a formula (without its ``$`` delimiters)."""
    try:
        text = MathReader(src).seq()
    except TooDeep:
        text = re.sub(r"\\([A-Za-z]+)", r"\1", src).replace("{", "").replace("}", "")
    return tidy(text)
