"""Sentence splitting and length fitting for derived titles."""

from __future__ import annotations

import re

_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9“\"'(\[])")
_ABBREV = re.compile(
    r"(?:\b(?:e\.g|i\.e|et al|vs|cf|etc|Fig|Figs|Eq|Eqs|Sec|resp|approx|No|Ref|Refs)\.|(?<![\w\-])[A-Z]\.)$"
)
_PUNCT_CUT = re.compile(r",\s|;\s|:\s|\s[—–]\s|—")
_WORD_CUT = re.compile(
    r"\s\(|\s(?:which|that|where|while|whose|who|because|since|although|though|yet|but|so|thereby"
    r"|thus|designed|built|based|using|by|via|with|through|to|for|in|on|across|under|from"
    r"|without|within|over|at|as)\s"
)
_TRAILING_WORDS = frozenset(
    """a an and as at by for from in into of on or the to via with that which its their our
    is are was were be while where whose who than then both either not""".split()
)
_TRAILING_CHARS = " ,;:.-–—([{/\\'\"“‘&+*=<"


def sentences(text: str) -> list[str]:
    """Split plain text into sentences, keeping "e.g." and "et al." inside theirs."""
    out: list[str] = []
    for part in _SPLIT.split(text.strip()):
        if out and _ABBREV.search(out[-1][-12:]):
            out[-1] += " " + part
        else:
            out.append(part)
    return [s for s in out if s]


def capitalize(text: str) -> str:
    """Upper-case the first letter unless the first word is already mixed case ("mAP")."""
    text = text.strip()
    if not text:
        return text
    word = text.split(" ", 1)[0]
    if any(c.isupper() for c in word[1:]):
        return text
    return text[0].upper() + text[1:]


def tidy_phrase(text: str) -> str:
    """Strip dangling words, an unclosed bracket and trailing punctuation."""
    text = " ".join(text.split())
    for _ in range(20):
        before = text
        opened = text.rfind("(")
        if opened > 0 and text.find(")", opened) == -1:
            text = text[:opened]
        text = text.rstrip(_TRAILING_CHARS)
        last = text.rsplit(" ", 1)
        if len(last) == 2 and last[1].lower() in _TRAILING_WORDS:
            text = last[0]
        if text == before:
            break
    return text


_SUBORDINATE = re.compile(r"\b(?:as if|if|whether|because|since|although|though|unless|when)\s")
_LIST_NEXT = re.compile(r",\s+(?:(?:and|or)\s|[^\s,]+(?:\s[^\s,]+){0,2},)")
_CLAUSE_NEXT = re.compile(r",\s+(?:\w+ing\b|which|where|while|whose|who|when|including|such as|namely|i\.e\.|e\.g\.)")


def _good_cut(text: str, pos: int, lists: bool) -> bool:
    """A cut here leaves a whole phrase: not after "a <adjective>,", not inside a list."""
    words = text[:pos].split()
    if len(words) >= 2 and words[-2].lower() in ("a", "an"):
        return False
    if lists or not text.startswith(",", pos) or _CLAUSE_NEXT.match(text, pos):
        return True
    return not (_LIST_NEXT.match(text, pos) or "," in text[max(0, pos - 30) : pos])


def fit(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters: cut at a clause, else at a word with "…"."""
    text = tidy_phrase(text)
    if len(text) <= limit:
        return text
    tiers = ((_PUNCT_CUT, 0.4, False), (_WORD_CUT, 0.45, False), (_PUNCT_CUT, 0.4, True))
    for pattern, share, lists in tiers:
        floor = max(12, int(limit * share))
        cuts = [
            m.start()
            for m in pattern.finditer(text, 0, limit + 1)
            if floor <= m.start() <= limit
            and _good_cut(text, m.start(), lists)
            and (pattern is _PUNCT_CUT or not _SUBORDINATE.search(text, 0, m.start()))
        ]
        if cuts:
            cut = tidy_phrase(text[: cuts[0] if lists else cuts[-1]])
            if floor <= len(cut) <= limit:
                return cut
    if limit <= 1:
        return text[:limit]
    head = text[: limit - 1]
    space = head.rfind(" ")
    if space >= limit // 3:
        head = head[:space]
    head = tidy_phrase(head) or text[: limit - 1]
    return head[: limit - 1] + "…"
