"""Raw abstract (LaTeX-lite plus markdown emphasis) to styled text segments.

The segment list is the single source of truth for both outputs: :func:`to_plain` joins the
segment texts and :func:`to_html` wraps the very same texts in tags, so an offset into the
plain text is an offset into what the reader sees.

Reading rules, in brief: ``\\textbf{x}`` bold, ``\\emph``/``\\textit`` italic, ``\\texttt``
code; math (``$..$``, ``$$..$$``, ``\\(..\\)``, ``\\[..\\]``) becomes readable Unicode
(see :mod:`.mathtext`); ``\\cite``/``\\cref``... become "[cite]"/"[ref]"; an unknown macro
reads as its name, or as its argument when it has one; ``*x*``, ``**x**``, ``***x***`` and
``_x_`` are markdown emphasis (CommonMark flanking rules, so "a * b" stays literal);
``--``/``---`` dashes, ``~`` a space (kept as "~" before a number: "only ~1%"),
````` ``quotes'' ````` curly quotes; URLs are kept verbatim. Whitespace collapses to single
spaces. Nothing raises: pathological input falls back to a flat reading.
"""

from __future__ import annotations

import re
from functools import lru_cache

from desktop_app.core.text import symbols as sym
from desktop_app.core.text.mathtext import MathReader, TooDeep, math_to_text, script, tidy
from desktop_app.core.text.nodes import (
    JUNK,
    Delim,
    Node,
    Segment,
    Span,
    build_segments,
    flat_text,
    is_punct,
    resolve_emphasis,
)

__all__ = ["Segment", "segments"]


_SPECIAL = re.compile(r"[\\${}*_`~'\-]|(?:https?|ftp)://")
_URL = re.compile(r"(?:https?|ftp)://[^\s<>\"{}\\|^`]+")
_NAME = re.compile(r"[A-Za-z]+")
_WS = re.compile(r"\s+")
_UNESCAPED_DOLLAR = re.compile(r"(?<!\\)\$")
_MAX_DEPTH = 60

_STYLE_MACROS = {
    "textbf": "b", "mathbf": "b", "boldsymbol": None, "emph": "i", "textit": "i",
    "textsl": "i", "mathit": None, "texttt": "code", "code": "code", "underline": None,
    "uline": None, "text": None, "textrm": None, "textsf": None, "textsc": None,
    "textup": None, "textmd": None, "textnormal": None, "mbox": None, "hbox": None,
    "fbox": None, "mathrm": None, "mathsf": None, "mathtt": "code", "textcolor": None,
    "colorbox": None, "highlight": None, "hl": None, "sout": None, "st": None,
    "ul": None, "enquote": None, "textsuperscript": "^", "textsubscript": "_",
}  # fmt: skip
_COLOR_FIRST = frozenset({"textcolor", "colorbox"})  # first argument is the colour
_DECLARATIONS = {
    "bf": "b", "bfseries": "b", "em": "i", "it": "i", "itshape": "i", "sl": "i",
    "slshape": "i", "tt": "code", "ttfamily": "code",
}  # fmt: skip
_NEUTRAL_DECLARATIONS = frozenset(
    """rm sf sc scshape normalfont upshape mdseries rmfamily sffamily tiny scriptsize
    footnotesize small normalsize large Large LARGE huge Huge""".split()
)
_MATH_IN_TEXT = frozenset(
    {"frac", "dfrac", "tfrac", "sqrt", "binom", "not"} | sym.FONT_MACROS | (set(sym.MATH_ACCENTS) - {"underline"})
)
_MATH_ENVS = frozenset(
    """equation equation* align align* gather gather* multline multline* eqnarray
    eqnarray* math displaymath flalign flalign*""".split()
)


def _trim_url(url: str) -> str:
    url = url.rstrip(".,;:!?'\"")
    while url.endswith(")") and url.count(")") > url.count("("):
        url = url[:-1].rstrip(".,;:!?'\"")
    return url


class _TextReader:
    """Reads text mode into a tree of strings and :class:`Span` nodes."""

    def __init__(self, src: str) -> None:
        self.s = src
        self.n = len(src)
        self.i = 0
        self.depth = 0

    # -- structure -------------------------------------------------------------------
    def seq(self, closer: str | None = None) -> list[Node]:
        s, n = self.s, self.n
        out: list[Node] = []
        while self.i < n:
            m = _SPECIAL.search(s, self.i)
            if m is None:
                out.append(s[self.i :])
                self.i = n
                break
            if m.start() > self.i:
                out.append(s[self.i : m.start()])
                self.i = m.start()
            c = s[self.i]
            if c == "}":
                self.i += 1
                if closer == "}":
                    break
            elif c == "{":
                self.i += 1
                out.append(Span(None, self.group()))
            elif c == "\\":
                if self.macro(out, closer):
                    break
            elif c == "$":
                self.dollar(out)
            elif c == "*" or c == "_":
                self.delimiter(out)
            elif c == "`":
                self.backtick(out)
            elif c == "~":
                prev = s[self.i - 1] if self.i else " "
                nxt = s[self.i + 1] if self.i + 1 < n else ""
                out.append("~" if (prev.isspace() or prev in "([") and nxt.isdigit() else " ")
                self.i += 1
            elif c == "'":
                if s.startswith("''", self.i):
                    out.append("”")
                    self.i += 2
                else:
                    out.append("'")
                    self.i += 1
            elif c == "-":
                j = self.i
                while j < n and s[j] == "-":
                    j += 1
                run = j - self.i
                out.append({1: "-", 2: "–", 3: "—"}.get(run, "-" * run))
                self.i = j
            else:
                url = _URL.match(s, self.i)
                text = _trim_url(url.group()) if url else c
                out.append(text)
                self.i += len(text)
        return resolve_emphasis(out)

    def group(self) -> list[Node]:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise TooDeep
        children = self.seq("}")
        self.depth -= 1
        return children

    def skip_ws(self) -> None:
        while self.i < self.n and self.s[self.i].isspace():
            self.i += 1

    def arg(self) -> list[Node]:
        """One macro argument as nodes: a braced group, a macro or a single character."""
        self.skip_ws()
        if self.i >= self.n or self.s[self.i] == "}":
            return []
        c = self.s[self.i]
        if c == "{":
            self.i += 1
            return self.group()
        if c == "\\":
            self.depth += 1
            if self.depth > _MAX_DEPTH:
                raise TooDeep
            nodes: list[Node] = []
            self.macro(nodes, None)
            self.depth -= 1
            return nodes
        self.i += 1
        return [c]

    def raw_arg(self, braced_only: bool = False) -> str:
        """The source text of one braced argument (or one character), unparsed."""
        self.skip_ws()
        if self.i >= self.n:
            return ""
        if self.s[self.i] != "{":
            if braced_only:
                return ""
            self.i += 1
            return self.s[self.i - 1]
        depth, j = 0, self.i
        while j < self.n:
            ch = self.s[j]
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    break
            elif ch == "\\":
                j += 1
            j += 1
        text = self.s[self.i + 1 : j]
        self.i = min(j + 1, self.n)
        return text

    def skip_optional(self) -> None:
        """Skip ``*`` and up to two ``[...]`` optional arguments."""
        for _ in range(3):
            j = self.i
            while j < self.n and self.s[j] in " \t":
                j += 1
            if j < self.n and self.s[j] == "*":
                self.i = j + 1
                continue
            if j < self.n and self.s[j] == "[":
                end = self.s.find("]", j + 1)
                if end != -1:
                    self.i = end + 1
                    continue
            break

    # -- tokens ------------------------------------------------------------------------
    def macro(self, out: list[Node], closer: str | None) -> bool:
        """Read one backslash command into ``out``; True when it consumed ``closer`` too."""
        s, start = self.s, self.i
        i = start + 1
        if i >= self.n:
            self.i = self.n
            return False
        m = _NAME.match(s, i)
        if m is None:
            ch = s[i]
            self.i = i + 1
            if ch == "(" or ch == "[":
                end = s.find("\\)" if ch == "(" else "\\]", self.i)
                if end == -1:
                    out.append(ch)
                else:
                    out.append(Span("math", [math_to_text(s[self.i : end])]))
                    self.i = end + 2
            elif ch in sym.TEXT_ACCENTS:
                self.accent(out, start)
            else:
                out.append(sym.ESCAPES.get(ch, ch))
            return False
        name = m.group()
        self.i = m.end()
        if name in _STYLE_MACROS:
            attr = _STYLE_MACROS[name]
            if name in _COLOR_FIRST:
                self.raw_arg()
            children = self.arg()
            if attr == "^" or attr == "_":
                out.append(script(attr, flat_text(children)))
            else:
                out.append(Span(attr, children))
        elif name in sym.REF_MACROS or name in sym.CITE_MACROS:
            self.skip_optional()
            self.raw_arg(braced_only=True)
            out.append(Span("ref", ["[ref]" if name in sym.REF_MACROS else "[cite]"]))
        elif name in _DECLARATIONS or name in _NEUTRAL_DECLARATIONS:
            rest = self.seq(closer)
            out.append(Span(_DECLARATIONS.get(name), rest))
            return True
        elif name in _MATH_IN_TEXT:
            reader = MathReader(s)
            reader.i = start
            reader.depth = self.depth
            text = tidy(reader.macro())
            self.i = max(reader.i, self.i)
            out.append(Span("math", [text]))
        elif name == "begin" or name == "end":
            env = self.raw_arg().strip()
            if name == "begin" and env in _MATH_ENVS:
                end = s.find("\\end{" + env + "}", self.i)
                stop = self.n if end == -1 else end
                out.append(Span("math", [math_to_text(s[self.i : stop])]))
                self.i = self.n if end == -1 else end + len(env) + 6
            else:
                out.append(" ")
        elif name in ("url", "nolinkurl"):
            out.append(self.raw_arg())
        elif name == "href":
            self.raw_arg()
            out.append(Span(None, self.arg()))
        elif name in ("footnote", "thanks", "footnotetext"):
            self.skip_optional()
            out.extend((" (", Span(None, self.arg()), ") "))
        elif name == "verb":
            if self.i < self.n:
                delim = s[self.i]
                end = s.find(delim, self.i + 1)
                end = self.n if end == -1 else end
                out.append(Span("code", [s[self.i + 1 : end]]))
                self.i = min(end + 1, self.n)
        elif name == "item":
            self.skip_optional()
            out.append(" ")
        elif len(name) == 1 and name in sym.TEXT_ACCENTS:
            self.accent(out, start)
        elif name in sym.DROP_WITH_ARG:
            self.skip_optional()
            self.raw_arg(braced_only=True)
        elif name in sym.DROP:
            pass
        elif name in sym.SPACES:
            out.append(" ")
        else:
            known = sym.SYMBOLS.get(name)
            if known is None:
                known = sym.pylatexenc_symbol(name)
            if known is not None:
                out.append(known)
                if self.s.startswith("{}", self.i):
                    self.i += 2
            elif self.i < self.n and s[self.i] == "{":
                children = self.arg()
                out.append(Span(None, children) if flat_text(children).strip() else name)
            else:
                out.append(name)
        return False

    def accent(self, out: list[Node], start: int) -> None:
        """A text accent such as ``\\'e``, ``\\"{u}`` or ``\\c c``, converted by pylatexenc."""
        if self.s[start + 1].isalpha():
            self.skip_ws()
        if self.i < self.n and self.s[self.i] == "\\":
            m = _NAME.match(self.s, self.i + 1)
            self.i = m.end() if m else min(self.i + 2, self.n)
        elif not self.raw_arg().strip():
            return  # an accent over nothing: drop it rather than show a lone combining mark
        out.append(sym.pylatexenc_fragment(self.s[start : self.i]))

    def dollar(self, out: list[Node]) -> None:
        s, i = self.s, self.i
        if s.startswith("$$", i):
            end = s.find("$$", i + 2)
            if end != -1:
                out.append(Span("math", [math_to_text(s[i + 2 : end])]))
                self.i = end + 2
                return
        nxt = s[i + 1] if i + 1 < self.n else " "
        m = _UNESCAPED_DOLLAR.search(s, i + 1) if not nxt.isspace() and nxt != "$" else None
        if m is not None:
            end = m.start()
            after = s[end + 1] if end + 1 < self.n else " "
            if not s[end - 1].isspace() and not after.isdigit():
                out.append(Span("math", [math_to_text(s[i + 1 : end])]))
                self.i = end + 1
                return
        out.append("$")
        self.i = i + 1

    def delimiter(self, out: list[Node]) -> None:
        s, i, c = self.s, self.i, self.s[self.i]
        j = i
        while j < self.n and s[j] == c:
            j += 1
        prev = s[i - 1] if i else " "
        nxt = s[j] if j < self.n else " "
        left = not nxt.isspace() and (not is_punct(nxt) or prev.isspace() or is_punct(prev))
        right = not prev.isspace() and (not is_punct(prev) or nxt.isspace() or is_punct(nxt))
        if c == "*":
            can_open, can_close = left, right
        else:
            can_open = left and (not right or is_punct(prev))
            can_close = right and (not left or is_punct(nxt))
        self.i = j
        if can_open or can_close:
            out.append(Delim(c, j - i, can_open, can_close))
        else:
            out.append(c * (j - i))

    def backtick(self, out: list[Node]) -> None:
        s, i = self.s, self.i
        if s.startswith("``", i):
            out.append("“")
            self.i = i + 2
            return
        end = s.find("`", i + 1, i + 200)
        inner = s[i + 1 : end] if end > i + 1 else ""
        if inner and "'" not in inner and "\\" not in inner and s[end + 1 : end + 2] != "`":
            out.append(Span("code", [s[i + 1 : end]]))
            self.i = end + 1
        else:
            out.append("‘")
            self.i = i + 1


def _fallback(raw: str) -> list[Segment]:
    """A flat reading for input the reader gave up on: macro names without backslashes."""
    text = re.sub(r"\\([A-Za-z]+)", r"\1", JUNK.sub("", raw)).replace("\\", " ")
    text = _WS.sub(" ", text.replace("{", "").replace("}", "")).strip()
    return [Segment(text)] if text else []


def _segments_strict(raw: str) -> list[Segment]:
    """:func:`segments` without the safety net (tests use it to see real failures)."""
    return build_segments(_TextReader(raw).seq())


def segments(raw: object) -> list[Segment]:
    """Split a raw abstract into display segments (see the module docstring for the rules).

    Never raises: input nested beyond any real abstract (or anything unforeseen) falls
    back to a flat reading of the text with macro names kept and braces dropped. The last
    few hundred results are cached, since the reader asks for plain text and HTML in turn.
    """
    if not raw:
        return []
    if not isinstance(raw, str):
        raw = str(raw)
    return list(_cached_segments(raw))


@lru_cache(maxsize=512)
def _cached_segments(raw: str) -> tuple[Segment, ...]:
    try:
        return tuple(_segments_strict(raw))
    except Exception:  # noqa: BLE001 - TooDeep on absurd nesting, or anything unforeseen: never take the
        return tuple(_fallback(raw))  # app down over one abstract
