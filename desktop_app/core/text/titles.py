"""Titles derived from an abstract, for papers imported without one (marked "derived").

What a human would write, in order of preference:

1. The name the paper gives its method, model or benchmark, with its expansion when the
   abstract spells one out ("RACES: Recursive Automated Composition for Environment
   Scaling"), else with what it is ("StomataBench: A benchmark for stomatal object
   detection"). Names are found after "we propose/introduce/present ...", "this paper
   introduces ...", "called/dubbed/named/termed ...", as "Expansion (ACR)" or
   "ACR (Expansion)", as an emphasised expansion followed by its acronym, and as bold
   initials (``\\textbf{R}ecursive \\textbf{A}utomated``).
2. Otherwise the paper's topic or contribution: "We study X" in the first sentence → "X";
   "We present a controlled study of X" → "A controlled study of X".
3. Otherwise the first sentence, minus openers such as "It is known that".

Long titles are cut at a clause boundary when one is close, else at a word with "…".
The result is plain text, at most ``max_len`` characters, without trailing punctuation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_app.core.text.render import to_plain
from desktop_app.core.text.segments import Segment, segments
from desktop_app.core.text.titlecut import capitalize, fit, sentences, tidy_phrase

__all__ = ["derive_title"]

_SUBJECT = (
    r"(?:\b[Ww]e|\b[Tt]his (?:position )?(?:paper|work|study|article|note)|\b[Oo]ur (?:work|paper))"
    r"(?:\s+(?:first|further|also|then|therefore|thus|here|now|additionally|instead|next))?"
)
_STRONG = (
    r"propos|introduc|present|develop|design|describ|devis|build|construct|offer|contribut"
    r"|creat|formulat|pioneer"
)
_STUDY = (
    r"stud|consider|analy[sz]|investigat|examin|explor|revisit|characteri[sz]|tackl|explain"
    r"|identif|formali[sz]"
)
_RESULT = r"giv|provid|establish|deriv|obtain|prov"  # "we give a new regret bound": a result
_SHOW = r"show|prove|demonstrate|find|argue"
_VERB_END = r"(?:e|es|ed|s|ies|y)?\b(?!\s+(?:upon|on|that)\b)"
_INTRO = re.compile(rf"{_SUBJECT}\s+(?:{_STRONG}){_VERB_END}\s+(?P<obj>.+)")
_STUDY_RE = re.compile(rf"{_SUBJECT}\s+(?:{_STUDY}){_VERB_END}\s+(?P<obj>.+)")
_RESULT_RE = re.compile(rf"{_SUBJECT}\s+(?:{_RESULT})(?:e|es|ed|s|ide|ides|en|ing)?\s+(?P<obj>.+)")
# "we identify this conflict and pioneer a new paradigm that ...": the second verb's object
_COORD_RE = re.compile(rf"{_SUBJECT}\s+[^.;:]*?\band\s+(?:{_STRONG}|pioneer){_VERB_END}\s+(?P<obj>.+)")
_CLAIM_RE = re.compile(rf"{_SUBJECT}\s+(?:{_SHOW})s?\s+that\s+(?P<obj>.+)")
_SELF = re.compile(r"\b(?:[Ww]e|[Oo]ur|[Tt]his (?:paper|work|study))\b")
_ANAPHORA = frozenset("this these that those it they such several its their both".split())
_PARTICIPLE = re.compile(r"\b(?:introducing|proposing|presenting)\s+(?P<obj>.+)")
_RELEASE = re.compile(rf"{_SUBJECT}\s+(?:release|releases|open-source)\s+(?P<obj>.+)")
_CALLED = re.compile(
    r"\b(?:called|dubbed|named|termed|coined|(?:we|which we) (?:call|coin|name|term)"
    r"|and call (?:it|the resulting \w+|this \w+))\s+(?P<obj>.+)"
)
_NOT_NAME = frozenset(
    """a an the this these that those our its their it them how whether what why which who
    when where two three four five six several some multiple many new novel both each
    various such more further one first simple general whole key""".split()
)
_HEAD_NOUNS = frozenset(
    """optimizer benchmark framework model method algorithm dataset hypothesis toolkit
    library protocol architecture loss approach system challenge suite metric paradigm
    pipeline agent environment technique strategy objective estimator network""".split()
)
_SMALL = frozenset("a an and as at by for from in of on or the to via vs with".split())
_ACR_TOKEN = re.compile(r"[\w.\-–+&'’]+")
_NAME_END = re.compile(r"(?P<name>(?:[^,:;().]|\.(?!\s)){1,80}?)\s*(?P<sep>\(|,|:|;|$|\s(?=(?:which|that)\s))")
_OPENERS = re.compile(
    r"^(?:In this (?:paper|work|study),?\s+|Here,?\s+|Recently,?\s+|In recent years,?\s+"
    r"|It is (?:well[- ])?known that\s+|It has been (?:shown|observed) that\s+"
    r"|This (?:position )?(?:paper|work|study) (?:argues|shows|demonstrates|proves|finds) that\s+)"
)

Named = tuple[str, str, str]  # (name, expansion, description)
_CUES = {  # cheap tests that skip a sentence before the costlier pattern runs
    _INTRO: re.compile(r"\b(?:we|this|our) "),
    _CALLED: re.compile(r"call|dubbed|named|termed|coin| name | term "),
    _PARTICIPLE: re.compile(r"introducing|proposing|presenting"),
    _RELEASE: re.compile(r"release|open-source"),
}


def _letters(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def _is_acronym(acr: str, expansion: str) -> bool:
    """True when ``acr`` abbreviates ``expansion`` (its letters in order, same first letter)."""
    acr = acr.strip()
    letters, words = _letters(acr), re.split(r"[\s\-–]+", expansion.strip())
    if not 2 <= len(letters) <= 15 or not any(c.isupper() for c in acr) or len(words) < 2:
        return False
    if not _ACR_TOKEN.fullmatch(acr):
        return False
    text = _letters(expansion)
    if not text or text[0] != letters[0]:
        return False
    pos = 0
    for c in letters:
        pos = text.find(c, pos) + 1
        if not pos:
            return False
    return True


def _loose_acronym(name: str, expansion: str) -> bool:
    """ "GRANITE (Graph Ranking Network)": Capitalised Words that start with the name's letter."""
    words = [w for w in expansion.split() if w.lower() not in _SMALL]
    return (
        2 <= len(words) <= 8
        and sum(c.isupper() for c in name) >= 2
        and all(w[:1].isupper() for w in words)
        and words[0][0].lower() == name[0].lower()
    )


def _name_like(name: str) -> bool:
    """Has a capital or a digit: reads as a proper name."""
    return any(c.isupper() or c.isdigit() for c in name)


def _strong_name(name: str) -> bool:
    """Stands alone as a title lead: one coined token (StomataBench, TF-PRVR) or Capitalised Words."""
    words = name.split()
    if len(words) == 1 or len(words) >= 3:
        return _name_like(words[0])
    return all(w[:1].isupper() or w in _SMALL for w in words)


def _title_case(text: str) -> str:
    """Title-case an all-lowercase expansion ("sequence optimal assignment" → "Sequence …")."""
    if text != text.lower():
        return text
    out = []
    for k, word in enumerate(text.split(" ")):
        if k and word in _SMALL:
            out.append(word)
        else:
            out.append("-".join(p[:1].upper() + p[1:] for p in word.split("-")))
    return " ".join(out)


def _clean_desc(desc: str) -> str:
    """An appositive as a subtitle: "a novel benchmark designed …" → "A benchmark designed …"."""
    desc = re.sub(r"^(an?|the)\s+(?:novel|new)\s+", r"\1 ", desc.strip(), flags=re.IGNORECASE)
    m = re.match(r"(an?)\s+(\w)", desc, flags=re.IGNORECASE)
    if m:
        vowel = m.group(2).lower() in "aeiou" and not re.match(r"(?i)u(?:ni|s[eu])|eu|one", desc[len(m.group(1)) + 1 :])
        article = "an" if vowel else "a"
        desc = article + desc[len(m.group(1)) :]
    return capitalize(desc)


def _with_head(expansion: str, head: str) -> str:
    if not head:
        return expansion
    return f"{expansion} {head.capitalize() if expansion[:1].isupper() else head}"


def _named(obj: str, strict: bool = True, plain: str = "") -> Named | None:
    """(name, expansion, description) when ``obj`` starts with a name; else None.

    ``strict`` (after "we propose") wants a capitalised name, or a coined lowercase word
    that recurs in ``plain`` ("\\projectname, a dataset ..."); after "called" any will do.
    """
    text = obj.strip()
    if text.startswith("the "):
        text = text[4:]
    first = text.split(" ", 1)[0].strip(",:;")
    if not first or first in _NOT_NAME or first[:1].isdigit():
        return None
    m = _NAME_END.match(text)
    if m is None:
        return None
    name = m.group("name").strip().rstrip(".!?")
    sep, rest = m.group("sep").strip(), text[m.end() :].lstrip()
    words, head = name.split(), ""
    if len(words) > 1 and words[-1] in _HEAD_NOUNS and _name_like(" ".join(words[:-1])):
        head, words = words[-1], words[:-1]
        name = " ".join(words)
    if not words or len(words) > 6:
        return None
    if sep == "(":
        inner, _, after = rest.partition(")")
        inner = inner.strip()
        follow = re.match(r"\s*(\w+)", after)
        if follow and follow.group(1) in _HEAD_NOUNS:
            head, after = follow.group(1), after[follow.end() :]
        if _is_acronym(inner, name):
            return inner, _with_head(_title_case(name), head), ""
        if len(words) == 1 and (_is_acronym(name, inner) or _loose_acronym(name, inner)):
            return name, _title_case(inner), ""
        rest, sep = after.lstrip(" ,"), ","
    if strict and not _name_like(name):
        coined = len(words) == 1 and sep == "," and plain.count(name) >= 2
        if not (coined and re.match(r"(?:an?|the)\s", rest)):
            return None
    if sep == ":":
        m2 = re.match(r"(?:an?\s+)?(?P<exp>(?:[A-Z][\w\-–]*\s*){2,8})", rest)
        if m2 and len(words) == 1 and _is_acronym(name, m2.group("exp")):
            return name, m2.group("exp").strip(), ""
        return name, "", _clean_desc(rest)
    if sep == "," and re.match(r"(?:an?|the)\s", rest):
        return name, "", _clean_desc(rest)
    if sep == "," and head and re.match(r"(?:which|that)\s", rest):
        clause = re.sub(r"^(?:which|that)\s+", "", rest)
        return name, "", _clean_desc(f"a {head} that {clause}")
    if strict and not _strong_name(name):
        return None
    return capitalize(name), "", ""


def _emphasised_expansion(segs: list[Segment], plain: str) -> Named | None:
    """``\\textit{Orthogonal Origin Parking} (OOPark)``: an emphasised expansion, then its acronym."""
    offset = 0
    for seg in segs:
        end = offset + len(seg.text)
        if (seg.bold or seg.italic) and len(seg.text.split()) >= 2:
            m = re.match(r"\s*\(([^()\s]{2,15})\)", plain[end : end + 20])
            if m and _is_acronym(m.group(1), seg.text):
                return m.group(1), seg.text.strip(), ""
        offset = end
    return None


def _bold_initials(segs: list[Segment]) -> tuple[str, str] | None:
    """("RACES", "Recursive Automated …") from ``\\textbf{R}ecursive \\textbf{A}utomated …``."""
    starts, offset = [], 0
    for seg in segs:
        starts.append(offset)
        offset += len(seg.text)
    plain = "".join(seg.text for seg in segs)
    for k, seg in enumerate(segs):
        if not (seg.bold and seg.text.isalpha() and len(seg.text) <= 5 and seg.text[0].isupper()):
            continue
        acronym, j, end = "", k, starts[k]
        while j + 1 < len(segs) and segs[j].bold and segs[j].text.isalpha():
            tail = re.match(r"[\w\-]+", segs[j + 1].text)
            if not tail:
                break
            acronym += segs[j].text
            end = starts[j + 1] + tail.end()
            rest = segs[j + 1].text[tail.end() :].strip()
            if rest not in ("", "for", "of", "via", "and", "in", "on", "with", "to"):
                break
            j += 2
        expansion = plain[starts[k] : end]
        if len(acronym) >= 2 and len(expansion.split()) >= 2:
            return acronym, expansion
    return None


def _called_desc(before: str, after: str) -> str:
    """ "Our model, dubbed Mosaic, composes tiles" → "A model that composes tiles"."""
    head = re.search(r"\b(?:[Oo]ur|[Aa]n?|[Tt]he)\s+((?:[\w\-]+\s+){0,3}[\w\-]+)\s*,?\s*$", before)
    if head is None:
        return ""
    after = after.strip().lstrip(",").strip().rstrip(".")
    if re.match(r"(?:for|of|on|in|with|via|to)\s", after):
        return _clean_desc(f"a {head.group(1)} {after}")
    if re.match(r"[a-z]+s\s", after):
        return _clean_desc(f"a {head.group(1)} that {after}")
    return _clean_desc(f"a {head.group(1)}")


def _named_title(sents: list[str], raw: str, plain: str) -> Named | None:
    found: list[tuple[int, int, Named]] = []
    patterns = ((0, _INTRO, True), (1, _CALLED, False), (1, _PARTICIPLE, True), (2, _RELEASE, True))
    for index, sentence in enumerate(sents):
        lowered = sentence.lower()
        for rank, pattern, strict in patterns:
            if not _CUES[pattern].search(lowered):
                continue
            for m in pattern.finditer(sentence):
                obj = m.group("obj")
                named, before = _named(obj, strict, plain), sentence[: m.start()]
                called = pattern is _CALLED
                if named is None and pattern is _INTRO and (inner := _CALLED.search(obj)):
                    named, before, obj = (
                        _named(inner.group("obj"), False),
                        obj[: inner.start()],
                        inner.group("obj"),
                    )
                    called = True
                if named is not None and called and not any(named[1:]):
                    named = (named[0], "", _called_desc(before, obj.partition(named[0])[2]))
                if named is not None:
                    found.append((rank, index, named))
                    break
    best = min(found, key=lambda item: item[:2])[2] if found else None
    if best is not None and best[1]:
        return best
    segs = segments(raw)
    initials = _bold_initials(segs)
    if initials:
        token = re.search(rf"\b({re.escape(initials[0])}\w*)", plain, flags=re.IGNORECASE)
        return (token.group(1) if token else initials[0]), initials[1], ""
    return best or _emphasised_expansion(segs, plain)


_OBJECT_END = re.compile(
    r"\s+(?:by|through|thereby)\s+\w+ing\b"  # "... by analyzing its dynamics"
    r"|,?\s+and\s+(?:then\s+)?(?:reveal|show|find|prove|demonstrate|propose|introduce|present|call)s?\b"
    r"|\s+to\s+(?:explain|address|bridge|close|fill|resolve|tackle|overcome|mitigate|answer)\b"
    r"|,\s+(?:working|leading|yielding|making|allowing|enabling)\b"  # ", working in ..."
    # "an information-geometric mechanism: after nuisance projection, ...": a clause follows
    r"|:\s+(?=(?:after|when|while|if|since|because|as|in|for|given|once|the|this|it|we)\s)"
)
_ASIDE = re.compile(
    r",\s+which\s[^,]{1,60},|\s+\([A-Z][A-Za-z0-9]{1,9}\)|\s+\((?:and|or)\s[^()]{1,30}\)"
)  # ", which underlies SI," "(VAW)"
_VAGUE_TAIL = re.compile(r"\s+(?:in|for|of|on|to|under)\s+(?:this|that|these|those|our)\s+\w+")


def _usable_object(obj: str, macros: frozenset[str] = frozenset()) -> str:
    """The object of "we study/propose ..." if it can stand as a title (not "this gap"):
    cut before "by analyzing ...", "and reveals ...", "to explain this gap"; "this issue of X"
    becomes "the issue of X"; an undefined macro's name before its appositive is dropped."""
    obj = obj.strip()
    first = obj.split(" ", 1)[0].strip(",").lower()
    if first in macros and re.match(r"\S+,\s+(?:an?|the)\s", obj):
        obj = obj.split(",", 1)[1].strip()
        first = obj.split(" ", 1)[0].lower()
    m = _OBJECT_END.search(obj)
    if m and m.start() > 0:
        obj = obj[: m.start()]
    if first in ("this", "these") and re.match(r"\S+\s+[\w\-]+(?:\s+[\w\-]+)?\s+of\s+\w", obj):
        obj = "the " + obj.split(" ", 1)[1]  # "this shrinkage issue of RLVR"
        first = "the"
    if first in _NOT_NAME - {"a", "an", "the", "new", "novel"} or first[:1].isdigit():
        return ""
    obj = _VAGUE_TAIL.sub("", obj)
    return _clean_desc(re.sub(r"^the problem of\s+", "", obj.strip()))


def _claim(sents: list[str]) -> str:
    """ "We show that X" → "X", when X does not lean on what came before ("this behavior")."""
    for sentence in sents:
        m = _CLAIM_RE.search(sentence)
        if m is None:
            continue
        obj = m.group("obj").strip()
        if obj.split(" ", 1)[0].lower() in _ANAPHORA or _VAGUE_TAIL.match(" " + obj):
            continue
        return capitalize(_ASIDE.sub("", _VAGUE_TAIL.sub("", obj)))
    return ""


def _contributions(sents: list[str], macros: frozenset[str] = frozenset()) -> Iterator[tuple[str, str]]:
    """(sentence, its contribution as a title) in the order the derived-title rule tries them."""
    searches = (
        (_STUDY_RE, sents[:1]),
        (_INTRO, sents),
        (_COORD_RE, sents),
        (_STUDY_RE, sents[:3]),
        (_RESULT_RE, sents[:3]),
    )
    for pattern, pool in searches:
        for sentence in pool:
            m = pattern.search(sentence)
            if m and (title := _usable_object(m.group("obj"), macros)):
                yield sentence, title


def _contribution(sents: list[str], macros: frozenset[str] = frozenset()) -> str:
    return next((title for _sentence, title in _contributions(sents, macros)), "")


def contribution_sentence(plain: str) -> str:
    """The sentence of a plain abstract that states its contribution, as the derived-title rule
    finds it ("We propose …", "This paper introduces …", "We show that …"), or ""."""
    sents = sentences(plain)
    for sentence, _title in _contributions(sents):
        return sentence
    for sentence in sents:
        if _CLAIM_RE.search(sentence):
            return sentence
    return ""


def _undefined_macros(raw: str, plain: str) -> frozenset[str]:
    """Names of macros the renderer does not know and shows as their name (``\\projectname``):
    a placeholder, never a method's name."""
    words = set(re.findall(r"\w+", plain.lower()))
    return frozenset(m.lower() for m in re.findall(r"\\([A-Za-z]+)", raw) if m.lower() in words)


def _first_sentence(sents: list[str]) -> str:
    return capitalize(_OPENERS.sub("", sents[0] if sents else ""))


def _compose(named: Named, sents: list[str], max_len: int, macros: frozenset[str] = frozenset()) -> str:
    name, expansion, desc = named
    if expansion:
        return fit(f"{name}: {expansion}", max_len)
    if len(name.split()) >= 3 or len(name) + 12 > max_len:
        return fit(name, max_len)
    tail = desc or _contribution(sents, macros) or _claim(sents) or _first_sentence(sents)
    if tail.lower().startswith(name.lower()):
        tail = capitalize(tail[len(name) :].lstrip(" ,:;(").rstrip(")"))
    if not tail:
        return fit(name, max_len)
    return f"{name}: " + fit(tail, max_len - len(name) - 2)


def derive_title(raw_abstract: str, max_len: int = 100) -> str:
    """A title for an abstract that has none: plain text, non-empty, at most ``max_len`` chars."""
    max_len = max(1, int(max_len))
    raw = raw_abstract if isinstance(raw_abstract, str) else str(raw_abstract or "")
    plain = to_plain(raw)
    if not plain:
        return fit("Untitled", max_len) if raw.strip() else ""
    macros = _undefined_macros(raw, plain)
    for macro in macros:  # "… for tool use. projectname is …": a sentence starts there too
        plain = re.sub(rf"([.!?]\s+){macro}\b", rf"\g<1>{macro.capitalize()}", plain)
    sents = sentences(plain)
    title = ""
    named = _named_title(sents, raw, plain)
    if named is not None and named[0].lower() not in macros:
        title = tidy_phrase(_compose(named, sents, max_len, macros))
    if not title:
        title = fit(_contribution(sents, macros), max_len)
    if not title and not _SELF.search(sents[0]):  # a background first sentence: a claim instead
        title = fit(_claim(sents), max_len)
    if not title:
        title = fit(_first_sentence(sents), max_len)
    title = tidy_phrase(title) if not title.endswith("…") else title
    return title[:max_len] or fit(plain, max_len) or plain[:max_len]
