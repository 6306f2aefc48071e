"""The reader's tree (spans and emphasis delimiters) and its flattening into segments."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Delim", "Segment", "Span", "build_segments", "flat_text", "resolve_emphasis"]

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

    def __init__(self, attr: str | None, children: list) -> None:
        self.attr, self.children = attr, children


def is_punct(ch: str) -> bool:
    """Punctuation or symbol, for the CommonMark flanking rules."""
    return not ch.isalnum() and not ch.isspace()


def resolve_emphasis(nodes: list) -> list:
    """Pair ``*``/``_`` delimiter runs into emphasis spans; unpaired ones stay literal."""
    if not any(isinstance(node, Delim) for node in nodes):
        return nodes
    frames: list[list] = [[None, []]]

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
                    frames[-1][1] = [span]
                else:
                    frames.pop()
                    frames[-1][1].append(span)
            if not node.count:
                continue
        if node.can_open and len(frames) <= _MAX_OPEN_EMPHASIS:
            frames.append([node, []])
        else:
            frames[-1][1].append(node.char * node.count)
    unwind_to(0)
    return frames[0][1]


def flat_text(nodes: list) -> str:
    """The text of a node list, styles ignored."""
    parts: list[str] = []
    stack = [iter(nodes)]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
        elif isinstance(node, str):
            parts.append(node)
        else:
            stack.append(iter(node.children))
    return "".join(parts)


_FLAG_INDEX = {"b": (0,), "i": (1,), "bi": (0, 1), "math": (2,), "ref": (3,), "code": (4,)}


def build_segments(nodes: list) -> list[Segment]:
    """Flatten the tree into segments: whitespace collapsed, equal neighbours merged."""
    runs: list[list] = []  # [text, flags]
    space_before = True  # at the start, a space would be leading: drop it
    stack = [(iter(nodes), (False, False, False, False, False))]
    while stack:
        it, flags = stack[-1]
        node = next(it, None)
        if node is None:
            stack.pop()
            continue
        if not isinstance(node, str):
            if node.attr is not None:
                new = list(flags)
                for k in _FLAG_INDEX[node.attr]:
                    new[k] = True
                flags = tuple(new)
            stack.append((iter(node.children), flags))
            continue
        text = _WS.sub(" ", JUNK.sub("", node))
        if space_before and text.startswith(" "):
            text = text[1:]
        if not text:
            continue
        space_before = text.endswith(" ")
        if runs and runs[-1][1] == flags:
            runs[-1][0] += text
        else:
            runs.append([text, flags])
    while runs and runs[-1][0].endswith(" "):
        runs[-1][0] = runs[-1][0].rstrip(" ")
        if not runs[-1][0]:
            runs.pop()
    return [Segment(text, *flags) for text, flags in runs]
