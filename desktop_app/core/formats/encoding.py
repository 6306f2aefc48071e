"""Turn the bytes of an import file into text, saying how when it was not plain UTF-8.

Order of trust: a byte-order mark; UTF-16 without a byte-order mark (NUL bytes on every other
position: ASCII text in UTF-16 is also valid UTF-8, NULs and all, so this comes first); strict
UTF-8; UTF-8 with a few stray Windows-1252 bytes; finally charset-normalizer's candidates,
ranked by how consistently the decoded letters belong to one script. Every fallback yields a
warning.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from dataclasses import dataclass

import charset_normalizer

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32 LE"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32 BE"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16 LE"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16 BE"),
)

# Legacy encodings people really save bibliographies in, the most common first: the order
# breaks ties between equally plausible decodings. Exotic code pages (DOS, Johab, ...) that
# charset-normalizer may propose for short files are never chosen.
_PREFERRED = (
    "cp1252",
    "latin_1",
    "iso8859_15",
    "gbk",
    "gb18030",
    "gb2312",
    "big5",
    "big5hkscs",
    "shift_jis",
    "cp932",
    "euc_jp",
    "euc_kr",
    "cp949",
    "cp1251",
    "koi8_r",
    "koi8_u",
    "cp1250",
    "iso8859_2",
    "cp1253",
    "iso8859_7",
    "cp1254",
    "iso8859_9",
    "cp1257",
    "cp1255",
    "cp1256",
    "mac_roman",
    "cp874",
)
_LABELS = {
    "cp1252": "Windows-1252",
    "latin_1": "Latin-1",
    "gbk": "GBK",
    "gb18030": "GB18030",
    "gb2312": "GB2312",
    "big5": "Big5",
    "shift_jis": "Shift_JIS",
    "cp932": "Shift_JIS (cp932)",
    "euc_jp": "EUC-JP",
    "euc_kr": "EUC-KR",
    "cp949": "EUC-KR (cp949)",
    "cp1251": "Windows-1251",
    "koi8_r": "KOI8-R",
    "cp1250": "Windows-1250",
    "utf_16_le": "UTF-16 LE",
    "utf_16_be": "UTF-16 BE",
}
_SAMPLE = 256 * 1024  # bytes used to rank candidate encodings
_NON_ASCII = re.compile(rb"[\x80-\xff]")
_UTF16_SAMPLE = 4096  # bytes looked at to recognise UTF-16 without a byte-order mark
_UTF16_MIN_NUL = 0.2  # at least this share of characters are ASCII (a NUL high byte) ...
_UTF16_MAX_OTHER_NUL = 0.02  # ... and NULs on the other parity are this rare


@dataclass
class DecodedText:
    """Text decoded from a file, the codec used, and a warning when it was a guess."""

    text: str
    encoding: str
    warning: str | None = None


def encoding_label(codec: str) -> str:
    """Human name of a Python codec ("cp1252" -> "Windows-1252")."""
    key = codecs.lookup(codec).name.replace("-", "_")
    return _LABELS.get(key, codec.upper())


def _decode_with_bom(data: bytes) -> DecodedText | None:
    for bom, codec, label in _BOMS:
        if data.startswith(bom):
            body = data[len(bom) :]
            try:
                return DecodedText(body.decode(codec), label)
            except UnicodeDecodeError as exc:
                text = body.decode(codec, errors="replace")
                return DecodedText(
                    text,
                    label,
                    f"the file says {label} but byte {exc.start} is invalid; undecodable bytes were replaced",
                )
    return None


_STRAY = re.compile("[\udc80-\udcff]")


def _stray_byte_as_cp1252(match: re.Match[str]) -> str:
    byte = bytes([ord(match.group()) - 0xDC00])
    decoded = byte.decode("cp1252", errors="ignore")
    return decoded or byte.decode("latin-1")


def _mostly_utf8(data: bytes) -> DecodedText | None:
    """UTF-8 text with a few stray legacy bytes: keep the UTF-8, patch the strays."""
    escaped = data.decode("utf-8", errors="surrogateescape")
    strays = [m.start() for m in _STRAY.finditer(escaped)]
    non_ascii = len(escaped) - len(escaped.encode("ascii", errors="ignore"))
    valid_multibyte = non_ascii - len(strays)
    if valid_multibyte < 2 or len(strays) > valid_multibyte:
        return None
    text = _STRAY.sub(_stray_byte_as_cp1252, escaped)
    lines = sorted({escaped.count("\n", 0, offset) + 1 for offset in strays[:5]})
    where = ", ".join(str(n) for n in lines)
    return DecodedText(
        text,
        "UTF-8",
        f"not valid UTF-8: {len(strays)} stray byte(s) decoded as Windows-1252 (line {where})",
    )


def looks_like_utf16_without_bom(data: bytes) -> str | None:
    """Return "utf-16-le"/"utf-16-be" when the start of ``data`` reads as UTF-16 without a
    byte-order mark, otherwise None.

    The tell-tale is the NUL bytes: the high byte of every ASCII character (all the syntax of a
    bibliography) sits on one parity, odd for little-endian, even for big-endian, while text in
    any 8-bit encoding or UTF-8 holds no NUL at all. At least a fifth of the characters must be
    such ASCII ones (Chinese or Cyrillic text still has its markup in ASCII), the other parity
    must be almost free of NULs, and the sample must decode to text without control characters.
    """
    sample = data[:_UTF16_SAMPLE]
    sample = sample[: len(sample) - len(sample) % 2]
    if len(sample) < 4:
        return None
    even_nul = sample[0::2].count(0) * 2 / len(sample)
    odd_nul = sample[1::2].count(0) * 2 / len(sample)
    if odd_nul >= _UTF16_MIN_NUL and even_nul <= _UTF16_MAX_OTHER_NUL:
        codec = "utf-16-le"
    elif even_nul >= _UTF16_MIN_NUL and odd_nul <= _UTF16_MAX_OTHER_NUL:
        codec = "utf-16-be"
    else:
        return None
    return codec if _reads_as_text(sample, codec) else None


def _reads_as_text(sample: bytes, codec: str) -> bool:
    """True when ``sample`` decodes in ``codec`` to text with few control characters (a cut
    surrogate pair at the end of the sample is allowed)."""
    text = codecs.getincrementaldecoder(codec)(errors="replace").decode(sample, final=False)
    if text.count("\ufffd") > len(text) // 100:
        return False
    controls = sum(1 for ch in text if ord(ch) < 32 and ch not in "\t\n\r\f\x1a")
    return controls <= len(text) // 100


def _decode_utf16(data: bytes, codec: str) -> DecodedText:
    label = encoding_label(codec)
    try:
        return DecodedText(data.decode(codec), label, f"no byte-order mark: decoded as {label}")
    except UnicodeDecodeError as exc:
        text = data.decode(codec, errors="replace")
        return DecodedText(
            text,
            label,
            f"no byte-order mark: decoded as {label}, but byte {exc.start} is "
            "invalid (or the file ends in half a character); undecodable bytes were replaced",
        )


_SCRIPT_GROUPS = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "IDEOGRAPHIC": "CJK"}
# Always tried, in case charset-normalizer proposes nothing sensible for a short file.
_ALWAYS_TRY = ("cp1252", "cp1251", "koi8_r", "gbk", "big5", "shift_jis", "euc_kr")


def _plausibility(text: str) -> float:
    """How much decoded text looks like real writing: the share of non-ASCII letters in the
    most common script, minus a penalty for capitals inside lower-case words ("prÉsident")
    and for non-Latin letters glued to Latin ones ("gкњl"), the tell-tales of a wrong code
    page. 1.0 when there are no such letters."""
    counts: dict[str, int] = {}
    seen = odd = 0
    previous_lower = previous_ascii_letter = False
    for ch in text:
        if ord(ch) < 128 or not ch.isalpha():
            previous_lower = ch.isalpha() and ch.islower()
            previous_ascii_letter = ch.isalpha()
            continue
        script = unicodedata.name(ch, "UNKNOWN").split(" ")[0]
        script = _SCRIPT_GROUPS.get(script, script)
        counts[script] = counts.get(script, 0) + 1
        if (previous_lower and ch.isupper()) or (previous_ascii_letter and script != "LATIN"):
            odd += 1
        previous_lower = ch.islower()
        previous_ascii_letter = False
        seen += 1
        if seen >= 5000:
            break
    if not seen:
        return 1.0
    return max(counts.values()) / seen - odd / seen


def _non_ascii_sample(data: bytes) -> bytes:
    """The lines that hold non-ASCII bytes (up to about 256 KB): what tells encodings apart,
    even when the first megabytes of a file are plain ASCII."""
    pieces: list[bytes] = []
    size = pos = 0
    while size < _SAMPLE and (m := _NON_ASCII.search(data, pos)):
        start = data.rfind(b"\n", 0, m.start()) + 1  # a newline never ends a multibyte char
        end = data.find(b"\n", m.start())
        end = len(data) if end < 0 else end + 1
        pieces.append(data[start : min(end, start + _SAMPLE - size)])
        size += len(pieces[-1])
        pos = end
    return b"".join(pieces) or data[:_SAMPLE]


def _candidates(sample: bytes) -> dict[str, tuple[float, float]]:
    """codec -> (chaos, coherence) from charset-normalizer, aliases and fallbacks included."""
    found: dict[str, tuple[float, float]] = {}
    try:
        matches = list(charset_normalizer.from_bytes(sample))
    except Exception:  # noqa: BLE001 - a detector failure must not stop the import
        matches = []
    for match in matches:
        for codec in [match.encoding, *match.could_be_from_charset]:
            if codec not in found or match.chaos < found[codec][0]:
                found[codec] = (match.chaos, match.coherence)
    for codec in _ALWAYS_TRY:
        found.setdefault(codec, (0.5, 0.0))
    return {c: v for c, v in found.items() if c in _PREFERRED}


def _rank(data: bytes) -> list[str]:
    """Candidate codecs, most plausible first."""
    sample = _non_ascii_sample(data)
    scored = []
    for codec, (chaos, coherence) in _candidates(sample).items():
        try:
            text = codecs.getincrementaldecoder(codec)().decode(sample, final=False)
        except (UnicodeDecodeError, LookupError):
            continue
        plausibility = -round(_plausibility(text), 1)
        scored.append((plausibility, int(chaos * 5), -round(coherence, 1), _PREFERRED.index(codec), codec))
    scored.sort()
    return [codec for *_, codec in scored]


def _legacy(data: bytes) -> DecodedText:
    for codec in _rank(data):
        if codec == "gb18030":  # report the everyday name when GBK suffices
            try:
                return DecodedText(data.decode("gbk"), "GBK", "not UTF-8: decoded as GBK")
            except UnicodeDecodeError:
                pass
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        label = encoding_label(codec)
        return DecodedText(text, label, f"not UTF-8: decoded as {label}")
    text = data.decode("utf-8", errors="replace")
    return DecodedText(
        text, "UTF-8", "not UTF-8 and the encoding could not be recognised; undecodable bytes were replaced"
    )


def decode_bytes(data: bytes) -> DecodedText:
    """Decode an import file. Never raises; a guess is reported in ``warning``."""
    with_bom = _decode_with_bom(data)
    if with_bom is not None:
        return with_bom
    utf16 = looks_like_utf16_without_bom(data)
    if utf16:
        return _decode_utf16(data, utf16)
    try:
        return DecodedText(data.decode("utf-8"), "UTF-8")
    except UnicodeDecodeError:
        pass
    return _mostly_utf8(data) or _legacy(data)
