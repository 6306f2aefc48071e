"""The reader's tree (spans and emphasis delimiters) and its flattening into segments."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeAlias

__all__ = ["Delim", "Node", "Segment", "Span", "build_segments", "flat_text", "resolve_emphasis"]

_WS = re.compile(r"\s+")
JUNK = re.compile(r"[\x00-\x08\x0e-\x1f\x7f\ud800-\udfff]")  # controls, lone surrogates
_MAX_OPEN_EMPHASIS = 24
_EMPHASIS = {1: "i", 2: "b", 3: "bi"}


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of displayed text with one set of styles."""

    text: str
    bold: bool = False
    italic: bool = False
    math: bool = False
    ref: bool = False
    code: bool = False


class Delim:
    """A run of ``*`` or ``_`` that may open or close emphasis."""

    __slots__ = ("char", "count", "can_open", "can_close")

    def __init__(self, char: str, count: int, can_open: bool, can_close: bool) -> None:
        self.char, self.count, self.can_open, self.can_close = char, count, can_open, can_close


class Span:
    """Children displayed with one more style ("b", "i", "bi", "code", "math", "ref" or None)."""

    __slots__ = ("attr", "children")

    def __init__(self, attr: str | None, children: list[Node]) -> None:
        self.attr, self.children = attr, children


# a node of the reader's tree: text, a styled span, or a delimiter run not yet paired (none is
# left once resolve_emphasis has run)
Node: TypeAlias = str | Span | Delim
Flags: TypeAlias = tuple[bool, bool, bool, bool, bool]  # Segment's bold, italic, math, ref, code


def is_punct(ch: str) -> bool:
    """Punctuation or symbol, for the CommonMark flanking rules."""
    return not ch.isalnum() and not ch.isspace()


def resolve_emphasis(nodes: list[Node]) -> list[Node]:
    """Pair ``*``/``_`` delimiter runs into emphasis spans; unpaired ones stay literal."""
    if not any(isinstance(node, Delim) for node in nodes):
        return nodes
    # (opener, children) of each open emphasis; the outermost's opener is a placeholder that
    # nothing pairs with (the search below stops before it)
    frames: list[tuple[Delim, list[Node]]] = [(Delim("", 0, False, False), [])]

    def unwind_to(k: int) -> None:
        while len(frames) - 1 > k:
            opener, children = frames.pop()
            frames[-1][1].append(opener.char * opener.count)
            frames[-1][1].extend(children)

    for node in nodes:
        if not isinstance(node, Delim):
            frames[-1][1].append(node)
            continue
        if node.can_close:
            while node.count:
                k = next(
                    (k for k in range(len(frames) - 1, 0, -1) if frames[k][0].char == node.char),
                    None,
                )
                if k is None:
                    break
                unwind_to(k)
                opener, children = frames[-1]
                use = 3 if min(opener.count, node.count) >= 3 else min(opener.count, node.count, 2)
                span = Span(_EMPHASIS[use], children)
                opener.count -= use
                node.count -= use
                if opener.count:
                    frames[-1] = (opener, [span])
                else:
                    frames.pop()
                    frames[-1][1].append(span)
            if not node.count:
                continue
        if node.can_open and len(frames) <= _MAX_OPEN_EMPHASIS:
            frames.append((node, []))
        else:
            frames[-1][1].append(node.char * node.count)
    unwind_to(0)
    return frames[0][1]


def flat_text(nodes: list[Node]) -> str:
    """The text of a node list, styles ignored."""
    parts: list[str] = []
    stack = [iter(nodes)]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
        elif isinstance(node, Delim):  # unpaired: its characters, as resolve_emphasis leaves them
            parts.append(node.char * node.count)
        elif isinstance(node, str):
            parts.append(node)
        else:
            stack.append(iter(node.children))
    return "".join(parts)


_FLAG_INDEX = {"b": (0,), "i": (1,), "bi": (0, 1), "math": (2,), "ref": (3,), "code": (4,)}


def build_segments(nodes: list[Node]) -> list[Segment]:
    """Flatten the tree into segments: whitespace collapsed, equal neighbours merged."""
    texts: list[str] = []  # the runs of text so far, each with its flags
    run_flags: list[Flags] = []
    space_before = True  # at the start, a space would be leading: drop it
    no_flags: Flags = (False, False, False, False, False)
    stack: list[tuple[Iterator[Node], Flags]] = [(iter(nodes), no_flags)]
    while stack:
        it, flags = stack[-1]
        node = next(it, None)
        if node is None:
            stack.pop()
            continue
        if isinstance(node, Delim):  # unpaired: its characters, as resolve_emphasis leaves them
            node = node.char * node.count
        if not isinstance(node, str):
            if node.attr is not None:
                on = _FLAG_INDEX[node.attr]
                bold, italic, math, ref, code = (flags[k] or k in on for k in range(5))
                flags = (bold, italic, math, ref, code)
            stack.append((iter(node.children), flags))
            continue
        text = _WS.sub(" ", JUNK.sub("", node))
        if space_before and text.startswith(" "):
            text = text[1:]
        if not text:
            continue
        space_before = text.endswith(" ")
        if texts and run_flags[-1] == flags:
            texts[-1] += text
        else:
            texts.append(text)
            run_flags.append(flags)
    while texts and texts[-1].endswith(" "):
        texts[-1] = texts[-1].rstrip(" ")
        if not texts[-1]:
            texts.pop()
            run_flags.pop()
    return [Segment(text, *flags) for text, flags in zip(texts, run_flags, strict=True)]
